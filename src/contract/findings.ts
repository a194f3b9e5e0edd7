/**
 * The findings contracts (code review and document review), DESIGN.md "Contracts in the mission"
 * item 2. Two contract names share this module, each with its bundled schema:
 * `findings-code` (schemas/contracts/code-review-findings.schema.json) and `findings-doc`
 * (doc-review-findings.schema.json). Two names rather than one contract with a per-case schema,
 * because a case names only its contract, and a consumer asks one reviewer for one kind of review.
 *
 * The anchor is a `findings` array. A candidate is **shaped** when `findings` is an array,
 * **populated** when it is non-empty. There is no finality key, no score beyond that, and no retry
 * (ce-code-review and ce-doc-review have none at v3.23.1, shared/research/ce-plugin.md 1.5).
 *
 * Selection, in this order, first rule that picks wins (ce-plugin.md 1.5, the `parse_structured` jq
 * chain and `recover_findings_json`; pinned by the route tests listed in 3.4 and 3.5):
 * 1. `structured-populated`: a structured-field candidate (any key spelling) with a populated
 *    `findings` (upstream steps 1 and 3);
 * 2. `reply-populated`: a candidate from a string of the envelope (`result`, `text`, assistant text,
 *    a side file, a tool call), from the last message that holds a shaped one (the last stdout line
 *    or document by offset; a side file such as codex's `-o` file counts as after every line): the
 *    last populated one (upstream steps 2 and 4: "prefer the last populated one"); inside one message
 *    a populated review beats an empty stub in either order, and a trailing object without
 *    `findings` changes nothing, while across messages the last shaped one wins;
 * 3. `structured-empty`: a structured field whose `findings` is `[]`, a legitimate "found nothing"
 *    (step 5); it never preempts a populated review elsewhere;
 * 4. `reply-empty`: the last shaped string candidate of that last event (step 4's "else the last
 *    shaped one");
 * 5. `recovered`: a scan of the whole of stdout (step 7), only when it contains `findings`: objects
 *    with a `findings` array found inside JSON strings ("nested") and found directly ("top-level",
 *    including an object's structured field). The last populated nested one wins; if every nested one
 *    is empty, the last top-level one; else the last nested one. Top-level objects in sequence (codex
 *    stdout) are therefore last-shaped-wins: a final `findings: []` beats an earlier draft.
 *
 * Deliberate differences from upstream, both documented here:
 * - upstream treats `structured_output` (Claude) as authoritative even when empty (step 1) and only
 *   `structuredOutput` (grok) as a possible empty stub; routecert's key spelling is one field
 *   (src/envelope/keys.ts), so every structured field follows rules 1 and 3. Claude Code mirrors
 *   `structured_output` in `result`, so its verdicts do not change;
 * - doc-review's step 1 takes any `structured_output`, even one without `findings`; routecert applies
 *   the code-review shape filter to both.
 *
 * The chosen review is published after upstream's normalization defaults (ce-plugin.md 1.6: missing
 * `residual_risks`, `testing_gaps`, `deferred_questions` become `[]`; the reviewer label is set by
 * the publisher), taken from the contract file's `defaults`, and must then be schema-valid.
 * A chosen review that is not schema-valid is `dropped-unusable` with its problems: selection never
 * falls back to a worse candidate, as upstream's does not. The accepted verdict's `score` is 2 for a
 * populated review and 1 for "found nothing".
 */
import type { ClipPolicy } from '#src/diagnostics/evidence.ts';
import { STRUCTURED_FIELD_NAMES } from '#src/routes/claude/decoder.ts';
import { foldKey, isPlainObject } from '#src/envelope/keys.ts';
import type { Candidate, Decoded, Envelope } from '#src/envelope/types.ts';
import { findJsonObjects } from '#src/scan/index.ts';
import { noAnswer, runFailure } from './outcome.ts';
import type { Contract, Verdict } from './types.ts';
import { compileValidator } from './validator.ts';

/** The selection rules of the findings contracts, in the order they are tried (see the module doc). */
export const FINDINGS_RULES = ['structured-populated', 'reply-populated', 'structured-empty', 'reply-empty', 'recovered'] as const;

/** One of {@link FINDINGS_RULES}. */
export type FindingsRule = (typeof FINDINGS_RULES)[number];

/** The chosen review: the candidate, the rule that chose it, and whether its `findings` is non-empty. */
export interface FindingsSelection {
  candidate: Candidate;
  rule: FindingsRule;
  populated: boolean;
}

/**
 * Options of {@link findingsContract}.
 * - `name`: the contract name (`findings-code`, `findings-doc`);
 * - `defaults`: top-level members filled in when missing before validation (publish defaults);
 * - `clip`: how evidence is clipped; @default `'head-tail'`.
 */
export interface FindingsOptions {
  name: string;
  defaults?: Record<string, unknown>;
  clip?: ClipPolicy;
}

/** A compiled findings contract. Build with {@link findingsContract}. */
export interface FindingsContract extends Contract {
  anchor: 'findings';
  /** The chosen review over the decoded candidates and, failing those, over the whole of stdout; `null` when none is shaped. */
  select(decoded: Decoded, envelope: Envelope): FindingsSelection | null;
}

