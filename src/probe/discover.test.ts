/**
 * What routecert says when a CLI is missing: in its own checkout, `npm run probes:install`; in a
 * team's project (routecert installed as a package, no probes/ folder), the CLI's npm package to
 * install into that project, PATH, or `--bin` (issue 12, found by the new-user pass).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverCli, installHintFor, notFoundMessage } from './discover.ts';

const root = mkdtempSync(path.join(tmpdir(), 'routecert-discover-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the install hint of a missing CLI', () => {
  it("in routecert's checkout: npm run probes:install", () => {
    const checkout = path.join(root, 'checkout');
    mkdirSync(path.join(checkout, 'probes'), { recursive: true });
    writeFileSync(path.join(checkout, 'probes', 'package.json'), '{}');
    expect(installHintFor('claude', checkout, '@anthropic-ai/claude-code', 'claude', path.join(checkout, 'probes'))).toContain('npm run probes:install');
  });

  it('a checkout linked into a team\'s project (npm install <checkout>) used from the team\'s folder: the team hint', () => {
    const checkout = path.join(root, 'checkout');
    const teamDir = path.join(root, 'team-linked');
    mkdirSync(teamDir, { recursive: true });
    const hint = installHintFor('claude', checkout, '@anthropic-ai/claude-code', 'claude', teamDir);
    expect(hint).not.toContain('probes:install');
    expect(hint).toContain('npm install --save-dev @anthropic-ai/claude-code');
  });

  it("in a team's project: the CLI's npm package, PATH or --bin, never a script the project lacks", async () => {
    const team = path.join(root, 'team', 'node_modules', 'routecert');
    mkdirSync(team, { recursive: true });
    const cli = await discoverCli('claude', { projectRoot: team, path: '', npmPackage: '@anthropic-ai/claude-code' });
    expect(cli.bin).toBeNull();
    const message = notFoundMessage(cli);
    expect(message).not.toContain('probes:install');
    expect(message).toContain('npm install --save-dev @anthropic-ai/claude-code');
    expect(message).toContain('--bin claude=<path>');
  });
});
