/**
 * The secret shapes hidden in every output (issue 23 point 1), with no dependency of their own, so
 * the lowest layers (the evidence clip of src/diagnostics) can redact a text before they cut it and
 * no cut leaves part of a secret. src/diagnostics/redact.ts `redactOutput` is the one redaction of
 * output; it adds the exact values of the credential variables the routes declare.
 *
 * Sources of the shapes: gitleaks' default rules (config/gitleaks.toml: aws-access-token,
 * slack-*-token, github-*, gcp-api-key, jwt, azure-ad-client-secret, private-key), AWS IAM
 * "Understanding unique ID prefixes" (AKIA/ASIA/...), GitHub "About authentication" token prefixes.
 */
import { homedir } from 'node:os';

export interface Pattern {
  name: string;
  re: RegExp;
  placeholder: string;
  /**
   * What every match holds (a literal, mostly): a text that `needs` does not match cannot match
   * `re`, so `re` is not run on it. Matching these costs a fraction of running the patterns
   * (their boundary look-behinds are tried at every character): prose of 240 MiB is redacted in
   * seconds, not minutes.
   */
  needs?: RegExp;
  /**
   * A match for which this returns true is left as it is: for a shape so generic that ordinary text
   * can take it (a 40-character file path is a "40 base64 characters" AWS secret).
   */
  spare?: (match: string) => boolean;
}

/*
 * Every pattern starts at a boundary that also counts a JSON escape as one: an envelope's stdout is
 * often JSON text inside a JSON string (`...\\nAKIA...`), where `\\b` would see `nAKIA` as one word.
 */

/** Characters a token is made of; a secret at the edge of a clipped text is cut back to the last other character. */
export const TOKEN_CHAR = /[A-Za-z0-9_\-.+/=~%]/;

/**
 * Whether a run of base64 characters reads as a file path rather than a random key: two `/` or more
 * and at least 45 % of its characters in runs of three lowercase letters or more (the words of
 * folder and file names). Measured on 2026-12-03 against the 40-character runs of 1,454 real paths
 * (`/usr`, this project, absolute and relative forms; all spared) and 200,000 random 40-character
 * base64 keys (88 spared, 0.044 %; a random key has few lowercase runs and one `/` in 64 characters).
 * The AWS documentation's example key and routecert's canary have 8 % of such characters.
 */
export function looksLikePath(run: string): boolean {
  let slashes = 0;
  for (let i = 0; i < run.length; i += 1) if (run.charCodeAt(i) === 0x2f) slashes += 1;
  if (slashes < 2) return false;
  let inWords = 0;
  for (const word of run.matchAll(/[a-z]{3,}/g)) inWords += word[0].length;
  return inWords >= 0.45 * run.length;
}

/**
 * The secret shapes hidden in every output. Order matters: specific shapes first, generic
 * `key=value` last (it must not swallow a placeholder: values starting with `<` are left alone).
 */
