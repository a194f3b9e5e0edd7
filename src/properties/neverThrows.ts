/**
 * Property `never-throws`: on any stdout and stderr (arbitrary bytes decoded as UTF-8, lone
 * surrogates, NUL, BOM, CRLF, deep or unbalanced nesting, slices of envelopes), the decoder of every
 * route never throws and the contract returns a verdict with evidence (src/envelope/types.ts
 * `RouteDecoder.decode`: "Never throws").
 */
import fc from 'fast-check';
import { hostileStdout } from '#src/arbitraries/hostileStdout.ts';
import { deepJson } from '#src/arbitraries/_internals/text.ts';
import { VERDICTS } from '#src/contract/types.ts';
import { defaultDecoders } from '#src/routes/registry.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { judgeAttempts, usableCases } from './samples.ts';
import type { PropertyEnv, RoutecertProperty } from './types.ts';

/** Input: one envelope, judged on every route. */
export type HostileEnvelope = Envelope;

const bytes = (b: number[]) => new TextDecoder('utf-8', { fatal: false }).decode(new Uint8Array(b));

/**
 * Known hostile inputs, tried first: a structured field nested past JSON.stringify's stack (10,000
 * levels), unbalanced nesting, NUL bytes, invalid UTF-8, lone surrogates, a BOM before CRLF lines.
 */
const KNOWN_HOSTILE: Envelope[] = [
  `{"type":"result","structured_output":${deepJson(10_000, 'object')},"result":"x"}`,
  '{"a":'.repeat(10_000),
  '['.repeat(10_000),
  '{"type":"result","result":"a\u0000b"}\u0000\n\u0000',
  bytes([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0xc3, 0x28, 0x7d, 0x0a, 0xe2, 0x82]),
  '{"type":"result","result":"\uD800"}\uDC00',
  '\uFEFF{"type":"system"}\r\n\r\n{"type":"result","structured_output":{"position":"x","final":true}}\r\n',
].map((stdout) => ({ stdout, stderr: '', exitCode: 0, elapsedMs: 10 }));

/** The routes of the env's decoders, each once, in order. */
export function routesOf(env: PropertyEnv): string[] {
  return [...new Set(env.decoders.map((d) => d.route))];
}

/** The first route (of `routes`, default all) on which judging `envelope` throws or returns no proper verdict, with the reason. */
export function firstFailure(envelope: Envelope, env: PropertyEnv, routes: readonly string[] = routesOf(env)): { route: string; reason: string } | null {
  for (const route of routes) {
    try {
      const v = judgeAttempts(route, [envelope], env);
      if (!(VERDICTS as readonly string[]).includes(v.verdict)) return { route, reason: `returned ${JSON.stringify(v.verdict)}, not a verdict` };
      if (!Array.isArray(v.evidence) || v.evidence.length === 0 || v.evidence.some((e) => typeof e !== 'string')) return { route, reason: `returned ${v.verdict} without evidence lines` };
    } catch (error) {
      return { route, reason: `threw ${(error as Error).name}: ${(error as Error).message}` };
    }
  }
  return null;
}

/** See the file comment. */
export const neverThrowsProperty: RoutecertProperty<HostileEnvelope> = {
  name: 'never-throws',
  summary: 'the decoder of every route never throws on arbitrary bytes, and a verdict with evidence comes back',
  numRuns: 40,
  arbitrary: () =>
    fc.record({
      stdout: hostileStdout({ maxDepth: 10_000 }),
      stderr: fc.oneof(fc.constant(''), fc.string({ unit: 'binary', maxLength: 60 })),
      exitCode: fc.constantFrom<number | null>(0, 1, 2, 255, null),
      elapsedMs: fc.constantFrom(10, 590_000),
    }),
  examples: (cases) => [
    ...KNOWN_HOSTILE,
    ...usableCases(cases).flatMap((c) => c.case.attempts.map((a): Envelope => ({ stdout: a.stdout, stderr: a.stderr, exitCode: a.exitCode, elapsedMs: a.elapsedMs }))),
  ],
  check(envelope, env) {
    const failure = firstFailure(envelope, env);
    if (failure) throw new Error(`route ${failure.route}: ${failure.reason}`);
  },
  regression(envelope, env) {
    const failing = firstFailure(envelope, env);
    const route = failing?.route ?? routesOf(env)[0] ?? 'generic';
    let verdict;
    try {
      verdict = judgeAttempts(route, [envelope], { ...env, decoders: defaultDecoders() });
    } catch (error) {
      return { refused: `routecert's own decoder for ${route} throws on it too (${(error as Error).message}); fix the decoder first, then save` };
    }
    return {
      route,
      description: `hostile stdout (${envelope.stdout.length} characters) must give a verdict, not an exception`,
      attempts: [envelope],
      expect: { verdict: verdict.verdict },
      tags: ['robustness'],
    };
  },
  describe: (e) => {
    const s = JSON.stringify(e.stdout);
    return `stdout ${s.length > 600 ? `${s.slice(0, 300)}...${s.slice(-300)} (${e.stdout.length} chars)` : s}, stderr ${JSON.stringify(e.stderr).slice(0, 120)}, exit ${String(e.exitCode)}`;
  },
};
