/**
 * A worker that publishes the answer under its own names is certified by declaring it (issue 19
 * part 7: a publish mapping instead of adapter code). examples/bash-worker/renaming-worker.sh is the
 * example worker publishing `position` as `stance`, `movement` as `meta.movement`, and no `mode`;
 * routecert.renaming.config.ts declares `publish: { rename, exclude }`:
 * - with the mapping, every check that applies passes on grok/json;
 * - without it, the smoke and accepted-artifact name the members the answer lacks;
 * - a bad mapping (a key that is not a JSON Pointer, an unknown field) is refused before anything
 *   runs, naming the config file and the field.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { certify } from '#src/harness/certify/certify.ts';
import type { CheckResult, RouteCertificate } from '#src/harness/certify/certificate.ts';
import { CertifyConfigError, loadConfig, type LoadedConfig } from '#src/harness/certify/config.ts';
import { whichOnPath } from '#src/harness/shim/tools.ts';
import { projectPath } from '#src/paths.ts';
import { processTracker } from './_helpers/certifyProcesses.ts';

const LONG = 600_000;
const tracker = processTracker();
const root = mkdtempSync(path.join(tmpdir(), 'routecert-publish-'));
afterAll(async () => {
  await tracker.expectNoneLeft();
  rmSync(root, { recursive: true, force: true });
}, 60_000);

const all = (r: RouteCertificate): CheckResult[] => [...r.smoke, ...r.checks];
const failing = (r: RouteCertificate) => all(r).filter((c) => c.status === 'fail');
const explain = (r: RouteCertificate) => failing(r).map((c) => `${c.id}: ${c.evidence.join(' | ').slice(0, 600)}`).join('\n');
const missingTools = ['bash', 'jq', 'python3', 'sleep'].filter((t) => whichOnPath(t, process.env.PATH ?? '') === null);
const CONFIG = 'examples/bash-worker/routecert.renaming.config.ts';

/** The renaming worker's config on grok/json, with or without its publish mapping. */
async function renaming(withMapping: boolean): Promise<LoadedConfig> {
  const loaded = await loadConfig(projectPath(CONFIG));
  const { publish, ...worker } = loaded.config.worker;
  expect(publish).toEqual({ rename: { '/position': '/stance', '/movement': '/meta/movement' }, exclude: ['/mode'] });
  return { ...loaded, config: { ...loaded.config, worker: withMapping ? loaded.config.worker : worker, routes: ['grok/json'] } };
}

describe.skipIf(missingTools.length > 0)(`a worker that renames members of the answer${missingTools.length ? ` (skipped: ${missingTools.join(', ')} not installed)` : ''}`, () => {
  it(
    'is certified with its publish mapping declared',
    async () => {
      const { certificate, exitCode } = await certify(await renaming(true), { concurrency: 3, onProgress: tracker.track });
      const r = certificate.routes[0]!;
      expect(failing(r), explain(r)).toEqual([]);
      expect(r.status).toBe('certified');
      expect(exitCode).toBe(0);
    },
    LONG,
  );

  it(
    'is refused without it: the smoke and accepted-artifact name the renamed members as missing',
    async () => {
      const { certificate, exitCode } = await certify(await renaming(false), { checks: ['accepted-artifact'], onProgress: tracker.track });
      const r = certificate.routes[0]!;
      expect(r.status).toBe('not-certified');
      expect(exitCode).toBe(1);
      const ids = failing(r).map((c) => c.id);
      expect(ids).toEqual(['smoke-final', 'accepted-artifact']);
      for (const c of failing(r)) {
        const evidence = c.evidence.join('\n');
        expect(evidence).toContain('position: missing');
        expect(evidence).toContain('movement: missing');
        expect(evidence).toContain('mode: missing');
      }
    },
    LONG,
  );
});

describe('a bad publish mapping', () => {
  it('is refused before anything runs, naming the config file and each field', async () => {
    const file = path.join(root, 'routecert.config.json');
    const worker = { name: 'w', command: ['bash', 'w.sh', '{prompt}', '{outDir}'], prompt: 'file', windowEnv: { hardWindowS: 'H' } };
    writeFileSync(file, JSON.stringify({ worker: { ...worker, publish: { rename: { position: '/stance' }, exclud: ['/mode'] } }, routes: ['grok/json'] }));
    const error = await loadConfig(file).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CertifyConfigError);
    const message = (error as Error).message;
    expect(message).toContain(`config file ${file} is not usable`);
    expect(message).toContain('`worker.publish.exclud` is not a field of `worker.publish`: it has rename and exclude');
    expect(message).toContain('`worker.publish.rename["position"]`: the key "position" is not a JSON Pointer: it must start with "/" (write "/position")');
  });
});
