#!/usr/bin/env node
// The reference worker (`routecert-worker --route <route> --schema <file> --prompt-file <file> --out <file>`):
// the build in dist/ when installed, the sources in a checkout (bin/load.js); the worker module
// returns the exit code and this file sets it.
import { loadEntry } from './load.js';

const { workerMain } = await loadEntry('worker/cli');
process.exitCode = await workerMain(process.argv.slice(2));
