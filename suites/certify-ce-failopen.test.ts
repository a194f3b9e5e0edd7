/**
 * Fail-open copies of compound-engineering-plugin's workers (issue 19 point 2;
 * examples/ce-workers/failopen.ts): every fault's patch still matches the upstream scripts, and
 * two copies are refused by the checks named for their faults. The scripts are the byte-identical
 * copies in fixtures/upstream/compound-engineering-plugin/ (PROVENANCE.md); ROUTECERT_CE_POV,
 * ROUTECERT_CE_CODE_REVIEW and ROUTECERT_CE_DOC_REVIEW point at other copies of the skill folders
 * (a newer snapshot). `npm run ce:failopen -- <plugin checkout>` certifies every copy.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { CE_WORKERS, type CeWorker } from '../examples/ce-workers/adapters.ts';
import { CE_FAULTS, ceFailOpenCopy, certifyCeFailOpen } from '../examples/ce-workers/failopen.ts';

const LONG = 300_000;
const UPSTREAM = (skill: string) => projectPath('fixtures', 'upstream', 'compound-engineering-plugin', 'skills', skill);
const SKILLS: Record<CeWorker, string> = {
  pov: process.env.ROUTECERT_CE_POV || UPSTREAM('ce-pov'),
  code: process.env.ROUTECERT_CE_CODE_REVIEW || UPSTREAM('ce-code-review'),
  doc: process.env.ROUTECERT_CE_DOC_REVIEW || UPSTREAM('ce-doc-review'),
};
const present = (w: CeWorker) => SKILLS[w] !== '' && existsSync(path.join(SKILLS[w], CE_WORKERS[w].script));
const given = (Object.keys(SKILLS) as CeWorker[]).filter(present);
const root = await mkdtemp(path.join(tmpdir(), 'routecert-ce-failopen-test-'));
afterAll(() => rm(root, { recursive: true, force: true }));

describe.skipIf(given.length === 0)(`fail-open copies of the ce workers${given.length === 0 ? ' (skipped: no skill folder holds its script: fixtures/upstream/compound-engineering-plugin or ROUTECERT_CE_*)' : ''}`, () => {
  it('every fault of a given worker patches its script (a moved upstream line fails here, not silently)', async () => {
    for (const fault of CE_FAULTS.filter((f) => given.includes(f.worker))) {
      await expect(ceFailOpenCopy(fault, SKILLS[fault.worker], path.join(root, fault.id)), fault.id).resolves.toContain(path.basename(CE_WORKERS[fault.worker].skill));
    }
  });

  it.each(['pov-bypass-permissions', 'doc-buffered-json'].filter((id) => given.includes(CE_FAULTS.find((f) => f.id === id)!.worker)))('%s is refused by its named check', async (id) => {
    const fault = CE_FAULTS.find((f) => f.id === id)!;
    const r = await certifyCeFailOpen(fault, SKILLS[fault.worker]);
    expect(r.check?.status, r.check?.evidence.join('\n')).toBe('fail');
    expect(r.routeStatus).toBe('not-certified');
  }, LONG);
});
