/**
 * Certifying a consumer: a published package (an SDK, an AI SDK provider) that spawns a model CLI
 * and hands its caller an answer. Such a consumer has no finality flag and no retry policy of its
 * own, so it is judged by an ordinary-schema contract ({@link CONSUMER_CONTRACT}: schema-valid is
 * settled) and by the checks its users care about ({@link CONSUMER_CHECKS}): is the answer taken
 * from the right place, is a provider error an error, is a short stderr visible, does a hung CLI
 * end at the caller's deadline with nothing left running, does an incomplete stream fail, is usage
 * reported.
 *
 * The consumer runs unchanged; a small adapter (examples/consumers/<package>/adapter.mjs) calls its
 * public API and writes what the caller got as the artifact, a {@link ConsumerOutcome}. The checks
 * read the outcome ({@link outcomeOf}, the artifact's `select`), never the consumer's internals.
 *
 * Source of the behaviours: issue 14; the cases are the corpus's (fixtures/cases), replayed by the
 * fake CLIs (src/harness/shim), or derived from them (a stream cut before its terminal event).
 */
import { isDeepStrictEqual } from 'node:util';
import { canonicalJson } from '#src/envelope/candidates.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { projectPath } from '#src/paths.ts';
import { decoderFor } from '#src/routes/registry.ts';
import { DEFAULT_PAYLOADS, planTurn } from '#src/mock/scenarios.ts';
import type { LoadedCase } from '#src/record/corpus.ts';
import type { ShimAttempt } from '#src/harness/shim/plan.ts';
import { caseLabel, findCase, findCases, replayOf } from './cases.ts';
import { CHECKS } from './checks.ts';
import type { CheckDefinition, CheckEnv, CheckJudgement, PlannedRun } from './checkTypes.ts';
import { forbiddenFlags, outputFormat, schemaOneToken, schemaSent } from './argvChecks.ts';
import { STARTUP_ALLOWANCE_MS, type RunObservation } from './execute.ts';
import type { ConsumerContract } from './config.ts';

export type { ConsumerContract };

/** The contract consumers are certified with: the POV schema, read as an ordinary schema. */
export const CONSUMER_CONTRACT: ConsumerContract = {
  consumer: true,
  name: 'consumer-answer',
  schema: projectPath('schemas/contracts/pov.schema.json'),
  anchor: 'position',
  finality: 'none',
  selection: 'last-shaped',
  textFallback: 'off',
};

/**
 * `value` is a consumer contract (`consumer: true`, `finality: 'none'`): a team's own contract with no
 * finality is not one, and gets the engine's checks its rules call for.
 */
export function isConsumerContract(value: unknown): value is ConsumerContract {
  return isPlainObject(value) && value.consumer === true && value.finality === 'none' && typeof value.name === 'string';
}

/**
 * What the caller of a consumer got, as its adapter writes it (JSON, the run's artifact):
 * - `kind`: `object` (a parsed structured answer in `value`), `text` (only text, in `text`),
 *   `error` (the consumer threw or reported an error: `error.message`, `error.name`), `empty`
 *   (it returned without an answer and without an error);
 *   `error.status` is the HTTP status the error carries as a field (an AI SDK `APICallError`'s
 *   `statusCode`, an SDK result's `api_error_status`), when it has one;
 * - `usage`: token counts as the consumer reported them, `{ inputTokens, outputTokens }`, when it did;
 * - `consumer`: `<package>@<version>`, for evidence;
 * - `elapsedMs`: from the adapter's call into the consumer to its return (ms), as the caller
 *   measures it (the deadline check reads it).
 */
export interface ConsumerOutcome {
  kind: 'object' | 'text' | 'error' | 'empty';
  value?: unknown;
  text?: string;
  error?: { name?: string; message: string; status?: number };
  usage?: { inputTokens?: number | null; outputTokens?: number | null };
  consumer?: string;
  elapsedMs?: number;
}

