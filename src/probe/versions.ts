/** The version tables of the probe drivers, declared with the routes (src/routes/versions.ts). */
export * from '#src/routes/versions.ts';
