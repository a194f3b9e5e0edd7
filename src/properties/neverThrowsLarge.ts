/**
 * Property `never-throws-large`: the never-throws claim on envelopes of the sizes real runs reach
 * (issue 15), not only small ones: 10^4-10^5 candidate objects in one string field, in assistant
 * text, in free text and as JSONL events; 10^4 nesting levels in the structured field, in the
 * `result` string and in free text; multi-megabyte strings with braces and escaped quotes, and a
 * long last line cut before its end. The input is a plan (shape, count, depth, size, seed), so a
 * counterexample prints and shrinks as a few numbers; the envelope is built from it when checked.
 * A generated run judges its envelope on one route of the env (chosen by the plan), so it costs at
 * most about a second on one core; the known examples run first: the issue's
 * 150,000-candidate `claude-code/json` envelope on its route, and 10^4 levels on every route.
 */
import fc from 'fast-check';
import { deepJson } from '#src/arbitraries/_internals/text.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { firstFailure, routesOf } from './neverThrows.ts';
import type { PropertyEnv, RoutecertProperty } from './types.ts';

/** Envelope shapes of {@link LargeEnvelopePlan}. */
export const LARGE_SHAPES = ['result-candidates', 'assistant-candidates', 'jsonl-events', 'free-text-objects', 'deep-nesting', 'big-string', 'cut-long-line'] as const;

/**
 * What to build:
 * - `shape`: one of {@link LARGE_SHAPES};
 * - `count`: candidate objects or events (10,000-100,000 generated; 150,000 in the known example);
 * - `depth`: nesting levels for `deep-nesting` (1,000-10,000);
 * - `megabytes`: size of `big-string` / `cut-long-line` (1-8 MiB);
 * - `final`: whether a valid final `structured_output` stands beside the noise;
 * - `routeSlot`: which route judges it (modulo the number of routes); `-1`: every route.
 */
export interface LargeEnvelopePlan {
  shape: (typeof LARGE_SHAPES)[number];
  count: number;
  depth: number;
  megabytes: number;
  final: boolean;
  routeSlot: number;
  /** Judge on this route instead of the one `routeSlot` picks. */
  route?: string;
}

const FINAL = { voice: 'peer', position: 'Choose A', reasoning: 'A keeps the decoder linear.', evidence: ['src/a.ts:1'], external_check: 'ran', mode: 'independent', movement: 'initial', final: true };
const MIB = 2 ** 20;

function resultLine(plan: LargeEnvelopePlan, result: string): string {
  return JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result, ...(plan.final ? { structured_output: FINAL } : {}), session_id: '<uuid>' });
}

/** `count` small `{"position": ...}` objects (every one a candidate), with `{ }`, `[1, 2]` and `{"n": k}` noise between every other pair. */
function smallObjects(count: number): string {
  const parts: string[] = [];
  for (let k = 0; k < count; k++) {
    parts.push(`{"position": "draft ${k}", "final": false}`);
    if (k % 2 === 1) parts.push(k % 4 === 1 ? '{ } [1, 2]' : `{"n": ${k}}`);
  }
  return parts.join('\n');
}

