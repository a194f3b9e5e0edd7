#!/usr/bin/env node
// `npm run ce:failopen -- <compound-engineering-plugin checkout> [fault id...]`: certifies fail-open
// copies of the plugin's ce-pov, ce-code-review and ce-doc-review workers
// (examples/ce-workers/failopen.ts) and writes examples/ce-workers/FAILOPEN.md.
import { register as registerHooks } from 'node:module';
import { register } from 'tsx/esm/api';

// The checkout's sources (`#src/*.ts` resolve to src/, not dist/: bin/source-conditions.js).
registerHooks('./source-conditions.js', import.meta.url);
register();
const { ceFailOpenMain } = await import('../examples/ce-workers/failopen.ts');
process.exitCode = await ceFailOpenMain(process.argv.slice(2));
