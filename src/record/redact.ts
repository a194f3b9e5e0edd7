/**
 * Redaction, one function for every byte that leaves routecert ({@link redactOutput}: case files,
 * every report format, the console) and, for recordings, a normalisation on top ({@link redact}).
 *
 * What is hidden everywhere (issue 23 point 1): the common secret shapes (JWT, AWS access key id and
 * secret key, GCP API keys, OAuth tokens and private keys, Azure keys and SAS signatures, Slack,
 * GitHub, OpenAI, Anthropic, xAI keys, generic bearer/basic tokens and `key=value` credentials),
 * e-mail addresses, home paths in every context (`/home/<u>`, `/Users/<u>`, `/root`, `C:\Users\<u>`,
 * this user's own home, followed by anything: `/`, `:`, `,`, `)`, a quote, the end), session ids
 * (UUIDs, `sess_...`, the value of a `session_id`/`sessionId` field) and the exact values of the
 * credential variables the routes declare (each route's `live.credential.from`, src/routes/<cli>/probe.ts)
 * and of environment variables named like a secret (`*KEY*`, `*TOKEN*`, `*SECRET*`, `*PASSWORD*`).
 *
 * Recordings also lose what differs between two recordings of the same behaviour (timestamps, temp
 * folders, the mock's port). Replacements never contain `"` or `\`, so a JSON string stays one; a
 * JSON document is redacted string by string ({@link redactValue}), never as text, because a pattern
 * could otherwise eat the letter of an escape (`\n` before an e-mail address).
 *
 * Sources of the shapes: gitleaks' default rules (config/gitleaks.toml: aws-access-token,
 * slack-*-token, github-*, gcp-api-key, jwt, azure-ad-client-secret, private-key), AWS IAM
 * "Understanding unique ID prefixes" (AKIA/ASIA/...), GitHub "About authentication" token prefixes.
 */
import { homedir } from 'node:os';
import { liveSecrets } from '#src/probe/live.ts';

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

interface Pattern {
  name: string;
  re: RegExp;
  placeholder: string;
}

/** Characters a token is made of; a secret at the edge of a clipped text is cut back to the last other character. */
const TOKEN_CHAR = /[A-Za-z0-9_\-.+/=~%]/;

/**
 * The secret shapes hidden in every output. Order matters: specific shapes first, generic
 * `key=value` last (it must not swallow a placeholder: values starting with `<` are left alone).
 */
