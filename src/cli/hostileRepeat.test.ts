/**
 * Issue 23's hostile experiments repeated (session 4, hfix), each as a user meets it: routecert
 * spawned on a case folder or with an environment, and what it prints and writes read back.
 * - a case file with a member name twice (`expect`, or any object of the case's own JSON) is a
 *   fault of that case naming the object, the key and the line; the same text inside an envelope
 *   string is not;
 * - summary.md and junit.xml carry no raw control character of a case description;
 * - an invalid numeric variable (`ROUTECERT_CAPTURE_BYTES`, `_MAX_SCHEMA_MB`, `_CONFIG_TIMEOUT_MS`,
 *   `_NUM_RUNS`, `_SEED`) is exit 2 naming the variable and what it takes;
 * - a folder named `secret` is named whole in a fault, not redacted as if a credential followed it.
 */
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseId } from '#src/record/caseId.ts';
import { FINDINGS_CASE, onlyRun, routecert, tempRoot } from './cliTestKit.ts';

let root: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  root = await tempRoot('hostile-repeat');
});
afterAll(async () => {
  if (!process.env.KEEP) await root.remove();
});

/** The populated findings case, its id recomputed, as pretty JSON text (for hand edits of the text). */
async function findingsCaseText(edit: (c: Record<string, unknown>) => void = () => {}): Promise<string> {
  const c = JSON.parse(await readFile(FINDINGS_CASE, 'utf8')) as Record<string, unknown>;
  edit(c);
  c.id = caseId(c as Parameters<typeof caseId>[0]);
  return JSON.stringify(c, null, 2);
}

