#!/usr/bin/env node
// `npm run readme:routes`: rewrites the route table in README.md from the route definitions
// (src/routes/<cli>/route.ts). `--check` only reports whether it is stale (exit 1 when it is).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const { withRoutesTable } = await import('../src/routes/index.ts');
const file = fileURLToPath(new URL('../README.md', import.meta.url));
const before = readFileSync(file, 'utf8');
const after = withRoutesTable(before);
if (process.argv.includes('--check')) {
  if (after !== before) process.stderr.write('[routecert] README.md route table is stale: run `npm run readme:routes`\n');
  process.exitCode = after === before ? 0 : 1;
} else if (after !== before) {
  writeFileSync(file, after);
  process.stdout.write('README.md: route table rewritten from src/routes/<cli>/route.ts\n');
} else {
  process.stdout.write('README.md: route table is up to date\n');
}
