/**
 * A certificate with no passing check certifies nothing (issue 13): certify only `idle-window` on
 * grok/json, where it is skipped (a buffered route has no idle window), and the route is not
 * "certified"; an unknown `--check` is refused before any run.
 */
import { describe, expect, it } from 'vitest';
import { certify, checkCertifyOptions } from './certify.ts';
import { CertifyConfigError } from './config.ts';
import { referenceWorkerConfig } from './reference.ts';

describe('certification by zero checks', { timeout: 180_000 }, () => {
  it('is not-certified (exit 1) when every selected check is skipped', async () => {
    const outcome = await certify(referenceWorkerConfig({ inProcess: true, routes: ['grok/json'] }), { checks: ['idle-window'] });
    const route = outcome.certificate.routes[0]!;
    expect(route.smoke.map((c) => c.status)).toEqual(['pass', 'pass']);
    expect(route.checks.map((c) => [c.id, c.status])).toEqual([['idle-window', 'skipped']]);
    expect(route.status).toBe('not-certified');
    expect(outcome.exitCode).toBe(1);
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