export const SECRET_PATTERNS: Pattern[] = [
  // PEM private keys (GCP service-account JSON holds one with `\n` escapes: matched in the raw string).
  { name: 'private-key', needs: /-----BEGIN /, re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]{0,8192}?-----END [A-Z ]*PRIVATE KEY-----/g, placeholder: '<redacted:private-key>' },
  { name: 'jwt', needs: /eyJ/, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g, placeholder: '<redacted:jwt>' },
  // Anthropic (sk-ant-api03-...), OpenAI (sk-..., sk-proj-..., sk-svcacct-...), DeepSeek-style keys.
  { name: 'api-key', needs: /sk-/, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))sk-[A-Za-z0-9_-]{8,}/g, placeholder: '<redacted:api-key>' },
  { name: 'xai-key', needs: /xai-/, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))xai-[A-Za-z0-9]{16,}/g, placeholder: '<redacted:api-key>' },
  { name: 'aws-access-key-id', needs: /A(?:KIA|SIA|BIA|CCA|GPA|IDA|ROA|IPA|NPA|NVA|PKA|3T)/, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA|A3T[A-Z0-9])[A-Z0-9]{16}\b/g, placeholder: '<redacted:aws-key-id>' },
  // The AWS secret access key: 40 base64 characters, after its name, or alone with upper, lower and digit.
  {
    name: 'aws-secret-named', needs: /secret|aws_secret/i,
    re: /((?:aws_?)?secret_?access_?key|SecretAccessKey|aws_secret)((?:\\*["']|\s)*[:=]\s*(?:\\*["'])?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
    placeholder: '$1$2<redacted:aws-secret>',
  },
  // A file path is spared (issue 24: the relative path `../../<folder>/ci1A/fixtures/cases/pi/json/fenced.json`
  // of a case was redacted in report.json when the clone's folder made its run 40 characters long).
  {
    name: 'aws-secret', needs: /[A-Za-z0-9/+]{40}/,
    re: /(?:(?<![A-Za-z0-9/+=\\])|(?<=\\[nrtbf]))(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[0-9])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    placeholder: '<redacted:aws-secret>',
    spare: looksLikePath,
  },
  { name: 'gcp-api-key', needs: /AIza/, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))AIza[0-9A-Za-z_-]{30,}/g, placeholder: '<redacted:api-key>' },
  { name: 'gcp-oauth', needs: /ya29\./, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))ya29\.[0-9A-Za-z_-]{10,}/g, placeholder: '<redacted:token>' },
  { name: 'gcp-client-secret', needs: /GOCSPX-/, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))GOCSPX-[0-9A-Za-z_-]{10,}/g, placeholder: '<redacted:secret>' },
  { name: 'gcp-private-key-id', needs: /private_key_id/, re: /(private_key_id(?:\\*["']|\s)*[:=]\s*(?:\\*["'])?)[0-9a-f]{40}/g, placeholder: '$1<redacted:id>' },
  // Azure: storage account keys and connection strings, SAS signatures, Entra client secrets (`...8Q~...`).
  { name: 'azure-account-key', needs: /AccountKey=|SharedAccessKey=/, re: /((?:AccountKey|SharedAccessKey)=)[A-Za-z0-9+/=]{20,}/g, placeholder: '$1<redacted:secret>' },
  { name: 'azure-sas', needs: /sig=/, re: /([?&]sig=)[A-Za-z0-9%+/=]{16,}/g, placeholder: '$1<redacted:secret>' },
  { name: 'azure-client-secret', needs: /\dQ~/, re: /(?:(?<![A-Za-z0-9_~.\\-])|(?<=\\[nrtbf]))[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g, placeholder: '<redacted:secret>' },
  { name: 'slack-token', needs: /xox[abposr]-/, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))xox[abposr]-[A-Za-z0-9-]{10,}/g, placeholder: '<redacted:token>' },
  { name: 'slack-app-token', needs: /xapp-/, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))xapp-\d-[A-Za-z0-9-]{10,}/g, placeholder: '<redacted:token>' },
  { name: 'slack-webhook', needs: /hooks\.slack\.com/, re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]+/g, placeholder: '<redacted:webhook>' },
  { name: 'github-token', needs: /gh[pousr]_/, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))gh[pousr]_[A-Za-z0-9]{20,}/g, placeholder: '<redacted:token>' },
  { name: 'github-pat', needs: /github_pat_/, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))github_pat_[A-Za-z0-9_]{20,}/g, placeholder: '<redacted:token>' },
  { name: 'bearer', needs: /bearer/i, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))(Bearer\s+)(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/gi, placeholder: '$1<redacted:token>' },
  { name: 'basic', needs: /Basic/, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))(Basic\s+)(?=[A-Za-z0-9+/]*[0-9+/=])[A-Za-z0-9+/]{8,}={0,2}/g, placeholder: '$1<redacted:token>' },
  // Organisation and account ids (OpenAI `org-...`/`user-...`, `acct_...`); Anthropic's are uuids (below).
  { name: 'org-id', needs: /(?:org|user|acct|account)[-_]/, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))(?:org|user|acct|account)[-_][A-Za-z0-9]{16,}\b/g, placeholder: '<redacted:id>' },
  // Session ids: UUIDs (Claude Code, Gemini, Qwen), `sess_...`, and whatever a session-id field holds.
  { name: 'session-prefixed', needs: /sess(?:ion)?_/, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))sess(?:ion)?_[A-Za-z0-9]{12,}\b/g, placeholder: '<session>' },
  { name: 'uuid', needs: /[0-9a-f]{8}-[0-9a-f]{4}-/i, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, placeholder: '<uuid>' },
  { name: 'session-field', needs: /(?:session|conversation|thread)[_-]?id/i, re: /((?:session|conversation|thread)[_-]?id(?:\\*["']|\s)*[:=]\s*(?:\\*["'])?)(?!<)[A-Za-z0-9._:-]{6,}/gi, placeholder: '$1<session>' },
  // Generic credentials written as name=value, name: value or "name": "value": any value (one
  // character or more, not a placeholder, an object, a boolean, null, a word that says there is no
  // value, or a count) after a name that holds `secret`, `token`, `api_key`/`apikey`,
  // `password`/`passwd`, `credential` or `private_key` (`aws_secret_access_key = <51 chars>`,
  // `AWS_SECRET_ACCESS_KEY=...`, `"client_secret": "..."`). A count is what the usage lines every
  // CLI prints hold (`tokens = 1532.`, `input tokens: 1.2k`, `output_tokens=31ms`, `tokens: 200/1000`,
  // `token_type: bearer`): digits with `,._/` and a unit; a value with any letter beside is hidden.
  // Prose is no value either (issue 23: a folder named `secret` printed `c/secret: <redacted:secret>
  // read this folder`): after `name: ` (a colon and a blank, no quote), a word of letters followed
  // by another word (`secret: cannot read this folder`), or one word that says what became of the
  // value (`password: required`, `token: expired`). A credential has no blank and mixes in digits or
  // symbols, is quoted, or follows `=`: each is still hidden.
  {
    name: 'named-credential', needs: /secret|token|api[_-]?key|apikey|passw(?:or)?d|credential|private[_-]?key/i,
    re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))([A-Za-z0-9_-]*(?:secret|token(?!izer)|api[_-]?key|apikey|passw(?:or)?d|credential|private[_-]?key)[A-Za-z0-9_-]*(?:\\*["']|[ \t])*[:=][ \t]*(?:\\*["'])?)(?![<\s"'\\{[])(?!(?:[-+~]?\d[\d,._/]*(?:[kmb]|ms|s|%)?|true|false|null|nil|none|n\/a|unknown|unset|undefined|empty|bearer|basic)[.:;!?]?(?![^\s"'\\,;&)}\]]))(?!(?<=:[ \t]+)(?:[a-z]{1,16}[ \t]+[a-z]{2,}\b|(?:required|expired|missing|invalid|revoked|denied|rejected|refused|unavailable|present|absent|provided|needed|incorrect|wrong|changed|updated|saved|removed|deleted|found|valid|set|rotated|configured|hidden|masked|redacted)[.;!?]?(?![^\s"'\\,;&)}\]])))(?=[^\s"'\\,;&)}\]]*[A-Za-z0-9])[^\s"'\\,;&)}\]]+/gi,
    placeholder: '$1<redacted:secret>',
  },
  { name: 'email', needs: /@/, re: /(?:(?<![A-Za-z0-9._%+\\-])|(?<=\\[nrtbf]))[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g, placeholder: '<email>' },
  // Home folders in every context: followed by `/`, `:`, `,`, `)`, a quote, a space or the end.
  // Slashes may be JSON-escaped (`\/home\/ana`: PHP's json_encode, some loggers), at any escaping depth.
  { name: 'home', needs: /\/(?:home|Users|root)/, re: /(?:(?<![>\w.~\\-])|(?<=\\[nrtbf]))(?:\\*\/home\\*\/[A-Za-z0-9._-]+|\\*\/Users\\*\/[A-Za-z0-9._-]+|\\*\/root|\\*\/var\\*\/root)(?![A-Za-z0-9._-])/g, placeholder: '<home>' },
  { name: 'windows-home', needs: /Users/, re: /(?:(?<![A-Za-z0-9_\\])|(?<=\\[nrtbf]))[A-Za-z]:(?:\\+|\/)Users(?:\\+|\/)[^\\/\s"':,;)]+/g, placeholder: '<home>' },
];

/** Names of environment variables whose values are hidden: `*KEY*`, `*TOKEN*`, `*SECRET*`, `*PASSWORD*`, `*CREDENTIAL*`, `*AUTH*`. */
const SECRET_VARIABLE = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;

/** The values (8 characters or longer, not a number or a boolean) of the variables of `env` named like a secret. */
export function secretVariableValues(env: NodeJS.ProcessEnv = process.env): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.length >= 8 && SECRET_VARIABLE.test(name) && !/^(?:true|false|\d+)$/i.test(value)) values.push(value);
  }
  return values;
}

let envSnapshot: string[] | null = null;

/**
 * Run `fn` (synchronous) with the secret-named variables read once, not once per string: a report of
 * 150,000 strings otherwise reads the whole environment 150,000 times (seconds). Nested calls share
 * the outer snapshot.
 */
export function withEnvSnapshot<T>(fn: () => T): T {
  if (envSnapshot !== null) return fn();
  envSnapshot = secretVariableValues();
  try {
    return fn();
  } finally {
    envSnapshot = null;
  }
}

/** Read on every call outside {@link withEnvSnapshot} (a variable set later is hidden too). */
function envSecrets(): string[] {
  return envSnapshot ?? secretVariableValues();
}

function ownHome(): string | null {
  const home = homedir().replace(/[\\/]+$/, '');
  // A home at the root or under /tmp is no person's (CI runners, this project's own throwaway HOMEs).
  return home.length > 1 && !/^\/(?:tmp|var\/tmp)(?:\/|$)/.test(home) ? home : null;
}

/** Replace each of `secrets` (4 characters or longer) by `<redacted:secret>`, longest first. */
export function replaceExact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join('<redacted:secret>');
  return out;
}

/**
 * Hide the values of secret-named variables of this environment and `extra`, this user's home
 * folder, and every shape of {@link SECRET_PATTERNS}. Never throws.
 */
export function redactShapes(text: string, extra: readonly string[] = []): string {
  let out = replaceExact(text, [...extra, ...envSecrets()]);
  const home = ownHome();
  if (home !== null && out.includes(home)) out = out.split(home).join('<home>');
  for (const { re, placeholder, needs, spare } of SECRET_PATTERNS) {
    if (needs !== undefined && !needs.test(out)) continue;
    out = spare === undefined ? out.replace(re, placeholder) : out.replace(re, (match: string) => (spare(match) ? match : placeholder));
  }
  return out;
}

/** Margin around a cut within which a text is redacted before it is cut (longer than any secret shape but a PEM key). */
const CUT_MARGIN = 4096;

/**
 * Redact the parts of `text` a clip keeps: its first `head` and last `tail` characters, each read
 * with {@link CUT_MARGIN} more, so a secret that straddles a cut is hidden before the cut. Returns
 * the redacted head window and tail window (the whole text redacted when it is short).
 */
export function redactWindows(text: string, head: number, tail: number): { whole: string | null; head: string; tail: string } {
  if (text.length <= head + tail + 2 * CUT_MARGIN) {
    const whole = redactShapes(text);
    return { whole, head: whole, tail: whole };
  }
  return { whole: null, head: redactShapes(text.slice(0, head + CUT_MARGIN)), tail: redactShapes(text.slice(text.length - tail - CUT_MARGIN)) };
}
