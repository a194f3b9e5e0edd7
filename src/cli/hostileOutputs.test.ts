/**
 * Issue 23 repeated as a hostile user would (the experiments of its first half, on more inputs than
 * it lists): routecert spawned as a user runs it, on hostile CLIs, workers, reporters, schemas and
 * answers; every file it writes and everything it prints searched for canaries. Each test proves
 * one fix; the sizes are injected (ROUTECERT_CAPTURE_BYTES, ROUTECERT_MAX_SCHEMA_MB) so no test
 * writes gigabytes.
 */
import { chmod, cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { CANARIES, CANARY_CREDENTIAL_VAR, canaryText } from '#src/record/canaries.ts';
import { caseId } from '#src/record/caseId.ts';
import { canaryLeaks, filesUnder, FINDINGS_CASE, onlyRun, routecert, tempRoot } from './cliTestKit.ts';

/** No canary (nor any marker of one) in any of `texts`. */
const expectNoCanary = (texts: { file: string; text: string }[]): void => expect(canaryLeaks(texts)).toEqual([]);

let root: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  root = await tempRoot('hostile-outputs');
});
afterAll(async () => {
  await root.remove();
});

const CANARY_ENV = { [CANARY_CREDENTIAL_VAR]: CANARIES.credential };



describe('redaction reaches every output (issue 23 point 1, repeated)', () => {
  it('a CLI given with --bin that prints canaries on stdout, stderr and --version: probe, probe --json and record hold none', async () => {
    const dir = path.join(root.dir, 'bin-canaries');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'canaries.txt'), canaryText());
    const answer = { type: 'result', subtype: 'success', is_error: false, result: canaryText(), session_id: CANARIES.uuid, structured_output: { notes: canaryText() } };
    await writeFile(path.join(dir, 'answer.json'), `${JSON.stringify(answer)}\n`);
    const fake = path.join(dir, 'fake-claude.sh');
    await writeFile(fake, `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code) ${CANARIES.homeColon} ${CANARIES.github}"; exit 0; fi\ncat > /dev/null\ncat '${dir}/canaries.txt' >&2\ncat '${dir}/answer.json'\n`);
    await chmod(fake, 0o755);
    const outputs: { file: string; text: string }[] = [];
    for (const args of [['probe', '--cli', 'claude'], ['probe', '--cli', 'claude', '--json'], ['record', '--cli', 'claude', '--scenario', 'final', '--out', 'recorded']]) {
      const r = await routecert([...args, '--bin', `claude=${fake}`, '--probe-timeout', '30000'], { cwd: dir, env: CANARY_ENV });
      expect(r.stdout + r.stderr, args.join(' ')).toMatch(/claude/);
      outputs.push({ file: `${args.join(' ')} stdout`, text: r.stdout }, { file: `${args.join(' ')} stderr`, text: r.stderr });
    }
    const recorded = await filesUnder(path.join(dir, 'recorded'));
    expect(recorded.length).toBeGreaterThan(0);
    expectNoCanary([...outputs, ...recorded]);
  }, 180_000);
});

