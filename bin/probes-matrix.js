#!/usr/bin/env node
// `npm run probes:matrix`: install and probe the oldest supported, a middle and the newest release
// of each CLI (probes/matrix.ts, through tsx). Slow; not in CI.
import { register } from 'tsx/esm/api';

register();
await import('../probes/matrix.ts');
