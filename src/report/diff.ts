/**
 * Comparing two reports case by case (`routecert diff <before> <after>`, a release gate): verdict
 * and outcome changes, cases added or removed, envelope drift lines that appeared or went, run faults
 * that are new, startup-probe cells that changed or that the later run did not probe. Case ids are content hashes (or stable probe ids),
 * so the same case has the same id in both reports.
 *
 * A regression is a case that passed (or was skipped, or was not there) before and fails or errors
 * after, a run fault that is new, or a worker certificate that is lost (a route certified before
 * and not certified, or not certified at all, after). Anything else that changed is reported, not a
 * regression.
 */
import { certificates } from './certificates.ts';
import type { CaseOutcome, CaseResult, RunReport } from './types.ts';

/** One side of a change: the outcome and the verdict (with its origin when accepted). */
export interface DiffSide {
  outcome: CaseOutcome;
  verdict: string | null;
}

/** A case present in both reports whose outcome or verdict differs. */
export interface CaseChange {
  id: string;
  route: string;
  description: string;
  before: DiffSide;
  after: DiffSide;
  regression: boolean;
}

/** A case only one report has. `regression` for an added case that fails or errors. */
export interface CaseOnlyIn {
  id: string;
  route: string;
  description: string;
  side: DiffSide;
  regression: boolean;
}

/** The differences between two reports. */
export interface ReportDiff {
  compared: number;
  unchanged: number;
  changed: CaseChange[];
  added: CaseOnlyIn[];
  removed: CaseOnlyIn[];
  /** Drift lines that appeared (`+`) or went (`-`), with their case id. */
  drift: { id: string; sign: '+' | '-'; line: string }[];
  /** Run faults of `after` that `before` did not have (by kind and message). */
  newFaults: string[];
  /** Startup-probe cells whose outcome changed: `<row> on <cli>: before -> after`. */
  startup: string[];
  /** Worker certificates lost: `<route>: certified -> <status after, or "no certification">` (each a regression). */
  lostCertificates: string[];
  regressions: number;
}

const BAD: readonly CaseOutcome[] = ['fail', 'error'];

function side(c: CaseResult): DiffSide {
  const v = c.verdict;
  return { outcome: c.outcome, verdict: v === null ? null : v.verdict === 'accepted' ? `accepted from ${v.origin}` : v.verdict };
}

function startupCells(report: RunReport): Map<string, string> {
  const cells = new Map<string, string>();
  for (const row of report.startupProbes?.rows ?? []) for (const c of row.cells) cells.set(`${row.label} on ${c.cli} (${c.route})`, c.outcome);
  return cells;
}

/**
 * The cases of a report by id; an id held by several results (a report from before duplicate ids
 * were refused, a merged report) is keyed `<id> (<file>)` for each, so none is merged into another
 * and a failing copy still counts (issue 23).
 */
function byId(report: RunReport): Map<string, RunReport['cases'][number]> {
  const count = new Map<string, number>();
  for (const c of report.cases) count.set(c.id, (count.get(c.id) ?? 0) + 1);
  const out = new Map<string, RunReport['cases'][number]>();
  for (const c of report.cases) {
    let key = count.get(c.id)! > 1 ? `${c.id} (${c.file})` : c.id;
    for (let n = 2; out.has(key); n += 1) key = `${c.id} (${c.file} #${n})`;
    out.set(key, c);
  }
  return out;
}

/** Compare `before` with `after`, case by case. */
export function diffReports(before: RunReport, after: RunReport): ReportDiff {
  const a = byId(before);
  const b = byId(after);
  const changed: CaseChange[] = [];
  const added: CaseOnlyIn[] = [];
  const removed: CaseOnlyIn[] = [];
  const drift: ReportDiff['drift'] = [];
  let unchanged = 0;
  for (const [id, now] of b) {
    const was = a.get(id);
    if (!was) {
      added.push({ id, route: now.route, description: now.description, side: side(now), regression: BAD.includes(now.outcome) });
      continue;
    }
    const s0 = side(was);
    const s1 = side(now);
    if (s0.outcome === s1.outcome && s0.verdict === s1.verdict) unchanged += 1;
    else changed.push({ id, route: now.route, description: now.description, before: s0, after: s1, regression: BAD.includes(s1.outcome) && !BAD.includes(s0.outcome) });
    const d0 = new Set(was.drift ?? []);
    const d1 = new Set(now.drift ?? []);
    for (const line of d1) if (!d0.has(line)) drift.push({ id, sign: '+', line });
    for (const line of d0) if (!d1.has(line)) drift.push({ id, sign: '-', line });
  }
  for (const [id, was] of a) if (!b.has(id)) removed.push({ id, route: was.route, description: was.description, side: side(was), regression: false });
  const oldFaults = new Set(before.faults.map((f) => `${f.kind}: ${f.message}`));
  const newFaults = after.faults.map((f) => `${f.kind}: ${f.message}`).filter((f) => !oldFaults.has(f));
  const s0 = startupCells(before);
  const s1 = startupCells(after);
  const startup: string[] = [];
  for (const [key, outcome] of s1) {
    const was = s0.get(key);
    if (was !== undefined && was !== outcome) startup.push(`${key}: ${was} -> ${outcome}`);
  }
  // A cell the later run did not probe (probes off, a CLI gone) is said, not passed over in silence.
  for (const [key, was] of s0) if (!s1.has(key)) startup.push(`${key}: ${was} -> not probed in the later run`);
  const certifiedAfter = new Map(certificates(after.cases).map((c) => [c.route, c.status]));
  const lostCertificates = certificates(before.cases)
    .filter((c) => c.status === 'certified' && certifiedAfter.get(c.route) !== 'certified')
    .map((c) => `${c.route}: certified -> ${certifiedAfter.get(c.route) ?? 'no certification in the later run'}`);
  const regressions = changed.filter((c) => c.regression).length + added.filter((c) => c.regression).length + newFaults.length + lostCertificates.length;
  return { compared: [...b.keys()].filter((id) => a.has(id)).length, unchanged, changed, added, removed, drift, newFaults, startup, lostCertificates, regressions };
}

function sideText(s: DiffSide): string {
  return `${s.outcome} (${s.verdict ?? 'no verdict'})`;
}

/** The diff for people, one line per difference, then a count line. */
export function diffText(d: ReportDiff): string {
  const out: string[] = [];
  for (const c of d.changed) out.push(`${c.regression ? 'REGRESSION' : 'changed   '} ${c.id}  ${c.route}: ${sideText(c.before)} -> ${sideText(c.after)}  ${c.description}`);
  for (const c of d.added) out.push(`${c.regression ? 'REGRESSION' : 'added     '} ${c.id}  ${c.route}: new, ${sideText(c.side)}  ${c.description}`);
  for (const c of d.removed) out.push(`removed    ${c.id}  ${c.route}: was ${sideText(c.side)}  ${c.description}`);
  for (const f of d.newFaults) out.push(`REGRESSION new run fault: ${f}`);
  for (const c of d.lostCertificates) out.push(`REGRESSION certificate lost: ${c}`);
  for (const l of d.drift) out.push(`drift ${l.sign}    ${l.id}: ${l.line}`);
  for (const s of d.startup) out.push(`startup    ${s}`);
  out.push(
    `${d.compared} cases in both: ${d.unchanged} unchanged, ${d.changed.length} changed; ${d.added.length} added, ${d.removed.length} removed; ` +
      `${d.regressions} regression${d.regressions === 1 ? '' : 's'}`,
  );
  return `${out.join('\n')}\n`;
}
