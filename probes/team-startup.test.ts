/**
 * `routecert probe --startup --config`: the startup smoke test of a team's schemas on the real CLI
 * (issue 10 part 4). A config with a clean schema and one that Claude Code's Ajv (strict mode)
 * refuses (`_meta`, an unknown keyword), both sent to claude: one table, and exit 1 because a CLI
 * the config sends a schema to rejects it. With only the clean schema: exit 0.
 * Every folder is under a temporary root this file owns and removes.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { projectPath } from '../src/paths.ts';
import { discoverProbeCli, skipUnlessInstalled } from './_helpers.ts';

const { cli, skipReason } = await discoverProbeCli('claude', { file: 'team-startup.test.ts', pinned: 'Claude Code' });
let root: string | undefined;

const CLEAN = { type: 'object', additionalProperties: false, required: ['answer'], properties: { answer: { type: 'string' } } };
const REFUSED = { ...CLEAN, _meta: { owner: 'team' } };

async function probeConfig(contracts: unknown[]) {
  root ??= await mkdtemp(path.join(os.tmpdir(), 'routecert-team-startup-'));
  const dir = await mkdtemp(path.join(root, 'c-'));
  await writeFile(path.join(dir, 'clean.schema.json'), JSON.stringify(CLEAN));
  await writeFile(path.join(dir, 'refused.schema.json'), JSON.stringify(REFUSED));
  await writeFile(path.join(dir, 'routecert.config.json'), JSON.stringify({ contracts }));
  return execa('node', [projectPath('bin/routecert.js'), 'probe', '--startup', '--config', 'routecert.config.json', '--probe-timeout', '90000'], {
    cwd: dir,
    reject: false,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
}

const contract = (name: string, schema: string) => ({ name, schema, anchor: 'answer', finality: 'none', selection: 'score', clis: ['claude'] });

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe.skipIf(!cli.bin)(`probe --startup --config on Claude Code ${cli.version ?? ''}`, { timeout: 600_000 }, () => {
  it('exits 1 when a CLI the config sends a schema to rejects it, and shows both schemas in one table', async () => {
    const r = await probeConfig([contract('clean', 'clean.schema.json'), contract('refused', 'refused.schema.json')]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('clean (clean.schema.json) as json');
    expect(r.stdout).toContain('refused (refused.schema.json) as json');
    expect(r.stdout).toMatch(/_meta/);
  });

  it('exits 0 when every CLI the config sends its schema to accepts it', async () => {
    const r = await probeConfig([contract('clean', 'clean.schema.json')]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
  });
});
skipUnlessInstalled(cli, 'probe --startup --config', skipReason);