async function put(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

const RUN = ['run', '--no-probes', '--no-certify', '--cases', 'cases', '--reports', 'reports'];

describe('a member name twice in a case file is a fault of that case', () => {
  it('run: `expect` twice, and a key twice in provenance, each named with its object, key and line; an envelope holding a key twice is judged as before', async () => {
    const dir = path.join(root.dir, 'duplicates');
    const text = await findingsCaseText();
    // A second `expect` after the first: JSON.parse keeps this one (retry), a reader sees the first.
    const twiceExpect = text.replace(/\n {2}"expect": /, '\n  "expect": {"verdict": "retry"},\n  "expect": ');
    expect(twiceExpect).not.toBe(text);
    await put(path.join(dir, 'cases', 'expect-twice.json'), twiceExpect);
    const twiceDeep = text.replace(/\n {2}"provenance": \{/, '\n  "provenance": {\n    "source": "a",');
    expect(twiceDeep).not.toBe(text);
    await put(path.join(dir, 'cases', 'deep-twice.json'), twiceDeep);
    // The envelope (a string) holding `"result"` twice is stdout text: the decoder's business, no fault of the case file.
    await put(
      path.join(dir, 'cases', 'envelope-twice.json'),
      await findingsCaseText((c) => {
        const a = (c.attempts as { stdout: string }[])[0]!;
        a.stdout = a.stdout.replace(/^\{/, '{"result":"a","result":"b",');
      }),
    );
    const r = await routecert(RUN, { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(2);
    // The second occurrence is named: the line after the one inserted.
    const expectLine = twiceExpect.split('\n').findIndex((l) => l.includes('"expect": {"verdict": "retry"}')) + 2;
    expect(r.stdout).toContain(`expect-twice.json (line ${expectLine}, column 3): key "expect" appears twice in the root object (JSON Pointer "")`);
    const sourceLine = twiceDeep.split('\n').findIndex((l) => l.includes('"source": "a",')) + 2;
    expect(r.stdout).toContain(`deep-twice.json (line ${sourceLine}, column 5): key "source" appears twice in the object at JSON Pointer "/provenance"`);
    // The third case runs and passes: its envelope is not looked into.
    expect(r.stdout).not.toContain('FAULT case-file cases/envelope-twice.json');
    expect(r.stdout).toContain('1 cases: 1 passed');
  }, 120_000);

  it('record --fix-ids leaves a case with a key twice as it is, named, exit 2', async () => {
    const dir = path.join(root.dir, 'fix-ids');
    const text = (await findingsCaseText()).replace(/\n {2}"expect": /, '\n  "expect": {"verdict": "retry"},\n  "expect": ');
    await put(path.join(dir, 'cases', 'twice.json'), text.replace(/"id": "[^"]*"/, '"id": "stale"'));
    const r = await routecert(['record', '--fix-ids', '--out', 'cases'], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/twice\.json line \d+, column 3: key "expect" appears twice in the root object .*; left as it is/);
    expect(await readFile(path.join(dir, 'cases', 'twice.json'), 'utf8')).toContain('"id": "stale"');
  }, 60_000);
});

describe('a variable that sets a limit refuses an invalid value', () => {
  it.each([
    { name: 'ROUTECERT_CAPTURE_BYTES', bad: ['abc', '0', '-5', '1.5'], good: '65536', says: 'is no byte count: it takes a whole number of bytes above 0' },
    { name: 'ROUTECERT_MAX_SCHEMA_MB', bad: ['abc', '0', '-1'], good: '0.5', says: 'is no size: it takes a number of MiB above 0' },
    // Once silently replaced by the default (hnew finding 6).
    { name: 'ROUTECERT_CONFIG_TIMEOUT_MS', bad: ['abc', '0', '1.5'], good: '30000', says: 'is no duration: it takes a whole number of milliseconds above 0' },
    { name: 'ROUTECERT_NUM_RUNS', bad: ['abc', '0'], good: '5', says: 'is no run count: it takes a whole number above 0' },
    { name: 'ROUTECERT_SEED', bad: ['abc', '1.5', '99999999999'], good: 'random', says: 'is no seed: it takes a 32-bit integer or "random"' },
  ])('$name: each invalid value is exit 2 naming the variable and what it takes, nothing run; a valid value runs', async ({ name, bad, good, says }) => {
    const dir = path.join(root.dir, `limit-${name}`);
    await put(path.join(dir, 'cases', 'one.json'), await findingsCaseText());
    for (const value of bad) {
      const r = await routecert(RUN, { cwd: dir, env: { [name]: value } });
      expect(r.exitCode, `${value}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`${name}="${value}" ${says}`);
      expect(r.stdout).toBe('');
    }
    const ok = await routecert(RUN, { cwd: dir, env: { [name]: good } });
    expect(ok.exitCode, ok.stderr).toBe(0);
  }, 120_000);

  it('ROUTECERT_SEED=abc on fuzz --config (the command that reads it) is a usage error, exit 2, not an "internal error ... please report it"', async () => {
    const dir = path.join(root.dir, 'seed-fuzz');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'answer.schema.json'), JSON.stringify({ type: 'object', additionalProperties: false, required: ['answer'], properties: { answer: { type: 'string' } } }), 'utf8');
    await writeFile(path.join(dir, 'routecert.config.json'), JSON.stringify({ contracts: [{ name: 'answer', schema: 'answer.schema.json', anchor: 'answer', finality: 'none', selection: 'score', clis: ['claude'] }] }), 'utf8');
    const r = await routecert(['fuzz', '--config', 'routecert.config.json', '--runs', '1'], { cwd: dir, env: { ROUTECERT_SEED: 'abc' } });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('ROUTECERT_SEED="abc" is no seed: it takes a 32-bit integer or "random"');
    expect(r.stderr).not.toContain('internal error');
    expect(r.stderr).not.toContain('please report it');
  }, 120_000);
});

describe('summary.md and junit.xml quote the control characters of a case description', () => {
  it('a failing case described with \\r, an OSC title, a CSI clear and a C1 character: summary.md shows them as \\xHH, junit.xml holds none XML 1.0 forbids', async () => {
    const dir = path.join(root.dir, 'controls');
    const hostile = 'looks fine\r\u001b]0;owned\u0007\u001b[2J\u009bPASS everything';
    await put(
      path.join(dir, 'cases', 'one.json'),
      await findingsCaseText((c) => {
        c.description = hostile;
        c.expect = { verdict: 'retry' };
      }),
    );
    const r = await routecert([...RUN, '--reporter', 'markdown', '--reporter', 'junit'], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(1);
    const { dir: run } = await onlyRun(path.join(dir, 'reports'));
    const md = await readFile(path.join(run, 'summary.md'), 'utf8');
    // eslint-disable-next-line no-control-regex -- the characters a terminal or renderer would act on
    expect(md).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
    expect(md).toContain('looks fine\\x0d\\x1b]0;owned\\x07\\x1b[2J\\x9bPASS everything');
    const xml = await readFile(path.join(run, 'junit.xml'), 'utf8');
    // eslint-disable-next-line no-control-regex -- XML 1.0 section 2.2 Char
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(xml).toContain('looks fine');
  }, 60_000);
});

describe('a folder named secret is no credential', () => {
  it('run: a link called `secret` that cannot be followed is named, the message whole, in the console and report.json', async () => {
    const dir = path.join(root.dir, 'secret-folder');
    await put(path.join(dir, 'cases', 'one.json'), await findingsCaseText());
    // A link to itself: ELOOP whoever runs the test (root reads any folder, so no chmod 000).
    await symlink('secret', path.join(dir, 'cases', 'secret'));
    const r = await routecert(RUN, { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stdout).toContain('cases/secret: a link that cannot be followed');
    expect(r.stdout).not.toContain('<redacted:secret>');
    const { report } = await onlyRun(path.join(dir, 'reports'));
    expect(report.faults.map((f) => `${f.file ?? ''}: ${f.message}`).join('\n')).toContain('cases/secret: a link that cannot be followed');
  }, 60_000);
});
