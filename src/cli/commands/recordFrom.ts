/**
 * `routecert record --from <capture> --route <route> --expect <verdict>`: a bug report to a case in
 * one command. The envelope comes from a pasted capture (a file, or `-` for stdin) or from
 * `--stdout <file>`, `--stderr <file>` and `--exit-code <n>`; the case is redacted, its id
 * computed, written to the cases folder, and judged at once by its contract.
 *
 * A capture is either the JSON of an envelope (`{"stdout": "...", "stderr": "...", "exitCode": 1}`)
 * or text as pasted from a terminal: a first line `$ <command>` is the command (kept in the
 * description, not in stdout); everything else is stdout until a line `--- stderr ---`; a line
 * `--- stdout ---` switches back; a line `--- exit code: 1 ---` (or `exit code: 1`, `exit status 1`)
 * gives the exit code, `--- signal: SIGTERM ---` the signal that ended the run, and `--- timed out
 * ---` says the worker's deadline ended it (the JSON form: `signal`, `timedOut`, `elapsedMs`;
 * options `--signal <name>`, `--timed-out`). A capture of a run cut off by its deadline is a
 * `timeout` case only so: it was recorded as a clean exit 0 before.
 *
 * Exit codes: 0 the case reaches the expected verdict; 1 it does not (the case is written: it is the
 * regression to fix); 2 bad input (no envelope, unknown route, verdict or contract, a case that exists).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pc from 'picocolors';
import { configFor, ownCasesFolder, type ProjectConfig } from '#src/config/project.ts';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { loadContract, CONTRACT_NAMES } from '#src/contract/registry.ts';
import { VERDICTS, type VerdictName } from '#src/contract/types.ts';
import { decoderFor } from '#src/routes/registry.ts';
import { compareVerdict } from '#src/harness/compare.ts';
import { routeIds, routeSpecFor } from '#src/routes/index.ts';
import { caseId } from '#src/record/caseId.ts';
import type { CaseAttempt, CaseFile } from '#src/envelope/caseTypes.ts';
import { redactValue } from '#src/diagnostics/redact.ts';
import { writeCaseFile } from '#src/record/recordProbes.ts';
import { withExpectation } from '#src/record/recordContract.ts';
import { projectPath } from '#src/paths.ts';
import { didYouMean, didYouMeanTail } from '#src/diagnostics/didYouMean.ts';
import { shownPath, UsageError } from '../options.ts';

/** Options of `record --from` (a subset of `routecert record`'s). */
export interface RecordFromOptions {
  /** A capture file, or `-` for stdin (see the module doc). */
  from?: string;
  stdout?: string;
  stderr?: string;
  exitCode?: number;
  /** The signal that ended the reported run (`SIGTERM`). */
  signal?: string;
  /** The worker's deadline ended the reported run. */
  timedOut?: boolean;
  route: string;
  expect: string;
  /** The contract that judges it: @default the config's only contract, else `pov` when it has none (required when it has several). */
  contract?: string;
  config?: string;
  /** The cases folder: @default the config's cases, else `cases` (in routecert's checkout, fixtures/cases). */
  out?: string;
  /** The file name (without .json): @default `report-<id>`. */
  name?: string;
  description?: string;
  /** Where the report is (an issue URL): provenance `issue` with this ref. */
  ref?: string;
  /** The CLI's version as the report gives it (@default `unknown`). */
  cliVersion?: string;
  force?: boolean;
}

/** What a capture says of its run: its output, how it ended, and the command when it was pasted with one. */
export interface Capture {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal?: string;
  timedOut?: boolean;
  elapsedMs?: number;
  command?: string;
}

/** A JSON capture's field that does not say what it must (a string exit code, a misspelt `timedOut`): said with its JSON Pointer. */
export class CaptureError extends Error {}

/** The fields of a JSON capture and the type each must have. */
const CAPTURE_FIELDS: Readonly<Record<string, (v: unknown) => boolean>> = {
  stdout: (v) => typeof v === 'string',
  stderr: (v) => typeof v === 'string',
  exitCode: (v) => v === null || (Number.isInteger(v) && (v as number) >= -255 && (v as number) <= 255),
  signal: (v) => v === null || (typeof v === 'string' && /^SIG[A-Z0-9]+$/.test(v)),
  timedOut: (v) => typeof v === 'boolean',
  elapsedMs: (v) => typeof v === 'number' && v >= 0,
};
const CAPTURE_TYPES: Readonly<Record<string, string>> = { stdout: 'a string', stderr: 'a string', exitCode: 'an integer (-255 to 255) or null', signal: 'a signal name (SIGTERM) or null', timedOut: 'true or false', elapsedMs: 'a number of ms >= 0' };

