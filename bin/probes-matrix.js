#!/usr/bin/env node
// `npm run probes:matrix`: install and probe the oldest supported, a middle and the newest release
// of each CLI (probes/matrix.ts, through tsx). Slow; not in CI.
import { register as registerHooks } from 'node:module';
import { register } from 'tsx/esm/api';

// The checkout's sources (`#src/*.ts` resolve to src/, not dist/: bin/source-conditions.js).
registerHooks('./source-conditions.js', import.meta.url);
register();
await import('../probes/matrix.ts');
