/**
 * The certificate: for one worker and each route, the CLI version the replayed cases were recorded
 * with, the contract, the smoke result and every check with pass / fail / skipped-with-reason and
 * its evidence. Written as `certificate.json` (versioned, schemas/certificate.schema.json) and
 * `certificate.md`. Opens with a header and closes with a footer, so a cut-short file is detectable
 * (STYLE.md item 12).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { sealReport, writeJson } from '#src/report/bound.ts';
import { redactOutput } from '#src/diagnostics/redact.ts';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compileValidator } from '#src/contract/validator.ts';
import type { VerdictName } from '#src/contract/types.ts';
import type { Milliseconds } from '#src/envelope/types.ts';
import { PACKAGE_VERSION, projectPath } from '#src/paths.ts';

/** The version of certificate.json's shape. */
export const CERTIFICATE_VERSION = 1;

/**
 * One check's result.
 * - `status`: `pass`, `fail`, or `skipped` (with `reason`: the route has no case for it, it does not
 *   apply, or the smoke failed);
 * - `evidence`: why, one line each (failures name the run and what differed);
 * - `cases`: the corpus cases replayed, as `<id> (<route>/<slug>)` (replay keys);
 * - `covers`: the behaviours it pins; `expectedVerdict`: the pov verdict the worker should reach.
 */
export interface CheckResult {
  id: string;
  title: string;
  status: 'pass' | 'fail' | 'skipped';
  reason?: string;
  evidence: string[];
  cases: string[];
  covers: string[];
  expectedVerdict: VerdictName | null;
  durationMs: Milliseconds;
}

/**
 * The CLI a route was certified with.
 * - `name`, `version`: the CLI and the version the fake CLI reported (`--version`): by default the
 *   version the replayed cases were recorded with; for a consumer, the CLI it pins or bundles;
 * - `source`: where the version comes from (`pinned by @openai/codex-sdk@0.163.0 (dependencies)`);
 * - `casesRecordedWith`: the version the replayed cases were recorded with, when it differs;
 * - `pinned`: the version the consumer pins or bundles, only when the CLI that ran is another one
 *   (the real-CLI probe without the pinned CLI installed): `source` says why.
 */
export interface CertifiedCli {
  name: string;
  version: string;
  source?: string;
  casesRecordedWith?: string;
  pinned?: string;
}

/**
 * One route of the certificate.
 * - `cli`: the CLI behind the route (see {@link CertifiedCli});
 * - `status`: `certified` (every check ran, or does not apply, and none failed), `partial` (the
 *   checks that ran passed, but a filter (`--check`) left checks out: see `notSelected`; exit 0, and
 *   never a certification), `not-certified` (a check or the smoke failed, no check passed, or a
 *   check did not run for want of input: see `blocking`), `adapter-broken` (the adapter failed before it reached the worker: its command
 *   could not start, or no smoke run called a CLI or left an artifact; nothing else ran), `could-not-run`
 *   (the corpus has no smoke case for the route);
 * - `summary`: counts over `checks` (the smoke excluded).
 */
export interface RouteCertificate {
  route: string;
  cli: CertifiedCli;
  /** The contract's name: `pov`, a team's contract, or the consumer contract (`consumer-answer`). */
  contract: string;
  status: 'certified' | 'partial' | 'not-certified' | 'adapter-broken' | 'could-not-run';
  smoke: CheckResult[];
  checks: CheckResult[];
  summary: { pass: number; fail: number; skipped: number };
  /**
   * The checks that did not run for want of input (skipped, and applicable to this contract and
   * route): each one keeps the route from `certified` (issue 19 point 8). Absent when none.
   */
  blocking?: { id: string; reason: string }[];
  /**
   * The checks a filter left out (`--check`, `options.checks`): they did not run, so the route is at
   * best `partial`. `reason` names the filter. Absent when every check was selected.
   */
  notSelected?: { ids: string[]; reason: string };
}

/**
 * The counts of `r` as the console and certificate.md say them: `N passed, N failed, N skipped` over
 * the checks (the smoke excluded, as `summary`), led by `smoke N of M failed; checks ` when a smoke
 * check did not pass (an adapter-broken route read "0 failed" right under its FAIL smoke lines).
 */
