/**
 * Tiny misbehaving programs for the reaping tests (src/process, src/probe, src/harness/certify),
 * written into a folder the test owns. Each is a Node script run with `process.execPath`.
 *
 * - `escapee`: starts a grandchild that leaves the process group and the session (a double fork:
 *   an intermediate process spawns it detached, i.e. `setsid()`, and exits), ignores SIGTERM and
 *   sleeps; writes the grandchild's pid to `<dir>/escapee.pid`; then prints `ready` and either hangs
 *   (`hang`) or exits 0 (`exit`).
 * - `holder`: prints a JSON envelope, starts a child that keeps stdout open and ignores SIGTERM
 *   (like an MCP server), writes its pid to `<dir>/holder.pid`, then exits 0.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const GRANDCHILD = `process.on('SIGTERM', () => {}); require('node:fs').writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000);`;

/** Source of the `escapee` script; argv: `<pidFile> hang|exit`. */
const ESCAPEE = `
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const [pidFile, mode] = process.argv.slice(2);
// Double fork: the intermediate starts the grandchild in a new session, then exits.
const middle = spawn(process.execPath, ['-e', ${JSON.stringify(`require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(GRANDCHILD)}, process.argv[1]], { detached: true, stdio: 'ignore' }).unref();`)}, pidFile], { stdio: 'ignore' });
middle.on('exit', () => {
  const wait = setInterval(() => {
    if (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, 'utf8') === '') return;
    clearInterval(wait);
    process.stdout.write('ready\\n');
    if (mode === 'exit') process.exit(0);
    setInterval(() => {}, 1000);
  }, 20);
});
`;

/** Source of the `holder` script; argv: `<pidFile> <envelope line>`. */
const HOLDER = `
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const [pidFile, line] = process.argv.slice(2);
const child = spawn(process.execPath, ['-e', ${JSON.stringify(GRANDCHILD)}, pidFile], { stdio: ['ignore', 'inherit', 'inherit'] });
const wait = setInterval(() => {
  if (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, 'utf8') === '') return;
  clearInterval(wait);
  process.stdout.write(line + '\\n', () => process.exit(0));
}, 20);
child.unref();
`;

/** Write both scripts into `dir`; returns their paths and pid files. */
export function writeReapFixtures(dir: string): { escapee: string; escapeePid: string; holder: string; holderPid: string } {
  const escapee = path.join(dir, 'escapee.cjs');
  const holder = path.join(dir, 'holder.cjs');
  writeFileSync(escapee, ESCAPEE);
  writeFileSync(holder, HOLDER);
  return { escapee, escapeePid: path.join(dir, 'escapee.pid'), holder, holderPid: path.join(dir, 'holder.pid') };
}
