/**
 * Samples: generated envelopes and corpus cases in one shape, and judging them.
 */
import { judgeCase } from '#src/contract/judgeCase.ts';
import type { Verdict } from '#src/contract/types.ts';
import { decoderFor } from '#src/routes/registry.ts';
import type { GeneratedEnvelope } from '#src/arbitraries/types.ts';
import type { LoadedCase } from '#src/record/corpus.ts';
import type { Envelope } from '#src/envelope/types.ts';
import type { PropertyEnv, Sample } from './types.ts';

/** A generated envelope as a one-attempt sample. */
export function sampleOf(g: GeneratedEnvelope): Sample {
  return { route: g.route, attempts: [g.envelope], expected: g.expected, plan: g.plan, source: 'generated' };
}

/** A corpus case as a sample (its expectation as stored; only the pov contract's cases). */
export function sampleFromCase(loaded: LoadedCase): Sample {
  const c = loaded.case;
  const expected: Sample['expected'] = { verdict: c.expect.verdict };
  if (c.expect.value !== undefined) expected.value = c.expect.value as Record<string, unknown>;
  if (c.expect.origin !== undefined) expected.origin = c.expect.origin;
  if (c.expect.evidence !== undefined) expected.evidence = c.expect.evidence;
  if (c.expect.attempt !== undefined) expected.attempt = c.expect.attempt;
  return { route: c.route, attempts: c.attempts.map(toEnvelope), expected, source: `corpus case ${c.id} (${loaded.file})` };
}

/** The corpus cases a pov property can use: pov contract, not skipped, a route the env knows. */
export function usableCases(cases: readonly LoadedCase[], routes?: ReadonlySet<string>): LoadedCase[] {
  return cases.filter((c) => c.case.contract === 'pov' && !c.case.skip && (routes === undefined || routes.has(c.case.route)));
}

function toEnvelope(a: Envelope): Envelope {
  const e: Envelope = { stdout: a.stdout, stderr: a.stderr, exitCode: a.exitCode, elapsedMs: a.elapsedMs };
  if (a.signal !== undefined) e.signal = a.signal;
  if (a.timedOut !== undefined) e.timedOut = a.timedOut;
  if (a.files !== undefined) e.files = a.files;
  return e;
}

/** The verdict the env's decoder for `route` and the env's contract reach on `attempts` (a retry moves to the next attempt). */
export function judgeAttempts(route: string, attempts: readonly Envelope[], env: PropertyEnv): Verdict {
  return judgeCase({ attempts }, env.contract, decoderFor(route, env.decoders)).verdict;
}

/** A short text of a sample for messages: route, source, expected verdict, the last stdout clipped. */
export function describeSample(s: Sample): string {
  const last = s.attempts[s.attempts.length - 1];
  const stdout = last ? JSON.stringify(last.stdout) : '""';
  return `${s.route} (${s.source}), expected ${s.expected.verdict}; stdout ${stdout.length > 600 ? `${stdout.slice(0, 600)}...(${last!.stdout.length} chars)` : stdout}`;
}
