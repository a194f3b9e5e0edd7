#!/usr/bin/env node
// `npm run consumers:install`: installs each consumer under examples/consumers/<dir>/ from its own
// package.json and lock (exact pins; kept out of the root package), `npm ci --omit=optional`: the
// packages' bundled native CLIs are left out there; then, for the real-CLI probe, the CLI each
// consumer pins or bundles is installed from npm into examples/consumers/.clis/<package>@<version>/
// (git-ignored; `node bin/consumers.js install-clis` does only that step).
// `npm run consumers:failopen [-- <dir>...]`: certifies fail-open copies (examples/consumers/_kit/failopen.ts)
// and writes examples/consumers/FAILOPEN.md.
// `npm run consumers:certify [-- <dir>...]`: certifies each installed consumer (or those named), writes
// examples/consumers/certificates/<dir>.{json,md} and the matrix (examples/consumers/MATRIX.md,
// and the README between its consumer-matrix markers; the rows of consumers not named come from
// their certificates on disk).
import { register as registerHooks } from 'node:module';
import { register } from 'tsx/esm/api';

// The checkout's sources (`#src/*.ts` resolve to src/, not dist/: bin/source-conditions.js).
registerHooks('./source-conditions.js', import.meta.url);
register();
const { consumersMain } = await import('../examples/consumers/_kit/consumers.ts');
process.exitCode = await consumersMain(process.argv.slice(2));
