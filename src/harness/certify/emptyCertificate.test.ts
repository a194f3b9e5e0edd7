/**
 * A certificate with no passing check certifies nothing (issue 13): certify every check on grok/json
 * with none able to pass and the route is not "certified"; a `--check` selection none of whose
 * checks applies on the routes certified (`idle-window` on buffered grok/json) judged nothing but
 * the smoke: partial, never certified, and an empty selection (exit 2); an unknown `--check` is
 * refused before any run.
 */
import { describe, expect, it } from 'vitest';
import { certify, checkCertifyOptions, routeStatus, schemaMisfit } from './certify.ts';
import { CertifyConfigError } from './config.ts';
import { referenceWorkerConfig } from './reference.ts';
import type { CheckResult } from './certificate.ts';

const result = (id: string, status: CheckResult['status'], reason?: string): CheckResult =>
  ({ id, title: id, status, ...(reason ? { reason } : {}), evidence: [], cases: [], covers: [], expectedVerdict: 'pass', durationMs: 0 }) as unknown as CheckResult;

describe('certification by zero checks', { timeout: 180_000 }, () => {
  it('a --check that applies on no route certified: partial, never certified, exit 2 (it was not-certified, exit 1, as if the worker had failed)', async () => {
    const outcome = await certify(referenceWorkerConfig({ inProcess: true, routes: ['grok/json'] }), { checks: ['idle-window'] });
    const route = outcome.certificate.routes[0]!;
    expect(route.smoke.map((c) => c.status)).toEqual(['pass', 'pass']);
    expect(route.checks.map((c) => [c.id, c.status])).toEqual([['idle-window', 'skipped']]);
    expect(route.checks[0]!.reason).toMatch(/grok\/json is buffered/);
    expect(route.status).toBe('partial');
    expect(outcome.exitCode).toBe(2);
    expect(outcome.certificate.footer.exitCode).toBe(2);
  });

  it('a --check that applies on one route of two runs there: partial, exit 0', async () => {
    const outcome = await certify(referenceWorkerConfig({ inProcess: true, routes: ['grok/json', 'claude-code/stream-json'] }), { checks: ['idle-window'] });
    expect(outcome.certificate.routes.map((r) => [r.route, r.status, r.checks.map((c) => c.status).join()])).toEqual([
      ['grok/json', 'partial', 'skipped'],
      ['claude-code/stream-json', 'partial', 'pass'],
    ]);
    expect(outcome.exitCode).toBe(0);
  });

  it('routeStatus: every check skipped certifies nothing unless a selection left the rest out and the skipped ones do not apply', () => {
    const smoke = [result('smoke-final', 'pass')];
    const skippedNa = [result('idle-window', 'skipped', 'grok/json is buffered (the CLI prints at the end): only the hard window applies')];
    expect(routeStatus(smoke, skippedNa, { notSelected: 26, inapplicable: 1 })).toBe('partial');
    expect(routeStatus(smoke, skippedNa, { notSelected: 0, inapplicable: 1 })).toBe('not-certified');
    expect(routeStatus(smoke, skippedNa, { notSelected: 26, unrun: 1 })).toBe('not-certified');
    expect(routeStatus(smoke, [], { notSelected: 27 })).toBe('partial');
    expect(routeStatus([result('smoke-final', 'fail')], skippedNa, { notSelected: 26, inapplicable: 1 })).toBe('not-certified');
  });

  it('refuses an unknown check id, naming the checks', async () => {
    await expect(certify(referenceWorkerConfig({ inProcess: true, routes: ['grok/json'] }), { checks: ['nosuch'] })).rejects.toThrow(CertifyConfigError);
    await expect(certify(referenceWorkerConfig({ inProcess: true, routes: ['grok/json'] }), { checks: ['nosuch'] })).rejects.toThrow(/unknown check "nosuch"\. Checks: .*idle-window/);
  });

  it('refuses every --route that matches no route of the config, with a did-you-mean, even beside one that matches (the typo was dropped in silence)', () => {
    const cfg = referenceWorkerConfig({ inProcess: true, routes: ['grok/json', 'claude-code/json'] }).config;
    expect(() => checkCertifyOptions(cfg, { routes: ['grok/json', 'claude-code/jsn'] })).toThrow('--route claude-code/jsn: no route of the config matches (its routes: grok/json, claude-code/json); did you mean "claude-code/json"?');
    expect(() => checkCertifyOptions(cfg, { routes: ['grok', 'claude-code'] })).not.toThrow();
  });
});

describe('a config whose `schema` does not describe its contract', () => {
  it('is refused before any run, naming the property the contract needs and the way to certify against that schema', async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = await mkdtemp(path.join(tmpdir(), 'routecert-misfit-'));
    try {
      await writeFile(path.join(dir, 'triage.schema.json'), JSON.stringify({ type: 'object', required: ['severity', 'final'], properties: { severity: { enum: ['low', 'high'] }, final: { type: 'boolean' } } }));
      const base = referenceWorkerConfig({ inProcess: true, routes: ['grok/json'] });
      const loaded = { ...base, dir, config: { ...base.config, contract: 'pov', schema: 'triage.schema.json' } };
      expect(schemaMisfit(loaded)).toMatch(/^`schema` \(triage\.schema\.json, handed to the worker\) does not describe the answers of contract pov, which judges what the worker publishes: `anchor` "position" names no property of triage\.schema\.json: .*"severity", "final"\. To certify the worker against this schema, give `contract` a definition of your own/);
      await expect(certify(loaded)).rejects.toThrow(CertifyConfigError);
      // pov's own schema, or one that declares its anchor and finality key, fits.
      await writeFile(path.join(dir, 'pov-plus.schema.json'), JSON.stringify({ type: 'object', properties: { position: { type: 'string' }, final: { type: 'boolean' }, extra: { type: 'string' } } }));
      expect(schemaMisfit({ ...loaded, config: { ...loaded.config, schema: 'pov-plus.schema.json' } })).toBeNull();
      expect(schemaMisfit({ ...loaded, config: { ...loaded.config, schema: 'nosuch.json' } })).toMatch(/^`schema` \(the schema handed to the worker\): schema file nosuch\.json not found/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
