#!/usr/bin/env node
// `npm run bench`: runs every benchmark in bench/ (TypeScript, through tsx).
import { register } from 'tsx/esm/api';

register();
const { runBenchmarks } = await import('../bench/index.ts');
process.exitCode = await runBenchmarks(process.argv.slice(2));