/** The outcome the adapter wrote, or why there is none (no artifact, not JSON, not an outcome). */
export function outcomeOf(o: RunObservation): ConsumerOutcome | { problem: string } {
  if (!o.artifact.exists) return { problem: `${o.label}: the adapter wrote no outcome file (it crashed or was killed before the consumer returned)` };
  if (o.artifact.parseError) return { problem: `${o.label}: the outcome file is not JSON (${o.artifact.parseError})` };
  const v = o.artifact.value;
  if (!isPlainObject(v) || !['object', 'text', 'error', 'empty'].includes(v.kind as string)) return { problem: `${o.label}: the outcome file has no kind object|text|error|empty` };
  return v as unknown as ConsumerOutcome;
}

const clip = (text: string, max = 160): string => {
  const f = text.replace(/\s+/g, ' ').trim();
  return f.length <= max ? f : `${f.slice(0, max - 3)}...`;
};

/** One line saying what the caller got. */
export function describeOutcome(out: ConsumerOutcome): string {
  switch (out.kind) {
    case 'object':
      return `an answer object ${clip(canonicalJson(out.value), 100)}`;
    case 'text':
      return `text only: "${clip(out.text ?? '', 100)}"`;
    case 'error':
      return `an error: "${clip(out.error?.message ?? '', 140)}"`;
    default:
      return 'nothing: no answer and no error (an empty success)';
  }
}

/** Problems of any run (shared by the fake-CLI and provider-mock checks): it could not start, routecert had to kill it, it left processes behind. */
export function runProblems(o: RunObservation): string[] {
  const problems: string[] = [];
  if (o.fault) problems.push(`${o.label}: ${o.fault}`);
  if (o.killedAtOuterDeadline) {
    // The outer deadline counts from the first CLI call, or from the start plus the start-up allowance when there is none.
    const afterS = Math.round((o.outerDeadlineMs + (o.calls.length > 0 ? 0 : STARTUP_ALLOWANCE_MS)) / 1000) - o.windows.hardWindowS;
    problems.push(`${o.label}: still running ${afterS} s after the caller's ${o.windows.hardWindowS} s deadline; routecert killed it`);
  }
  if (o.leftovers.length > 0) problems.push(`${o.label}: still running after the consumer returned: ${o.leftovers.map((l) => l.what).join(', ')}`);
  return problems;
}

export function verdict(problems: string[], pass: string[]): CheckJudgement {
  return problems.length > 0 ? { pass: false, evidence: problems } : { pass: true, evidence: pass };
}

