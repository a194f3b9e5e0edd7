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
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { certify } from '../../../src/harness/certify/certify.ts';
import { certificateMarkdown, type Certificate } from '../../../src/harness/certify/certificate.ts';
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

/** The pinned version of `pkg` in the consumer's package.json. */
export function pinnedVersion(c: Consumer): string {
  return (JSON.parse(readFileSync(path.join(ROOT, c.dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies[c.pkg]!;
}

/**
 * Certify one installed consumer (fake CLIs replaying the corpus, or the Gemini mock) and, where the
 * real CLI is installed in probes/node_modules, add the hermetic probe (real CLI against the
 * provider mock) as a second route of the certificate. Never throws for what the consumer does.
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
    const driver = driverForRoute(route);
    const real = driver ? projectPath('probes/node_modules/.bin', driver.bin) : null;
    if (!driver || !real || !existsSync(real)) {
      process.stdout.write(`  ${c.pkg}: no real ${driver?.bin ?? route} in probes/node_modules (npm run probes:install): hermetic probe skipped\n`);
      continue;
    }
    const version = (JSON.parse(readFileSync(projectPath('probes/node_modules', driver.npmPackage, 'package.json'), 'utf8')) as { version: string }).version;
    cert.routes.push(await probeConsumerWithRealCli(loaded, route, real, version, c.probeSchema));
  }
  return cert;
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
    const probeCell = !probe
      ? c.drive === 'fake-cli' ? 'not run (real CLI not installed)' : 'n/a (no CLI)'
      : probeAll.every((k) => k.status === 'pass')
        ? `certified (${probeAll.length}/${probeAll.length}: ${probe.cli.name} ${probe.cli.version})`
        : `**failed** ${probeAll.filter((k) => k.status !== 'pass').map((k) => k.id).join(', ')} (${probe.cli.name} ${probe.cli.version})`;
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
    `Each cell is the check of examples/consumers/certificates/<consumer>.md (\`npm run consumers:certify\`, ${rows[0]?.cert.header.startedAt.slice(0, 10) ?? ''}, routecert ${rows[0]?.cert.header.toolVersion ?? ''}): the consumer runs unchanged behind routecert's fake CLI replaying the corpus, which reports the CLI version the consumer pins or bundles (the CLI column; the cases were recorded with the version named after it), or, for the Gemini provider, against routecert's Gemini mock. A smoke failure is the consumer's, and every other check still runs. The last column is the hermetic probe: the consumer drives the real CLI installed by \`npm run probes:install\` against routecert's provider mock (smoke-final, smoke-prose-only, provider-error). Failures, with the case that shows them and what the consumer does (findings: examples/consumers/FINDINGS.md):`,
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

/** `install`, `certify [dir...]` or `failopen [dir...]` (./failopen.ts); returns the exit code. */
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
    }
    process.stdout.write(`consumers installed in ${Math.round((Date.now() - started) / 1000)} s\n`);
    return 0;
  }
  if (command === 'failopen') {
    const { failOpenMain } = await import('./failopen.ts');
    return failOpenMain(rest);
  }
  if (command !== 'certify') {
    process.stderr.write('usage: node bin/consumers.js install|certify|failopen [dir...]\n');
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
  if (rows.length === CONSUMERS.length) {
    const matrix = matrixMarkdown(rows);
    await writeFile(path.join(ROOT, 'MATRIX.md'), `# Consumer matrix\n\nWritten by \`npm run consumers:certify\`; consumer x behaviour.\n\n${matrix}`);
    const readmeFile = projectPath('README.md');
    const readme = await readFile(readmeFile, 'utf8');
    await writeFile(readmeFile, withMatrix(readme, matrix));
    process.stdout.write('matrix: examples/consumers/MATRIX.md and README.md\n');
  }
  return exitCode;
}
