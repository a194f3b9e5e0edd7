/**
 * The registered probe drivers, one per CLI that runs here, in the order `routecert probe --list`
 * and the live probes use them. Derived from the route definitions (src/routes/<cli>/route.ts);
 * add a CLI by adding its folder there.
 */
import type { ProbeDriver } from './driver.ts';
import { ROUTE_DRIVERS } from '#src/routes/index.ts';

/** Every probe driver routecert ships. */
export const PROBE_DRIVERS: readonly ProbeDriver[] = ROUTE_DRIVERS;

/** The driver of `cli` (its routecert name, e.g. `claude`), or `undefined`. */
export function driverFor(cli: string): ProbeDriver | undefined {
  return PROBE_DRIVERS.find((d) => d.cli === cli);
}

/** The driver that runs `route`, or `undefined`. */
export function driverForRoute(route: string): ProbeDriver | undefined {
  return PROBE_DRIVERS.find((d) => d.routes.includes(route));
}