describe('reporters never take the others down (issue 23 point 2, repeated)', () => {
  const reporterCase = async (dir: string): Promise<void> => {
    await mkdir(path.join(dir, 'cases'), { recursive: true });
    await cp(FINDINGS_CASE, path.join(dir, 'cases', 'one.json'));
  };

  it('a reporter that throws a value that cannot be shown (Object.create(null)) and one that empties the report are named faults; json and junit are still written, whole', async () => {
    const dir = path.join(root.dir, 'null-reporter');
    await reporterCase(dir);
    await writeFile(path.join(dir, 'null.mjs'), "export default { name: 'nullish', onRunEnd() { throw Object.create(null); } };\n");
    // Experiment 2g: a reporter that changes the report it is handed must not change what the reporters after it write.
    await writeFile(path.join(dir, 'emptier.mjs'), "export default { name: 'emptier', onCaseResult(c) { c.verdict = null; }, onRunEnd(r) { r.cases.length = 0; r.summary.total = 0; } };\n");
    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', 'cases', '--reports', 'reports', '--reporter', './null.mjs', '--reporter', './emptier.mjs', '--reporter', 'json', '--reporter', 'junit'], { cwd: dir });
    expect(r.stderr).toMatch(/the nullish reporter failed: a value that cannot be shown \(\[object Object\]\)/);
    expect(r.stderr).toMatch(/the emptier reporter failed: .*read[- ]only|the emptier reporter failed: .*(frozen|not extensible|Cannot assign)/);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.exitCode).toBe(3);
    const { dir: run, report } = await onlyRun(path.join(dir, 'reports'));
    expect((await readdir(run)).sort()).toEqual(['junit.xml', 'report.json']);
    expect(report.summary.total).toBe(1);
    expect(report.cases).toHaveLength(1);
    expect(report.cases[0]!.verdict).not.toBeNull();
    expect(await readFile(path.join(run, 'junit.xml'), 'utf8')).toMatch(/tests="1"/);
  });

  it('a reporter class whose constructor throws is a usage error naming the module, not an internal error', async () => {
    const dir = path.join(root.dir, 'ctor-reporter');
    await reporterCase(dir);
    await writeFile(path.join(dir, 'ctor.mjs'), "export default class Broken { constructor() { throw new Error('no webhook configured'); } }\n");
    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', 'cases', '--reports', 'reports', '--reporter', './ctor.mjs'], { cwd: dir });
    expect(r.stderr).toMatch(/--reporter \.\/ctor\.mjs: its default export threw when making the reporter \(.*ctor\.mjs\): no webhook configured/);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.exitCode).toBe(2);
  });

  it('an error nothing catches (a reporter timer that throws) is printed redacted, in one line, exit 3', async () => {
    const dir = path.join(root.dir, 'uncaught-reporter');
    await reporterCase(dir);
    await writeFile(path.join(dir, 'late.mjs'), `export default { name: 'late', onRunStart() { setTimeout(() => { throw new Error(${JSON.stringify(`late ${CANARIES.awsKeyId} at ${CANARIES.homeColon}`)}); }, 0); } };\n`);
    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', 'cases', '--reports', 'reports', '--reporter', './late.mjs', '--reporter', 'json'], { cwd: dir });
    expect(r.stderr).toMatch(/\[routecert\] internal error \(uncaught\): late <redacted:aws-key-id> at <home>:12/);
    expect(r.exitCode).toBe(3);
    expectNoCanary([{ file: 'stderr', text: r.stderr }, { file: 'stdout', text: r.stdout }]);
  });

  it('--full-values on a 200,000-deep answer: every report is written and report.json stays linear in the answer (indentation stops at 64 levels)', async () => {
    const dir = path.join(root.dir, 'deeper');
    const c = JSON.parse(await readFile(FINDINGS_CASE, 'utf8')) as { id: string; attempts: { stdout: string }[]; expect: unknown };
    const envelope = JSON.parse(c.attempts[0]!.stdout) as { structured_output: Record<string, unknown> };
    envelope.structured_output.deep = 'DEEP';
    c.expect = { verdict: 'accepted', origin: 'structured_output' };
    // Built as text: JSON.stringify cannot nest 200,000 deep.
    c.attempts[0]!.stdout = JSON.stringify(envelope).replace('"DEEP"', `${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    c.id = caseId(c as unknown as Parameters<typeof caseId>[0]);
    await mkdir(path.join(dir, 'cases'), { recursive: true });
    await writeFile(path.join(dir, 'cases', 'deeper.json'), JSON.stringify(c));
    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', 'cases', '--reports', 'reports', '--full-values'], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    const { dir: run } = await onlyRun(path.join(dir, 'reports'));
    expect((await readdir(run)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    const text = await readFile(path.join(run, 'report.json'), 'utf8');
    expect(text.length).toBeGreaterThan(400_000);
    expect(text.length).toBeLessThan(2 ** 20);
  }, 120_000);

  it('--full-values keeps a string of 1.5 Mi quotes whole: report.json is written in slices and reads back equal', async () => {
    const dir = path.join(root.dir, 'quotes');
    const c = JSON.parse(await readFile(FINDINGS_CASE, 'utf8')) as { id: string; attempts: { stdout: string }[]; expect: unknown };
    const envelope = JSON.parse(c.attempts[0]!.stdout) as { structured_output: Record<string, unknown> };
    const quotes = '"'.repeat(1.5 * 2 ** 20);
    envelope.structured_output.notes = quotes;
    c.expect = { verdict: 'accepted', origin: 'structured_output' };
    c.attempts[0]!.stdout = JSON.stringify(envelope);
    c.id = caseId(c as unknown as Parameters<typeof caseId>[0]);
    await mkdir(path.join(dir, 'cases'), { recursive: true });
    await writeFile(path.join(dir, 'cases', 'quotes.json'), JSON.stringify(c));
    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', 'cases', '--reports', 'reports', '--reporter', 'json', '--full-values'], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    const { report } = await onlyRun(path.join(dir, 'reports'));
    expect((report.cases[0]!.verdict as { value: { notes: string } }).value.notes).toBe(quotes);
  });
});

describe('output volume and schema size (issue 23 point 3, repeated)', () => {
  it('a worker whose stderr is over the cap: the certificate says the output was cut, no canary at the cut or elsewhere, temp folders gone', async () => {
    const dir = path.join(root.dir, 'loud-worker');
    await mkdir(dir, { recursive: true });
    await cp(projectPath('examples/bash-worker/peer-worker.sh'), path.join(dir, 'peer-worker.sh'));
    await writeFile(path.join(dir, 'canaries.txt'), canaryText());
    // 200 KiB of stderr, a key id across the head's cut (32 KiB in), the canaries at the start and the end.
    await writeFile(
      path.join(dir, 'loud.sh'),
      `cat canaries.txt >&2\nhead -c 32740 /dev/zero | tr '\\0' ' ' >&2\nprintf '%s' '${CANARIES.awsKeyId}' >&2\nhead -c 200000 /dev/zero | tr '\\0' 'e' >&2\ncat canaries.txt >&2\nexec bash peer-worker.sh "$@"\n`,
    );
    await writeFile(
      path.join(dir, 'routecert.config.json'),
      JSON.stringify({
        worker: {
          name: 'loud bash worker',
          command: ['bash', 'loud.sh', '{routeArg}', '{schema}', '{prompt}', '{outDir}'],
          prompt: 'file',
          artifact: '{outDir}/pov-{routeArg}.json',
          windowEnv: { hardWindowS: 'PEER_HARD_SECS', retryMinS: 'PEER_RETRY_MIN_SECS', idleWindowS: 'PEER_IDLE_SECS' },
          routeNames: { 'claude-code/json': 'claude-json' },
        },
        routes: ['claude-code/json'],
        contract: 'pov',
      }),
    );
    const tmp = path.join(dir, 'tmp');
    await mkdir(tmp);
    const r = await routecert(['certify', '--config', 'routecert.config.json', '--check', 'accepted-artifact', '--reports', 'reports'], {
      cwd: dir,
      env: { ...CANARY_ENV, ROUTECERT_CAPTURE_BYTES: String(64 * 1024), TMPDIR: tmp },
    });
    expect(r.stdout).toMatch(/PASS accepted-artifact/);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const written = await filesUnder(path.join(dir, 'reports'));
    const certificate = written.find((w) => w.file.endsWith('certificate.json'))!;
    expect(certificate.text).toMatch(/output cut: the worker's stderr was \d+ bytes: routecert kept its head and tail/);
    expectNoCanary([...written, { file: 'stdout', text: r.stdout }, { file: 'stderr', text: r.stderr }]);
    expect(await readdir(tmp)).toEqual([]);
  }, 180_000);

  it('a schema over the size limit is refused with the limit named wherever it comes from: inline in a config, init --schemas, certify `schema`', async () => {
    const dir = path.join(root.dir, 'schema-limit');
    await mkdir(path.join(dir, 'schemas'), { recursive: true });
    await mkdir(path.join(dir, 'cases'), { recursive: true });
    const properties: Record<string, unknown> = { answer: { type: 'string' } };
    for (let i = 0; i < 400; i += 1) properties[`p${i}`] = { type: 'string', description: `property ${i} of a large schema` };
    const schema = { type: 'object', required: ['answer'], properties };
    await writeFile(path.join(dir, 'schemas', 'large.schema.json'), JSON.stringify(schema));
    await writeFile(path.join(dir, 'inline.config.json'), JSON.stringify({ cases: 'cases', contracts: [{ name: 'large', schema, anchor: 'answer', finality: 'none', selection: 'score' }] }));
    await writeFile(
      path.join(dir, 'certify.config.json'),
      JSON.stringify({
        worker: { name: 'w', command: ['true', '{prompt}'], prompt: 'file', artifact: '{outDir}/out.json', windowEnv: { hardWindowS: 'H', retryMinS: 'R' } },
        routes: ['claude-code/json'],
        contract: 'pov',
        schema: 'schemas/large.schema.json',
      }),
    );
    // The schema is about 20 KiB: a 0.01 MiB limit (10 KiB) refuses it.
    const env = { ROUTECERT_MAX_SCHEMA_MB: '0.01' };
    const limit = /over the 10\.2 KiB limit for a schema \(set ROUTECERT_MAX_SCHEMA_MB to raise it\)/;
    const inline = await routecert(['run', '--no-probes', '--config', 'inline.config.json', '--reports', 'reports'], { cwd: dir, env });
    expect(inline.stderr).toMatch(/contracts\/0 \("large"\): its inline schema is over the 10\.2 KiB limit/);
    expect(inline.exitCode).toBe(2);
    const init = await routecert(['init', '--schemas', 'schemas', '--json'], { cwd: dir, env });
    expect(init.stderr).toMatch(/init: schema .*large\.schema\.json is \d+\.\d KiB, over/);
    expect(init.stderr).toMatch(limit);
    expect(init.exitCode).toBe(2);
    const certify = await routecert(['certify', '--config', 'certify.config.json', '--reports', 'reports'], { cwd: dir, env });
    expect(certify.stderr, `certify: exit ${String(certify.exitCode)}, stdout ${JSON.stringify(certify.stdout.slice(0, 600))}`).toMatch(/schema .*large\.schema\.json is \d+\.\d KiB/);
    expect(certify.stderr).toMatch(limit);
    expect(certify.exitCode).toBe(2);
    // Under the limit the same inline config loads.
    const fine = await routecert(['run', '--no-probes', '--config', 'inline.config.json', '--reports', 'reports'], { cwd: dir });
    expect(fine.stderr).not.toMatch(/limit for a schema/);
  }, 120_000);
});
