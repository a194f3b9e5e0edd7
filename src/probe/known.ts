/**
 * The CLIs routecert knows: npm package, binary name, routes, and whether it can probe them
 * hermetically here. Facts from shared/research/cli-envelopes.md section 1 (2026-11-30); a CLI is
 * `hermetic: 'yes'` only once routecert has a provider mock and a probe for it.
 */

/** One known CLI. `hermetic`: `yes` (probed here), `planned` (a mock is possible, not built yet), `no`. */
export interface KnownCli {
  name: string;
  bin: string;
  npmPackage: string | null;
  routes: string[];
  hermetic: 'yes' | 'planned' | 'no';
  note: string;
}

/** Every CLI routecert knows, in the order `routecert probe --list` prints them. */
export const KNOWN_CLIS: readonly KnownCli[] = [
  { name: 'claude', bin: 'claude', npmPackage: '@anthropic-ai/claude-code', routes: ['claude-code/json', 'claude-code/stream-json'], hermetic: 'yes', note: 'Anthropic Messages mock (SSE), ANTHROPIC_BASE_URL' },
  { name: 'codex', bin: 'codex', npmPackage: '@openai/codex', routes: ['codex/jsonl'], hermetic: 'yes', note: 'OpenAI Responses mock (SSE, strict text.format enforced), custom model_provider in CODEX_HOME/config.toml' },
  { name: 'qwen', bin: 'qwen', npmPackage: '@qwen-code/qwen-code', routes: ['qwen-code/json', 'qwen-code/stream-json'], hermetic: 'yes', note: 'Chat Completions mock (SSE), structured_output tool, OPENAI_BASE_URL + ~/.qwen/settings.json' },
  { name: 'gemini', bin: 'gemini', npmPackage: '@google/gemini-cli', routes: ['gemini-cli/json', 'gemini-cli/stream-json'], hermetic: 'yes', note: 'Gemini API mock (streamGenerateContent SSE), GOOGLE_GEMINI_BASE_URL + API-key settings; no schema flag (schema in the prompt)' },
  { name: 'opencode', bin: 'opencode', npmPackage: 'opencode-ai', routes: ['opencode/jsonl'], hermetic: 'yes', note: 'Chat Completions mock (SSE), OPENCODE_CONFIG_CONTENT openai-compatible provider; schema in the prompt' },
  { name: 'copilot', bin: 'copilot', npmPackage: '@github/copilot', routes: ['copilot/json'], hermetic: 'yes', note: 'Chat Completions mock (SSE), BYOK COPILOT_PROVIDER_BASE_URL + COPILOT_OFFLINE; schema in the prompt' },
  { name: 'pi', bin: 'pi', npmPackage: '@mariozechner/pi-coding-agent', routes: ['pi/json'], hermetic: 'yes', note: 'Chat Completions mock (SSE), ~/.pi/agent/models.json baseUrl; schema in the prompt' },
  { name: 'grok-cli', bin: 'grok', npmPackage: '@vibe-kit/grok-cli', routes: ['grok-cli/jsonl'], hermetic: 'yes', note: 'non-streaming Chat Completions mock, GROK_BASE_URL; no schema flag (schema in the prompt); `grok --version` says 1.0.1 for 0.0.34' },
  { name: 'grok (xAI)', bin: 'grok', npmPackage: null, routes: ['grok/json', 'grok/streaming-json', 'grok/streaming-messages-json'], hermetic: 'no', note: 'installed by its own script (x.ai); documented cases only' },
  { name: 'cursor-agent', bin: 'cursor-agent', npmPackage: null, routes: ['cursor-agent/json', 'cursor-agent/stream-json'], hermetic: 'no', note: 'proprietary backend; documented cases only' },
  { name: 'amp', bin: 'amp', npmPackage: '@sourcegraph/amp', routes: ['amp/stream-json'], hermetic: 'no', note: 'Amp service brokers model calls (AMP_URL); documented cases only' },
];
