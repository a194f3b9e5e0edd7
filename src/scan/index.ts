/**
 * The text scanner: every JSON object/array in free text (concatenated, fenced, in prose), and
 * every JSON object reachable from them, including JSON held in JSON strings.
 */
export { eachJsonObject, eachJsonObjectOf, findJsonObjects } from '#src/scan/find.ts';
export { eachJsonHit, scanJson } from '#src/scan/scan.ts';

export type { FoundObject, FoundSpan, ScanHit } from '#src/scan/types.ts';