export function countsText(r: Pick<RouteCertificate, 'smoke' | 'summary'>): string {
  const smokeBad = r.smoke.filter((x) => x.status !== 'pass').length;
  const checks = `${r.summary.pass} passed, ${r.summary.fail} failed, ${r.summary.skipped} skipped`;
  return smokeBad > 0 ? `smoke ${smokeBad} of ${r.smoke.length} ${r.smoke.some((x) => x.status === 'fail') ? 'failed' : 'not run'}; checks ${checks}` : checks;
}

/**
 * The line that says how many checks of `r` a filter left out and why, or `null` when none was.
 * Shared by the console and certificate.md.
 */
export function notSelectedLine(r: Pick<RouteCertificate, 'notSelected' | 'status'>): string | null {
  if (!r.notSelected?.ids.length) return null;
  const n = r.notSelected.ids.length;
  const partial = r.status === 'partial' ? 'a partial run, not a certification: certify without --check for one' : 'certify without --check for a certificate';
  return `${n} check(s) did not run: ${r.notSelected.reason} (${partial})`;
}

/**
 * What a user does about the {@link RouteCertificate.blocking} checks of `r`: one line per check
 * (`<id>: <reason>`) and then the next step. Empty when nothing blocks. Shared by the console and
 * certificate.md.
 */
export function blockingLines(r: Pick<RouteCertificate, 'route' | 'blocking'>): string[] {
  if (!r.blocking?.length) return [];
  // An interrupted certification (src/harness/certify/certify.ts) wants no new case, only a run to the end.
  if (r.blocking.some((b) => b.id === 'interrupted')) return [...r.blocking.map((b) => b.reason), 'next step: certify again and let it finish'];
  // The retry checks need a non-final answer the contract retries, which `record --config` never
  // records (its scenarios are final, or never accepted): a capture of one is the way.
  const nonfinal = r.blocking.some((b) => b.reason.includes('non-final case'));
  const other = r.blocking.some((b) => !b.reason.includes('non-final case') && !b.reason.includes('says why'));
  // A check that did not run because another check saw nothing to judge ("(retry-once says why)")
  // waits on that check, not on a new case: the advice names it (it fell through to "give the corpus
  // an accepted case", which would not help).
  const waitsOn = [...new Set(r.blocking.flatMap((b) => /\(([a-z0-9-]+) says why\)/.exec(b.reason)?.[1] ?? []))];
  return [
    ...r.blocking.map((b) => `${b.id} did not run: ${b.reason}`),
    ...(waitsOn.length > 0
      ? [`next step: make ${waitsOn.map((id) => `\`${id}\``).join(', ')} pass (see ${waitsOn.length === 1 ? 'its' : 'their'} evidence); the checks that read what ${waitsOn.length === 1 ? 'it observes' : 'they observe'} run then`]
      : []),
    ...(nonfinal
      ? [
          `next step: give the corpus a non-final answer of ${r.route} that the contract retries (\`record --config\` records none): \`npx routecert record --from <capture> --route ${r.route} --expect retry\`, then certify again; a check that did not run keeps the route from certified`,
        ]
      : []),
    ...(other || (!nonfinal && waitsOn.length === 0)
      ? [
          `next step: give the corpus an accepted case of ${r.route} that the check can derive from (\`npx routecert record --config <file>\` records one), then certify again; a check that did not run keeps the route from certified`,
        ]
      : []),
  ];
}

/**
 * The whole certificate. `footer.exitCode`: 0 certified (or `partial`: every check that ran passed), 1 a check failed, 2 the
 * `--check` selection applies on none of its routes (only the smoke ran), 3 a smoke failed / could
 * not run, 130/143 interrupted (`footer.interrupted` names the signal: a partial certificate).
 */
export interface Certificate {
  certificateVersion: typeof CERTIFICATE_VERSION;
  header: {
    tool: 'routecert';
    toolVersion: string;
    startedAt: string;
    node: string;
    platform: string;
    worker: { name: string; command: string[] };
    config: string | null;
    /** The contract's name: `pov`, a team's contract, or the consumer contract (`consumer-answer`). */
    contract: string;
    corpus: string;
    /** The subject certified: the worker's or consumer's package name and version, when known. */
    subject?: { name: string; version: string };
    /** {@link corpusDigest} of the cases the certificate could replay; absent for a mock-driven certificate. */
    corpusDigest?: string;
    /** The versions of the tools the config names (`worker.tools`, the command's interpreter), first line of `--version`. */
    tools?: { name: string; version: string }[];
  };
  routes: RouteCertificate[];
  footer: { finishedAt: string; durationMs: Milliseconds; exitCode: 0 | 1 | 2 | 3 | 130 | 143; interrupted?: 'SIGINT' | 'SIGTERM' };
}

