/**
 * A foreign worker certified unchanged (issue 10 part 5): compound-engineering-plugin's ce-pov peer
 * worker, skills/ce-pov/scripts/cross-model-pov.sh (MIT; research/ce-plugin.md), run exactly as
 * upstream ships it: from the byte-identical copy of snapshot 925b4ef7 in
 * fixtures/upstream/compound-engineering-plugin/ (PROVENANCE.md; its sha256 is checked by
 * suites/certify-ce-findings.test.ts), or from the copy of its skills/ce-pov folder that
 * ROUTECERT_CE_POV names (a newer snapshot). This test fetches nothing.
 *
 * The worker publishes the right answer with `voice` namespaced ("peer" -> "peer-claude") and seven
 * receipt fields added: the artifact check compares by the contract's meaning (receipt fields
 * ignored) and the adapter's `artifact.select` undoes the namespace; without the hook the smoke
 * names the one difference. The adapter is examples/ce-workers/adapters.ts (`ceConfig`), shared with
 * the findings suite and the fail-open copies.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { certify } from '#src/harness/certify/certify.ts';
import type { ArtifactAdapter, LoadedConfig } from '#src/harness/certify/config.ts';
import { whichOnPath } from '#src/harness/shim/tools.ts';
import { projectPath } from '#src/paths.ts';
import { processTracker } from './_helpers/certifyProcesses.ts';
import { CE_WORKERS, ceConfig } from '../examples/ce-workers/adapters.ts';

const skill = process.env.ROUTECERT_CE_POV || projectPath('fixtures', 'upstream', 'compound-engineering-plugin', 'skills', 'ce-pov');
const script = path.join(skill, CE_WORKERS.pov.script);
const missingTools = ['bash', 'jq', 'python3'].filter((t) => whichOnPath(t, process.env.PATH ?? '') === null);
/** Certifying it takes about 2.5 minutes of test time here: `npm run test:ce` (ROUTECERT_CE=1), or a copy named by ROUTECERT_CE_POV, runs it. */
const CE_ON = process.env.ROUTECERT_CE === '1' || !!process.env.ROUTECERT_CE_POV;
const present = CE_ON && existsSync(script) && missingTools.length === 0;
const LONG = 600_000;
const tracker = processTracker();

/** ce-pov's run dir must lie outside its repository root (its cwd here): a folder of our own. */
const cwd = present ? mkdtempSync(path.join(tmpdir(), 'routecert-ce-pov-')) : '';
afterAll(async () => {
  await tracker.expectNoneLeft();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
}, 60_000);

/** The adapter of ce-pov on one route (examples/ce-workers/adapters.ts), with members of its artifact adapter overridden. */
function cePov(route: string, artifact: Partial<ArtifactAdapter> = {}): LoadedConfig {
  return ceConfig('pov', skill, route, cwd, { artifact });
}

describe.skipIf(!present)(`the ce-pov worker as upstream ships it${present ? '' : ` (skipped: ${!CE_ON ? 'npm run test:ce runs it (ROUTECERT_CE=1)' : existsSync(script) ? `needs ${missingTools.join(', ')}` : `no ${script}`})`}`, () => {
  it.each(['claude-code/stream-json', 'grok/json'])('on %s every check passes but, on Claude, the failed run it publishes and the split answer it misses, its receipt fields ignored and its voice namespace undone by artifact.select', async (route) => {
    const { certificate, exitCode } = await certify(cePov(route), { onProgress: tracker.track });
    const r = certificate.routes[0]!;
    const failing = [...r.smoke, ...r.checks].filter((c) => c.status === 'fail');
    // Measured on the stored snapshot (925b4ef7, v3.23.1), 2026-12-02: on Claude it publishes the
    // answer of an envelope with "is_error": true (upstream rejects failed Claude terminal envelopes
    // since #1519, merged after that snapshot), and publishes nothing for case eefd3e33c0c8059d
    // (split-assistant-message, in the corpus since 2026-12-02: the answer split across two assistant
    // events of one message id, the result line cut mid-JSON), which routecert accepts from the
    // joined assistant text. A newer copy should pass failed-run too.
    const known = route === 'claude-code/stream-json' ? ['accepted-artifact', 'failed-run'] : [];
    expect(failing.map((c) => c.id).sort(), failing.map((c) => `${c.id}: ${c.evidence.join(' | ')}`).join('\n')).toEqual(known);
    for (const c of failing) expect(c.evidence.join('\n')).toContain(c.id === 'failed-run' ? '"is_error": true' : 'split-assistant-message');
    expect(r.status).toBe(known.length === 0 ? 'certified' : 'not-certified');
    expect(exitCode).toBe(known.length === 0 ? 0 : 1);
    expect(certificate.header.tools?.map((t) => t.name)).toEqual(['bash', 'jq', 'python3']);
  }, LONG);

  it('without the select hook, the smoke names the namespaced voice as the only difference', async () => {
    const { certificate } = await certify(cePov('claude-code/stream-json', { select: (j) => j }), { checks: ['forbidden-flags'], onProgress: tracker.track });
    const smoke = certificate.routes[0]!.smoke[0]!;
    expect(smoke.status).toBe('fail');
    expect(smoke.evidence.join('\n')).toContain('voice: expected "peer", got "peer-claude"');
    expect(smoke.evidence.join('\n')).not.toContain('cross_model_route');
  }, LONG);
});
