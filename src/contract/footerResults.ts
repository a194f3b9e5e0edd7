/**
 * The result words of the review-footer contracts (./reviewFooter.ts), alone so that the definition
 * types (./types.ts) can name a review kind without importing the codec.
 */

/** The two kinds of review and the result words each may end with. */
export const FOOTER_RESULTS = { verdict: ['PASS', 'WARN', 'FAIL'], critique: ['REPORT'] } as const;

/** `verdict` (PASS, WARN, FAIL) or `critique` (REPORT). */
export type ReviewKind = keyof typeof FOOTER_RESULTS;
