/**
 * The contract x route matrix (issue 20 point 3): for every shipped contract that reads the reply
 * (role-output, event, review-footer, critique-footer) and every route of a CLI, one case built from
 * that route's own envelope of a final answer (`fixtures/cases/<route>/final.json`, recorded from
 * the real CLI where the CLI runs here, documented otherwise), with the model's answer replaced by a
 * valid answer of the contract. The envelope stays the CLI's: its events, framing, usage, side files
 * and stderr; only the answer text (and the structured field or tool input that carries the same
 * answer) changes. `npm run matrix:cases` writes the cases; suites/contract-route-matrix.test.ts
 * checks that the committed cases are exactly what this builds from the committed sources.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_FINAL_PAYLOAD } from '#src/mock/scenarios.ts';
import { caseId } from '#src/record/caseId.ts';
import { projectPath } from '#src/paths.ts';
import { ROUTE_DEFINITIONS } from '#src/routes/index.ts';
import type { Envelope } from '#src/envelope/types.ts';

/** The shipped contracts that read `Decoded.reply` (a reply codec), in the order the matrix lists them. */
export const REPLY_CONTRACTS = ['role-output', 'event', 'review-footer', 'critique-footer'] as const;

/** One of {@link REPLY_CONTRACTS}. */
export type ReplyContract = (typeof REPLY_CONTRACTS)[number];

/** The answer the source envelopes carry (the probes' scripted final POV), as the model wrote it. */
const SOURCE_ANSWER = DEFAULT_FINAL_PAYLOAD as Record<string, unknown>;
const SOURCE_TEXT = JSON.stringify(SOURCE_ANSWER);

const ROLE_ANSWER = {
  role: 'implementer',
  status: 'done',
  summary: 'Added the retry window check; committed as 3f2a9c1.',
  artifacts: [{ path: 'src/policy/retry.ts', note: 'new window check' }],
  question: null,
};
const EVENT_ANSWER = { kind: 'done', text: 'Review finished: two findings.', ref: null };
const REVIEW_TEXT = '# Review of the retry window change\n\n- The window check compares against the start time (src/policy/retry.ts:42).\n- Tests cover the happy path only.\n\n## Result: PASS';
const CRITIQUE_TEXT = '# Critique of the rollout plan\n\n1. The plan never names an owner.\n2. The rollback section is missing.\n\n## Result: REPORT';

/** What each contract's valid answer is: the object (when the answer is a JSON object), its text, the expected value. */
const ANSWERS: Record<ReplyContract, { object?: Record<string, unknown>; text: string; value: unknown }> = {
  'role-output': { object: ROLE_ANSWER, text: JSON.stringify(ROLE_ANSWER), value: ROLE_ANSWER },
  event: { object: EVENT_ANSWER, text: JSON.stringify(EVENT_ANSWER), value: EVENT_ANSWER },
  'review-footer': { text: REVIEW_TEXT, value: { kind: 'verdict', result: 'PASS' } },
  'critique-footer': { text: CRITIQUE_TEXT, value: { kind: 'critique', result: 'REPORT' } },
};

/** The source case file of a route (its envelope of a final answer), in order of preference. */
const SOURCE_FILES = ['final.json', 'final-result.json', 'key-structured_output.json'];

/** Routes in the matrix: every route of a CLI (not `generic`, which is no CLI and has no envelope of its own). */
export function matrixRoutes(): string[] {
  return ROUTE_DEFINITIONS.filter((d) => d.bin !== null).flatMap((d) => d.routes.map((r) => r.route));
}

/** The path of the source case of `route`, relative to the repository root. @throws when the route has none. */
export function matrixSource(route: string): string {
  for (const f of SOURCE_FILES) if (existsSync(projectPath(`fixtures/cases/${route}/${f}`))) return `fixtures/cases/${route}/${f}`;
  throw new Error(`[routecert] matrix: no source case (${SOURCE_FILES.join(', ')}) under fixtures/cases/${route}/`);
}

/** The path of the matrix case of `contract` on `route`. */
export function matrixPath(contract: ReplyContract, route: string): string {
  return `fixtures/cases/contracts/${contract}/${route}/matrix-valid.json`;
}

/**
 * Replace the source answer in one JSON value: strings holding the answer text get the new text in
 * its place; objects equal to the answer become the new object (a JSON-object answer) or lose the
 * key (a text answer: the field is gone, as in a run without a schema). Returns the count replaced.
 */
function replaceIn(value: unknown, answer: { object?: Record<string, unknown>; text: string }, count: { n: number }): unknown {
  if (typeof value === 'string') {
    if (!value.includes(SOURCE_TEXT)) return value;
    count.n += 1;
    return value.split(SOURCE_TEXT).join(answer.text);
  }
  if (Array.isArray(value)) return value.map((v) => replaceIn(v, answer, count));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (isDeepStrictEqual(v, SOURCE_ANSWER)) {
        count.n += 1;
        if (answer.object) out[k] = answer.object;
        continue;
      }
      out[k] = replaceIn(v, answer, count);
    }
    return out;
  }
  return value;
}