const STRUCTURED = new Set(STRUCTURED_FIELD_NAMES.map(foldKey));
const ANCHOR = 'findings';

/** True when `c` came from a structured field (any key spelling). */
function isStructured(c: Candidate): boolean {
  return STRUCTURED.has(foldKey(c.origin));
}

function findingsOf(value: unknown): unknown[] | null {
  return isPlainObject(value) && Array.isArray(value[ANCHOR]) ? (value[ANCHOR] as unknown[]) : null;
}

const shaped = (c: Candidate): boolean => findingsOf(c.value) !== null;
const populated = (c: Candidate): boolean => (findingsOf(c.value)?.length ?? 0) > 0;

/**
 * Choose the review in an envelope (rules 1-5 of the module doc). Exported for the conformance suite.
 *
 * @param candidates the decoder's candidates, in envelope order.
 * @param stdout the envelope's stdout, scanned by rule 5.
 */
export function selectFindings(candidates: readonly Candidate[], stdout: string): FindingsSelection | null {
  const pick = (candidate: Candidate | undefined, rule: FindingsRule): FindingsSelection | null =>
    candidate ? { candidate, rule, populated: populated(candidate) } : null;
  const structured = candidates.filter((c) => isStructured(c) && shaped(c));
  const inReply = candidates.filter((c) => !isStructured(c) && c.origin !== 'stdout' && c.origin !== 'stderr' && shaped(c));
  // The last message of a stream: candidates share `offset` when they come from one stdout line or
  // document; a side file (codex `-o`) sits at `stdout.length`, after every event.
  const lastOffset = inReply.reduce((m, c) => Math.max(m, c.offset), -1);
  const lastGroup = inReply.filter((c) => c.offset === lastOffset);
  return (
    pick(structured.filter(populated).at(-1), 'structured-populated') ??
    pick(lastGroup.filter(populated).at(-1), 'reply-populated') ??
    pick(structured.at(-1), 'structured-empty') ??
    pick(lastGroup.at(-1), 'reply-empty') ??
    pick(recover(stdout), 'recovered')
  );
}

/** Rule 5: `recover_findings_json` over the whole of stdout. */
function recover(stdout: string): Candidate | undefined {
  if (!stdout.includes(ANCHOR)) return undefined;
  const found = findJsonObjects(stdout, { anchor: ANCHOR }).filter((f) => Array.isArray(f.value[ANCHOR]));
  const toCandidate = (f: (typeof found)[number]): Candidate => ({ value: f.value, origin: 'stdout', pointer: f.pointer, offset: f.offset, fenced: f.fenced, nested: f.nested });
  const nested = found.filter((f) => f.nested > 0);
  const top = found.filter((f) => f.nested === 0);
  const nestedPopulated = nested.filter((f) => (f.value[ANCHOR] as unknown[]).length > 0);
  const chosen = nestedPopulated.at(-1) ?? top.at(-1) ?? nested.at(-1);
  return chosen ? toCandidate(chosen) : undefined;
}

/**
 * Compile a findings contract from its production schema.
 *
 * @param schema the production schema (draft-07): code-review-findings or doc-review-findings.
 * @throws Error when the schema does not compile with ajv.
 */
export function findingsContract(schema: Record<string, unknown>, options: FindingsOptions): FindingsContract {
  const validate = compileValidator(schema);
  const defaults = options.defaults ?? {};
  const clip = options.clip ?? 'head-tail';

  const select = (decoded: Decoded, envelope: Envelope): FindingsSelection | null => selectFindings(decoded.candidates, envelope.stdout);

  const judge = (envelope: Envelope, decoded: Decoded, context: { attempt: number }): Verdict => {
    const attempt = context.attempt;
    const early = runFailure(envelope, decoded, attempt, clip);
    if (early) return early;
    const chosen = select(decoded, envelope);
    if (!chosen) return noAnswer(envelope, decoded, attempt, clip, ['produced no usable schema-shaped output (no object with a findings array); skipping fold-in']);
    const { candidate, rule } = chosen;
    const value = candidate.value as Record<string, unknown>;
    const filled = Object.keys(defaults).filter((k) => !Object.hasOwn(value, k));
    const published: Record<string, unknown> = { ...value };
    for (const k of filled) published[k] = structuredClone(defaults[k]);
    const where = `${candidate.origin}${candidate.fenced ? ' (fenced)' : ''}, rule ${rule}`;
    const problems = validate(published);
    if (problems.length > 0) {
      return noAnswer(envelope, decoded, attempt, clip, [
        `produced no usable schema-shaped output; skipping fold-in`,
        `selected review (${where}) is not schema-valid: ${problems.slice(0, 3).join('; ')}`,
      ]);
    }
    const count = (published[ANCHOR] as unknown[]).length;
    const evidence = [count > 0 ? `accepted ${count} finding(s) from ${where}` : `accepted an empty review from ${where}: found nothing`];
    if (filled.length > 0) evidence.push(`filled missing ${filled.join(', ')} with publish defaults`);
    return { verdict: 'accepted', attempt, origin: candidate.origin, value: published, score: count > 0 ? 2 : 1, evidence };
  };

  return { name: options.name, anchor: ANCHOR, select, judge };
}