/** How other tools name a process's exit code (Python's `returncode`, Node's `status` and `code`, shells' `rc`): read as a misspelt `exitCode`. */
const EXIT_CODE_SPELLINGS: ReadonlySet<string> = new Set(['returncode', 'return_code', 'status', 'code', 'rc', 'exit', 'exitstatus', 'exit_status']);

/**
 * The problems of a JSON capture's fields: one that has the wrong type (`"exitCode": "1"`), and a
 * field that is none of them but close to one (`exit_code`, `timedout`): either would be dropped and
 * the run recorded as a clean exit 0. Other fields (a tool's own) are left alone.
 */
function captureFieldProblems(doc: Record<string, unknown>): string[] {
  const known = Object.keys(CAPTURE_FIELDS);
  const problems: string[] = [];
  for (const [key, value] of Object.entries(doc)) {
    const check = CAPTURE_FIELDS[key];
    if (check !== undefined) {
      if (!check(value)) problems.push(`/${key} must be ${CAPTURE_TYPES[key]}, not ${JSON.stringify(value)?.slice(0, 40)}`);
      continue;
    }
    const near = [...(EXIT_CODE_SPELLINGS.has(key.toLowerCase()) ? ['exitCode'] : []), ...didYouMean(key.replace(/[_-]/g, ''), known)].filter((k) => !Object.hasOwn(doc, k));
    if (near.length > 0) problems.push(`/${key} is no field of a capture; did you mean "${near[0]}"?`);
  }
  return problems;
}

/**
 * The envelope a capture holds (see the module doc).
 *
 * @throws {CaptureError} when a JSON capture's field has the wrong type or looks like a misspelt one,
 *   or a pasted capture has a marker line routecert cannot read (`--- exit code: abc ---`).
 */
export function parseCapture(text: string): Capture {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let doc: Record<string, unknown> | undefined;
    try {
      doc = JSON.parse(trimmed) as Record<string, unknown>;
    } catch {
      // Not an envelope: a stdout that is one JSON document (claude -p --output-format json).
    }
    if (doc !== undefined && typeof doc === 'object' && doc !== null && typeof doc.stdout === 'string') {
      const problems = captureFieldProblems(doc);
      if (problems.length > 0) throw new CaptureError(problems.join('; '));
      return {
        stdout: doc.stdout,
        stderr: typeof doc.stderr === 'string' ? doc.stderr : '',
        exitCode: typeof doc.exitCode === 'number' ? doc.exitCode : null,
        ...(typeof doc.signal === 'string' && doc.signal !== '' ? { signal: doc.signal } : {}),
        ...(doc.timedOut === true ? { timedOut: true } : {}),
        ...(typeof doc.elapsedMs === 'number' && doc.elapsedMs >= 0 ? { elapsedMs: doc.elapsedMs } : {}),
      };
    }
  }
  const parts: Record<'stdout' | 'stderr', string[]> = { stdout: [], stderr: [] };
  let into: 'stdout' | 'stderr' = 'stdout';
  let exitCode: number | null = null;
  let signal: string | undefined;
  let timedOut = false;
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  const prompt = first >= 0 ? /^\s*\$\s+(.+)$/.exec(lines[first]!) : null;
  const skipped = prompt ? first + 1 : 0;
  if (prompt) lines.splice(0, skipped);
  for (const [k, line] of lines.entries()) {
    const lineNumber = k + 1 + skipped;
    const marker = /^\s*-{2,}\s*(stdout|stderr)\s*-{2,}\s*$/i.exec(line);
    if (marker) {
      into = marker[1]!.toLowerCase() as 'stdout' | 'stderr';
      continue;
    }
    const exit = /^\s*(?:-{2,}\s*)?exit(?:\s*code|\s*status)?\s*[:=]?\s*(-?\d+)\s*(?:-{2,})?\s*$/i.exec(line);
    if (exit) {
      exitCode = Number(exit[1]);
      continue;
    }
    const killed = /^\s*-{2,}\s*signal\s*[:=]?\s*(SIG[A-Z0-9]+)\s*-{2,}\s*$/i.exec(line);
    if (killed) {
      signal = killed[1]!.toUpperCase();
      continue;
    }
    if (/^\s*-{2,}\s*timed[ -]?out\s*-{2,}\s*$/i.test(line)) {
      timedOut = true;
      continue;
    }
    // A marker line that says nothing readable (`--- exit code: abc ---`) would be taken for output.
    const marked = /^\s*-{2,}\s*(exit(?:\s*code|\s*status)?|signal|timed[ -]?out)\b.*-{2,}\s*$/i.exec(line);
    if (marked) throw new CaptureError(`line ${lineNumber}: ${JSON.stringify(line.trim().slice(0, 60))} is not a marker routecert reads (\`--- exit code: 1 ---\`, \`--- signal: SIGTERM ---\`, \`--- timed out ---\`)`);
    parts[into].push(line);
  }
  // As the terminal showed it: no blank lines around a section, one newline after its last line.
  const join = (lines: string[]) => {
    const text = lines.join('\n').replace(/^\n+/, '').replace(/\n+$/, '');
    return text === '' ? '' : `${text}\n`;
  };
  return { stdout: join(parts.stdout), stderr: join(parts.stderr), exitCode, ...(signal ? { signal } : {}), ...(timedOut ? { timedOut } : {}), ...(prompt ? { command: prompt[1]!.trim() } : {}) };
}

