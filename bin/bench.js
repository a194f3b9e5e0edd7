#!/usr/bin/env node
// `npm run bench`: runs every benchmark in bench/ (TypeScript, through tsx, on the sources: the
// `routecert-source` condition, see bin/load.js).
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

register('./source-conditions.js', import.meta.url);
registerTsx();
const { runBenchmarks } = await import('../bench/index.ts');
process.exitCode = await runBenchmarks(process.argv.slice(2));