/**
 * The header of a certificate: routecert's version, the Node and platform it ran on, the worker
 * (`worker.command`, or `<in-process>`), the config file (relative to the working folder), the
 * contract's name and where the replayed envelopes came from.
 */
export function certificateHeader(options: {
  startedAt: string;
  worker: { name: string; command?: readonly string[] | undefined };
  configFile: string | null | undefined;
  contract: string;
  corpus: string;
  subject?: { name: string; version: string } | undefined;
  corpusDigest?: string | undefined;
  tools?: { name: string; version: string }[] | undefined;
}): Certificate['header'] {
  return {
    tool: 'routecert',
    toolVersion: PACKAGE_VERSION,
    startedAt: options.startedAt,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    worker: { name: options.worker.name, command: options.worker.command ? [...options.worker.command] : ['<in-process>'] },
    config: options.configFile ? path.relative(process.cwd(), options.configFile) || options.configFile : null,
    contract: options.contract,
    corpus: options.corpus,
    ...(options.subject ? { subject: options.subject } : {}),
    ...(options.corpusDigest ? { corpusDigest: options.corpusDigest } : {}),
    ...(options.tools && options.tools.length > 0 ? { tools: options.tools } : {}),
  };
}

/**
 * The digest of the corpus a certificate was made on: `sha256:` + the first 16 hex of sha256 over
 * the sorted ids of the cases of `routes` plus the cases of `extraIds` (cases of other routes a
 * check replayed, e.g. a short-stderr case found on any route). Case ids are content hashes, so a
 * case added, removed or changed on those routes changes the digest: a committed certificate whose
 * digest differs from today's was made on another corpus.
 */
export function corpusDigest(cases: readonly { id: string; route: string }[], routes: readonly string[], extraIds: readonly string[] = []): string {
  const extra = new Set(extraIds);
  const ids = [...new Set(cases.filter((c) => routes.includes(c.route) || extra.has(c.id)).map((c) => c.id))].sort();
  return `sha256:${createHash('sha256').update(ids.join('\n')).digest('hex').slice(0, 16)}`;
}

