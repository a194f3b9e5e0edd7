import { afterEach, describe, expect, it, vi } from 'vitest';
import { clipForOutput, redact, REDACT_SLICE, redactedLines, redactInSlices, redactOutput, redactValue } from './redact.ts';
import { CANARIES as SHAPES, CANARY_CREDENTIAL_VAR, canaryText, leakedMarkers, LOOKALIKES } from '#src/record/canaries.ts';
import { SECRET_PATTERNS, type Pattern } from './shapes.ts';

// Machine-like paths, spelled in pieces so the repository holds no literal path of a machine.
const ROOT_HOME = ['', 'root'].join('/');
const TMP = ['', 'tmp'].join('/');

// Canary secrets: none of these may survive redaction.
const CANARIES = {
  anthropic: 'sk-ant-api03-CANARYabcdefghijklmnop',
  openai: 'sk-proj-CANARY1234567890abcdef',
  bearer: 'Bearer eyJhbGciOiJIUzI1NiJ9.CANARY.sig',
  github: 'ghp_CANARYabcdefghijklmnopqrstuvwxyz01',
  email: 'ana.canary@example.com',
  given: 'my-own-CANARY-token',
};

describe('redact', () => {
  it('removes every canary secret, e-mail, uuid, timestamp, home and temp path', () => {
    const text = [
      `key=${CANARIES.anthropic}`,
      `openai=${CANARIES.openai}`,
      `auth: ${CANARIES.bearer}`,
      `gh=${CANARIES.github}`,
      `from ${CANARIES.email}`,
      `custom ${CANARIES.given}`,
      'session 3f2b8c1e-1d2a-4e5f-9a8b-7c6d5e4f3a2b at 2026-11-30T04:21:10.123Z',
      `cwd /home/ana/project and ${ROOT_HOME}/.claude and ${TMP}/routecert-abc123/work`,
    ].join('\n');
    const out = redact(text, { secrets: [CANARIES.given] });
    expect(out).not.toMatch(/CANARY/);
    expect(out).not.toContain('ana.canary');
    expect(out).not.toContain('3f2b8c1e');
    expect(out).not.toContain('2026-11-30T04');
    expect(out).not.toContain('/home/ana');
    expect(out).not.toContain('/root');
    expect(out).not.toContain('/tmp/routecert-abc123');
    expect(out).toContain('<redacted:api-key>');
    expect(out).toContain('<email>');
    expect(out).toContain('<uuid>');
    expect(out).toContain('<timestamp>');
    expect(out).toContain('<home>/project');
    expect(out).toContain('<tmp>/work');
  });

  it('replaces caller-named paths, longest first', () => {
    const out = redact('cd /x/tmp-home/cwd && ls /x/tmp-home', {
      paths: [
        { path: '/x/tmp-home', placeholder: '<home>' },
        { path: '/x/tmp-home/cwd', placeholder: '<cwd>' },
      ],
    });
    expect(out).toBe('cd <cwd> && ls <home>');
  });

  it('keeps JSON text parseable', () => {
    const json = JSON.stringify({ session_id: '3f2b8c1e-1d2a-4e5f-9a8b-7c6d5e4f3a2b', cwd: '/home/ana/p', key: CANARIES.anthropic });
    const out = redact(json);
    expect(JSON.parse(out)).toEqual({ session_id: '<uuid>', cwd: '<home>/p', key: '<redacted:api-key>' });
  });

  it('redacts keys and values of nested values', () => {
    expect(redactValue({ [CANARIES.email]: [CANARIES.openai] })).toEqual({ '<email>': ['<redacted:api-key>'] });
  });
});

describe('redact: paths inside temp folders', () => {
  it('does not take a /home segment inside a redacted temp path for a home folder', () => {
    expect(redact(`${TMP}/routecert-probe-AbC123/home/.claude/x`)).toBe('<tmp>/home/.claude/x');
  });

  it('hides the random suffix of a temp folder folded into a name', () => {
    expect(redact('projects/-tmp-routecert-probe-AbC123-work')).toBe('projects/-tmp-routecert-probe-<id>-work');
  });
});

describe('redact: loopback ports', () => {
  it('replaces the mock port, which changes with every recording', () => {
    expect(redact('check your inference gateway (127.0.0.1:35377).')).toBe('check your inference gateway (127.0.0.1:<port>).');
  });
});

