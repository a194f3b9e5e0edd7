/**
 * The probe driver types, declared with the routes that fill them (src/routes/driver.ts): a route
 * folder owns its probe, so the types sit below the probe runner, which reads them.
 */
export type * from '#src/routes/driver.ts';