async function readInput(file: string): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
}

/** Turn the capture into a case, write it and judge it; returns the exit code. */
export async function recordFromCommand(opts: RecordFromOptions): Promise<number> {
  const out = (s: string) => process.stdout.write(s);
  if (!routeIds().includes(opts.route) && !opts.route.startsWith('generic:')) {
    const close = didYouMean(opts.route, routeIds());
    throw new UsageError(`--route ${opts.route} is no route${close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : '.'} Routes: ${routeIds().join(', ')}.`);
  }
  if (!(VERDICTS as readonly string[]).includes(opts.expect)) {
    throw new UsageError(`--expect ${opts.expect} is no verdict (verdicts: ${VERDICTS.join(', ')})${didYouMeanTail(opts.expect, VERDICTS) || '.'}`);
  }
  // `--name` names a file in the route's folder (subfolders allowed): a `..` segment is refused even
  // when it stays under --out, since it would land the case in another route's folder (issue 23).
  if (opts.name !== undefined && (opts.name === '' || path.isAbsolute(opts.name) || opts.name.split(/[\\/]/).some((s) => s === '..' || s === ''))) {
    throw new UsageError(`--name ${JSON.stringify(opts.name)}: a case name is a file name under the route's folder (subfolders allowed, no "..", no leading, trailing or double "/"); nothing written`);
  }
  if (opts.from === undefined && opts.stdout === undefined) throw new UsageError('record --from needs the envelope: --from <capture file, or - for stdin>, or --stdout <file> [--stderr <file>] [--exit-code <n>]');
  let envelope: Capture;
  if (opts.from !== undefined) {
    try {
      envelope = parseCapture(await readInput(opts.from));
    } catch (error) {
      if (!(error instanceof CaptureError)) throw error;
      throw new UsageError(`--from ${opts.from}: ${error.message}; nothing written (fields: ${Object.keys(CAPTURE_FIELDS).join(', ')})`);
    }
  }
  else envelope = { stdout: await readInput(opts.stdout!), stderr: opts.stderr ? await readInput(opts.stderr) : '', exitCode: null };
  if (opts.stderr !== undefined && opts.from !== undefined) envelope.stderr = await readInput(opts.stderr);
  if (opts.exitCode !== undefined) envelope.exitCode = opts.exitCode;
  if (opts.signal !== undefined) envelope.signal = opts.signal;
  if (opts.timedOut) envelope.timedOut = true;
  if (envelope.stdout.trim() === '' && envelope.stderr.trim() === '') throw new UsageError(`${opts.from ?? opts.stdout}: the capture holds no output (stdout and stderr are empty)`);
  // A run ended by a signal has no exit code; only a capture that says neither is assumed to exit 0.
  const assumed = envelope.exitCode === null && envelope.signal === undefined;
  const exitCode = envelope.signal !== undefined ? envelope.exitCode : (envelope.exitCode ?? 0);

  const inCheckout = path.resolve(process.cwd()) === projectPath();
  const project: ProjectConfig | null = opts.config !== undefined || !inCheckout ? await configFor(opts.config) : null;
  const own = project?.contracts ?? [];
  // A config with several contracts names none by default: the case would be judged by pov and
  // fail as a bogus bug in the team's cases (a trial wrote such a case under cases/pov/).
  if (opts.contract === undefined && own.length > 1) {
    throw new UsageError(`record --from: ${shownPath(project!.file)} defines ${own.length} contracts; name the one that judges this capture: --contract ${own.map((c) => c.name).join('|')}`);
  }
  const contractName = opts.contract ?? (own.length === 1 ? own[0]!.name : 'pov');
  if (!own.some((c) => c.name === contractName) && !CONTRACT_NAMES.includes(contractName)) {
    const names = [...own.map((c) => c.name), ...CONTRACT_NAMES];
    throw new UsageError(`--contract ${contractName} is no contract${project ? ` of ${shownPath(project.file)}` : ''} nor a preset (contracts: ${names.join(', ')})${didYouMeanTail(contractName, names) || '.'}`);
  }
  const contract = await loadContract(contractName, {}, own);
  const outDir = opts.out !== undefined ? path.resolve(opts.out) : project ? (ownCasesFolder(project) ?? path.join(project.dir, 'cases')) : inCheckout ? projectPath('fixtures/cases') : path.resolve('cases');

  const attempts: CaseAttempt[] = redactValue([{ stdout: envelope.stdout, stderr: envelope.stderr, exitCode, signal: envelope.signal ?? null, timedOut: envelope.timedOut ?? false, elapsedMs: envelope.elapsedMs ?? 0 }], { paths: [{ path: process.cwd(), placeholder: '<project>' }] });
  const expect = { verdict: opts.expect as VerdictName };
  const cliName = routeSpecFor(opts.route)?.definition.cli ?? opts.route.split('/')[0]!;
  let c: CaseFile = {
    id: caseId({ attempts, contract: contractName, expect }),
    description: opts.description ?? `${opts.route}: reported ${opts.ref ? `in ${opts.ref}` : 'bug'}${envelope.command ? ` (\`${redactValue(envelope.command)}\`)` : ''}; expected ${opts.expect}`,
    route: opts.route,
    cli: { name: cliName, version: opts.cliVersion ?? 'unknown' },
    provenance: { source: opts.ref ? 'issue' : 'recorded', ...(opts.ref ? { ref: opts.ref } : { ref: 'routecert record --from: a captured envelope' }), date: new Date().toISOString().slice(0, 10) },
    contract: contractName,
    attempts,
    expect,
    tags: ['from-report'],
  };
  // An accepted capture keeps the value and origin the judge found, as a recorded case does.
  const verdict = judgeCase(c, contract, decoderFor(c.route)).verdict;
  if (opts.expect === 'accepted' && verdict.verdict === 'accepted' && 'origin' in verdict) c = withExpectation(c, { verdict: 'accepted', origin: String(verdict.origin), value: verdict.value });
  // A team's cases sit under their contract's folder, as `record --config` writes them.
  const file = path.join(outDir, ...(project ? [contractName] : []), ...opts.route.split('/').map((p) => p.replace(/[^A-Za-z0-9._=-]+/g, '-')), `${opts.name ?? `report-${c.id}`}.json`);
  const written = await writeCaseFile(file, c, opts.force ?? false, outDir);
  if ('refused' in written) throw new UsageError(`${shownPath(written.refused)} exists; give another --name, or --force to overwrite it`);
  out(`wrote ${shownPath(written.written)} (case ${c.id}, contract ${contractName}, ${envelope.signal !== undefined ? `ended by ${envelope.signal}` : `exit code ${exitCode}`}${envelope.timedOut ? ', timed out' : ''}${assumed ? ' assumed: the capture gives none, --exit-code <n> sets it' : ''}; redacted)\n`);
  const problems = compareVerdict(c.expect, verdict);
  out(`verdict: ${verdict.verdict}\n${verdict.evidence.map((e) => `  ${e}\n`).join('')}`);
  const replay = `npx routecert run --case ${c.id} --cases ${shownPath(outDir)}${project ? ` --config ${shownPath(project.file)}` : ''} --no-probes`;
  if (problems.length > 0) {
    out(`${pc.red('FAIL')}: ${problems.join('; ')} (the case reproduces the report; it passes once the bug is fixed)\nreplay: ${replay}\n`);
    return 1;
  }
  out(`${pc.green('PASS')}: ${verdict.verdict}, as expected\nreplay: ${replay}\n`);
  return 0;
}
