/**
 * Contracts by name: the presets (./presets.ts) and, for a run with `--config`, the config's own
 * contracts, which may shadow a preset of the same name.
 */
import { didYouMeanTail } from '#src/diagnostics/didYouMean.ts';
import type { Contract } from './types.ts';
import { PRESET_NAMES, presetContract } from './presets.ts';
import type { PovPolicy } from './pov.ts';

/** The contracts routecert ships, by name. */
export const CONTRACT_NAMES: readonly string[] = PRESET_NAMES;

/** Raised for a contract name routecert does not know; the message lists the known ones. */
export class UnknownContractError extends Error {
  readonly code = 'ROUTECERT_UNKNOWN_CONTRACT';
  constructor(name: string, known: readonly string[] = CONTRACT_NAMES) {
    super(`[routecert] unknown contract "${name}". Known contracts: ${known.join(', ')}${didYouMeanTail(name, known) || '.'}`);
    this.name = 'UnknownContractError';
  }
}

/**
 * Load a contract by name: one of `own` (a config's contracts) first, else a preset, with optional
 * window overrides in seconds (a short hard window in tests; applied to presets that retry).
 *
 * @throws UnknownContractError for an unknown name.
 */
export async function loadContract(name: string, overrides: { policy?: Partial<PovPolicy> } = {}, own: readonly Contract[] = []): Promise<Contract> {
  const mine = own.find((c) => c.name === name);
  if (mine) return mine;
  if (!CONTRACT_NAMES.includes(name)) throw new UnknownContractError(name, [...new Set([...own.map((c) => c.name), ...CONTRACT_NAMES])]);
  const p = overrides.policy ?? {};
  return presetContract(name, {
    ...(p.hardWindowS !== undefined || p.retryMinS !== undefined
      ? { retry: { ...(p.hardWindowS !== undefined ? { hardWindowMs: p.hardWindowS * 1000 } : {}), ...(p.retryMinS !== undefined ? { retryMinMs: p.retryMinS * 1000 } : {}) } }
      : {}),
  });
}
