/**
 * Choosing the corpus cases a check replays (by route, tag, slug and expected verdict) and turning
 * their attempts into what the fake CLI replays. Derived attempts (a final answer followed by a
 * hang, a long stderr, chunked output) say where they come from in `source`.
 */
import path from 'node:path';
import type { VerdictName } from '#src/contract/types.ts';
import type { LoadedCase } from '#src/record/corpus.ts';
import type { CaseAttempt } from '#src/envelope/caseTypes.ts';
import type { ShimAttempt } from '#src/harness/shim/plan.ts';
import { KNOWN_CLIS } from '#src/probe/known.ts';
import { canonicalJson } from '#src/envelope/candidates.ts';
import { anchorVariant } from './generated.ts';

/** A case's slug: its file name without `.json` (`nonfinal-then-final`). */
export function caseSlug(c: LoadedCase): string {
  return path.basename(c.file, '.json');
}

/** A short name for evidence lines: `<id> (<route>/<slug>)`, the replay key of a case. */
export function caseLabel(c: LoadedCase): string {
  return `${c.case.id} (${c.case.route}/${caseSlug(c)})`;
}

/**
 * What to look for.
 * - `tags`: the case carries every one of them; `slug`: its file name;
 * - `verdict`, `attempts`: its expected verdict and number of attempts;
 * - `where`: any other condition;
 * - `scope`: where to look after the route itself: `route` (only it), `cli` (any route of the same
 *   CLI), `any` (any route; for envelopes that do not depend on the route, e.g. empty stdout).
 */
export interface CaseQuery {
  tags?: string[];
  slug?: string;
  verdict?: VerdictName;
  attempts?: number;
  where?: (c: LoadedCase) => boolean;
  scope?: 'route' | 'cli' | 'any';
}

function cliOf(route: string): string | undefined {
  return KNOWN_CLIS.find((c) => c.routes.includes(route))?.bin;
}

/**
 * The first case (in file order) that answers `query` for `route`, looking in the route, then,
 * as `scope` allows, in the same CLI's routes, then anywhere. Skipped (known-bug) cases never answer.
 */
export function findCase(cases: readonly LoadedCase[], route: string, query: CaseQuery): LoadedCase | undefined {
  const fits = (c: LoadedCase) =>
    !c.case.skip &&
    (query.tags ?? []).every((t) => c.case.tags.includes(t)) &&
    (query.slug === undefined || caseSlug(c) === query.slug) &&
    (query.verdict === undefined || c.case.expect.verdict === query.verdict) &&
    (query.attempts === undefined || c.case.attempts.length === query.attempts) &&
    (query.where === undefined || query.where(c));
  const sorted = [...cases].sort((a, b) => a.file.localeCompare(b.file));
  const scope = query.scope ?? 'route';
  const here = sorted.find((c) => c.case.route === route && fits(c));
  if (here || scope === 'route') return here;
  const cli = cliOf(route);
  const sameCli = sorted.find((c) => cli !== undefined && cliOf(c.case.route) === cli && fits(c));
  if (sameCli || scope === 'cli') return sameCli;
  return sorted.find(fits);
}

/** Every case of `route` that answers `query` (route only), in file order. */
export function findCases(cases: readonly LoadedCase[], route: string, query: Omit<CaseQuery, 'scope'>): LoadedCase[] {
  const out: LoadedCase[] = [];
  for (const c of [...cases].sort((a, b) => a.file.localeCompare(b.file))) {
    if (c.case.route !== route) continue;
    if (findCase([c], route, query) === c) out.push(c);
  }
  return out;
}

/**
 * The attempt a fake CLI replays for attempt `index` of case `c`: stdout, stderr, exit code as
 * recorded, with its side files (codex's `-o` last-message file, written where the worker's flag
 * says); a recording that ended at the harness's deadline (`timedOut`) replays as a hang.
 */
export function replayOf(c: LoadedCase, index: number): ShimAttempt {
  const a: CaseAttempt | undefined = c.case.attempts[index];
  if (!a) throw new Error(`[routecert] case ${caseLabel(c)} has no attempt ${index}`);
  const attempt: ShimAttempt = { stdout: a.stdout, stderr: a.stderr, exitCode: a.exitCode, source: `case ${caseLabel(c)} attempt ${index}` };
  if (a.files && Object.keys(a.files).length > 0) attempt.files = { ...a.files };
  if (a.timedOut) attempt.hang = true;
  else if (a.signal) attempt.signal = a.signal;
  return attempt;
}

/**
 * `attempt` written in `parts` stdout chunks of about equal size (cut anywhere, mid-line and
 * mid-JSON), `delayMs` apart, then its stderr: what a buffering or streaming CLI does on a slow pipe.
 */