const SECRET_PATTERNS: Pattern[] = [
  // PEM private keys (GCP service-account JSON holds one with `\n` escapes: matched in the raw string).
  { name: 'private-key', re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]{0,8192}?-----END [A-Z ]*PRIVATE KEY-----/g, placeholder: '<redacted:private-key>' },
  { name: 'jwt', re: /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g, placeholder: '<redacted:jwt>' },
  // Anthropic (sk-ant-api03-...), OpenAI (sk-..., sk-proj-..., sk-svcacct-...), DeepSeek-style keys.
  { name: 'api-key', re: /\bsk-[A-Za-z0-9_-]{8,}/g, placeholder: '<redacted:api-key>' },
  { name: 'xai-key', re: /\bxai-[A-Za-z0-9]{16,}/g, placeholder: '<redacted:api-key>' },
  { name: 'aws-access-key-id', re: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA|A3T[A-Z0-9])[A-Z0-9]{16}\b/g, placeholder: '<redacted:aws-key-id>' },
  // The AWS secret access key: 40 base64 characters, after its name, or alone with upper, lower and digit.
  {
    name: 'aws-secret-named',
    re: /((?:aws_?)?secret_?access_?key|SecretAccessKey|aws_secret)(["'\s]*[:=]\s*["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
    placeholder: '$1$2<redacted:aws-secret>',
  },
  { name: 'aws-secret', re: /(?<![A-Za-z0-9/+=])(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[0-9])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g, placeholder: '<redacted:aws-secret>' },
  { name: 'gcp-api-key', re: /\bAIza[0-9A-Za-z_-]{30,}/g, placeholder: '<redacted:api-key>' },
  { name: 'gcp-oauth', re: /\bya29\.[0-9A-Za-z_-]{10,}/g, placeholder: '<redacted:token>' },
  { name: 'gcp-client-secret', re: /\bGOCSPX-[0-9A-Za-z_-]{10,}/g, placeholder: '<redacted:secret>' },
  { name: 'gcp-private-key-id', re: /(private_key_id["'\s]*[:=]\s*["']?)[0-9a-f]{40}/g, placeholder: '$1<redacted:id>' },
  // Azure: storage account keys and connection strings, SAS signatures, Entra client secrets (`...8Q~...`).
  { name: 'azure-account-key', re: /((?:AccountKey|SharedAccessKey)=)[A-Za-z0-9+/=]{20,}/g, placeholder: '$1<redacted:secret>' },
  { name: 'azure-sas', re: /([?&]sig=)[A-Za-z0-9%+/=]{16,}/g, placeholder: '$1<redacted:secret>' },
  { name: 'azure-client-secret', re: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g, placeholder: '<redacted:secret>' },
  { name: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, placeholder: '<redacted:token>' },
  { name: 'slack-app-token', re: /\bxapp-\d-[A-Za-z0-9-]{10,}/g, placeholder: '<redacted:token>' },
  { name: 'slack-webhook', re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]+/g, placeholder: '<redacted:webhook>' },
  { name: 'github-token', re: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, placeholder: '<redacted:token>' },
  { name: 'github-pat', re: /\bgithub_pat_[A-Za-z0-9_]{20,}/g, placeholder: '<redacted:token>' },
  { name: 'bearer', re: /\b(Bearer\s+)(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/gi, placeholder: '$1<redacted:token>' },
  { name: 'basic', re: /\b(Basic\s+)(?=[A-Za-z0-9+/]*[0-9+/=])[A-Za-z0-9+/]{8,}={0,2}/g, placeholder: '$1<redacted:token>' },
  // Organisation and account ids (OpenAI `org-...`/`user-...`, `acct_...`); Anthropic's are uuids (below).
  { name: 'org-id', re: /\b(?:org|user|acct|account)[-_][A-Za-z0-9]{16,}\b/g, placeholder: '<redacted:id>' },
  // Session ids: UUIDs (Claude Code, Gemini, Qwen), `sess_...`, and whatever a session-id field holds.
  { name: 'session-prefixed', re: /\bsess(?:ion)?_[A-Za-z0-9]{12,}\b/g, placeholder: '<session>' },
  { name: 'uuid', re: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, placeholder: '<uuid>' },
  { name: 'session-field', re: /((?:session|conversation|thread)[_-]?id["'\s]*[:=]\s*["']?)(?!<)[A-Za-z0-9._:-]{6,}/gi, placeholder: '$1<session>' },
  // Generic credentials written as name=value or "name": "value".
  {
    name: 'named-credential',
    re: /\b((?:api[_-]?key|apikey|x-api-key|access[_-]?token|refresh[_-]?token|auth[_-]?token|client[_-]?secret|secret[_-]?key|password|passwd|private[_-]?token)["'\s]*[:=]\s*["']?)(?![<\s"'])(?=[^\s"',;&)}\]]*[A-Za-z0-9])[^\s"',;&)}\]]{8,}/gi,
    placeholder: '$1<redacted:secret>',
  },
  { name: 'email', re: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g, placeholder: '<email>' },
  // Home folders in every context: followed by `/`, `:`, `,`, `)`, a quote, a space or the end.
  { name: 'home', re: /(?<![>\w.~-])(?:\/home\/[A-Za-z0-9._-]+|\/Users\/[A-Za-z0-9._-]+|\/root|\/var\/root)(?![A-Za-z0-9._-])/g, placeholder: '<home>' },
  { name: 'windows-home', re: /\b[A-Za-z]:(?:\\\\|\\|\/)Users(?:\\\\|\\|\/)[^\\/\s"':,;)]+/g, placeholder: '<home>' },
];

/** What only recordings normalise (two recordings of the same behaviour should differ little). */
const RECORDING_PATTERNS: Pattern[] = [
  { name: 'timestamp', re: /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, placeholder: '<timestamp>' },
  { name: 'tmp', re: /\/(?:tmp|var\/folders\/[A-Za-z0-9_]+\/[A-Za-z0-9_]+\/T)\/[A-Za-z0-9._-]+/g, placeholder: '<tmp>' },
  // The mock's ephemeral port changes with every recording.
  { name: 'loopback-port', re: /\b(127\.0\.0\.1|localhost):\d{2,5}\b/g, placeholder: '$1:<port>' },
  // A temp folder's random suffix where a CLI folds the path into a name (`-tmp-routecert-probe-AbC123`).
  { name: 'tmp-slug', re: /\b(routecert-[a-z]+-)[A-Za-z0-9]{6}\b/g, placeholder: '$1<id>' },
];

/** Names of environment variables whose values are hidden besides the routes' credential variables. */
const SECRET_VARIABLE = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;

/**
 * The exact values hidden in every output: each route's declared credential variables
 * (src/probe/live.ts {@link liveSecrets}) and every variable of `env` named like a secret, 8
 * characters or longer; longest first.
 */
export function outputSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  const values = new Set(liveSecrets(env));
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.length >= 8 && SECRET_VARIABLE.test(name) && !/^(?:true|false|\d+)$/i.test(value)) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

let cachedSecrets: { env: NodeJS.ProcessEnv; values: string[] } | undefined;

function currentSecrets(): string[] {
  if (!cachedSecrets || cachedSecrets.env !== process.env) cachedSecrets = { env: process.env, values: outputSecrets() };
  return cachedSecrets.values;
}

function ownHome(): string | null {
  const home = homedir().replace(/[\\/]+$/, '');
  // A home at the root or under /tmp is no person's (CI runners, this project's own throwaway HOMEs).
  return home.length > 1 && !/^\/(?:tmp|var\/tmp)(?:\/|$)/.test(home) ? home : null;
}

function applyPatterns(text: string, patterns: readonly Pattern[]): string {
  let out = text;
  for (const { re, placeholder } of patterns) out = out.replace(re, placeholder);
  return out;
}

function replaceExact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join('<redacted:secret>');
  return out;
}

/**
 * The one redaction of output: every byte routecert writes (report files, case files, the console)
 * goes through it. Hides the credential values of this process's environment (see
 * {@link outputSecrets}), this user's home folder, and every shape of {@link SECRET_PATTERNS}.
 * Never throws; linear in the text for each pattern.
 *
 * @example
 * redactOutput('token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc at /home/ana:3') // 'token <redacted:jwt> at <home>:3'
 */
export function redactOutput(text: string, extraSecrets: readonly string[] = []): string {
  let out = replaceExact(text, extraSecrets.length ? [...extraSecrets, ...currentSecrets()] : currentSecrets());
  const home = ownHome();
  if (home !== null && out.includes(home)) out = out.split(home).join('<home>');
  return applyPatterns(out, SECRET_PATTERNS);
}

/**
 * Redact one text for a recording. Order: the caller's secrets, the caller's paths (longest first),
 * the recording's normalisation (timestamps, temp folders, ports), then {@link redactOutput}.
 *
 * @example
 * redact('key sk-ant-api03-abcdefgh in /home/ana/x', {}) // 'key <redacted:api-key> in <home>/x'
 */
export function redact(text: string, options: RedactOptions = {}): string {
  let out = replaceExact(text, options.secrets ?? []);
  const paths = [...(options.paths ?? [])].filter((p) => p.path.length > 1).sort((a, b) => b.path.length - a.path.length);
  for (const p of paths) out = out.split(p.path).join(p.placeholder);
  out = applyPatterns(out, RECORDING_PATTERNS);
  return redactOutput(out);
}

/**
 * Redact every string inside a JSON-like value (object keys included), returning a new value.
 * With `options`, each string goes through {@link redact} (recordings); without, through
 * {@link redactOutput}. Iterative: a deeply nested value cannot overflow the stack.
 */
export function redactValue<T>(value: T, options?: RedactOptions): T {
  const one = options === undefined ? (s: string) => redactOutput(s) : (s: string) => redact(s, options);
  return mapStrings(value, one) as T;
}

/** A copy of `value` with `f` applied to every string (keys too); iterative, any depth. */
export function mapStrings(value: unknown, f: (s: string) => string): unknown {
  const convert = (v: unknown): unknown => (typeof v === 'string' ? f(v) : v);
  if (typeof value !== 'object' || value === null) return convert(value);
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: { from: unknown; to: unknown }[] = [{ from: value, to: root }];
  while (stack.length > 0) {
    const { from, to } = stack.pop()!;
    const entries: [string | number, unknown][] = Array.isArray(from) ? from.map((v, i) => [i, v]) : Object.entries(from as object);
    for (const [k, v] of entries) {
      let out: unknown = convert(v);
      if (typeof v === 'object' && v !== null) {
        if (typeof (v as { toJSON?: unknown }).toJSON === 'function') out = convert((v as { toJSON: () => unknown }).toJSON());
        else {
          out = Array.isArray(v) ? [] : {};
          stack.push({ from: v, to: out });
        }
      }
      if (Array.isArray(to)) (to as unknown[])[k as number] = out;
      else (to as Record<string, unknown>)[typeof k === 'string' ? f(k) : String(k)] = out;
    }
  }
  return root;
}

/**
 * Cut `text` to `head` characters at the start and `tail` at the end (when longer than both), so
 * no secret is left half-visible at a cut: a run of token characters touching a cut is dropped.
 * `text` is `head…tail` (unchanged when short enough); `head` and `tail` are the kept parts.
 */
export function clipForOutput(text: string, head: number, tail: number): { text: string; head: string; tail: string; clipped: boolean } {
  if (text.length <= head + tail) return { text, head: text, tail: '', clipped: false };
  let h = head;
  while (h > 0 && TOKEN_CHAR.test(text[h - 1]!) && TOKEN_CHAR.test(text[h]!)) h -= 1;
  let t = text.length - tail;
  while (t < text.length && TOKEN_CHAR.test(text[t]!) && TOKEN_CHAR.test(text[t - 1]!)) t += 1;
  const kept = { head: text.slice(0, h), tail: text.slice(t) };
  return { text: `${kept.head}…${kept.tail}`, ...kept, clipped: true };
}
