/**
 * Canary secrets, one of each shape routecert redacts (src/diagnostics/redact.ts), for the tests that
 * prove no output of routecert carries one. Each is assembled from pieces, so this repository holds
 * no literal that a secret scanner would flag, and each carries a marker (`CNRY`, `canaryuser`) so a
 * leak of any part of it is found by a plain search.
 */
const j = (...parts: string[]): string => parts.join('');

/** The canaries by shape; `credential` is only hidden as the exact value of a credential variable. */
export const CANARIES = {
  jwt: j('eyJ', 'hbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiJDTlJZIn0', '.', 'CNRYc2lnbmF0dXJlX3Rlc3Q'),
  awsKeyId: j('AKIA', 'CNRY', '7EXAMPLE1234'),
  awsSecret: j('wJalrXUtnFEMI', '/K7MDENG/', 'CNRYbPxRfiCYEXAMPL'),
  gcpApiKey: j('AIza', 'SyCNRY', '0123456789abcdefghijklmnopq'),
  gcpOauth: j('ya29', '.', 'a0CNRYtoken', '1234567890abcdef'),
  azureAccountKey: j('DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=', 'CNRY', 'q1w2e3r4t5y6u7i8o9p0asdfghjklzxcvbnm', '=='),
  azureClientSecret: j('abc', '8Q~', 'CNRYabcdefghijklmnopqrstuvwxyz01'),
  slack: j('xox', 'b-', '123456789012-', 'CNRYabcdefghijkl'),
  github: j('gh', 'p_', 'CNRY', 'abcdefghijklmnopqrstuvwxyz0123'),
  openai: j('sk-', 'proj-', 'CNRY', 'abcdefghijklmnop0123'),
  anthropic: j('sk-', 'ant-api03-', 'CNRY', 'abcdefghijklmnop-0123'),
  bearer: j('Bearer ', 'CNRY', 'opaque0token9value'),
  email: j('ana.', 'cnry', '@example.com'),
  homeColon: j('/home/', 'canaryuser', ':12'),
  homeComma: j('/home/', 'canaryuser', ','),
  homeParen: j('(/home/', 'canaryuser', ')'),
  homeMac: j('/Users/', 'canaryuser', '/project'),
  session: j('sess_', 'CNRY', '0123456789abcdef'),
  sessionField: j('"session_id":"', 'CNRY', 'session-77aa"'),
  uuid: j('3f2b8c1e', '-1d2a-4e5f-9a8b-', '7c6d5e4f3a2b'),
  credential: j('plain-', 'CNRY', '-credential-value'),
  // More of each listed shape, in the contexts a CLI or a worker prints them (issue 23, repeated).
  gcpClientSecret: j('GOCSPX-', 'CNRY', 'abcdefghij12'),
  azureSas: j('https://acct.blob.core.windows.net/c?sv=2022&sig=', 'CNRY', 'abcdefghijkl%2B012345'),
  xai: j('xai-', 'CNRY', 'abcdefghijklmnop0123'),
  slackWebhook: j('https://hooks.slack.com/services/T000/B000/', 'CNRY', 'xyz'),
  githubPat: j('github_pat_', 'CNRY', '11ABCDEFGHIJKLMNOPQRSTUV'),
  privateKey: j('-----BEGIN RSA PRIVATE KEY-----\nMIIE', 'CNRY', 'pAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----'),
  basic: j('Authorization: Basic ', 'Q05SWTp', 'wYXNzd29yZA=='),
  awsSecretNamed: j('aws_secret_access_key = ', 'CNRY', 'abcdefghijklmnopqrstuvwxyz0123456789'),
  homeEnd: j('cwd is /home/', 'canaryuser'),
  homeQuoted: j('"/home/', 'canaryuser', '"'),
  homeBracket: j('[/home/', 'canaryuser', '];'),
  // JSON with escaped slashes (PHP's json_encode, some loggers): `\/home\/<user>`.
  homeEscaped: j('{"cwd":"\\/home\\/', 'canaryuser', '\\/proj"}'),
  homeWindows: j('C:\\Users\\', 'canaryuser', '\\proj'),
  homeWindowsSlash: j('C:/Users/', 'canaryuser', '/proj'),
  emailAngle: j('<ana.', 'cnry', '@example.co.uk>'),
  mailto: j('mailto:bob', 'cnry', '@corp.example.org'),
  sessionCamel: j('"sessionId": "', 'CNRY', 'abc-123"'),
  apiKeyHeader: j('x-api-key: ', 'CNRY', 'opaque99'),
  tokenQuery: j('https://x.example/cb?access_token=', 'CNRY', 'tok99&x=1'),
} as const;

/** The marker strings: none may appear in anything routecert writes. */
export const CANARY_MARKERS = ['CNRY', 'cnry', 'canaryuser', '3f2b8c1e', 'Q05SWT'] as const;

/** Every canary in one text (each on its own line, and a few inside JSON-ish and prose contexts). */
export function canaryText(): string {
  return [
    ...Object.values(CANARIES),
    `see ${CANARIES.homeColon} and ${CANARIES.homeComma} also ${CANARIES.homeParen}`,
    `Authorization: ${CANARIES.bearer}`,
    `mail ${CANARIES.email}, key=${CANARIES.credential}`,
  ].join('\n');
}

/**
 * Texts that look like a credential and are none: the usage lines every CLI prints (counts of
 * tokens with a unit, a range, a sentence's full stop), words that say there is no value, a token
 * type. Redaction must leave each as it is (issue 23, h23r: `tokens = 1532.` was hidden).
 */
export const LOOKALIKES = [
  'tokens = 1532.',
  'input tokens: 200, output tokens: 31.',
  'Tokens: 1,532 in / 31 out',
  'tokens: 1.2k',
  'output_tokens=31ms',
  'tokens=~1532',
  'tokens: 200/1000 (20%)',
  'tokens: n/a',
  'token_type: bearer',
  'tokenizer: cl100k_base',
  'usage.output_tokens = 5: the model answered',
  'max_tokens: 4096; stop',
  // Prose after a name (issue 23: a folder named `secret` that could not be read).
  'cases/secret: cannot read this folder',
  'secret: a link that cannot be followed',
  'password: required',
  'token: expired.',
] as const;

/** The credential variable a test sets to {@link CANARIES.credential} (a route declares it: claude's `live.credential.from`). */
export const CANARY_CREDENTIAL_VAR = 'ANTHROPIC_API_KEY';

/** The markers found in `text` (empty when none leaked). */
export function leakedMarkers(text: string): string[] {
  return CANARY_MARKERS.filter((m) => text.includes(m));
}
