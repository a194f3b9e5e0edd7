/**
 * The `last-shaped` selection of a contract (findings' rules, shared/research/ce-plugin.md 1.5: the
 * `parse_structured` jq chain and `recover_findings_json`), first rule that picks wins:
 * 1. `structured-populated`: a structured-field candidate (any key spelling) whose anchor is populated;
 * 2. `reply-populated`: among candidates from the strings of the envelope (`result`, `text`,
 *    assistant text, a side file, a tool call), those of the last message that holds a shaped one
 *    (candidates share `offset` when they come from one stdout line or document; a side file such as
 *    codex's `-o` file sits at `stdout.length`, after every event): the last populated one;
 * 3. `structured-empty`: the last shaped structured field (a legitimate "found nothing" when the
 *    contract says `emptyIsAnswer`); it never preempts a populated answer elsewhere;
 * 4. `reply-empty`: the last shaped candidate of that last message;
 * 5. `recovered`: the decoder's free-text scan of stdout (`Decoded.freeText`): the last populated
 *    nested one (found inside a JSON string), else the last top-level one, else the last nested one.
 *    Top-level objects in sequence (codex stdout) are therefore last-shaped-wins.
 * "Shaped" is the contract's: the candidate bears the anchor (an array when the schema says so);
 * "populated": the anchor is a non-empty array or any other present value.
 */
import { isStructuredOrigin } from '#src/envelope/keys.ts';
import type { Candidate } from '#src/envelope/types.ts';

/** The rules of {@link selectLastShaped}, in the order they are tried. */
export const LAST_SHAPED_RULES = ['structured-populated', 'reply-populated', 'structured-empty', 'reply-empty', 'recovered'] as const;

/** One of {@link LAST_SHAPED_RULES}. */
export type LastShapedRule = (typeof LAST_SHAPED_RULES)[number];

/** The chosen candidate, the rule that chose it, and whether its anchor is populated. */
export interface LastShapedSelection {
  candidate: Candidate;
  rule: LastShapedRule;
  populated: boolean;
}

/**
 * Choose by rules 1-5 of the module doc.
 *
 * @param candidates the decoder's candidates, in envelope order.
 * @param freeText the decoder's free-text candidates (`Decoded.freeText`), already filtered to shaped ones.
 */
export function selectLastShaped(
  candidates: readonly Candidate[],
  freeText: readonly Candidate[],
  is: { shaped(c: Candidate): boolean; populated(c: Candidate): boolean },
): LastShapedSelection | null {
  const pick = (candidate: Candidate | undefined, rule: LastShapedRule): LastShapedSelection | null =>
    candidate ? { candidate, rule, populated: is.populated(candidate) } : null;
  const structured = candidates.filter((c) => isStructuredOrigin(c.origin) && is.shaped(c));
  const inReply = candidates.filter((c) => !isStructuredOrigin(c.origin) && c.origin !== 'stdout' && c.origin !== 'stderr' && is.shaped(c));
  const lastOffset = inReply.reduce((m, c) => Math.max(m, c.offset), -1);
  const lastGroup = inReply.filter((c) => c.offset === lastOffset);
  return (
    pick(structured.filter(is.populated).at(-1), 'structured-populated') ??
    pick(lastGroup.filter(is.populated).at(-1), 'reply-populated') ??
    pick(structured.at(-1), 'structured-empty') ??
    pick(lastGroup.at(-1), 'reply-empty') ??
    pick(recover(freeText, is.populated), 'recovered')
  );
}

function recover(found: readonly Candidate[], populated: (c: Candidate) => boolean): Candidate | undefined {
  const nested = found.filter((f) => f.nested > 0);
  const top = found.filter((f) => f.nested === 0);
  return nested.filter(populated).at(-1) ?? top.at(-1) ?? nested.at(-1);
}
