/**
 * Redaction of recorded envelopes before they become case files: secrets (API keys, bearer tokens,
 * any value the caller names), e-mail addresses, home and temp paths, UUIDs (session ids, message
 * uuids) and timestamps become placeholders, so a fixture never carries a credential, a person or a
 * machine path, and two recordings of the same behaviour differ as little as possible.
 *
 * Replacements never contain `"` or `\`, so JSON text stays JSON.
 */

/**
 * What to redact besides the built-in patterns:
 * - `secrets`: exact values to hide (the API key given to the CLI, tokens); replaced by `<redacted:secret>`;
 * - `paths`: folders to hide, each with its placeholder (e.g. `{ path: tmpHome, placeholder: '<tmp>' }`);
 *   longer paths are replaced first.
 */
export interface RedactOptions {
  secrets?: string[];
  paths?: { path: string; placeholder: string }[];
}

const PATTERNS: { name: string; re: RegExp; placeholder: string }[] = [
  // Anthropic / OpenAI style keys: sk-ant-..., sk-proj-..., sk-...
  { name: 'api-key', re: /\bsk-[A-Za-z0-9_-]{8,}/g, placeholder: '<redacted:api-key>' },
  { name: 'bearer', re: /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g, placeholder: '$1<redacted:token>' },
  { name: 'github-token', re: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, placeholder: '<redacted:token>' },
  { name: 'xai-key', re: /\bxai-[A-Za-z0-9]{16,}/g, placeholder: '<redacted:api-key>' },
  { name: 'google-key', re: /\bAIza[0-9A-Za-z_-]{30,}/g, placeholder: '<redacted:api-key>' },
  // Organisation and account ids (OpenAI `org-...`/`user-...`, `acct_...`); Anthropic's are uuids (below).
  { name: 'org-id', re: /\b(?:org|user|acct|account)[-_][A-Za-z0-9]{16,}\b/g, placeholder: '<redacted:id>' },
  { name: 'email', re: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g, placeholder: '<email>' },
  { name: 'uuid', re: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, placeholder: '<uuid>' },
  { name: 'timestamp', re: /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, placeholder: '<timestamp>' },
  { name: 'home', re: /(?<![>\w])(?:\/home\/[A-Za-z0-9._-]+|\/Users\/[A-Za-z0-9._-]+|\/root)(?=[/\s"'\\]|$)/g, placeholder: '<home>' },
  { name: 'tmp', re: /\/(?:tmp|var\/folders\/[A-Za-z0-9_]+\/[A-Za-z0-9_]+\/T)\/[A-Za-z0-9._-]+/g, placeholder: '<tmp>' },
  // The mock's ephemeral port changes with every recording.
  { name: 'loopback-port', re: /\b(127\.0\.0\.1|localhost):\d{2,5}\b/g, placeholder: '$1:<port>' },
  // A temp folder's random suffix where a CLI folds the path into a name (`-tmp-routecert-probe-AbC123`).
  { name: 'tmp-slug', re: /\b(routecert-[a-z]+-)[A-Za-z0-9]{6}\b/g, placeholder: '$1<id>' },
];

/**
 * Redact one text. Order: the caller's secrets, the caller's paths (longest first), then the
 * built-in patterns.
 *
 * @example
 * redact('key sk-ant-api03-abcdefgh in /home/ana/x', {}) // 'key <redacted:api-key> in <home>/x'
 */
export function redact(text: string, options: RedactOptions = {}): string {
  let out = text;
  for (const secret of options.secrets ?? []) {
    if (secret.length >= 4) out = out.split(secret).join('<redacted:secret>');
  }
  const paths = [...(options.paths ?? [])].filter((p) => p.path.length > 1).sort((a, b) => b.path.length - a.path.length);
  for (const p of paths) out = out.split(p.path).join(p.placeholder);
  for (const { re, placeholder } of PATTERNS) out = out.replace(re, placeholder);
  return out;
}

/** Redact every string inside a JSON-like value (object keys included), returning a new value. */
export function redactValue<T>(value: T, options: RedactOptions = {}): T {
  if (typeof value === 'string') return redact(value, options) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, options)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redact(k, options)] = redactValue(v, options);
    return out as T;
  }
  return value;
}
