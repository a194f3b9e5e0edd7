/**
 * The consumers routecert certifies (issue 14) and the two commands behind `npm run
 * consumers:install` and `npm run consumers:certify`.
 *
 * Each consumer lives in examples/consumers/<dir>/: package.json (exact pins) and its lock,
 * adapter.mjs (calls the package's public API, writes the caller's outcome), routecert.config.ts.
 * Certificates go to examples/consumers/certificates/<dir>.{json,md}; the matrix to
 * examples/consumers/MATRIX.md and to README.md between `<!-- consumer-matrix:start -->` and
 * `<!-- consumer-matrix:end -->`.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { certify } from '../../../src/harness/certify/certify.ts';
import { certificateMarkdown, type Certificate, type CertifiedCli } from '../../../src/harness/certify/certificate.ts';
import { loadConfig } from '../../../src/harness/certify/config.ts';
import { CONSUMER_CHECKS } from '../../../src/harness/certify/consumer.ts';
import { certifyAgainstGeminiMock } from '../../../src/harness/certify/consumerMock.ts';
import { projectPath } from '../../../src/paths.ts';
import { probeConsumerWithRealCli } from '../../../src/harness/certify/consumerProbe.ts';
import { driverForRoute } from '../../../src/probe/drivers.ts';

/**
 * One consumer: its folder, its npm package, and how it is driven: `fake-cli` (it spawns a CLI:
 * routecert's fake CLI replays the corpus) or `gemini-mock` (it runs the CLI's core in process:
 * routecert's Gemini mock answers it); `core` names the package whose version the certificate shows.
 */
export interface Consumer {
  dir: string;
  pkg: string;
  drive: 'fake-cli' | 'gemini-mock';
  core?: string;
  /** For the hermetic probe with the real CLI: a schema the provider accepts (Codex's is OpenAI-strict). */
  probeSchema?: string;
  /**
   * The CLI the consumer pins or bundles, which it is certified with by default: the version of
   * package `pkg` in the consumer's node_modules (`dependency`), the `claudeCodeVersion` that
   * package bundles (`bundled`), or, when the package is an optional dependency `npm run
   * consumers:install` leaves out, the lowest version of the range the consumer declares (`range`).
   */
  cliPin?: { kind: 'dependency' | 'bundled' | 'range'; pkg: string };
}

/** The POV schema in OpenAI's strict subset: the Responses API refuses the production one under Codex's strict `text.format`. */
const STRICT_POV = 'schemas/contracts/pov.openai-strict.schema.json';

/** The five consumers of issue 14. */
export const CONSUMERS: readonly Consumer[] = [
  { dir: 'claude-agent-sdk', pkg: '@anthropic-ai/claude-agent-sdk', drive: 'fake-cli', cliPin: { kind: 'bundled', pkg: '@anthropic-ai/claude-agent-sdk' } },
  { dir: 'codex-sdk', pkg: '@openai/codex-sdk', drive: 'fake-cli', probeSchema: STRICT_POV, cliPin: { kind: 'dependency', pkg: '@openai/codex' } },
  { dir: 'ai-sdk-provider-claude-code', pkg: 'ai-sdk-provider-claude-code', drive: 'fake-cli', cliPin: { kind: 'bundled', pkg: '@anthropic-ai/claude-agent-sdk' } },
  { dir: 'ai-sdk-provider-codex-cli', pkg: 'ai-sdk-provider-codex-cli', drive: 'fake-cli', probeSchema: STRICT_POV, cliPin: { kind: 'range', pkg: '@openai/codex' } },
  { dir: 'ai-sdk-provider-gemini-cli', pkg: 'ai-sdk-provider-gemini-cli', drive: 'gemini-mock', core: '@google/gemini-cli-core' },
];

const ROOT = projectPath('examples/consumers');