describe('redactOutput: every canary shape, in every context', () => {
  it('hides each canary alone, in prose, and inside JSON text held in a JSON string (an envelope in a case file)', () => {
    const saved = process.env[CANARY_CREDENTIAL_VAR];
    process.env[CANARY_CREDENTIAL_VAR] = SHAPES.credential;
    try {
      for (const [shape, canary] of Object.entries(SHAPES)) expect(leakedMarkers(redactOutput(canary)), shape).toEqual([]);
      expect(leakedMarkers(redactOutput(canaryText()))).toEqual([]);
      // stdout is JSON text; the case file holds it as a string: escapes (\n, \") sit next to secrets.
      const inner = JSON.stringify({ title: canaryText(), list: Object.values(SHAPES) });
      const redacted = redactValue({ stdout: inner, stderr: canaryText() });
      expect(leakedMarkers(JSON.stringify(redacted))).toEqual([]);
      expect(Object.keys(JSON.parse(redacted.stdout) as object)).toEqual(['title', 'list']);
    } finally {
      if (saved === undefined) delete process.env[CANARY_CREDENTIAL_VAR];
      else process.env[CANARY_CREDENTIAL_VAR] = saved;
    }
  });

  it('bites: a canary outside every shape and every credential variable is left as it is', () => {
    expect(redactOutput('plain-CNRY-value')).toBe('plain-CNRY-value');
  });

  it('leaves ordinary prose alone (no digits after Bearer, words after Basic, counts of tokens)', () => {
    const prose = 'Bearer authentication is used; Basic validation passes; input_tokens: 12345678; see /home/ folder';
    expect(redactOutput(prose)).toBe(prose);
  });

  it('a home path followed by any character is hidden: / : , ) quote end', () => {
    const user = ['', 'home', 'ana'].join('/');
    for (const after of ['/x', ':3', ',', ')', '"', "'", ' ', '']) expect(redactOutput(`(${user}${after}`)).toBe(`(<home>${after}`);
  });

  it('clipForOutput never leaves part of a secret at a cut', () => {
    const text = `${'a '.repeat(50)}${SHAPES.gcpApiKey} ${'b '.repeat(50)}`;
    const cut = clipForOutput(text, 100 + 10, 20);
    expect(cut.clipped).toBe(true);
    expect(cut.text).not.toContain('AIza');
  });
});

describe('redactOutput: any value after a secret-named key (issue 21, hcheck canary2)', () => {
  const aws = ['hcheckSecretAccessKey', '0123456789+abcdefghijklmnopqrs'].join('/'); // 51 characters
  it.each([
    [`aws_secret_access_key = ${aws}`, aws],
    ['AWS_SECRET_ACCESS_KEY=abc12', 'abc12'],
    ['"client_secret": "shorty"', 'shorty'],
    ['password: hunter2', 'hunter2'],
    ['MY_SERVICE_TOKEN=tok3', 'tok3'],
    ['{"openai_api_key":"k9"}', 'k9'],
    ['db_passwd=p4ss', 'p4ss'],
  ])('hides the value in %s whatever its length', (text, value) => {
    const out = redactOutput(text);
    expect(out).not.toContain(value);
    expect(out).toContain('<redacted:');
  });
  it.each(['"output_tokens":12345678', '"tokens":{"input":1}', 'max_tokens: 4096', '"api_key": null', 'The tokens are counted.', '"is_secret": false'])('leaves %s alone (numbers, booleans, null, objects, prose)', (text) => {
    expect(redactOutput(text)).toBe(text);
  });
  // The usage lines CLIs print (issue 23, h23r): counts with a unit, a range, a sentence's full stop.
  it.each([...LOOKALIKES, 'total tokens: 12k; cost $0.01', 'tokens: 1_532', '"tokens": "1532"', 'tokens: none', '"token_type": "Bearer"'])('leaves the usage look-alike %s alone', (text) => {
    expect(redactOutput(text)).toBe(text);
  });
  it.each([
    ['token: 1a2b3c4d', '1a2b3c4d'],
    ['token=1532abc.', '1532abc'],
    ['password: 12ab.', '12ab'],
    ['api_key: 42x', '42x'],
    ['secret=none-of-your-business', 'none-of-your-business'],
    ['access_token: bearer-7f3a', 'bearer-7f3a'],
  ])('still hides a value with a letter beside its digits or words: %s', (text, value) => {
    expect(redactOutput(text)).not.toContain(value);
  });
});

describe('redactOutput: a file path is no unnamed AWS secret (issue 24: a CI clone\'s report lost a case\'s file)', () => {
  // Relative paths whose run of base64 characters is 40 long, with upper case, lower case and a digit:
  // the first is the form of the path a case of the bundled corpus had in report.json of a CI clone (its folder
  // `ci1A`), which read `../..<redacted:aws-secret>.json`.
  it.each([
    '../../data/ci1A/fixtures/cases/pi/json/fenced.json',
    'file: /srv/Buil2/fixtures/cases/pi/json/fenced.json',
    'include/llvm-14/llvm/DebugInfo/PDB/Native/SymbolCache.h',
    'at /usr/share/perl5/X11/Protocol/Ext/RENDER.pm line 3',
  ])('leaves %s alone', (text) => {
    expect(text.match(/[A-Za-z0-9/+]{40,}/)?.[0]).toHaveLength(40);
    expect(redactOutput(text)).toBe(text);
  });
  // Keys stay hidden, slashes and all: the AWS documentation's example, routecert's canary, and keys
  // with two slashes in random places.
  it.each(['wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', SHAPES.awsSecret, 'q8Zr/Tm0xWv3Kb+Yp1Lc/9HnAaEe7Ud2sGfJiOo4', '/Kp3xVr8ZqT1mWn0bYc5/LdHs9JeUa2fGiQo7RtE'])('still hides the key %s', (key) => {
    expect(key).toHaveLength(40);
    expect(redactOutput(`key ${key} here`)).toBe('key <redacted:aws-secret> here');
  });
});

