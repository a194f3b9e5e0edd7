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
import { redactShapes, replaceExact, TOKEN_CHAR, withEnvSnapshot, type Pattern } from '#src/diagnostics/shapes.ts';

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

/** What only recordings normalise (two recordings of the same behaviour should differ little). */
const RECORDING_PATTERNS: Pattern[] = [
  { name: 'timestamp', re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, placeholder: '<timestamp>' },
  { name: 'tmp', re: /\/(?:tmp|var\/folders\/[A-Za-z0-9_]+\/[A-Za-z0-9_]+\/T)\/[A-Za-z0-9._-]+/g, placeholder: '<tmp>' },
  // The mock's ephemeral port changes with every recording.
  { name: 'loopback-port', re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))(127\.0\.0\.1|localhost):\d{2,5}\b/g, placeholder: '$1:<port>' },
  // A temp folder's random suffix where a CLI folds the path into a name (`-tmp-routecert-probe-AbC123`).
  { name: 'tmp-slug', re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))(routecert-[a-z]+-)[A-Za-z0-9]{6}\b/g, placeholder: '$1<id>' },
];

const secretSources: (() => string[])[] = [];

/**
 * Hide from every output the exact values `source` returns (read on every call): the entry points
 * (src/index.ts, src/cli/main.ts) hand in the credential variables the routes declare
 * (src/probe/live.ts `liveSecrets`), which this base module cannot import.
 */
export function hideSecretsFrom(source: () => string[]): void {
  if (!secretSources.includes(source)) secretSources.push(source);
}

let sourceSnapshot: string[] | null = null;

function currentSecrets(): string[] {
  return sourceSnapshot ?? secretSources.flatMap((source) => source());
}

/**
 * Run `fn` (synchronous) with every secret source and the environment read once: for redacting
 * many strings of one value or report (src/report/bound.ts, {@link redactValue}), where reading
 * them per string costs seconds on a large report. Nested calls share the outer snapshot.
 */
export function withSecretsSnapshot<T>(fn: () => T): T {
  if (sourceSnapshot !== null) return fn();
  sourceSnapshot = secretSources.flatMap((source) => source());
  try {
    return withEnvSnapshot(fn);
  } finally {
    sourceSnapshot = null;
  }
}

function applyPatterns(text: string, patterns: readonly Pattern[]): string {
  let out = text;
  for (const { re, placeholder } of patterns) out = out.replace(re, placeholder);
  return out;
}

/**
 * The one redaction of output: every byte routecert writes (report files, case files, the console)
 * goes through it. Hides the credential values of this process's environment (see
 * src/diagnostics/shapes.ts `secretVariableValues` and the routes' credential variables), this user's home folder, and every shape of src/diagnostics/shapes.ts
 * `SECRET_PATTERNS`. Never throws; linear in the text for each pattern.
 *
 * @example
 * redactOutput('token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc at /home/ana:3') // 'token <redacted:jwt> at <home>:3'
 */