/**
 * Consecutive JSONL events that split the answer text over one field (Gemini CLI's `delta`
 * messages): the first piece gets the whole new text, the others become empty.
 */
function joinDeltas(lines: unknown[], answer: { text: string }, count: { n: number }): void {
  for (let i = 0; i < lines.length; i += 1) {
    const first = lines[i];
    if (!isObject(first) || typeof first.content !== 'string' || first.delta !== true || first.content.includes(SOURCE_TEXT)) continue;
    let joined = '';
    let j = i;
    for (; j < lines.length; j += 1) {
      const l = lines[j];
      if (!isObject(l) || typeof l.content !== 'string' || l.role !== first.role || l.type !== first.type) break;
      joined += l.content;
    }
    if (!joined.includes(SOURCE_TEXT)) continue;
    count.n += 1;
    (first as Record<string, unknown>).content = joined.split(SOURCE_TEXT).join(answer.text);
    for (let k = i + 1; k < j; k += 1) (lines[k] as Record<string, unknown>).content = '';
    i = j - 1;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `stdout` with the source answer replaced, its framing (one document, pretty or not, or JSONL) kept. */
function replaceStdout(stdout: string, answer: { object?: Record<string, unknown>; text: string }, count: { n: number }): string {
  const trimmed = stdout.trim();
  try {
    const whole: unknown = JSON.parse(trimmed);
    const indent = /^[[{]\n/.test(trimmed) ? 2 : undefined;
    return stdout.replace(trimmed, JSON.stringify(replaceIn(whole, answer, count), null, indent));
  } catch {
    // JSONL: one document per line
  }
  const lines = stdout.split('\n');
  const parsed = lines.map((l) => {
    try {
      return l.trim() === '' ? undefined : (JSON.parse(l) as unknown);
    } catch {
      return undefined;
    }
  });
  joinDeltas(parsed, answer, count);
  return lines.map((l, i) => (parsed[i] === undefined ? l : JSON.stringify(replaceIn(parsed[i], answer, count)))).join('\n');
}

/** A case file as the matrix writes it (schemas/case.schema.json). */
export interface MatrixCase {
  id: string;
  description: string;
  route: string;
  cli: unknown;
  provenance: { source: 'generated'; ref: string; date: string };
  contract: ReplyContract;
  attempts: Envelope[];
  expect: { verdict: 'accepted'; attempt: 0; value: unknown };
  tags: string[];
}

/**
 * The matrix case of `contract` on `route`, built from the route's source case (its last attempt).
 *
 * @throws {Error} when the source has no case, or its envelope does not carry the source answer.
 */
export function buildMatrixCase(contract: ReplyContract, route: string): MatrixCase {
  const sourcePath = matrixSource(route);
  const source = JSON.parse(readFileSync(projectPath(sourcePath), 'utf8')) as { cli: unknown; provenance: { source: string; ref: string }; attempts: Envelope[] };
  const answer = ANSWERS[contract];
  const count = { n: 0 };
  const attempt = { ...source.attempts.at(-1)! };
  attempt.stdout = replaceStdout(attempt.stdout, answer, count);
  if (attempt.files) attempt.files = Object.fromEntries(Object.entries(attempt.files).map(([k, v]) => [k, replaceIn(v, answer, count) as string]));
  if (count.n === 0) throw new Error(`[routecert] matrix: ${sourcePath} does not carry the source answer`);
  const expect = { verdict: 'accepted' as const, attempt: 0 as const, value: answer.value };
  const c = {
    id: '',
    description: `${route}: a valid ${contract} answer in the route's own ${source.provenance.source} envelope is read and accepted (contract x route matrix)`,
    route,
    cli: source.cli,
    provenance: {
      source: 'generated' as const,
      ref: `${sourcePath} (${source.provenance.source}: ${source.provenance.ref}) with the model's answer replaced by a valid ${contract} answer (suites/_helpers/matrixCases.ts)`,
      date: '2026-12-02',
    },
    contract,
    attempts: [attempt],
    expect,
    tags: ['matrix'],
  };
  c.id = caseId(c as never);
  return c;
}

/**
 * Write every matrix case (`npm run matrix:cases`); returns the paths written (relative to the
 * repository root). Run it after a source case is re-recorded.
 */
export function writeMatrixCases(): string[] {
  const written: string[] = [];
  for (const contract of REPLY_CONTRACTS) {
    for (const route of matrixRoutes()) {
      const path = matrixPath(contract, route);
      mkdirSync(dirname(projectPath(path)), { recursive: true });
      writeFileSync(projectPath(path), `${JSON.stringify(buildMatrixCase(contract, route), null, 2)}\n`);
      written.push(path);
    }
  }
  return written;
}
