/**
 * The certificate: for one worker and each route, the CLI version the replayed cases were recorded
 * with, the contract, the smoke result and every check with pass / fail / skipped-with-reason and
 * its evidence. Written as `certificate.json` (versioned, schemas/certificate.schema.json) and
 * `certificate.md`. Opens with a header and closes with a footer, so a cut-short file is detectable
 * (STYLE.md item 12).
 */
import { boundReport, writeJson } from '#src/report/bound.ts';
import { redactOutput } from '#src/record/redact.ts';
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
 * One route of the certificate.
 * - `cli`: the CLI behind the route and the version its replayed cases were recorded with;
 * - `status`: `certified` (no check failed), `not-certified` (a check failed), `adapter-broken`
 *   (the smoke failed: the adapter, not the worker, is at fault; nothing else ran), `could-not-run`
 *   (the corpus has no smoke case for the route);
 * - `summary`: counts over `checks` (the smoke excluded).
 */
export interface RouteCertificate {
  route: string;
  cli: { name: string; version: string };
  /** The contract's name: `pov`, a team's contract, or the consumer contract (`consumer-answer`). */
  contract: string;
  status: 'certified' | 'not-certified' | 'adapter-broken' | 'could-not-run';
  smoke: CheckResult[];
  checks: CheckResult[];
  summary: { pass: number; fail: number; skipped: number };
}

/** The whole certificate. `footer.exitCode`: 0 certified, 1 a check failed, 3 a smoke failed / could not run. */
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
  };
  routes: RouteCertificate[];
  footer: { finishedAt: string; durationMs: Milliseconds; exitCode: 0 | 1 | 3 };
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
  };
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
  lines.push(`- contract: \`${c.header.contract}\`; corpus: \`${c.header.corpus}\``);
  lines.push(`- routecert ${c.header.toolVersion}, node ${c.header.node}, ${c.header.platform}, ${c.header.startedAt}`);
  lines.push(`- exit code ${c.footer.exitCode}, ${Math.round(c.footer.durationMs / 100) / 10} s`, '');
  for (const r of c.routes) {
    lines.push(`## ${r.route}: ${r.status}`, '');
    lines.push(`CLI \`${r.cli.name}\` ${r.cli.version} (version the replayed cases were recorded with); ${r.summary.pass} passed, ${r.summary.fail} failed, ${r.summary.skipped} skipped.`, '');
    if (r.status === 'adapter-broken') lines.push('**The smoke failed: the adapter is broken (command, paths, route names or environment), so no check ran.**', '');
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
  const shown = boundReport(c);
  await writeJson(json, shown);
  await writeFile(markdown, redactOutput(certificateMarkdown(shown)));
  return { json, markdown };
}
