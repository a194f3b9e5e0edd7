/**
 * Issue 19 point 8 on a config like `routecert init` writes: a team contract whose anchor is an
 * integer const (`schema_version`), selection by score, a corpus of only a final and a prose-only
 * case (recorded by `record --config` in a new-user walkthrough). tie-to-later derives its two
 * candidates from answers generated from the schema, so a worker that takes the later one is
 * certified and one that takes the earlier one is refused; with no input for a check, the
 * certificate names each check that kept it from certified.
 */
import { appendFile, cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { RELEASE_CASE_BYTES } from '#src/record/corpus.ts';
import { caseId } from '#src/record/caseId.ts';
import type { CaseFile } from '#src/envelope/caseTypes.ts';
import { tempRoot } from '#src/cli/cliTestKit.ts';
import { certify } from './certify.ts';
import { blockingLines } from './certificate.ts';
import { loadConfig } from './config.ts';

let root: Awaited<ReturnType<typeof tempRoot>>;
beforeAll(async () => {
  root = await tempRoot('generated-inputs');
}, 60_000);
afterAll(() => root.remove(), 60_000);

/** The team folder with a config whose worker passes `mode` (`last`: correct, `first`: ties to earlier). */
async function team(name: string, mode: 'last' | 'first' | 'result-only', selection: 'score' | 'last-shaped' = 'score', anchor = 'schema_version'): Promise<string> {
  const dir = path.join(root.dir, name);
  await cp(projectPath('fixtures/teams/int-anchor'), dir, { recursive: true });
  const review = { name: 'review', schema: 'schemas/review.schema.json', anchor, finality: 'none', selection, clis: ['claude'] };
  const config = {
    cases: 'cases',
    contracts: [review],
    worker: { name: `review worker (${mode})`, command: ['node', 'worker.mjs', '{schema}', '{prompt}', '{out}', mode], prompt: 'file', artifact: '{outDir}/review.json', windowEnv: { hardWindowS: 'REVIEW_HARD_SECS' } },
    routes: ['claude-code/json'],
    schema: 'schemas/review.schema.json',
    contract: review,
  };
  const file = path.join(dir, 'routecert.config.json');
  await writeFile(file, JSON.stringify(config, null, 2));
  return file;
}

describe('checks whose input the corpus lacks take it from the schema (integer-const anchor)', { timeout: 240_000 }, () => {
  it('tie-to-later runs: a worker that takes the later of two equal-scoring answers passes it (a --check run: partial, exit 0)', async () => {
    const outcome = await certify(await loadConfig(await team('good', 'last')), { checks: ['tie-to-later'] });
    const route = outcome.certificate.routes[0]!;
    expect(route.checks.map((c) => [c.id, c.status])).toEqual([['tie-to-later', 'pass']]);
    expect(route.status).toBe('partial');
    expect(outcome.exitCode).toBe(0);
  });

  it('a worker that takes the earlier one is refused', async () => {
    const outcome = await certify(await loadConfig(await team('bad', 'first')), { checks: ['tie-to-later'] });
    const route = outcome.certificate.routes[0]!;
    expect(route.checks[0]!.status).toBe('fail');
    expect(route.checks[0]!.evidence.join('\n')).toContain('EARLIER of two equal-scoring candidates');
    expect(route.status).toBe('not-certified');
    expect(outcome.exitCode).toBe(1);
  });

  it('last-shaped-wins runs on a last-shaped contract and bites a worker that takes the first', async () => {
    const good = await certify(await loadConfig(await team('good-last', 'last', 'last-shaped')), { checks: ['last-shaped-wins'] });
    expect(good.certificate.routes[0]!.checks.map((c) => [c.id, c.status])).toEqual([['last-shaped-wins', 'pass']]);
    expect(good.certificate.routes[0]!.status).toBe('partial');
    const bad = await certify(await loadConfig(await team('bad-last', 'first', 'last-shaped')), { checks: ['last-shaped-wins'] });
    expect(bad.certificate.routes[0]!.checks[0]!.status).toBe('fail');
  });

  it('an enum anchor ("result": PASS, FAIL, ...): the earlier answer takes another enum value, so a worker that takes the earlier one is refused (a suffixed value was no candidate: the check passed it)', async () => {
    const good = await certify(await loadConfig(await team('enum-good', 'last', 'score', 'result')), { checks: ['tie-to-later'] });
    expect(good.certificate.routes[0]!.checks.map((c) => [c.id, c.status])).toEqual([['tie-to-later', 'pass']]);
    const bad = await certify(await loadConfig(await team('enum-bad', 'first', 'score', 'result')), { checks: ['tie-to-later'] });
    expect(bad.certificate.routes[0]!.checks[0]!.status).toBe('fail');
    expect(bad.certificate.routes[0]!.checks[0]!.evidence.join('\n')).toContain('EARLIER of two equal-scoring candidates');
  });

  it('accepted-artifact also replays the final case with only its structured field holding the answer: a worker that reads the result text only is refused (the corpus holds no such case)', async () => {
    const good = await certify(await loadConfig(await team('structured-good', 'last')), { checks: ['accepted-artifact'] });
    expect(good.certificate.routes[0]!.checks.map((c) => [c.id, c.status])).toEqual([['accepted-artifact', 'pass']]);
    expect(good.certificate.routes[0]!.checks[0]!.evidence.join('\n')).toContain('with its text copy of the answer emptied (the answer only in its structured field): published the value the case expects');
    const bad = await certify(await loadConfig(await team('structured-bad', 'result-only')), { checks: ['accepted-artifact'] });
    const check = bad.certificate.routes[0]!.checks[0]!;
    expect(check.status).toBe('fail');
    expect(check.evidence).toEqual([expect.stringContaining('with its text copy of the answer emptied (the answer only in its structured field): no artifact')]);
  });

  it('an artifact path that names no file the worker wrote: the smoke says which files the folder holds', async () => {
    const file = await team('misspelt-artifact', 'last');
    const config = JSON.parse(await readFile(file, 'utf8')) as { worker: { artifact: string; command: string[] } };
    // The worker writes review.json; the config names review.jsn.
    config.worker.command = config.worker.command.map((t) => (t === '{out}' ? '{outDir}/review.json' : t));
    config.worker.artifact = '{outDir}/review.jsn';
    await writeFile(file, JSON.stringify(config));
    const outcome = await certify(await loadConfig(file), { checks: ['tie-to-later'] });
    const smoke = outcome.certificate.routes[0]!.smoke[0]!;
    expect(smoke.status).toBe('fail');
    expect(smoke.evidence.join('\n')).toContain("no artifact at the adapter's artifact path (out/review.jsn); that folder holds review.json: does the config's `artifact` name the file the worker writes?");
  });

  it('does not hold a case file of 16 MiB or more (issue 24): it is not replayed, and the reason says so', async () => {
    const config = await team('large-final', 'last');
    const file = path.join(path.dirname(config), 'cases/review/claude-code/json/final.json');
    // The same case (its id is its content's), padded with JSON blanks past the size certification holds.
    await appendFile(file, ' '.repeat(RELEASE_CASE_BYTES));
    const outcome = await certify(await loadConfig(config), { checks: ['tie-to-later'] });
    const route = outcome.certificate.routes[0]!;
    expect(route.status).toBe('could-not-run');
    expect(route.smoke[0]!.reason).toMatch(/no well-formed final case for claude-code\/json \(1 case file\(s\) of 16 MiB or more are not replayed, e\.g\. .*final\.json\)/);
  });

  it("recorded-refusals replays the team's own recorded refusals as recorded: its is_error capture passes (the worker checks is_error), its capture of an answer outside the enum is refused, naming the case (a trial's worker published its own bad-enum capture, certified)", async () => {
    const config = await team('recorded', 'last');
    const dir = path.join(path.dirname(config), 'cases/review/claude-code/json');
    const final = JSON.parse(await readFile(path.join(dir, 'final.json'), 'utf8')) as CaseFile;
    const envelope = JSON.parse(final.attempts[0]!.stdout) as Record<string, unknown>;
    const answer = { ...(envelope.structured_output as Record<string, unknown>), result: 'pass' };
    const write = async (slug: string, verdict: CaseFile['expect']['verdict'], stdout: Record<string, unknown>) => {
      const c: CaseFile = { ...final, description: slug, scenario: slug, attempts: [{ ...final.attempts[0]!, stdout: `${JSON.stringify(stdout)}\n` }], expect: { verdict } };
      c.id = caseId(c);
      await writeFile(path.join(dir, `${slug}.json`), JSON.stringify(c, null, 2));
    };
    await write('bad-enum', 'dropped-unusable', { ...envelope, result: JSON.stringify(answer), structured_output: answer });
    await write('overloaded', 'provider-error', { ...envelope, is_error: true, subtype: 'success', api_error_status: 529, result: 'API Error: 529 Overloaded', structured_output: undefined });
    // An accepted answer recorded as a refusal: routecert's contract accepts it, so it is not replayed (`run` flags the expectation).
    await write('mislabelled', 'dropped-unusable', envelope);
    const outcome = await certify(await loadConfig(config), { checks: ['recorded-refusals'] });
    const check = outcome.certificate.routes[0]!.checks[0]!;
    expect(check.id).toBe('recorded-refusals');
    expect(check.status).toBe('fail');
    expect(check.evidence).toEqual([expect.stringMatching(/^case \S+ \(claude-code\/json\/bad-enum\) \(recorded: dropped-unusable\): published out\/review\.json although routecert's contract refuses it \(recorded as dropped-unusable\)/)]);
    expect(outcome.exitCode).toBe(1);
    // Without the bad-enum capture the is_error one is replayed and passes (prose-only too: a team case).
    await rm(path.join(dir, 'bad-enum.json'));
    const good = (await certify(await loadConfig(config), { checks: ['recorded-refusals'] })).certificate.routes[0]!.checks[0]!;
    expect(good.status).toBe('pass');
    expect(good.evidence).toEqual([expect.stringContaining('(claude-code/json/overloaded) (recorded: provider-error): nothing published'), expect.stringContaining('(claude-code/json/prose-only) (recorded: dropped-unusable): nothing published')]);
  });

  it('the checks that did not run for want of input are named with the next step', () => {
    const lines = blockingLines({ route: 'claude-code/json', blocking: [{ id: 'tie-to-later', reason: 'no envelope can be derived' }] });
    expect(lines[0]).toBe('tie-to-later did not run: no envelope can be derived');
    expect(lines[1]).toMatch(/^next step: .*npx routecert record --config/);
    expect(blockingLines({ route: 'claude-code/json' })).toEqual([]);
  });
});
