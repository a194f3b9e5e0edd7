/**
 * The environment properties check against: routecert's decoders (or a list with a test's decoder
 * prepended) and the pov contract from schemas/contracts.
 */
import { loadContract } from '#src/contract/registry.ts';
import { defaultDecoders } from '#src/routes/registry.ts';
import type { RouteDecoder } from '#src/envelope/types.ts';
import type { PropertyEnv } from './types.ts';

/**
 * Build a {@link PropertyEnv}.
 *
 * @param options - `decoders` (default {@link defaultDecoders}); prepend a decoder with
 *   `withDecoders([mine])` to check it.
 * @throws Error when the pov contract cannot be loaded.
 *
 * @example
 * const env = await propertyEnv({ decoders: withDecoders([myDecoder]) });
 */
export async function propertyEnv(options: { decoders?: RouteDecoder[] } = {}): Promise<PropertyEnv> {
  return { decoders: options.decoders ?? defaultDecoders(), contract: await loadContract('pov') };
}
