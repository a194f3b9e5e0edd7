/**
 * Live probes (`--live`): the real CLI against the real provider with the credentials already in
 * the environment (never the mock), still in a throwaway HOME and cwd, at the smallest cost the CLI
 * allows (its {@link LiveSpec}). Only an explicit `live: true` from `--live` gets here; a plain
 * probe never passes a credential or reaches the network.
 */
import type { LiveSpec, ProbeDriver } from './driver.ts';
import { PROBE_DRIVERS } from './drivers.ts';

/** Raised when a live run cannot start (no live support, no credential); the CLI exits 2. */
export class LiveProbeError extends Error {
  readonly code = 'ROUTECERT_LIVE';
  constructor(message: string) {
    super(`[routecert] ${message}`);
    this.name = 'LiveProbeError';
  }
}

/** What a live run uses: the credential (name and value), the provider origin and the model. */
export interface LiveSetup {
  credentialVar: string;
  credential: string;
  as: string;
  endpoint: string;
  model: string;
}

/**
 * Resolve a driver's live setup from `env`.
 *
 * `endpoint`: the provider origin the driver gets as `mockUrl`: the value of `live.endpoint.env`
 * without its `endpoint.path` (`OPENAI_BASE_URL=https://gw.example/v1` -> `https://gw.example`),
 * else `endpoint.default`; no trailing slash.
 *
 * @throws {LiveProbeError} when the driver has no live support, no credential variable is set, or
 *   the endpoint variable does not end with the spec's `endpoint.path`.
 */
export function liveSetup(driver: ProbeDriver, env: NodeJS.ProcessEnv = process.env): LiveSetup {
  const spec: LiveSpec | undefined = driver.live;
  if (!spec) throw new LiveProbeError(`--live is not supported for ${driver.cli} yet; live probes exist for: ${PROBE_DRIVERS.filter((d) => d.live).map((d) => d.cli).join(', ')}.`);
  const credentialVar = spec.credential.from.find((v) => (env[v] ?? '') !== '');
  if (credentialVar === undefined) throw new LiveProbeError(`--live runs ${driver.cli} against its real provider with your credentials: set ${spec.credential.from.join(' or ')} in the environment.`);
  let endpoint = spec.endpoint.default;
  const given = (env[spec.endpoint.env] ?? '').replace(/\/+$/, '');
  if (given !== '') {
    const suffix = spec.endpoint.path ?? '';
    if (!given.endsWith(suffix)) throw new LiveProbeError(`${spec.endpoint.env}=${given} does not end with ${suffix}: ${driver.cli} reads it as the provider's base URL including ${suffix} (e.g. ${spec.endpoint.default}${suffix}).`);
    endpoint = given.slice(0, given.length - suffix.length);
  }
  return { credentialVar, credential: env[credentialVar]!, as: spec.credential.as, endpoint: endpoint.replace(/\/+$/, ''), model: spec.model };
}

/**
 * Every credential value a live run may have used, from `env` (each driver's `live.credential.from`):
 * redaction hides these exact values from cases and reports.
 */
export function liveSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  const names = new Set(PROBE_DRIVERS.flatMap((d) => d.live?.credential.from ?? []));
  return [...names].map((n) => env[n] ?? '').filter((v) => v.length >= 4);
}