describe('the patterns\' quick checks (needs)', () => {
  // A `needs` that a match can lack would skip its pattern and leak: every canary, alone, in JSON
  // and in JSON inside JSON, is checked against every pattern that matches it.
  const texts = Object.values(SHAPES).flatMap((c) => [c, JSON.stringify(c), JSON.stringify(JSON.stringify(`x ${c} y`))]);
  const missed = (p: Pattern): string[] => texts.filter((t) => new RegExp(p.re.source, p.re.flags).test(t) && p.needs !== undefined && !p.needs.test(t));
  it.each(SECRET_PATTERNS.map((p) => [p.name, p] as const))('%s: every canary it matches passes its needs', (_name, p) => {
    expect(missed(p)).toEqual([]);
  });
  it('bites: a needs the jwt canary lacks is caught', () => {
    const jwt = SECRET_PATTERNS.find((p) => p.name === 'jwt')!;
    expect(missed({ ...jwt, needs: /eyK/ }).length).toBeGreaterThan(0);
  });
});

describe('redactedLines: the console redacted a whole line at a time (issue 23, h23r)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const collect = (idleMs = 0) => {
    const out: string[] = [];
    return { out, lines: redactedLines((t) => out.push(t), { idleMs }) };
  };

  it('a canary of every shape split in two writes at every offset is hidden as a whole', () => {
    for (const canary of Object.values(SHAPES)) {
      const line = `said ${canary} here\n`;
      for (let at = 1; at < line.length - 1; at += 1) {
        const { out, lines } = collect();
        lines.write(line.slice(0, at));
        lines.write(line.slice(at));
        lines.flush();
        expect(out.join(''), `${canary} split at ${at}`).toBe(redactOutput(line));
      }
    }
  });

  it('bites: redacting each write alone lets a split canary through', () => {
    const line = `said ${SHAPES.github} here\n`;
    const at = line.indexOf('CNRY');
    expect(redactOutput(line.slice(0, at)) + redactOutput(line.slice(at))).toContain('CNRY');
  });

  it('a PEM key written a line at a time, and a Bearer token on the line after its scheme, are held until whole', () => {
    const { out, lines } = collect();
    for (const l of `${SHAPES.privateKey}\nAuthorization: Bearer\n  CNRYopaque0token9value\ndone\n`.split(/(?<=\n)/)) lines.write(l);
    lines.flush();
    expect(leakedMarkers(out.join(''))).toEqual([]);
    expect(out.join('')).toContain('done\n');
  });

  it('a whole line is passed on at once; a partial line after `idleMs` without a write, or at flush', () => {
    vi.useFakeTimers();
    const { out, lines } = collect(100);
    lines.write('12 cases\n3/12');
    expect(out).toEqual(['12 cases\n']);
    vi.advanceTimersByTime(99);
    expect(out).toEqual(['12 cases\n']);
    vi.advanceTimersByTime(1);
    expect(out).toEqual(['12 cases\n', '3/12']);
    lines.write('\r\u001b[K4/12');
    lines.flush();
    expect(out.join('')).toBe('12 cases\n3/12\r\u001b[K4/12');
  });
});

describe('redactInSlices: a long text redacted a slice at a time (issue 23 experiment 3g)', () => {
  // Prose with every canary placed again and again, some across where slices would end (the
  // credential is hidden by its variable's value only).
  const canaries = Object.entries(SHAPES).filter(([k]) => k !== 'credential').map(([, v]) => v);
  const line = 'the quick brown fox jumps over 13 lazy dogs; tokens = 1532.\n';
  const parts: string[] = [];
  for (let i = 0, size = 0; size < 5 * REDACT_SLICE; i += 1) {
    const part = i % 97 === 0 ? `${canaries[i % canaries.length]} ` : line;
    parts.push(part);
    size += part.length;
  }
  const text = parts.join('');

  it('gives what redacting the whole gives, and yields between slices', async () => {
    let asked = 0;
    const out = await redactInSlices(text, () => {
      asked += 1;
      return false;
    });
    expect(out).toBe(redactOutput(text));
    expect(leakedMarkers(out!)).toEqual([]);
    expect(asked).toBeGreaterThanOrEqual(2);
  });

  it('a canary with white space in it where a slice would end is hidden whole', async () => {
    // A canary with white space in it, starting just before a slice's length: the first white space
    // after that length is inside the canary, where no cut may fall.
    for (const canary of [SHAPES.privateKey, SHAPES.awsSecretNamed, SHAPES.bearer, SHAPES.basic]) {
      const t = `${'x'.repeat(REDACT_SLICE - 3)} ${canary} ${'y'.repeat(2 * REDACT_SLICE)} end`;
      const out = await redactInSlices(t);
      expect(leakedMarkers(out!), canary).toEqual([]);
      expect(out).toBe(redactOutput(t));
    }
  });

  it('stops between slices when asked: null', async () => {
    expect(await redactInSlices(text, () => true)).toBeNull();
  });
});