export function chunked(attempt: ShimAttempt, parts: number, delayMs: number): ShimAttempt {
  const size = Math.max(1, Math.ceil(attempt.stdout.length / parts));
  const chunks: NonNullable<ShimAttempt['chunks']> = [];
  for (let i = 0; i < attempt.stdout.length; i += size) chunks.push({ stream: 'stdout', data: attempt.stdout.slice(i, i + size), ...(i > 0 ? { delayMs } : {}) });
  if (attempt.stderr !== '') chunks.push({ stream: 'stderr', data: attempt.stderr });
  return { ...attempt, chunks, source: `${attempt.source ?? 'attempt'}, in ${chunks.length} chunks ${delayMs} ms apart` };
}

/**
 * A long stderr (about 4000 characters, every line different) that opens with `head`: a CLI that
 * dumps a stack of diagnostics after its message. It never matches a startup-rejection wording.
 */
export function longStderr(head: string): string {
  const lines = [head.trim()];
  for (let i = 1; lines.join('\n').length < 4000; i += 1) {
    lines.push(`    diagnostic ${String(i).padStart(3, '0')}: upstream stream closed before the final event (request ${(i * 7919) % 100_003}, retryable=false)`);
  }
  return `${lines.join('\n')}\n`;
}

/** True when `value` holds, at any depth, an object whose canonical JSON is `canonical`. */
function containsValue(value: unknown, canonical: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (!Array.isArray(value) && canonicalJson(value) === canonical) return true;
  return Object.values(value).some((v) => containsValue(v, canonical));
}

/** Replace `field` of a JSON object line, dropping the structured fields; `null` if it is not one. */
function tieDocument(line: string, text: string): string | null {
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return null;
  const d = doc as Record<string, unknown>;
  const field = typeof d.text === 'string' ? 'text' : typeof d.result === 'string' || d.structured_output !== undefined ? 'result' : null;
  if (field === null) return null;
  const { structuredOutput: _a, structured_output: _b, ...rest } = d;
  return JSON.stringify({ ...rest, [field]: text });
}

/**
 * An attempt derived from a case: two final, schema-shaped answers that differ only in their
 * anchor value, in the answer field of the one JSON document (grok's `text`, Claude's `result`),
 * or, on a stream, in one assistant text event before the `"type":"result"` line (whose answer
 * becomes prose; other copies of the answer are dropped); the structured field is removed, so both
 * score the same and the later one must win (research/ce-plugin.md sections 1.3
 * and 1.4: ties go to the later candidate). `null` when the envelope has no such field, or when
 * the case's expected value is not a final object, or no schema-valid answer with another anchor
 * value can be made ({@link anchorVariant}: `schema`, `generated`). Callers check that
 * routecert's own contract picks the later one before using it.
 */
export function tieAttempt(
  c: LoadedCase,
  anchor: string,
  finalityKey: string | null,
  generated: readonly Record<string, unknown>[] = [],
  schema: Record<string, unknown> = {},
): { attempt: ShimAttempt; earlier: Record<string, unknown>; later: Record<string, unknown> } | null {
  const value = c.case.expect.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const later = value as Record<string, unknown>;
  if (finalityKey !== null && later[finalityKey] !== true) return null;
  // A string anchor is varied in place when the schema lets it be; else another enum value or a
  // distinct answer generated from the schema, settled like the later one (anchorVariant).
  const tries = typeof later[anchor] === 'string' ? [{ ...later, [anchor]: `${String(later[anchor])} (an earlier settled answer)` }] : [];
  const earlier = anchorVariant(later, anchor, schema, { tries, generated, overrides: finalityKey !== null ? { [finalityKey]: true } : {} });
  if (earlier === null) return null;
  const text = `${JSON.stringify(earlier)}${JSON.stringify(later)}`;
  const stdout = c.case.attempts[0]!.stdout;
  let derived = tieDocument(stdout, text);
  if (derived === null) {
    // A stream: the two answers in one assistant text event just before the result line, whose
    // answer field becomes prose; every other copy of the answer (the StructuredOutput tool input)
    // is dropped, so the two are the only candidates and neither is the structured field.
    const lines = stdout.split('\n');
    const last = lines.map((l, i) => ({ l, i })).filter(({ l }) => /"type"\s*:\s*"result"/.test(l)).at(-1);
    const replaced = last ? tieDocument(last.l, 'Both answers are above.') : null;
    if (last && replaced !== null) {
      const answer = canonicalJson(later);
      const holds = (l: string) => {
        try {
          return containsValue(JSON.parse(l), answer);
        } catch {
          return false;
        }
      };
      const before = lines.slice(0, last.i).filter((l) => !holds(l));
      const event = JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] } });
      derived = [...before, event, replaced, ...lines.slice(last.i + 1)].join('\n');
    }
  }
  if (derived === null) return null;
  return { attempt: { stdout: derived, stderr: '', exitCode: 0, source: `derived from case ${caseLabel(c)} attempt 0: two equal-scoring final answers in its answer text, structured field removed` }, earlier, later };
}