/** The installed version of `pkg` in consumer folder `dir`, or null when `npm run consumers:install` did not install it. */
export function installedVersion(dir: string, pkg: string): string | null {
  const file = path.join(ROOT, dir, 'node_modules', pkg, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : null;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

/**
 * The CLI version consumer `c` pins or bundles, and where it comes from (for the certificate), or
 * null when it states none or is not installed.
 */
export function pinnedCli(c: Consumer): { version: string; source: string } | null {
  const pin = c.cliPin;
  const own = installedVersion(c.dir, c.pkg);
  if (!pin || own === null) return null;
  const at = `${c.pkg}@${own}`;
  const file = path.join(ROOT, c.dir, 'node_modules', pin.pkg, 'package.json');
  if (pin.kind === 'bundled') {
    if (!existsSync(file)) return null;
    const p = readJson(file);
    const via = pin.pkg === c.pkg ? at : `${pin.pkg}@${String(p.version)}, the dependency of ${at}`;
    return typeof p.claudeCodeVersion === 'string' ? { version: p.claudeCodeVersion, source: `bundled by ${via} (claudeCodeVersion)` } : null;
  }
  if (pin.kind === 'dependency') {
    if (!existsSync(file)) return null;
    return { version: String(readJson(file).version), source: `pinned by ${at} (dependencies: ${pin.pkg})` };
  }
  const manifest = readJson(path.join(ROOT, c.dir, 'node_modules', c.pkg, 'package.json'));
  const range = ['dependencies', 'optionalDependencies', 'peerDependencies'].map((k) => (manifest[k] as Record<string, string> | undefined)?.[pin.pkg]).find((v) => v !== undefined);
  // The lower bound of a `^x.y.z`, `~x.y.z` or `>=x.y.z` range is the first version it names.
  const lowest = range && /^\s*(?:\^|~|>=)?\s*(\d+\.\d+\.\d+)/.exec(range)?.[1];
  return lowest ? { version: lowest, source: `the lowest version of ${at}'s range ${pin.pkg} ${range} (an optional dependency consumers:install leaves out)` } : null;
}

/**
 * Where `npm run consumers:install` installs the CLI each consumer pins or bundles, from the npm
 * registry, one folder per package and version (`<package>@<version>/`, git-ignored): the real-CLI
 * probe runs that CLI, not the probes' one (probes/package.json).
 */
export const PINNED_CLI_DIR = path.join(ROOT, '.clis');

/**
 * The npm package that carries the CLI consumer `c` pins or bundles, and where it is installed:
 * - `bundled`: the platform package the consumer's SDK bundles its binary in
 *   (`@anthropic-ai/claude-agent-sdk-linux-x64@0.3.328` holds the `claude` 2.1.328 the SDK runs);
 * - `dependency`, `range`: the CLI's own package at the pinned version (`@openai/codex@0.163.0`,
 *   whose wrapper runs its native optional dependency).
 * `bin` is the executable once installed (null when it is not); `cli` the routecert name of the CLI.
 */
export interface PinnedCliPackage {
  cli: string;
  version: string;
  source: string;
  name: string;
  packageVersion: string;
  dir: string;
  bin: string | null;
}

/** The platform suffix of the packages that carry native binaries here (`linux-x64`). */
const PLATFORM = `${process.platform}-${process.arch}`;

/** The package of the CLI consumer `c` pins or bundles (see {@link PinnedCliPackage}), or null when it states none or is not installed. */
export function pinnedCliPackage(c: Consumer, cli: string, cliDir = PINNED_CLI_DIR): PinnedCliPackage | null {
  const pinned = pinnedCli(c);
  if (!pinned || !c.cliPin) return null;
  const bundled = c.cliPin.kind === 'bundled';
  const name = bundled ? `${c.cliPin.pkg}-${PLATFORM}` : c.cliPin.pkg;
  const packageVersion = bundled ? String(readJson(path.join(ROOT, c.dir, 'node_modules', c.cliPin.pkg, 'package.json')).version) : pinned.version;
  const dir = path.join(cliDir, `${name.replace('/', '+')}@${packageVersion}`);
  return { cli, version: pinned.version, source: pinned.source, name, packageVersion, dir, bin: installedBin(dir, name, cli) };
}

/** The executable of package `name` installed in `dir`: its package.json `bin` for `cli`, else a file named `cli` in the package (a platform package). */
function installedBin(dir: string, name: string, cli: string): string | null {
  const pkgDir = path.join(dir, 'node_modules', name);
  const manifest = path.join(pkgDir, 'package.json');
  if (!existsSync(manifest)) return null;
  const bin = readJson(manifest).bin as string | Record<string, string> | undefined;
  const rel = typeof bin === 'string' ? bin : bin?.[cli] ?? cli;
  const file = path.join(pkgDir, rel);
  return existsSync(file) ? file : null;
}

/**
 * Install the CLI consumer `c` pins or bundles from the npm registry into its {@link PINNED_CLI_DIR}
 * folder (an exact pin; optional native packages included), unless it is there already. Returns
 * what was done, one line.
 */
export async function installPinnedCli(c: Consumer, cli: string): Promise<string> {
  const p = pinnedCliPackage(c, cli);
  if (!p) return `${c.pkg}: no pinned or bundled CLI (or the consumer is not installed)`;
  const where = path.relative(projectPath('.'), p.dir);
  if (p.bin) return `${p.name}@${p.packageVersion} (${cli} ${p.version}) already in ${where}`;
  await mkdir(p.dir, { recursive: true });
  const manifest = { name: 'routecert-pinned-cli', private: true, description: `The ${cli} ${p.version} ${p.source}; installed by npm run consumers:install for the real-CLI probe.`, dependencies: { [p.name]: p.packageVersion } };
  await writeFile(path.join(p.dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: p.dir, maxBuffer: 64 * 1024 * 1024 });
  return `${p.name}@${p.packageVersion} (${cli} ${p.version}) installed in ${where}`;
}

/**
 * The version a CLI executable reports (`<bin> --version`, its first x.y.z), or why there is none.
 * Run with an empty HOME under `root`, offline: it only prints its version.
 */
export async function reportedVersion(bin: string, root: string): Promise<{ version: string } | { problem: string }> {
  try {
    const { stdout } = await promisify(execFile)(bin, ['--version'], { timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: root, NO_COLOR: '1' } });
    const m = /(\d+\.\d+\.\d+)/.exec(stdout);
    return m ? { version: m[1]! } : { problem: `\`${path.basename(bin)} --version\` printed no version: ${JSON.stringify(stdout.slice(0, 80))}` };
  } catch (error) {
    return { problem: `\`${path.basename(bin)} --version\` failed: ${(error as Error).message.split('\n')[0]}` };
  }
}

/** The pinned version of `pkg` in the consumer's package.json. */
export function pinnedVersion(c: Consumer): string {
  return (JSON.parse(readFileSync(path.join(ROOT, c.dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies[c.pkg]!;
}

/**
 * Certify one installed consumer (fake CLIs replaying the corpus, or the Gemini mock) and add the
 * hermetic probe (a real CLI against the provider mock: the one the consumer pins or bundles, see
 * {@link realCliFor}) as a second route of the certificate. Never throws for what the consumer does.
 */
export async function certifyConsumer(c: Consumer, options: { checks?: string[]; probe?: boolean } = {}): Promise<Certificate> {
  const loaded = await loadConfig(path.join(ROOT, c.dir, 'routecert.config.ts'));
  if (c.drive === 'gemini-mock') {
    const core = c.core ?? c.pkg;
    return (await certifyAgainstGeminiMock(loaded, { name: core, version: installedVersion(c.dir, core) ?? 'unknown' }, { subject: { name: c.pkg, version: installedVersion(c.dir, c.pkg) ?? 'unknown' } })).certificate;
  }
  const subject = { name: c.pkg, version: installedVersion(c.dir, c.pkg) ?? 'unknown' };
  const cli = pinnedCli(c);
  const cert = (await certify(loaded, { ...(options.checks ? { checks: options.checks } : {}), subject, ...(cli ? { cli } : {}) })).certificate;
  if (options.probe === false) return cert;
  for (const route of loaded.config.routes) {
    const real = await realCliFor(c, route);
    if ('skip' in real) {
      process.stdout.write(`  ${c.pkg}: ${real.skip}: hermetic probe skipped\n`);
      continue;
    }
    if (real.cli.pinned) process.stdout.write(`  ${c.pkg}: ${real.cli.source}\n`);
    cert.routes.push(await probeConsumerWithRealCli(loaded, route, real.bin, real.cli, c.probeSchema));
  }
  return cert;
}

/**
 * The real CLI the hermetic probe of consumer `c` runs on `route`: the version the consumer pins or
 * bundles, installed by `npm run consumers:install` ({@link PINNED_CLI_DIR}) and reporting that
 * version; else the probes' CLI (probes/node_modules), the certificate saying which version ran,
 * the one pinned (`cli.pinned`) and why they differ; `skip` when there is no real CLI at all.
 * `cliDir`: where the pinned CLIs are installed; @default {@link PINNED_CLI_DIR}.
 */
export async function realCliFor(c: Consumer, route: string, cliDir = PINNED_CLI_DIR): Promise<{ bin: string; cli: CertifiedCli } | { skip: string }> {
  const driver = driverForRoute(route);
  if (!driver) return { skip: `no probe driver serves ${route}` };
  const pinned = pinnedCliPackage(c, driver.cli, cliDir);
  let why = pinned ? `${pinned.name}@${pinned.packageVersion} is not installed in ${path.relative(projectPath('.'), pinned.dir)} (npm run consumers:install)` : '';
  if (pinned?.bin) {
    const root = await mkdtemp(path.join(tmpdir(), 'routecert-cli-version-'));
    const reported = await reportedVersion(pinned.bin, root).finally(() => rm(root, { recursive: true, force: true }));
    const from = `${pinned.source}; installed from npm as ${pinned.name}@${pinned.packageVersion}`;
    if ('version' in reported && reported.version === pinned.version) return { bin: pinned.bin, cli: { name: driver.cli, version: pinned.version, source: from } };
    if ('version' in reported) return { bin: pinned.bin, cli: { name: driver.cli, version: reported.version, source: `${from}, which reports ${reported.version}`, pinned: pinned.version } };
    why = `${pinned.name}@${pinned.packageVersion} does not run here: ${reported.problem}`;
  }
  const probes = projectPath('probes/node_modules/.bin', driver.bin);
  if (!existsSync(probes)) return { skip: `${pinned ? `${why}, and no` : 'no'} real ${driver.bin} in probes/node_modules (npm run probes:install)` };
  const version = String(readJson(projectPath('probes/node_modules', driver.npmPackage, 'package.json')).version);
  if (!pinned) return { bin: probes, cli: { name: driver.cli, version, source: `the probes' CLI (probes/package.json); ${c.pkg} pins or bundles none` } };
  if (version === pinned.version) return { bin: probes, cli: { name: driver.cli, version, source: `${pinned.source}; the probes' CLI (probes/package.json) is that version` } };
  return { bin: probes, cli: { name: driver.cli, version, source: `the probes' CLI (probes/package.json), not the ${pinned.version} ${pinned.source}: ${why}`, pinned: pinned.version } };
}

/** A failure's evidence without its run label (up to the first ": ") and with process ids masked: one line on what the consumer does. */
function whatItDoes(evidence: string): string {
  const i = evidence.indexOf(': ');
  return (i >= 0 ? evidence.slice(i + 2) : evidence).replace(/\(pid \d+\)/g, '(pid <pid>)').replace(/process group \d+/g, 'process group <pid>').replace(/\|/g, '\\|');
}

const MARK = { pass: 'certified', fail: '**failed**', skipped: 'n/a' } as const;

/** The matrix consumer x behaviour as markdown, with each failure's case and what the consumer does. */
export function matrixMarkdown(rows: { c: Consumer; version: string; cert: Certificate }[]): string {
  const ids = CONSUMER_CHECKS.map((d) => d.id);
  const lines = [
    `| consumer | CLI (replayed or mocked) | ${ids.join(' | ')} | real CLI vs provider mock |`,
    `|---|---|${ids.map(() => '---').join('|')}|---|`,
  ];
  const failures: string[] = [];
  const notes: string[] = [];
  for (const { c, version, cert } of rows) {
    const r = cert.routes[0]!;
    const byId = new Map([...r.smoke, ...r.checks].map((k) => [k.id, k]));
    const probe = cert.routes[1];
    const probeAll = probe ? [...probe.smoke, ...probe.checks] : [];
    const ran = probe ? `${probe.cli.name} ${probe.cli.version}${probe.cli.pinned ? `, **not the pinned ${probe.cli.pinned}**` : ''}` : '';
    const probeCell = !probe
      ? c.drive === 'fake-cli' ? 'not run (real CLI not installed)' : 'n/a (no CLI)'
      : probeAll.every((k) => k.status === 'pass')
        ? `certified (${probeAll.length}/${probeAll.length}: ${ran})`
        : `**failed** ${probeAll.filter((k) => k.status !== 'pass').map((k) => k.id).join(', ')} (${ran})`;
    const recorded = r.cli.casesRecordedWith ? `; cases recorded with ${r.cli.casesRecordedWith}` : '';
    const pinned = r.cli.source ? (r.cli.source.startsWith('bundled') ? 'bundled' : r.cli.source.startsWith('pinned') ? 'pinned' : 'lowest in range') : 'as recorded';
    lines.push(`| \`${c.pkg}@${version}\` | ${r.cli.name} ${r.cli.version} (${pinned}${recorded}; ${r.route}) | ${ids.map((id) => MARK[byId.get(id)?.status ?? 'skipped']).join(' | ')} | ${probeCell} |`);
    for (const k of probeAll) if (k.status === 'fail') failures.push(`- \`${c.pkg}@${version}\` **${k.id}** with the real CLI (${k.cases.join(', ')}): ${whatItDoes(k.evidence[0] ?? '')}`);
    for (const k of [...r.smoke, ...r.checks]) {
      if (k.status === 'fail') failures.push(`- \`${c.pkg}@${version}\` **${k.id}** (${k.cases.map((x) => `case ${x}`).join(', ')}): ${whatItDoes(k.evidence[0] ?? '')}`);
      if (k.status === 'skipped' && c.drive !== 'fake-cli') notes.push(`- \`${c.pkg}\` ${k.id}: n/a, ${k.reason}`);
    }
  }
  return [
    ...lines,
    '',
    `Each cell is the check of examples/consumers/certificates/<consumer>.md (\`npm run consumers:certify\`, ${rows[0]?.cert.header.startedAt.slice(0, 10) ?? ''}, routecert ${rows[0]?.cert.header.toolVersion ?? ''}): the consumer runs unchanged behind routecert's fake CLI replaying the corpus, which reports the CLI version the consumer pins or bundles (the CLI column; the cases were recorded with the version named after it), or, for the Gemini provider, against routecert's Gemini mock. A smoke failure is the consumer's, and every other check still runs. The last column is the hermetic probe: the consumer drives the real CLI it pins or bundles, that version installed from npm by \`npm run consumers:install\` (examples/consumers/.clis), against routecert's provider mock (smoke-final, smoke-prose-only, provider-error); a probe that ran another version says so. Failures, with the case that shows them and what the consumer does (findings: examples/consumers/FINDINGS.md):`,
    '',
    ...(failures.length > 0 ? failures : ['- none']),
    ...(notes.length > 0 ? ['', 'Not applicable:', '', ...notes] : []),
    '',
  ].join('\n');
}

/** Replace the README's matrix between its markers (kept when the markers are missing). */
export function withMatrix(readme: string, matrix: string): string {
  const start = '<!-- consumer-matrix:start -->';
  const end = '<!-- consumer-matrix:end -->';
  const a = readme.indexOf(start);
  const b = readme.indexOf(end);
  if (a < 0 || b < a) return readme;
  return `${readme.slice(0, a + start.length)}\n${matrix}${readme.slice(b)}`;
}

/** Install the CLI consumer `c` pins or bundles for each route it spawns (its native binary included), for the real-CLI probe. */
async function installClisOf(c: Consumer): Promise<void> {
  if (!c.cliPin) return;
  for (const route of (await loadConfig(path.join(ROOT, c.dir, 'routecert.config.ts'))).config.routes) {
    const driver = driverForRoute(route);
    if (driver) process.stdout.write(`  ${await installPinnedCli(c, driver.cli)}\n`);
  }
}

/** `install [dir...]`, `install-clis [dir...]` (only the CLIs the consumers pin or bundle), `certify [dir...]` or `failopen [dir...]` (./failopen.ts); returns the exit code. */
export async function consumersMain(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const chosen = rest.length > 0 ? CONSUMERS.filter((c) => rest.includes(c.dir) || rest.includes(c.pkg)) : CONSUMERS;
  if (command === 'install') {
    const started = Date.now();
    for (const c of chosen) {
      const dir = path.join(ROOT, c.dir);
      const verb = existsSync(path.join(dir, 'package-lock.json')) ? 'ci' : 'install';
      process.stdout.write(`npm ${verb} in examples/consumers/${c.dir} (${c.pkg}@${pinnedVersion(c)})\n`);
      await promisify(execFile)('npm', [verb, '--omit=optional', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
      await installClisOf(c);
    }
    process.stdout.write(`consumers installed in ${Math.round((Date.now() - started) / 1000)} s\n`);
    return 0;
  }
  if (command === 'install-clis') {
    const started = Date.now();
    for (const c of chosen) await installClisOf(c);
    process.stdout.write(`pinned CLIs installed in ${Math.round((Date.now() - started) / 1000)} s\n`);
    return 0;
  }
  if (command === 'failopen') {
    const { failOpenMain } = await import('./failopen.ts');
    return failOpenMain(rest);
  }
  if (command !== 'certify') {
    process.stderr.write('usage: node bin/consumers.js install|install-clis|certify|failopen [dir...]\n');
    return 2;
  }
  const rows: { c: Consumer; version: string; cert: Certificate }[] = [];
  let exitCode = 0;
  await mkdir(path.join(ROOT, 'certificates'), { recursive: true });
  for (const [i, c] of chosen.entries()) {
    const version = installedVersion(c.dir, c.pkg);
    if (version === null) {
      process.stderr.write(`[routecert] ${c.pkg} is not installed in examples/consumers/${c.dir}: run \`npm run consumers:install\` first\n`);
      exitCode = 3;
      continue;
    }
    // Progress (issue 22): what runs and how many are left, and a line every 20 s while one runs.
    process.stdout.write(`[${i + 1}/${chosen.length}] certifying ${c.pkg}@${version} (${chosen.length - i - 1} left after it)\n`);
    const started = Date.now();
    const beat = setInterval(() => process.stdout.write(`  still certifying ${c.pkg}@${version}: ${Math.round((Date.now() - started) / 1000)} s\n`), 20_000);
    const cert = await certifyConsumer(c).finally(() => clearInterval(beat));
    const r = cert.routes[0]!;
    for (const x of cert.routes) process.stdout.write(`${c.pkg}@${version} on ${x.route}: ${x.status} (${x.summary.pass} passed, ${x.summary.fail} failed, ${x.summary.skipped} n/a)\n`);
    await writeFile(path.join(ROOT, 'certificates', `${c.dir}.json`), `${JSON.stringify(cert, null, 2)}\n`);
    await writeFile(path.join(ROOT, 'certificates', `${c.dir}.md`), certificateMarkdown(cert));
    rows.push({ c, version, cert });
    if (r.status === 'adapter-broken' || r.status === 'could-not-run') exitCode = 3;
  }
  // A subset certified: the others' rows come from their certificates on disk, when all are there.
  const others = CONSUMERS.filter((c) => !chosen.includes(c)).map((c) => ({ c, file: path.join(ROOT, 'certificates', `${c.dir}.json`) }));
  if (rows.length === chosen.length && others.every((o) => existsSync(o.file))) {
    for (const { c, file } of others) {
      const cert = JSON.parse(await readFile(file, 'utf8')) as Certificate;
      rows.push({ c, version: cert.header.subject?.version ?? pinnedVersion(c), cert });
    }
    rows.sort((a, b) => CONSUMERS.indexOf(a.c) - CONSUMERS.indexOf(b.c));
    const matrix = matrixMarkdown(rows);
    await writeFile(path.join(ROOT, 'MATRIX.md'), `# Consumer matrix\n\nWritten by \`npm run consumers:certify\`; consumer x behaviour.\n\n${matrix}`);
    const readmeFile = projectPath('README.md');
    const readme = await readFile(readmeFile, 'utf8');
    await writeFile(readmeFile, withMatrix(readme, matrix));
    process.stdout.write('matrix: examples/consumers/MATRIX.md and README.md\n');
  }
  return exitCode;
}
