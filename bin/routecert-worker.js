#!/usr/bin/env node
// The reference worker (`routecert-worker --route <route> --schema <file> --prompt-file <file> --out <file>`).
// Loads the TypeScript sources through tsx, so a checkout needs no build step; the worker module
// returns the exit code and this file sets it.
import { register } from 'tsx/esm/api';

register();
const { workerMain } = await import('../src/worker/cli.ts');
process.exitCode = await workerMain(process.argv.slice(2));