/** Prose with braces, brackets, escaped quotes and fences, `bytes` long (ASCII). */
function braceProse(bytes: number): string {
  const unit = 'Looking at src/a.ts {see the braces} and [INFO] "quoted \\" text" {"n": 1} ```json\n{"position": "x"}\n``` done. ';
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/** The envelope a plan describes. Deterministic. */
export function buildLargeEnvelope(plan: LargeEnvelopePlan): Envelope {
  let stdout: string;
  switch (plan.shape) {
    case 'result-candidates':
      stdout = resultLine(plan, smallObjects(plan.count));
      break;
    case 'assistant-candidates':
      stdout = [
        JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: smallObjects(plan.count) }] }, session_id: '<uuid>' }),
        resultLine(plan, 'done'),
      ].join('\n');
      break;
    case 'jsonl-events': {
      const lines: string[] = [];
      for (let k = 0; k < plan.count; k++) lines.push(JSON.stringify({ type: 'item.completed', item: { id: `item_${k}`, type: 'agent_message', text: `{"position": "draft ${k}", "final": false}` } }));
      lines.push(resultLine(plan, JSON.stringify(FINAL)));
      stdout = lines.join('\n');
      break;
    }
    case 'free-text-objects':
      stdout = `${smallObjects(plan.count)}\n${plan.final ? JSON.stringify(FINAL) : ''}\n`;
      break;
    case 'deep-nesting':
      stdout = [
        `${'{"a":'.repeat(plan.depth)}`,
        // Written by hand: JSON.stringify itself overflows on 10^4 levels.
        `{"type":"result","result":${JSON.stringify(`${'['.repeat(plan.depth)}${deepJson(plan.depth, 'object')}`)},"structured_output":${deepJson(plan.depth, 'object')}}`,
        resultLine(plan, `${'{"position":'.repeat(plan.depth)}`),
      ].join('\n');
      break;
    case 'big-string':
      stdout = resultLine(plan, braceProse(plan.megabytes * MIB));
      break;
    case 'cut-long-line': {
      const line = resultLine(plan, braceProse(plan.megabytes * MIB));
      stdout = line.slice(0, line.length - 7); // no newline, cut before its end (pipe truncation)
      break;
    }
  }
  return { stdout, stderr: '', exitCode: 0, elapsedMs: 1_000 };
}

/**
 * The routes a plan is judged on: every route for `routeSlot: -1`, else one route, `route` when
 * set or the one at `routeSlot` (modulo the number of routes), so a generated run costs at most
 * about a second of CPU whatever its size.
 */
function routesFor(plan: LargeEnvelopePlan, env: PropertyEnv): string[] {
  const routes = routesOf(env);
  if (plan.routeSlot < 0) return routes;
  return [plan.route !== undefined && routes.includes(plan.route) ? plan.route : (routes[plan.routeSlot % routes.length] as string)];
}

const plans = fc.record({
  shape: fc.constantFrom(...LARGE_SHAPES),
  count: fc.integer({ min: 10_000, max: 100_000 }),
  depth: fc.integer({ min: 1_000, max: 10_000 }),
  megabytes: fc.integer({ min: 1, max: 8 }),
  final: fc.boolean(),
  routeSlot: fc.nat({ max: 1_000 }),
});

/** Known large inputs, tried first: the sizes of issue 15. */
const KNOWN_LARGE: LargeEnvelopePlan[] = [
  { shape: 'result-candidates', count: 150_000, depth: 1_000, megabytes: 1, final: true, routeSlot: 0, route: 'claude-code/json' },
  { shape: 'deep-nesting', count: 10_000, depth: 10_000, megabytes: 1, final: true, routeSlot: -1 },
];

/** See the file comment. */
export const neverThrowsLargeProperty: RoutecertProperty<LargeEnvelopePlan> = {
  name: 'never-throws-large',
  summary: 'the decoder of every route never throws on large and many-candidate envelopes (10^5 objects, 10^4 levels, megabyte strings), and a verdict with evidence comes back',
  numRuns: 3,
  arbitrary: () => plans,
  examples: () => KNOWN_LARGE,
  check(plan, env) {
    const envelope = buildLargeEnvelope(plan);
    const failure = firstFailure(envelope, env, routesFor(plan, env));
    if (failure) throw new Error(`route ${failure.route}: ${failure.reason}`);
  },
  regression: () => ({ refused: 'a large envelope is not saved as a case (megabytes in fixtures/): replay it with the printed --seed and --path' }),
  describe: (plan) => `${plan.shape} envelope${plan.route ? ` on ${plan.route}` : ''}: ${plan.count} objects, depth ${plan.depth}, ${plan.megabytes} MiB, ${plan.final ? 'with' : 'without'} a final structured_output`,
};
