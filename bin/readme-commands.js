#!/usr/bin/env node
// `npm run readme:commands`: rewrites the command table in README.md from the option table
// (src/cli/commandTable.ts), the one `routecert --help` is built from. `--check` only reports
// whether it is stale (exit 1 when it is).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEntry } from './load.js';

const { withCommandsTable } = await loadEntry('cli/commandTable');
const file = fileURLToPath(new URL('../README.md', import.meta.url));
const before = readFileSync(file, 'utf8');
const after = withCommandsTable(before);
if (process.argv.includes('--check')) {
  if (after !== before) process.stderr.write('[routecert] README.md command table is stale: run `npm run readme:commands`\n');
  process.exitCode = after === before ? 0 : 1;
} else if (after !== before) {
  writeFileSync(file, after);
  process.stdout.write('README.md: command table rewritten from src/cli/commandTable.ts\n');
} else {
  process.stdout.write('README.md: command table is up to date\n');
}