/** The case ids a certificate's checks name (`<id> (<route>/<slug>)` labels). */
export function replayedCaseIds(c: Certificate): string[] {
  return [...new Set(c.routes.flatMap((r) => [...r.smoke, ...r.checks].flatMap((k) => k.cases.map((x) => /^([0-9a-f]{16}) \(/.exec(x)?.[1]).filter((x): x is string => x !== undefined))))];
}

/** Tools whose version a certificate records when the config names them. */
const VERSIONED_TOOLS = new Set(['bash', 'sh', 'python3', 'python', 'jq', 'node', 'ruby', 'perl', 'deno', 'bun', 'curl']);

/**
 * The versions of the tools among `names` routecert knows to ask (`<tool> --version`, first
 * non-empty line; `node`: this process's version); a tool that does not answer is `unknown`. A
 * name with a `/` is a tool given as a path: that file is asked, under its file name.
 */
export function toolVersions(names: readonly string[]): { name: string; version: string }[] {
  // A tool given as a path (`worker.tools`) is the one the worker gets: ask it, not the one on PATH.
  const given = new Map(names.filter((n) => n.includes('/')).map((n) => [path.basename(n), n]));
  const wanted = [...new Set(names.map((n) => path.basename(n)).filter((n) => VERSIONED_TOOLS.has(n)))].sort();
  return wanted.map((name) => {
    if (name === 'node') return { name, version: process.version };
    const run = spawnSync(given.get(name) ?? name, ['--version'], { encoding: 'utf8', timeout: 10_000 });
    const line = `${run.stdout ?? ''}\n${run.stderr ?? ''}`.split(/\r?\n/).map((l) => l.trim()).find((l) => l !== '');
    return { name, version: run.status === 0 && line ? line : 'unknown' };
  });
}

let validate: ((value: unknown) => string[]) | undefined;

/** The problems of `value` against schemas/certificate.schema.json; `[]` when valid. */
export async function certificateProblems(value: unknown): Promise<string[]> {
  if (!validate) validate = compileValidator(JSON.parse(await readFile(projectPath('schemas/certificate.schema.json'), 'utf8')) as Record<string, unknown>);
  return validate(value);
}

const MARK: Record<CheckResult['status'], string> = { pass: 'PASS', fail: 'FAIL', skipped: 'SKIP' };

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** The Markdown text of a certificate. */
export function certificateMarkdown(c: Certificate): string {
  const lines: string[] = [];
  lines.push(`# routecert certificate: ${c.header.worker.name}`, '');
  lines.push(`- worker: \`${c.header.worker.command.join(' ')}\``);
  if (c.header.subject) lines.push(`- subject: \`${c.header.subject.name}\` ${c.header.subject.version}`);
  if (c.header.tools) lines.push(`- tools: ${c.header.tools.map((t) => `${t.name} (${t.version})`).join(', ')}`);
  if (c.header.corpusDigest) lines.push(`- corpus digest: \`${c.header.corpusDigest}\``);
  lines.push(`- contract: \`${c.header.contract}\`; corpus: \`${c.header.corpus}\``);
  lines.push(`- routecert ${c.header.toolVersion}, node ${c.header.node}, ${c.header.platform}, ${c.header.startedAt}`);
  lines.push(`- exit code ${c.footer.exitCode}, ${Math.round(c.footer.durationMs / 100) / 10} s`, '');
  if (c.footer.interrupted) lines.push(`**Interrupted by ${c.footer.interrupted}: a partial certificate; a route not finished before the signal is \`could-not-run\`.**`, '');
  for (const r of c.routes) {
    lines.push(`## ${r.route}: ${r.status}`, '');
    const cliNote = r.cli.source ?? 'version the replayed cases were recorded with';
    const recorded = r.cli.casesRecordedWith && r.cli.casesRecordedWith !== r.cli.version ? `; cases recorded with ${r.cli.casesRecordedWith}` : '';
    const pinned = r.cli.pinned ? `; **not the ${r.cli.pinned} the consumer pins or bundles**` : '';
    lines.push(`CLI \`${r.cli.name}\` ${r.cli.version} (${cliNote}${recorded}${pinned}); ${countsText(r)}.`, '');
    const leftOut = notSelectedLine(r);
    if (leftOut !== null) lines.push(`**${leftOut}.** Not run: ${r.notSelected!.ids.map((id) => `\`${id}\``).join(', ')}.`, '');
    const blocking = blockingLines(r);
    if (blocking.length > 0) {
      const failed = r.checks.filter((k) => k.status === 'fail').length;
      lines.push(`**Not certified: ${failed > 0 ? `${failed} check(s) failed (table below), and ` : ''}${r.blocking!.length} check(s) did not run:**`, '');
      for (const l of blocking) lines.push(`- ${l}`);
      lines.push('');
    }
    if (r.status === 'adapter-broken') lines.push('**The smoke failed before the worker was reached: the adapter is broken (command, paths, route names or environment), so no check ran.**', '');
    lines.push('| check | result | evidence |', '|---|---|---|');
    for (const k of [...r.smoke, ...r.checks]) {
      const evidence = k.status === 'skipped' ? (k.reason ?? '') : k.evidence.join('<br>');
      lines.push(`| \`${k.id}\` ${cell(k.title)} | ${MARK[k.status]} | ${cell(evidence)} |`);
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/** Write `certificate.json` and `certificate.md` into `dir` (created), redacted and bounded (src/report/bound.ts); returns their paths. */
export async function writeCertificate(dir: string, c: Certificate): Promise<{ json: string; markdown: string }> {
  await mkdir(dir, { recursive: true });
  const json = path.join(dir, 'certificate.json');
  const markdown = path.join(dir, 'certificate.md');
  // Sealed: redacted once here, written as it is (src/report/bound.ts).
  const { sealed: shown } = await sealReport(c);
  await writeJson(json, shown);
  await writeFile(markdown, redactOutput(certificateMarkdown(shown)));
  return { json, markdown };
}
