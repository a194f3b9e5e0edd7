/**
 * Done-when check of issue 6: a deliberately faulty decoder (Claude Code's, reading only a structured
 * field spelled exactly `structured_output`) is caught by a property within the default budget; its
 * shrunk counterexample saves as a case (into a temp folder here, not fixtures) and replays: through
 * `routecert fuzz --seed --path`, and as a corpus case that fails with the faulty decoder and passes
 * with routecert's.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzCommand, type FuzzOutcome } from '#src/cli/commands/fuzz.ts';
import { withDecoders } from '#src/routes/registry.ts';
import { runCase } from '#src/harness/runCorpus.ts';
import { projectPath } from '#src/paths.ts';
import { checkProperty, keySpellingProperty, numRunsFor, propertyEnv, type PropertyEnv, type PropertyRun, type Sample } from '#src/properties/index.ts';
import { loadCaseFile } from '#src/record/corpus.ts';
import { cases, PROPERTY_TIMEOUT_MS } from './_shared.ts';
import { structuredOutputOnly } from './_faults.ts';

const faulty = () => withDecoders([structuredOutputOnly('claude-code/json')]);
const OTHER_SPELLING = /"(structuredOutput|StructuredOutput|structured-output|STRUCTURED_OUTPUT)":/;

describe('done-when: a decoder that reads only structured_output', () => {
  let env: PropertyEnv;
  let run: PropertyRun;
  let tmp: string;

  beforeAll(async () => {
    env = await propertyEnv({ decoders: faulty() });
    tmp = await mkdtemp(path.join(os.tmpdir(), 'routecert-fuzz-'));
  });
  afterAll(async () => {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('is caught by key-spelling from generated inputs alone, within its default runs', () => {
    run = checkProperty(keySpellingProperty, { env });
    expect(run.failed).toBe(true);
    expect(run.phase).toBe('generated');
    expect(run.runs).toBeLessThanOrEqual(numRunsFor(keySpellingProperty));
    expect(run.path).toMatch(/^\d+(:\d+)*$/);
    expect((run.counterexample as Sample).route).toBe('claude-code/json');
    expect(run.error).toContain('the verdict depends on the spelling of the structured field');
    expect(run.report).toContain(`{ seed: ${run.seed}, path: "${run.path}"`);
    expect(run.report).toContain(`Replay: npx routecert fuzz --property key-spelling --seed ${run.seed} --path ${run.path}`);
  }, PROPERTY_TIMEOUT_MS);

  it('is caught by the corpus examples too, before any generated input', () => {
    const fromCorpus = checkProperty(keySpellingProperty, { env, cases });
    expect(fromCorpus.failed).toBe(true);
    expect(fromCorpus.phase).toBe('examples');
    expect(fromCorpus.report).toMatch(/corpus case [0-9a-f]{16}/);
  }, PROPERTY_TIMEOUT_MS);

  it('replays from seed and path, saves the shrunk case, and the case replays with the corpus', async () => {
    const outcomes: FuzzOutcome[] = [];
    const printed: string[] = [];
    const argv = { property: ['key-spelling'], seed: String(run.seed), path: run.path!, save: true, out: tmp };
    const deps = { decoders: faulty(), write: (s: string) => printed.push(s), writeErr: (s: string) => printed.push(s) };
    expect(await fuzzCommand(argv, deps, outcomes)).toBe(1);
    const replayed = outcomes[0]!;
    expect(replayed.run.counterexample).toEqual(run.counterexample);
    expect(replayed.saved).toBeDefined();
    expect(await readdir(tmp)).toEqual([path.basename(replayed.saved!)]);

    const { loaded, errors } = await loadCaseFile(replayed.saved!);
    expect(errors).toEqual([]);
    expect(loaded!.warnings).toEqual([]);
    const saved = loaded!.case;
    expect(saved.provenance).toMatchObject({ source: 'generated', seed: run.seed, path: run.path });
    expect(saved.tags).toEqual(expect.arrayContaining(['regression', 'key-spelling']));
    expect(saved.route).toBe('claude-code/json');
    expect(saved.attempts[0]!.stdout).toMatch(OTHER_SPELLING);

    const withFault = await runCase(loaded!, { decoders: faulty() });
    expect(withFault.outcome).toBe('fail');
    const withRoutecert = await runCase(loaded!);
    expect(withRoutecert.problems).toEqual([]);
    expect(withRoutecert.outcome).toBe('pass');

    // Saving the same counterexample again never overwrites the file.
    const again: FuzzOutcome[] = [];
    await fuzzCommand(argv, deps, again);
    expect(again[0]!.refused).toMatch(/exists; pass --force/);
  }, PROPERTY_TIMEOUT_MS);

  it('`routecert fuzz --seed --path` replays the same input through the command; with routecert\'s decoders it holds', async () => {
    const result = await execa(process.execPath, [projectPath('bin/routecert.js'), 'fuzz', '--property', 'key-spelling', '--seed', String(run.seed), '--path', run.path!], { reject: false, cwd: projectPath() });
    expect(result.stdout).toContain(`seed ${run.seed}, path ${run.path}`);
    expect(result.stdout).toMatch(/ok {3}key-spelling: \d+ runs/);
    expect(result.exitCode).toBe(0);
  }, PROPERTY_TIMEOUT_MS);
});