/** The caller must get `expected` as the answer object. */
export function expectAnswer(o: RunObservation, expected: unknown): string[] {
  const out = outcomeOf(o);
  if ('problem' in out) return [out.problem];
  if (out.kind !== 'object') return [`${o.label}: the caller got ${describeOutcome(out)}, not the answer object`];
  if (!isDeepStrictEqual(out.value, expected)) return [`${o.label}: the answer differs: expected ${clip(canonicalJson(expected))}, got ${clip(canonicalJson(out.value))}`];
  return [];
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The caller must get an error (not an answer, not text, not an empty success). `mustMention`:
 * fragments its message must carry (whitespace-insensitive), e.g. the CLI's stderr.
 */
export function expectError(o: RunObservation, why: string, mustMention: readonly string[] = []): string[] {
  const out = outcomeOf(o);
  if ('problem' in out) return [out.problem];
  if (out.kind !== 'error') return [`${o.label}: ${why}, but the caller got ${describeOutcome(out)}`];
  const message = squash(out.error?.message ?? '');
  const missing = mustMention.filter((m) => !message.includes(squash(m)));
  return missing.length > 0 ? [`${o.label}: the error the caller got lacks ${missing.map((m) => `"${clip(m, 100)}"`).join(' and ')}: "${clip(message)}"`] : [];
}

/**
 * What a provider error must bring to the caller: the HTTP status (when the provider gave one) and
 * the provider's message (its first 100 characters, when it gave one).
 */
export interface ProviderErrorFacts {
  status?: number;
  message?: string;
}

/**
 * The provider's status and message in the envelope of case `c`, as its route decoder reads them
 * (`api_error_status`, the error event's or result's message; src/envelope/types.ts EnvelopeStatus).
 */
export function providerErrorFacts(c: LoadedCase): ProviderErrorFacts {
  const decoded = decoderFor(c.case.route).decode({ ...c.case.attempts[0]!, elapsedMs: 0 }, { anchor: 'position' });
  const { apiErrorStatus, message } = decoded.status;
  const head = message ? squash(message).slice(0, 100) : '';
  return { ...(typeof apiErrorStatus === 'number' ? { status: apiErrorStatus } : {}), ...(head !== '' ? { message: head } : {}) };
}

/**
 * The caller must get an error that carries the provider's status (in its message or as its
 * `status` field) and the provider's message: a 403 that reaches the caller as "success", or a
 * message with the status dropped, fails. A status field the error carries must be the provider's:
 * a 400 whose error says `statusCode: 500` (retryable, a server fault) misleads the caller even
 * when the message quotes the provider's body.
 */
export function expectProviderError(o: RunObservation, facts: ProviderErrorFacts, why = 'the provider answered with an error'): string[] {
  const problems = expectError(o, why, facts.message ? [facts.message] : []);
  if (problems.length > 0 || facts.status === undefined) return problems;
  const out = outcomeOf(o) as ConsumerOutcome;
  const status = String(facts.status);
  if (out.error?.status !== undefined && out.error.status !== facts.status) {
    return [`${o.label}: the error the caller got has status ${out.error.status} as its status field, but the provider answered ${status}: "${clip(out.error.message)}"`];
  }
  if (out.error?.status === facts.status || new RegExp(`(^|\\D)${status}(\\D|$)`).test(out.error?.message ?? '')) return [];
  return [`${o.label}: the error the caller got does not carry the provider's status ${status} (neither in its message nor as its status): "${clip(out.error?.message ?? '')}"`];
}

/** The judgement of a run that must hand over `expected` (the smoke's final answer); shared by the fake-CLI, mock and real-CLI runs. */
export function judgeFinal(o: RunObservation, expected: unknown): CheckJudgement {
  return verdict([...runProblems(o), ...expectAnswer(o, expected)], [`${o.label}: the caller got the structured answer unchanged`]);
}

/**
 * The judgement of a run whose answer was prose only: an explicit failure (an error) or the prose
 * as text; an answer object, an empty success or empty text fail (issue 19 part 4).
 */
export function judgeProse(o: RunObservation): CheckJudgement {
  const out = outcomeOf(o);
  const problems = runProblems(o);
  if ('problem' in out) problems.push(out.problem);
  else if (out.kind === 'object') problems.push(`${o.label}: the caller got ${describeOutcome(out)} from a prose-only answer`);
  else if (out.kind === 'empty' || (out.kind === 'text' && squash(out.text ?? '') === '')) problems.push(`${o.label}: the caller got ${describeOutcome(out)} from a prose-only answer: neither an error nor the prose`);
  return verdict(problems, ['problem' in out ? '' : `${o.label}: the caller got ${describeOutcome(out)}`]);
}

/** The judgement of a run whose provider answered with an error: the caller must get an error with the provider's status and message. */
export function judgeProviderError(o: RunObservation, facts: ProviderErrorFacts, why = 'the provider answered with an error'): CheckJudgement {
  return verdict([...runProblems(o), ...expectProviderError(o, facts, why)], [`${o.label}: ${describeOutcome(outcomeOf(o) as ConsumerOutcome)}`]);
}

/**
 * The status and message the provider mock answers in scenario `scenario` (src/mock/scenarios.ts),
 * for the runs against the mock (the in-process Gemini consumer, the hermetic real-CLI probe).
 */
export function mockErrorFacts(scenario: 'api-400' | 'api-529'): ProviderErrorFacts {
  const turn = planTurn(scenario, DEFAULT_PAYLOADS, { index: 0, structuredTool: null, lastToolResult: null, enforceNudge: false });
  return turn.kind === 'error' ? { status: turn.status, message: turn.message } : {};
}

/** The slack a caller's deadline gets: max(1 s, 10 % of it) (issue 19 part 4), in ms. */
export function deadlineSlackMs(deadlineMs: number): number {
  return Math.max(1000, deadlineMs / 10);
}

/**
 * The judgement of a run whose CLI (or provider) went silent: the caller must get an error, no
 * later than its deadline plus {@link deadlineSlackMs}, as the adapter measured it from its call
 * into the consumer (`elapsedMs`); without that measure, from the adapter's start.
 */
export function judgeDeadline(o: RunObservation): CheckJudgement {
  const problems = [...runProblems(o), ...expectError(o, "the caller's deadline passed")];
  const deadlineMs = o.windows.hardWindowS * 1000;
  const out = outcomeOf(o);
  const took = 'problem' in out ? undefined : (out.elapsedMs ?? o.elapsedMs);
  const limit = deadlineMs + deadlineSlackMs(deadlineMs);
  if (took !== undefined && took > limit) problems.push(`${o.label}: the consumer returned ${Math.round(took / 100) / 10} s after the call, past the caller's ${o.windows.hardWindowS} s deadline plus ${deadlineSlackMs(deadlineMs) / 1000} s`);
  return verdict(problems, [`${o.label}: returned by itself ${took === undefined ? '' : `${Math.round(took / 100) / 10} s after the call `}(deadline ${o.windows.hardWindowS} s, slack ${deadlineSlackMs(deadlineMs) / 1000} s) with ${describeOutcome(out as ConsumerOutcome)}`]);
}

const callsTo = (o: RunObservation, cli: string) => o.calls.filter((c) => c.cli === cli);

const replayRun = (c: LoadedCase): PlannedRun => ({ label: `case ${caseLabel(c)}`, attempts: [replayOf(c, 0)], cases: [c] });

const noCase = (what: string, route: string) => ({ skip: `the corpus has no ${what} for ${route}` });

/**
 * `attempt` with its stdout cut before its last JSON line (the terminal event: Claude Code's
 * `result`, Codex's `turn.completed`), exiting 0: a CLI that died mid-stream without saying so.
 */
export function cutBeforeTerminal(attempt: ShimAttempt): ShimAttempt {
  const lines = attempt.stdout.split('\n');
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  lines.pop();
  return { ...attempt, stdout: lines.length > 0 ? `${lines.join('\n')}\n` : '', exitCode: 0, source: `${attempt.source ?? 'attempt'}, cut before its last line (the terminal event), exit 0` };
}

/** The token counts of the case's envelope, as its route decoder reads them (`input_tokens`, `output_tokens` or camelCase). */
function envelopeUsage(c: LoadedCase): { input: number; output: number } | null {
  const decoded = decoderFor(c.case.route).decode({ ...c.case.attempts[0]!, elapsedMs: 0 }, { anchor: 'position' });
  const u = decoded.usage;
  if (!isPlainObject(u)) return null;
  const num = (...keys: string[]) => keys.map((k) => u[k]).find((v): v is number => typeof v === 'number');
  const input = num('input_tokens', 'inputTokens', 'prompt_tokens');
  const output = num('output_tokens', 'outputTokens', 'completion_tokens');
  return input === undefined || output === undefined ? null : { input, output };
}

const smokeFinal: CheckDefinition = {
  id: 'smoke-final',
  title: 'smoke: a well-formed structured answer reaches the caller as the object',
  stage: 'smoke',
  covers: ['smoke', 'answer-place'],
  expectedVerdict: 'accepted',
  plan: (env) => (env.smoke.final ? { runs: [replayRun(env.smoke.final)] } : noCase('well-formed final case', env.route.route)),
  judge: ([run], env) => {
    const o = run!.observed;
    const problems = runProblems(o);
    if (callsTo(o, env.route.cli).length === 0) problems.push(`${o.label}: the consumer never called \`${env.route.cli}\` (check the adapter's CLI path: the fake CLI is on PATH)`);
    const judged = judgeFinal(o, run!.planned.cases[0]!.case.expect.value);
    return problems.length > 0 ? verdict([...problems, ...(judged.pass ? [] : judged.evidence)], []) : judged;
  },
};

const smokeProse: CheckDefinition = {
  id: 'smoke-prose-only',
  title: 'smoke: a prose-only answer is not handed over as an answer object',
  stage: 'smoke',
  covers: ['smoke', 'answer-place'],
  expectedVerdict: 'dropped-unusable',
  plan: (env) => (env.smoke.prose ? { runs: [replayRun(env.smoke.prose)] } : noCase('prose-only case', env.route.route)),
  judge: ([run], env) => {
    const o = run!.observed;
    const judged = judgeProse(o);
    if (callsTo(o, env.route.cli).length > 0) return judged;
    return { pass: false, evidence: [`${o.label}: the consumer never called \`${env.route.cli}\``, ...(judged.pass ? [] : judged.evidence)] };
  },
};

const lastMessage: CheckDefinition = {
  id: 'answer-last-message',
  title: 'the answer is the last structured message, not a progress message before it',
  stage: 'check',
  covers: ['answer-place'],
  expectedVerdict: 'accepted',
  plan: (env) => {
    const cases = findCases(env.cases, env.route.route, { tags: ['placeholder-then-final'], verdict: 'accepted', attempts: 1, where: (c) => c.case.expect.value !== undefined });
    return cases.length > 0 ? { runs: cases.map(replayRun) } : noCase('progress-then-final case', env.route.route);
  },
  judge: (runs) => {
    const problems = runs.flatMap(({ planned, observed }) => [...runProblems(observed), ...expectAnswer(observed, planned.cases[0]!.case.expect.value)]);
    return verdict(problems, runs.map(({ observed }) => `${observed.label}: the caller got the final answer, not the progress message`));
  },
};

const providerError: CheckDefinition = {
  id: 'provider-error',
  title: "a provider error reaches the caller as an error with the provider's status and message, not an answer, text or empty success",
  stage: 'check',
  covers: ['errors'],
  expectedVerdict: 'provider-error',
  plan: (env) => {
    const cases = findCases(env.cases, env.route.route, { verdict: 'provider-error', attempts: 1 });
    return cases.length > 0 ? { runs: cases.map(replayRun) } : noCase('provider-error case', env.route.route);
  },
  judge: (runs) => {
    const judged = runs.map(({ observed, planned }) => judgeProviderError(observed, providerErrorFacts(planned.cases[0]!)));
    const pass = judged.every((j) => j.pass);
    return { pass, evidence: judged.filter((j) => pass || !j.pass).flatMap((j) => j.evidence) };
  },
};

const stderrShort: CheckDefinition = {
  id: 'stderr-visible',
  title: "a CLI that fails with a short stderr: the caller's error carries that message",
  stage: 'check',
  covers: ['diagnostics'],
  expectedVerdict: 'crashed',
  plan: (env) => {
    const c = findCase(env.cases, env.route.route, { tags: ['short-stderr'], verdict: 'crashed', attempts: 1, scope: 'any', where: (x) => x.case.attempts[0]!.stdout === '' });
    return c ? { runs: [replayRun(c)] } : noCase('short-stderr case', env.route.route);
  },
  judge: ([run]) => {
    const o = run!.observed;
    const stderr = run!.planned.attempts[0]!.stderr.trim();
    return verdict([...runProblems(o), ...expectError(o, 'the CLI exited 1', [stderr])], [`${o.label}: the error says "${stderr}"`]);
  },
};

function stallCase(env: CheckEnv): LoadedCase | undefined {
  return findCase(env.cases, env.route.route, { tags: ['timeout'], attempts: 1 });
}

const deadline: CheckDefinition = {
  id: 'deadline',
  title: "a CLI that goes silent ends at the caller's deadline (within max(1 s, 10 %)), as an error",
  stage: 'check',
  covers: ['deadline'],
  expectedVerdict: 'timeout',
  plan: (env) => {
    const c = stallCase(env);
    if (!c) return noCase('stall case', env.route.route);
    return { runs: [{ label: `case ${caseLabel(c)}, then the CLI hangs (caller's deadline 2 s)`, attempts: [{ ...replayOf(c, 0), hang: true }], cases: [c], windows: { hardWindowS: 2, idleWindowS: 30 } }] };
  },
  judge: ([run]) => judgeDeadline(run!.observed),
};

const processGroup: CheckDefinition = {
  id: 'no-process-left',
  title: 'a hung CLI with a child process: nothing is left running once the caller gave up',
  stage: 'check',
  covers: ['deadline', 'process-group'],
  expectedVerdict: 'timeout',
  plan: (env) => {
    const c = stallCase(env);
    if (!c) return noCase('stall case', env.route.route);
    return {
      runs: [{ label: `case ${caseLabel(c)}, then the CLI hangs with a grandchild in its process group (caller's deadline 2 s)`, attempts: [{ ...replayOf(c, 0), hang: { children: 1 } }], cases: [c], windows: { hardWindowS: 2, idleWindowS: 30 } }],
    };
  },
  judge: ([run]) => {
    const o = run!.observed;
    return verdict(runProblems(o), [`${o.label}: the CLI and its grandchild were gone when the consumer returned`]);
  },
};

const incompleteStream: CheckDefinition = {
  id: 'incomplete-stream',
  title: 'a stream cut before its terminal event (exit 0) fails: no answer, no empty success',
  stage: 'check',
  covers: ['errors', 'stream'],
  expectedVerdict: 'crashed',
  plan: (env) => {
    if (!env.route.streams) return { skip: `${env.route.route} is buffered: it has no terminal event to lose` };
    const kept = findCase(env.cases, env.route.route, { tags: ['incomplete-stream'], attempts: 1 });
    if (kept) return { runs: [{ label: `case ${caseLabel(kept)} (cut before its terminal event, exit 0)`, attempts: [replayOf(kept, 0)], cases: [kept] }] };
    const c = env.smoke.final;
    if (!c) return noCase('well-formed final case', env.route.route);
    return { runs: [{ label: `case ${caseLabel(c)} cut before its terminal event, exit 0`, attempts: [cutBeforeTerminal(replayOf(c, 0))], cases: [c] }] };
  },
  judge: ([run]) => {
    const o = run!.observed;
    return verdict([...runProblems(o), ...expectError(o, 'the stream ended before its terminal event')], [`${o.label}: ${describeOutcome(outcomeOf(o) as ConsumerOutcome)}`]);
  },
};

const usage: CheckDefinition = {
  id: 'usage',
  title: "usage is reported: the envelope's input and output token counts reach the caller",
  stage: 'check',
  covers: ['usage'],
  expectedVerdict: 'accepted',
  plan: (env) => {
    const c = env.smoke.final;
    if (!c) return noCase('well-formed final case', env.route.route);
    const u = envelopeUsage(c);
    if (!u) return { skip: `the envelope of case ${caseLabel(c)} carries no token usage` };
    return { runs: [{ ...replayRun(c), data: u }] };
  },
  judge: ([run]) => {
    const o = run!.observed;
    const want = run!.planned.data as { input: number; output: number };
    const out = outcomeOf(o);
    const problems = runProblems(o);
    if ('problem' in out) problems.push(out.problem);
    else if (!out.usage) problems.push(`${o.label}: the caller got no usage (the envelope says ${want.input} input, ${want.output} output tokens)`);
    else if (out.usage.inputTokens !== want.input || out.usage.outputTokens !== want.output) {
      problems.push(`${o.label}: usage ${out.usage.inputTokens ?? '?'} input, ${out.usage.outputTokens ?? '?'} output tokens; the envelope says ${want.input}, ${want.output}`);
    }
    return verdict(problems, [`${o.label}: usage ${want.input} input, ${want.output} output tokens`]);
  },
};

/**
 * An envelope that holds no answer at all while nothing says the run failed: no structured field,
 * empty answer text (Claude Code's `"result": ""` with output tokens, claude-code#38706), as its
 * route decoder reads it.
 */
function isEmptyAnswer(c: LoadedCase): boolean {
  const decoded = decoderFor(c.case.route).decode({ ...c.case.attempts[0]!, elapsedMs: 0 }, { anchor: 'position' });
  return decoded.status.kind === 'ok' && decoded.reply.structured === undefined && squash(decoded.reply.text?.value ?? '') === '';
}

const emptyAnswer: CheckDefinition = {
  id: 'empty-answer',
  title: 'an empty answer (no structured field, empty text, exit 0) reaches the caller as an error, not an empty success',
  stage: 'check',
  covers: ['answer-place', 'errors'],
  expectedVerdict: 'dropped-unusable',
  plan: (env) => {
    const cases = findCases(env.cases, env.route.route, { attempts: 1, where: (c) => c.case.expect.verdict === 'dropped-unusable' && isEmptyAnswer(c) });
    return cases.length > 0 ? { runs: cases.map(replayRun) } : noCase('empty-answer case (exit 0, no structured field, empty text)', env.route.route);
  },
  judge: (runs) => {
    const problems = runs.flatMap(({ observed }) => [...runProblems(observed), ...expectError(observed, 'the CLI answered nothing (empty text, no structured field)')]);
    return verdict(problems, runs.map(({ observed }) => `${observed.label}: ${describeOutcome(outcomeOf(observed) as ConsumerOutcome)}`));
  },
};

const structuredField: CheckDefinition = {
  id: 'answer-structured-field',
  title: "the answer comes from the structured field when the text field holds something else (a placeholder, or nothing)",
  stage: 'check',
  covers: ['answer-place'],
  expectedVerdict: 'accepted',
  plan: (env) => {
    const cases = findCases(env.cases, env.route.route, { tags: ['structured-differs-from-text'], verdict: 'accepted', attempts: 1, where: (c) => c.case.expect.value !== undefined });
    return cases.length > 0 ? { runs: cases.map(replayRun) } : noCase('case whose structured field and text field differ', env.route.route);
  },
  judge: (runs) => {
    const problems = runs.flatMap(({ planned, observed }) => [...runProblems(observed), ...expectAnswer(observed, planned.cases[0]!.case.expect.value)]);
    return verdict(problems, runs.map(({ observed }) => `${observed.label}: the caller got the structured field's answer, not the text field`));
  },
};

/** The checks of a consumer certificate, in certificate order; the argv checks are the engine's own (./argvChecks.ts). */
export const CONSUMER_CHECKS: readonly CheckDefinition[] = [
  smokeFinal,
  smokeProse,
  lastMessage,
  structuredField,
  emptyAnswer,
  providerError,
  stderrShort,
  incompleteStream,
  deadline,
  processGroup,
  usage,
  outputFormat,
  schemaSent,
  schemaOneToken,
  forbiddenFlags,
];

/**
 * The smoke cases of a consumer on `route`: a well-formed final answer from the route's answer
 * place, whatever the decoder calls it (`structured_output` for Claude Code, the last agent message
 * for Codex), and a prose-only answer.
 */
export function consumerSmokeCases(cases: readonly LoadedCase[], route: string): CheckEnv['smoke'] {
  const final = findCase(cases, route, { tags: ['final'], verdict: 'accepted', attempts: 1, where: (c) => c.case.expect.value !== undefined && c.case.expect.origin !== 'assistant-text' });
  const prose = findCase(cases, route, { tags: ['prose-only'], verdict: 'dropped-unusable', attempts: 1 });
  return { ...(final ? { final } : {}), ...(prose ? { prose } : {}) };
}

/**
 * The checks a contract's rules call for: the pov preset (finality key, one retry) gets the engine's
 * {@link CHECKS}; a contract with `finality: 'none'` and no retry gets {@link CONSUMER_CHECKS}, where
 * the finality and retry checks do not apply.
 */
export function checksForContract(contract: unknown): readonly CheckDefinition[] {
  return isConsumerContract(contract) ? CONSUMER_CHECKS : CHECKS;
}
