#!/usr/bin/env node
// `npm run readme:commands`: rewrites the generated tables of README.md: the command table from the
// option table (src/cli/commandTable.ts), the one `routecert --help` is built from, and the columns
// of the behaviour matrix from the list the matrix is built from (src/report/matrix.ts).
// `--check` only reports whether one is stale (exit 1 when it is).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEntry } from './load.js';

const { withReadmeTables } = await loadEntry('cli/commandTable');
const file = fileURLToPath(new URL('../README.md', import.meta.url));
const before = readFileSync(file, 'utf8');
const after = withReadmeTables(before);
if (process.argv.includes('--check')) {
  if (after !== before) process.stderr.write('[routecert] README.md generated tables are stale: run `npm run readme:commands`\n');
  process.exitCode = after === before ? 0 : 1;
} else if (after !== before) {
  writeFileSync(file, after);
  process.stdout.write('README.md: generated tables rewritten from src/cli/commandTable.ts and src/report/matrix.ts\n');
} else {
  process.stdout.write('README.md: generated tables are up to date\n');
}
