#!/usr/bin/env node
// The `routecert` command: the build in dist/ when installed, the sources in a checkout
// (bin/load.js); the CLI module returns the exit code and this file sets it.
import { loadEntry } from './load.js';

const { main } = await loadEntry('cli/main');
process.exitCode = await main(process.argv.slice(2));