export function redactOutput(text: string, extraSecrets: readonly string[] = []): string {
  return redactShapes(text, extraSecrets.length ? [...extraSecrets, ...currentSecrets()] : currentSecrets());
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
  return withSecretsSnapshot(() => mapStrings(value, one) as T);
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

/** A partial line longer than this (characters) is written without waiting for its end. */
const LINE_HOLD_CAP = 64 * 1024;

/** A PEM private key's opening line: the key that follows spans lines, so it is held to its end. */
const PEM_BEGIN = /^-----BEGIN [A-Z ]*PRIVATE KEY-----/;
const PEM_END = /-----END [A-Z ]*PRIVATE KEY-----/;

/**
 * A line that ends with what introduces a secret on the next line (the shapes that may span a line
 * end: `Bearer`/`Basic` and their token, `aws_secret_access_key =` and its value, `session_id:`).
 */
const INTRODUCES_NEXT_LINE = /(?:\b(?:bearer|basic)|secret_?access_?key|SecretAccessKey|aws_secret|(?:session|conversation|thread)[_-]?id)(?:\\*["']|\s)*[:=]?\s*$/i;

/** Options of {@link redactedLines}. */
export interface RedactedLinesOptions {
  /**
   * A partial line (no line end yet: a dot reporter's dots, a progress line redrawn after `\r`) is
   * written after this many milliseconds without a write; @default 100. 0 holds it to the next
   * line end or {@link RedactedLines.flush}.
   */
  idleMs?: number;
}

/** A text sink that redacts whole lines: see {@link redactedLines}. */
export interface RedactedLines {
  /** Take `text`; whatever ends a line is redacted and passed on, the rest waits. Returns whether something was passed on. */
  write(text: string): boolean;
  /** Redact and pass on everything that waits (the end of output). */
  flush(): void;
}

/**
 * Redaction of a stream written in pieces (the console): the text is redacted a whole line at a
 * time ({@link redactOutput} of every line ended by `\n` or `\r`), so a secret written in two
 * pieces (a CLI's stderr echoed as it arrives, a reporter that writes a key and then its value) is
 * hidden as a whole. What is held back: the partial last line, and the lines of a secret that spans
 * lines (a PEM private key to its END line, up to 16 KiB; a line ending with `Bearer`, `Basic` or an
 * AWS secret's or session id's name). A partial line is passed on after `idleMs` without a write
 * (so dots and progress lines show), when it exceeds 64 KiB, and at {@link RedactedLines.flush}:
 * halves of a secret written further apart than `idleMs` on one line are redacted apart.
 */
export function redactedLines(sink: (text: string) => void, options: RedactedLinesOptions = {}): RedactedLines {
  const idleMs = options.idleMs ?? 100;
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const pass = (cut: number): boolean => {
    if (cut <= 0) return false;
    const text = pending.slice(0, cut);
    pending = pending.slice(cut);
    sink(redactOutput(text));
    return true;
  };
  /** Where the text that may be passed on ends, at most `cut`: before an open PEM key or a line that introduces a secret on the next. */
  const heldFrom = (cut: number): number => {
    const pem = pending.lastIndexOf('-----BEGIN ', cut - 1);
    if (pem >= 0 && PEM_BEGIN.test(pending.slice(pem, pem + 64)) && pending.length - pem < 16 * 1024) {
      // The key's END line must lie before the cut, else the cut would split the key.
      const end = PEM_END.exec(pending.slice(pem));
      if (end === null || pem + end.index + end[0].length > cut) cut = pem;
    }
    const lineStart = Math.max(pending.lastIndexOf('\n', cut - 2), pending.lastIndexOf('\r', cut - 2)) + 1;
    if (INTRODUCES_NEXT_LINE.test(pending.slice(lineStart, cut))) cut = lineStart;
    return cut;
  };
  const idle = (): void => {
    timer = undefined;
    pass(heldFrom(pending.length));
  };
  return {
    write(text) {
      pending += text;
      let passed = false;
      const end = Math.max(pending.lastIndexOf('\n'), pending.lastIndexOf('\r')) + 1;
      if (end > 0) passed = pass(heldFrom(end));
      if (pending.length > LINE_HOLD_CAP) passed = pass(pending.length) || passed;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (pending !== '' && idleMs > 0) {
        timer = setTimeout(idle, idleMs);
        timer.unref();
      }
      return passed;
    },
    flush() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pass(pending.length);
    },
  };
}

/** Characters redacted at a time by {@link redactInSlices} (1 Mi). */
export const REDACT_SLICE = 1 << 20;

/**
 * Characters on each side of a cut that {@link redactInSlices} checks: more than any secret shape
 * spans (a PEM key, 8 KiB and its lines) and than twice the longest exact secret.
 */
function cutMargin(): number {
  let margin = 16 * 1024;
  for (const secret of currentSecrets()) margin = Math.max(margin, 2 * secret.length + 1);
  return margin;
}

/**
 * Whether `text` may be redacted apart on either side of `cut`: the character before it is white
 * space (no token runs through it), and the `margin` characters around it redact the same together
 * as apart (no secret, exact value or home path is split by it).
 */
function cutHolds(text: string, cut: number, margin: number): boolean {
  if (!/\s/.test(text[cut - 1] ?? '')) return false;
  const left = text.slice(Math.max(0, cut - margin), cut);
  const right = text.slice(cut, cut + margin);
  return redactOutput(left + right) === redactOutput(left) + redactOutput(right);
}

/**
 * {@link redactOutput} of a long text (a `--full-values` answer of 240 MiB), a slice of about
 * {@link REDACT_SLICE} characters at a time, yielding to the event loop between slices so a signal
 * is handled while it runs. Each slice ends after white space where the text around the cut
 * redacts the same together as apart (`cutHolds`), so the result is that of redacting the whole;
 * a text with no such cut (one run of 240 MiB without white space) is redacted in one go.
 *
 * @returns the redacted text, or `null` as soon as `stop()` says so (between slices).
 */
export async function redactInSlices(text: string, stop: () => boolean = () => false): Promise<string | null> {
  const margin = cutMargin();
  const parts: string[] = [];
  let from = 0;
  while (text.length - from > 2 * REDACT_SLICE) {
    let cut = -1;
    // The first cut that holds after a slice's length (further when the text around it does not allow one).
    const ws = /\s/g;
    ws.lastIndex = from + REDACT_SLICE;
    for (let m = ws.exec(text); m !== null; m = ws.exec(text)) {
      if (cutHolds(text, m.index + 1, margin)) {
        cut = m.index + 1;
        break;
      }
      // Tried at one place: the next try a margin further, not at the next space.
      ws.lastIndex = m.index + margin;
    }
    if (cut < 0) break;
    parts.push(redactOutput(text.slice(from, cut)));
    from = cut;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (stop()) return null;
  }
  parts.push(redactOutput(text.slice(from)));
  return parts.join('');
}
