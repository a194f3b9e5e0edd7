/**
 * Certification's process handling: a worker whose descendant left its process group and its
 * session (double fork + setsid) and ignores SIGTERM is reported as leaving a process behind,
 * and nothing of the run is running once the run is observed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeReapFixtures } from '#src/process/fixtures.ts';
import { canSweepProc, procStat } from '#src/process/reap.ts';
import { executeRun } from './execute.ts';
import { certifyRoute } from './routes.ts';

const root = mkdtempSync(path.join(tmpdir(), 'routecert-execute-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!canSweepProc)('executeRun reaping', () => {
  it('reports and reaps a setsid grandchild that ignores SIGTERM, leaving 0 processes', async () => {
    const f = writeReapFixtures(mkdtempSync(path.join(root, 'case-')));
    const obs = await executeRun(
      { label: 'escapee', route: certifyRoute('claude-code/json'), attempts: [], cliVersion: '2.1.332', windows: { hardWindowS: 60, idleWindowS: 30, retryMinS: 10 }, outerDeadlineMs: 30_000 },
      {
        loaded: { config: { worker: { name: 'escapee', command: [process.execPath, f.escapee, f.escapeePid, 'exit'], windowEnv: { hardWindowS: 'HARD_S', retryMinS: 'RETRY_S' } }, routes: ['claude-code/json'] }, file: null, dir: root },
        root,
        schemaText: '{}',
        prompt: 'x',
      },
    );
    const grandchild = Number(readFileSync(f.escapeePid, 'utf8'));
    expect(obs.exitCode).toBe(0);
    expect(obs.leftovers.map((l) => l.pid)).toContain(grandchild);
    const s = procStat(grandchild);
    expect(s === null || s.state === 'Z').toBe(true);
  }, 90_000);
});
