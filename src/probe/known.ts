/**
 * The CLIs routecert knows: npm package, binary name, routes, and whether it can probe them
 * hermetically here. Derived from the route definitions (src/routes/<cli>/route.ts); a CLI is
 * `hermetic: 'yes'` when its definition has a probe (a provider mock and a plan).
 */
import { ROUTE_KNOWN_CLIS } from '#src/routes/index.ts';
import type { KnownCli } from '#src/routes/index.ts';

/** Every CLI routecert knows, in the order `routecert probe --list` prints them. */
export const KNOWN_CLIS: readonly KnownCli[] = ROUTE_KNOWN_CLIS;

export type { KnownCli };
