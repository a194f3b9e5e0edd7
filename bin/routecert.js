#!/usr/bin/env node
// The `routecert` command. Loads the TypeScript sources through tsx, so a checkout
// needs no build step; the CLI module sets process.exitCode and this file exits.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
const code = await main(process.argv.slice(2));
process.exitCode = code;
