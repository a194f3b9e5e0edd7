/**
 * The checks of a certificate, as data: each names what it covers, plans the runs it needs (corpus
 * cases chosen by tag and slug, replayed by the fake CLI) and judges what the worker did in them.
 * A check that has no case to replay for a route, or does not apply to it, is skipped with a reason.
 *
 * Sources of the rules: DESIGN.md "Contracts in the mission" (pov), research/ce-plugin.md sections
 * 1.2 (never-flags, schema as one argv token), 1.7 (timeouts, idle, process-group reaping,
 * timed-out output discarded), 1.8 (one retry with the final-answer paragraph, retry-min window),
 * 1.9 (skip evidence, short stderr verbatim, long evidence bounded) and 3.3-3.5 (the tests that pin them).
 * Which checks apply derives from the contract's rules (`requires`, issue 10 part 4); each rule has
 * its own check so a worker that breaks one rule fails exactly that check (issue 10 part 6,
 * proven by the miniatures in examples/miniatures/).
 */
import { isDeepStrictEqual } from 'node:util';
import { isPlainObject } from '#src/envelope/keys.ts';
import { TERM_GRACE_MS } from './execute.ts';
import { clipText, EVIDENCE_LIMIT_CHARS } from '#src/diagnostics/evidence.ts';
import type { LoadedCase } from '#src/record/corpus.ts';
import { promptOf, type ShimAttempt, type ShimCallRecord } from '#src/harness/shim/plan.ts';
import { finalAsString, stripFinal } from '#src/arbitraries/stripFinal.ts';
import { caseLabel, chunked, findCase, findCases, longStderr, replayOf, tieAttempt } from './cases.ts';
import type { RunObservation, RunWindows } from './execute.ts';
import { describeDifferences, meaningDifferences } from './meaning.ts';
import { pushAll } from '#src/arrays.ts';
import type { CertifiedRules } from './rules.ts';
import { forbiddenFlags, outputFormat, schemaOneToken, schemaSent } from './argvChecks.ts';
import { FAILURE_CHECKS, SELECTION_CHECKS } from './failureChecks.ts';
import { anchorVariant } from './generated.ts';
import { withoutFinality } from '#src/contract/define.ts';
import type { CheckDefinition, CheckEnv, CheckJudgement, JudgedRun, PlannedRun } from './checkTypes.ts';

/**
 * Windows of a run unless its check sets others (whole seconds, so shell workers can do arithmetic
 * on them). Generous: a run that behaves never waits for them, and a busy machine must not make a
 * worker skip its retry (retry-min 1 s of a 30 s window) or look idle (idle 5 s).
 */
export const DEFAULT_RUN_WINDOWS: RunWindows = { hardWindowS: 30, idleWindowS: 5, retryMinS: 1 };

/** Time routecert gives a worker beyond its hard window (or idle window, for the idle check) before killing it (ms). */
export const OUTER_GRACE_MS = 8000;

export type { CheckDefinition, CheckEnv, CheckJudgement, JudgedRun, PlannedRun } from './checkTypes.ts';

/** `requires` of the checks of a contract that retries. */
const needsRetry = (r: CertifiedRules) => (r.retries ? null : `contract ${r.contract} has no retry policy`);
/** `requires` of the checks of a contract with a finality key. */
const needsFinality = (r: CertifiedRules) => (r.finalityKey !== null ? null : `contract ${r.contract} has no finality key (finality: 'none')`);
/** `requires` of the checks of a contract that retries a non-final answer. */
const needsFinalityAndRetry = (r: CertifiedRules) => needsFinality(r) ?? needsRetry(r);

// ---------------------------------------------------------------------------------------------

const flat = (text: string) => text.replace(/\r\n|\r|\n/g, ' ');

/** The log contains `text`, as is or with its newlines flattened to spaces. */
function logHas(o: RunObservation, text: string): boolean {
  return o.log.includes(text) || flat(o.log).includes(flat(text));
}

/** Problems every run must be free of: could not start, had to be killed, left processes behind. */
function runProblems(o: RunObservation): string[] {
  const problems: string[] = [];
  if (o.fault) problems.push(`${o.label}: ${o.fault}`);
  if (o.killedAtOuterDeadline) {
    problems.push(`${o.label}: the worker was still running at routecert's outer deadline (${Math.round(o.outerDeadlineMs / 1000)} s after its first CLI call); routecert killed its process group`);
  }
  if (o.termIgnored) problems.push(termIgnoredProblem(o));
  if (o.leftovers.length > 0) problems.push(`${o.label}: still running after the worker ended: ${o.leftovers.map((l) => l.what).join(', ')}`);
  return problems;
}

function termIgnoredProblem(o: RunObservation): string {
  return `${o.label}: the worker ignored SIGTERM at routecert's outer deadline: still running ${TERM_GRACE_MS / 1000} s later, it had to be killed with SIGKILL (a worker must stop, and stop its peer, on SIGTERM)`;
}

function callsTo(o: RunObservation, cli: string): ShimCallRecord[] {
  return o.calls.filter((c) => c.cli === cli);
}

function noArtifact(o: RunObservation, why: string): string[] {
  return o.artifact.exists ? [`${o.label}: published ${o.artifact.path.split(/[\\/]/).slice(-2).join('/')} although ${why}: ${clip(o.artifact.text ?? '')}`] : [];
}

/**
 * The artifact carries `expected` by the contract's meaning (src/harness/certify/meaning.ts): the
 * schema's own properties compared, receipt fields ignored unless `strict`.
 */
function artifactMeans(o: RunObservation, expected: unknown, env: CheckEnv): string[] {
  if (!o.artifact.exists) {
    // A worker that wrote its answer beside the expected path: the config's `artifact` may be misspelt.
    const besides = o.artifact.besides?.length ? `; that folder holds ${o.artifact.besides.join(', ')}: does the config's \`artifact\` name the file the worker writes?` : '';
    return [`${o.label}: no artifact at the adapter's artifact path (${o.artifact.path.split(/[\\/]/).slice(-2).join('/')})${besides}`];
  }
  if (o.artifact.parseError) return [`${o.label}: the artifact is not usable (${o.artifact.parseError}): ${clip(o.artifact.text ?? '')}`];
  const diffs = meaningDifferences(expected, o.artifact.value, env.schema, { strict: env.strict, ignore: env.ignore });
  if (diffs.length > 0) return [`${o.label}: the artifact does not carry the expected answer${env.strict ? ' (strict)' : ''}: ${describeDifferences(diffs).slice(0, 4).join('; ')}`];
  return [];
}

function clip(text: string, max = 160): string {
  return clipText(flat(text), max);
}

function verdict(problems: string[], passEvidence: string[]): CheckJudgement {
  return problems.length > 0 ? { pass: false, evidence: problems } : { pass: true, evidence: passEvidence };
}

function windowsNote(o: RunObservation): string {
  return `hard ${o.windows.hardWindowS} s, idle ${o.windows.idleWindowS} s, retry-min ${o.windows.retryMinS} s`;
}

/** The skip line of a dropped non-final answer, with the contract's anchor as the contract writes it (src/contract/define.ts). */
function skipLine(position: string, anchor: string): string {
  return `peer skip evidence: non-final ${anchor}: ${flat(position).slice(0, 200)}`;
}

function valueOf(c: LoadedCase): unknown {
  return c.case.expect.value;
}

/** The first attempt of a case whose answer is non-final (the contract retries it). */
function nonfinalCase(env: CheckEnv): LoadedCase | undefined {
  return (
    findCase(env.cases, env.route.route, { verdict: 'retry', attempts: 1, tags: ['nonfinal'] }) ??
    findCase(env.cases, env.route.route, { verdict: 'retry', attempts: 1 })
  );
}

const noCase = (what: string, route: string) => ({ skip: `the corpus has no ${what} for ${route}` });

/** One run replaying the first attempt of `c` as is, labelled by the case. */
const replayRun = (c: LoadedCase) => ({ label: `case ${caseLabel(c)}`, attempts: [replayOf(c, 0)], cases: [c] });

/**
 * "the worker never called `<cli>`", with how the worker ended and the last line of its output: a
 * worker that could not start (`bash: w.sh: No such file or directory`, exit 127) says why in
 * the one line a user reads (a new user's broken adapter once showed neither).
 */
function neverCalled(o: RunObservation, cli: string): string {
  const ended = o.signal !== null ? `killed by ${o.signal}` : o.exitCode !== null ? `exit ${o.exitCode}` : 'no exit code';
  const lines = o.log.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const last = lines.at(-1);
  const said = last === undefined ? 'no output' : `its output ends ${JSON.stringify(last.length > 200 ? `${last.slice(0, 200)}...` : last)}`;
  return `${o.label}: the worker never called \`${cli}\` (the worker: ${ended}, ${said})`;
}

/** The problems of a run that must publish nothing (`why`: the reason nothing may be published). */
const failedRunProblems = (o: RunObservation, why: string): string[] => [...runProblems(o), ...noArtifact(o, why)];

// ---------------------------------------------------------------------------------------------

const smokeFinal: CheckDefinition = {
  id: 'smoke-final',
  title: 'smoke: a well-formed final answer is published as is',
  stage: 'smoke',
  covers: ['smoke'],
  expectedVerdict: 'accepted',
  plan: (env) => (env.smoke.final ? { runs: [replayRun(env.smoke.final)] } : noCase('well-formed final case', env.route.route)),
  judge: ([run], env) => {
    const o = run!.observed;
    const problems = runProblems(o);
    if (callsTo(o, env.route.cli).length === 0) {
      problems.push(`${neverCalled(o, env.route.cli)} (check the adapter's command, its route names, and that the worker finds the CLI on PATH)${o.calls.length > 0 ? `; it called ${[...new Set(o.calls.map((c) => c.cli))].join(', ')}` : ''}`);
    }
    pushAll(problems, artifactMeans(o, valueOf(run!.planned.cases[0]!), env));
    return verdict(problems, [`${o.label}: published the final answer unchanged`]);
  },
};

const smokeProse: CheckDefinition = {
  id: 'smoke-prose-only',
  title: 'smoke: a prose-only answer publishes nothing',
  stage: 'smoke',
  covers: ['smoke'],
  expectedVerdict: 'dropped-unusable',
  plan: (env) => (env.smoke.prose ? { runs: [replayRun(env.smoke.prose)] } : noCase('prose-only case', env.route.route)),
  judge: ([run], env) => {
    const o = run!.observed;
    const problems = runProblems(o);
    if (callsTo(o, env.route.cli).length === 0) problems.push(neverCalled(o, env.route.cli));
    pushAll(problems, noArtifact(o, 'the answer was prose only'));
    return verdict(problems, [`${o.label}: nothing published`]);
  },
};

/**
 * The case of the "non-final structured field beside a final text candidate" check: accepted from
 * text although the envelope's structured field holds a shaped non-final answer.
 */
function structuredBesideTextCase(env: CheckEnv): LoadedCase | undefined {
  return findCase(env.cases, env.route.route, {
    verdict: 'accepted',
    attempts: 1,
    where: (c) => c.case.expect.value !== undefined && !/^structured/i.test(c.case.expect.origin ?? '') && /structured_?output"?\s*:\s*\{[^{}]*"final"\s*:\s*false/i.test(c.case.attempts[0]!.stdout.replace(/\\"/g, '"')),
  });
}

const acceptedArtifact: CheckDefinition = {
  id: 'accepted-artifact',
  title: 'an accepted answer is published and carries the expected value (by the contract meaning)',
  stage: 'check',
  covers: ['selection'],
  expectedVerdict: 'accepted',
  plan: (env) => {
    const owned = structuredBesideTextCase(env);
    const cases = findCases(env.cases, env.route.route, { verdict: 'accepted', attempts: 1, where: (c) => c.case.expect.value !== undefined && c !== owned });
    if (cases.length === 0) return noCase('single-attempt accepted case', env.route.route);
    const runs: PlannedRun[] = cases.map(replayRun);
    // The answer only in the structured field, its text copy emptied (`"result": ""` beside
    // `structured_output`, as users reported it: AssemblyZero#781, tower-agent#81): a worker that
    // reads the text field, or a misspelt structured field, publishes nothing. A team's corpus
    // whose cases hold the answer in both never asked it.
    const f = env.smoke.final;
    const onlyStructured = f ? structuredOnly(replayOf(f, 0)) : null;
    if (f && onlyStructured && isDeepStrictEqual(env.acceptedValue(onlyStructured), f.case.expect.value)) {
      runs.push({ label: `case ${caseLabel(f)} with its text copy of the answer emptied (the answer only in its structured field)`, attempts: [{ ...onlyStructured, source: `derived from case ${caseLabel(f)} attempt 0: the text copy of the answer emptied, the structured field kept` }], cases: [f] });
    }
    return { runs };
  },
  judge: (runs, env) => {
    const problems = runs.flatMap(({ planned, observed }) => [...runProblems(observed), ...artifactMeans(observed, valueOf(planned.cases[0]!), env)]);
    return verdict(problems, runs.map(({ observed, planned }) => `${observed.label}: published the value the case expects (from ${planned.cases[0]!.case.expect.origin ?? '?'})`));
  },
};

/**
 * `attempt` with the text copy (`result`, `text`) of every JSON line that carries a structured
 * field (`structured_output`, `structuredOutput`, an object) emptied, the structured field kept;
 * `null` when no line has both.
 */
function structuredOnly(attempt: ShimAttempt): ShimAttempt | null {
  let changed = false;
  const stdout = attempt.stdout
    .split('\n')
    .map((line) => {
      let d: unknown;
      try {
        d = JSON.parse(line);
      } catch {
        return line;
      }
      if (!isPlainObject(d) || !['structured_output', 'structuredOutput'].some((k) => isPlainObject(d[k]))) return line;
      const field = ['result', 'text'].find((k) => typeof d[k] === 'string' && d[k] !== '');
      if (field === undefined) return line;
      changed = true;
      return JSON.stringify({ ...d, [field]: '' });
    })
    .join('\n');
  const { chunks: _c, ...rest } = attempt;
  return changed ? { ...rest, stdout } : null;
}

const chunkedOutput: CheckDefinition = {
  id: 'chunked-output',
  title: 'output that arrives in chunks (cut mid-line) is read whole',
  stage: 'check',
  covers: ['buffering'],
  expectedVerdict: 'accepted',
  plan: (env) => {
    const c = env.smoke.final;
    if (!c) return noCase('well-formed final case', env.route.route);
    return { runs: [{ label: `case ${caseLabel(c)} in 4 chunks 300 ms apart`, attempts: [chunked(replayOf(c, 0), 4, 300)], cases: [c] }] };
  },
  judge: ([run], env) => {
    const o = run!.observed;
    return verdict([...runProblems(o), ...artifactMeans(o, valueOf(run!.planned.cases[0]!), env)], [`${o.label}: published the final answer`]);
  },
};

const missingFinal: CheckDefinition = {
  id: 'missing-final',
  title: 'an answer whose finality key is missing, or not the boolean true ("true"), is non-final (fail closed): never published',
  stage: 'check',
  covers: ['finality', 'fail-closed'],
  expectedVerdict: 'dropped-nonfinal',
  requires: needsFinality,
  plan: (env) => {
    // The well-formed final case with its finality key removed (a CLI that exits 0 with a shaped
    // answer lacking it), and with it quoted (`"final": "true"`, which a truthiness test takes for
    // final), each when routecert's own contract refuses it; else a recorded missing-final case.
    // Whatever the key is called (`final`, a team's `done`): a borrowed case without that key would prove nothing.
    const c = env.smoke.final;
    const key = env.rules.finalityKey;
    const runs: PlannedRun[] = [];
    if (c && key !== null) {
      const base = replayOf(c, 0);
      const variants = [
        { stdout: stripFinal(base.stdout, key), what: `"${key}" removed`, why: `every answer lacked "${key}" (missing finality is non-final)` },
        { stdout: finalAsString(base.stdout, key), what: `"${key}": "true" (a string, not the boolean)`, why: `every answer's "${key}" was the string "true" (only the boolean true is final)` },
      ];
      for (const { stdout, what, why } of variants) {
        const attempt: ShimAttempt = { ...base, stdout, source: `derived from case ${caseLabel(c)} attempt 0: ${what}` };
        if (attempt.stdout !== base.stdout && env.acceptedValue(attempt) === undefined) runs.push({ label: `case ${caseLabel(c)} with ${what}, on every call`, attempts: [attempt, attempt], cases: [c], data: { why } });
      }
    }
    if (runs.length > 0) return { runs };
    const recorded = findCase(env.cases, env.route.route, { tags: ['missing-final'], where: (k) => k.case.expect.verdict !== 'accepted' });
    if (!recorded) return noCase('missing-final case', env.route.route);
    return { runs: [{ label: `case ${caseLabel(recorded)} on every call`, attempts: [replayOf(recorded, 0), replayOf(recorded, 0)], cases: [recorded] }] };
  },
  judge: (runs, env) => {
    const problems = runs.flatMap(({ observed: o, planned }) => failedRunProblems(o, typeof planned.data?.why === 'string' ? planned.data.why : `every answer lacked "${env.rules.finalityKey}" (missing finality is non-final)`));
    return verdict(problems, runs.map(({ observed: o }) => `${o.label}: nothing published (${callsTo(o, env.route.cli).length} calls)`));
  },
};

const structuredBesideText: CheckDefinition = {
  id: 'structured-beside-text',
  title: 'a non-final structured field does not hide a final answer in the text: the best candidate wins',
  stage: 'check',
  covers: ['selection', 'structured-field'],
  expectedVerdict: 'accepted',
  requires: (r) => needsFinality(r) ?? (r.scores ? null : `contract ${r.contract} selects the last shaped candidate, not by score`),
  plan: (env) => {
    const c = structuredBesideTextCase(env);
    if (c) return { runs: [replayRun(c)] };
    // None recorded: the final case with its structured field made a shaped, non-final placeholder
    // (the final answer stays in the text), when routecert's own contract still accepts the final.
    const f = env.smoke.final;
    const value = f?.case.expect.value;
    const key = env.rules.finalityKey;
    if (!f || !isPlainObject(value) || key === null) return noCase('case with a non-final structured field beside a final text answer', env.route.route);
    // Shaped: valid for the schema (an enum anchor takes another of its values), so a worker that
    // trusts any shaped structured field would publish it.
    const placeholder = anchorVariant(value, env.anchor, withoutFinality(env.schema, key), {
      tries: typeof value[env.anchor] === 'string' ? [{ ...value, [env.anchor]: `${String(value[env.anchor])} (a placeholder)` }] : [],
      generated: env.generated,
      overrides: { [key]: false },
    });
    if (placeholder === null) return noCase('case with a non-final structured field beside a final text answer', env.route.route);
    const base = replayOf(f, 0);
    const stdout = base.stdout
      .split('\n')
      .map((line) => {
        try {
          const d: unknown = JSON.parse(line);
          if (!isPlainObject(d)) return line;
          const field = ['structured_output', 'structuredOutput'].find((k) => isPlainObject(d[k]));
          return field ? JSON.stringify({ ...d, [field]: placeholder }) : line;
        } catch {
          return line;
        }
      })
      .join('\n');
    const attempt: ShimAttempt = { ...base, stdout, source: `derived from case ${caseLabel(f)} attempt 0: its structured field a non-final placeholder, the final answer in its text` };
    const accepted = env.acceptedValue(attempt);
    if (stdout === base.stdout || accepted === undefined || !isDeepStrictEqual(accepted, value)) return noCase('case with a non-final structured field beside a final text answer', env.route.route);
    return { runs: [{ label: `case ${caseLabel(f)} with a non-final placeholder in its structured field`, attempts: [attempt], cases: [f] }] };
  },
  judge: ([run], env) => {
    const o = run!.observed;
    return verdict([...runProblems(o), ...artifactMeans(o, valueOf(run!.planned.cases[0]!), env)], [`${o.label}: published the final text answer, not the non-final structured field`]);
  },
};

const tieToLater: CheckDefinition = {
  id: 'tie-to-later',
  title: 'of two equal-scoring candidates the later one is published',
  stage: 'check',
  covers: ['selection', 'tie'],
  expectedVerdict: 'accepted',
  requires: (r) => (r.scores ? null : `contract ${r.contract} selects the last shaped candidate, not by score`),
  plan: (env) => {
    const base = structuredBesideTextCase(env) ?? env.smoke.final;
    const tie = base ? tieAttempt(base, env.anchor, env.rules.finalityKey, env.generated, env.schema) : null;
    if (!base || !tie) return { skip: `no envelope with two equal-scoring candidates can be derived for ${env.route.route}` };
    const accepted = env.acceptedValue(tie.attempt);
    if (accepted === undefined || !isDeepStrictEqual(accepted, tie.later)) return { skip: `routecert's own contract does not pick the later of the derived tie on ${env.route.route}` };
    return { runs: [{ label: `case ${caseLabel(base)} with two equal-scoring final answers in its text`, attempts: [tie.attempt], cases: [base], data: { value: tie.later, earlier: tie.earlier } }] };
  },
  judge: ([run], env) => {
    const o = run!.observed;
    const problems = runProblems(o);
    const earlier = run!.planned.data?.earlier;
    if (o.artifact.exists && earlier !== undefined && meaningDifferences(earlier, o.artifact.value, env.schema, { ignore: env.ignore }).length === 0) {
      problems.push(`${o.label}: published the EARLIER of two equal-scoring candidates (ties go to the later one)`);
    } else pushAll(problems, artifactMeans(o, run!.planned.data?.value, env));
    return verdict(problems, [`${o.label}: published the later candidate`]);
  },
};

/** argv with the prompt file's path masked (it may differ between attempts). */
function argvShape(call: ShimCallRecord): string[] {
  const out = [...call.argv];
  for (let i = 0; i < out.length; i += 1) if (out[i] === '--prompt-file' && i + 1 < out.length) out[i + 1] = '<prompt-file>';
  return out;
}

const retryOnce: CheckDefinition = {
  id: 'retry-once',
  title: 'a non-final answer gets exactly one retry on the same route, and the final answer is published',
  stage: 'check',
  covers: ['finality', 'retry'],
  expectedVerdict: 'accepted',
  requires: needsFinalityAndRetry,
  plan: (env) => {
    const whole = findCase(env.cases, env.route.route, { verdict: 'accepted', attempts: 2, tags: ['retry'] });
    if (whole) return { runs: [{ label: `case ${caseLabel(whole)}`, attempts: [replayOf(whole, 0), replayOf(whole, 1)], cases: [whole], data: { value: valueOf(whole), retry: true } }] };
    const first = nonfinalCase(env);
    const final = env.smoke.final;
    if (!first || !final) return noCase('non-final case and final case', env.route.route);
    return {
      runs: [{ label: `case ${caseLabel(first)} then case ${caseLabel(final)}`, attempts: [replayOf(first, 0), replayOf(final, 0)], cases: [first, final], data: { value: valueOf(final), retry: true } }],
    };
  },
  judge: ([run], env) => {
    const o = run!.observed;
    const problems = runProblems(o);
    const calls = callsTo(o, env.route.cli);
    const others = o.calls.filter((c) => c.cli !== env.route.cli);
    if (others.length > 0) problems.push(`${o.label}: called another CLI (${[...new Set(others.map((c) => c.cli))].join(', ')}): no route hopping`);
    if (calls.length !== 2) problems.push(`${o.label}: expected exactly 2 calls of \`${env.route.cli}\` (the answer, then one retry), got ${calls.length}`);
    pushAll(problems, artifactMeans(o, run!.planned.data?.value, env));
    return verdict(problems, [`${o.label}: 2 calls, the final answer was published`]);
  },
};

/** The runs (of any check) planned as a retry that made at least two calls of the route's CLI. */
function retriedRuns(env: CheckEnv, all: readonly JudgedRun[]): { o: RunObservation; a: ShimCallRecord; b: ShimCallRecord }[] {
  return all
    .filter((r) => r.planned.data?.retry === true)
    .map((r) => ({ o: r.observed, calls: callsTo(r.observed, env.route.cli) }))
    .filter((r) => r.calls.length >= 2)
    .map((r) => ({ o: r.o, a: r.calls[0]!, b: r.calls[1]! }));
}

const noRetryObserved = 'no retry was observed (retry-once says why)';

const retryParagraph: CheckDefinition = {
  id: 'retry-paragraph',
  title: 'the retry prompt is the original prompt with the final-answer paragraph appended',
  stage: 'records',
  covers: ['retry', 'retry-prompt'],
  expectedVerdict: null,
  reads: ['retry-once'],
  requires: needsFinalityAndRetry,
  plan: () => ({ runs: [] }),
  judge: (_runs, env, all) => {
    const retried = retriedRuns(env, all);
    if (retried.length === 0) return { pass: false, evidence: [], skip: noRetryObserved };
    const problems: string[] = [];
    for (const { o, a, b } of retried) {
      const [p1, p2] = [promptOf(a), promptOf(b)];
      if (p1.includes(env.marker)) problems.push(`${o.label}: the first prompt already carries the final-answer paragraph ("${env.marker}")`);
      if (!p2.includes(env.marker)) problems.push(`${o.label}: the retry prompt lacks the final-answer paragraph ("${env.marker}"): ${clip(p2.slice(-200))}`);
      if (!p2.includes(env.prompt.trim())) problems.push(`${o.label}: the retry prompt lost the original prompt`);
    }
    return verdict(problems, retried.map(({ o }) => `${o.label}: the second prompt carries "${env.marker}" after the original prompt`));
  },
};

const retrySameArgv: CheckDefinition = {
  id: 'retry-same-argv',
  title: 'the retry runs the same route with the same argv (only the prompt changes)',
  stage: 'records',
  covers: ['retry', 'argv'],
  expectedVerdict: null,
  reads: ['retry-once'],
  requires: needsFinalityAndRetry,
  plan: () => ({ runs: [] }),
  judge: (_runs, env, all) => {
    const retried = retriedRuns(env, all);
    if (retried.length === 0) return { pass: false, evidence: [], skip: noRetryObserved };
    const problems: string[] = [];
    for (const { o, a, b } of retried) {
      if (!isDeepStrictEqual(argvShape(a), argvShape(b))) problems.push(`${o.label}: the retry changed the argv: ${clip(JSON.stringify(argvShape(a)), 300)} then ${clip(JSON.stringify(argvShape(b)), 300)}`);
    }
    return verdict(problems, retried.map(({ o }) => `${o.label}: both calls had the same argv`));
  },
};

const dropSecondNonfinal: CheckDefinition = {
  id: 'drop-second-nonfinal',
  title: 'a second non-final answer is dropped: one retry, then nothing published',
  stage: 'check',
  covers: ['finality', 'retry'],
  expectedVerdict: 'dropped-nonfinal',
  requires: needsFinalityAndRetry,
  plan: (env) => {
    const c = findCase(env.cases, env.route.route, { verdict: 'dropped-nonfinal', attempts: 2, tags: ['nonfinal'] }) ?? findCase(env.cases, env.route.route, { verdict: 'dropped-nonfinal', attempts: 2 });
    if (c) return { runs: [{ label: `case ${caseLabel(c)}`, attempts: [replayOf(c, 0), replayOf(c, 1)], cases: [c], data: { position: env.nonfinalPosition(c, 1), retry: true } }] };
    const first = nonfinalCase(env);
    if (!first) return noCase('non-final case', env.route.route);
    return { runs: [{ label: `case ${caseLabel(first)} twice`, attempts: [replayOf(first, 0), replayOf(first, 0)], cases: [first], data: { position: env.nonfinalPosition(first, 0), retry: true } }] };
  },
  judge: ([run], env) => {
    const o = run!.observed;
    const problems = runProblems(o);
    const calls = callsTo(o, env.route.cli).length;
    if (calls !== 2) problems.push(`${o.label}: expected 2 calls of \`${env.route.cli}\` (one retry, then drop), got ${calls}`);
    pushAll(problems, noArtifact(o, 'both answers were non-final'));
    return verdict(problems, [`${o.label}: dropped after one retry`]);
  },
};

const noRetryLate: CheckDefinition = {
  id: 'no-retry-late',
  title: 'no retry when less than the minimum retry window remains',
  stage: 'check',
  covers: ['finality', 'retry-window'],
  expectedVerdict: 'dropped-nonfinal',
  requires: needsFinalityAndRetry,
  plan: (env) => {
    const first = nonfinalCase(env);
    const final = env.smoke.final;
    if (!first || !final) return noCase('non-final case and final case', env.route.route);
    return {
      runs: [
        {
          label: `case ${caseLabel(first)} answering after 2.2 s (a retry would get case ${caseLabel(final)})`,
          attempts: [{ ...replayOf(first, 0), delayMs: 2200 }, replayOf(final, 0)],
          cases: [first, final],
          windows: { hardWindowS: 30, retryMinS: 29, idleWindowS: 10 },
          data: { position: env.nonfinalPosition(first, 0) },
        },
      ],
    };
  },
  judge: ([run], env) => {
    const o = run!.observed;
    const problems = runProblems(o);
    const calls = callsTo(o, env.route.cli).length;
    if (calls !== 1) problems.push(`${o.label}: retried although at most ${o.windows.hardWindowS - 2} s of the ${o.windows.hardWindowS} s window remained and the retry needs ${o.windows.retryMinS} s (${calls} calls)`);
    pushAll(problems, noArtifact(o, 'the only answer was non-final'));
    return verdict(problems, [`${o.label}: one call, nothing published (${windowsNote(o)})`]);
  },
};

const skipEvidence: CheckDefinition = {
  id: 'skip-evidence',
  title: 'a dropped non-final answer leaves the line "peer skip evidence: non-final <anchor>: <200 chars>" (the contract\'s anchor)',
  stage: 'records',
  covers: ['diagnostics', 'skip-line'],
  expectedVerdict: 'dropped-nonfinal',
  requires: needsFinality,
  plan: () => ({ runs: [] }),
  judge: (_runs, env, all) => {
    const dropped = all.filter((r) => typeof r.planned.data?.position === 'string' && !r.observed.artifact.exists);
    if (dropped.length === 0) return { pass: false, evidence: [], skip: 'no run dropped a non-final answer (drop-second-nonfinal and no-retry-late say why)' };
    const problems: string[] = [];
    for (const { planned, observed } of dropped) {
      const line = skipLine(planned.data!.position as string, env.anchor);
      if (!logHas(observed, line)) problems.push(`${observed.label}: the log lacks "${line}"`);
    }
    return verdict(problems, dropped.map(({ planned, observed }) => `${observed.label}: the log has "${skipLine(planned.data!.position as string, env.anchor)}"`));
  },
};

const timeoutDiscard: CheckDefinition = {
  id: 'timeout-discard',
  title: 'schema-valid output from a peer that outlived the hard window is discarded',
  stage: 'check',
  covers: ['deadline'],
  expectedVerdict: 'timeout',
  plan: (env) => {
    const c = env.smoke.final;
    if (!c) return noCase('well-formed final case', env.route.route);
    // 4 s: time enough for the fake CLI to start and print on a busy machine before the worker reaps it.
    return { runs: [{ label: `case ${caseLabel(c)} printed, then the CLI hangs`, attempts: [{ ...replayOf(c, 0), hang: true }], cases: [c], windows: { hardWindowS: 4, idleWindowS: 30 } }] };
  },
  judge: ([run], env) => {
    const o = run!.observed;
    const problems = runProblems(o);
    if (callsTo(o, env.route.cli).length === 0) problems.push(neverCalled(o, env.route.cli));
    pushAll(problems, noArtifact(o, 'the peer never exited within the hard window'));
    return verdict(problems, [`${o.label}: nothing published; the peer was reaped and the worker ended by itself (${windowsNote(o)})`]);
  },
};

/**
 * The case of the stderr checks: a crash with nothing on stdout and a short stderr (tagged
 * `short-stderr` first, else any such crash; a team's corpus needs no tag, issue 19 point 8).
 */
function shortStderrCase(env: CheckEnv): LoadedCase | undefined {
  const short = (c: LoadedCase) => c.case.attempts[0]!.stdout === '' && c.case.attempts[0]!.stderr.trim() !== '' && c.case.attempts[0]!.stderr.length <= EVIDENCE_LIMIT_CHARS;
  return (
    findCase(env.cases, env.route.route, { tags: ['short-stderr'], verdict: 'crashed', attempts: 1, scope: 'any', where: (c) => c.case.attempts[0]!.stdout === '' }) ??
    findCase(env.cases, env.route.route, { verdict: 'crashed', attempts: 1, scope: 'any', where: short })
  );
}

const stderrShort: CheckDefinition = {
  id: 'stderr-short',
  title: "a short stderr appears verbatim in the worker's log",
  stage: 'check',
  covers: ['diagnostics'],
  expectedVerdict: 'crashed',
  plan: (env) => {
    const c = shortStderrCase(env);
    if (!c) return noCase('short-stderr case', env.route.route);
    return { runs: [replayRun(c)] };
  },
  judge: ([run]) => {
    const o = run!.observed;
    const stderr = run!.planned.attempts[0]!.stderr.trim();
    const problems = failedRunProblems(o, 'the CLI failed');
    if (!logHas(o, stderr)) problems.push(`${o.label}: the log lacks the CLI's stderr "${stderr}" (${stderr.length} characters: short messages must stay whole)`);
    return verdict(problems, [`${o.label}: the log has "${stderr}"`]);
  },
};

const stderrLong: CheckDefinition = {
  id: 'stderr-long',
  title: "a long stderr is surfaced in the worker's log, its head kept, bounded by the contract's clip (300 characters for 147 + 147)",
  stage: 'check',
  covers: ['diagnostics'],
  expectedVerdict: 'crashed',
  plan: (env) => {
    const c = shortStderrCase(env);
    if (!c) return noCase('short-stderr case', env.route.route);
    const stderr = longStderr(c.case.attempts[0]!.stderr);
    return { runs: [{ label: `case ${caseLabel(c)} with its stderr grown to ${stderr.length} characters`, attempts: [{ ...replayOf(c, 0), stderr }], cases: [c] }] };
  },
  judge: ([run], env) => {
    const o = run!.observed;
    const stderr = flat(run!.planned.attempts[0]!.stderr).trim();
    const log = flat(o.log);
    const problems = failedRunProblems(o, 'the CLI failed');
    // The head carries the actionable message (ce-plugin #1175: a raw tail dropped it), so a
    // tail-only clip fails; the end may be clipped.
    const head = flat(run!.planned.cases[0]!.case.attempts[0]!.stderr).trim();
    if (!log.includes(head)) problems.push(`${o.label}: the log lacks the start of the CLI's stderr ("${clip(head, 80)}"): a long message is clipped in the middle or at the end, never at its head`);
    const bound = env.rules.logBound;
    const window = bound + 1;
    let unbounded = -1;
    for (let i = 0; i + window <= stderr.length; i += 10) {
      if (log.includes(stderr.slice(i, i + window))) {
        unbounded = i;
        break;
      }
    }
    if (unbounded >= 0) problems.push(`${o.label}: the log repeats more than ${bound} consecutive characters of a ${stderr.length}-character stderr (from offset ${unbounded}): evidence is bounded by the contract's clip (${env.rules.contract}: ${bound} characters)`);
    return verdict(problems, [`${o.label}: the log shows the stderr clipped to at most ${bound} consecutive characters (the contract's clip)`]);
  },
};

const startupRejection: CheckDefinition = {
  id: 'startup-rejection',
  title: "a startup schema rejection surfaces the CLI's message",
  stage: 'check',
  covers: ['diagnostics'],
  expectedVerdict: 'startup-rejected',
  plan: (env) => {
    const c = findCase(env.cases, env.route.route, { tags: ['startup-rejected'], verdict: 'startup-rejected', attempts: 1, scope: 'cli' });
    if (c) return { runs: [replayRun(c)] };
    // No recorded rejection for this CLI: the argument parser's refusal every commander-based CLI
    // prints (src/envelope/status.ts ARGUMENT_REJECTION), nothing on stdout, exit 1.
    const base = env.smoke.final;
    if (!base) return { skip: `the corpus has no startup-rejection case for ${env.route.cli}` };
    const attempt: ShimAttempt = { stdout: '', stderr: "error: unknown option '--routecert-unknown-flag'\n", exitCode: 1, source: `derived: an argument-parser refusal (no startup-rejection case for ${env.route.cli})` };
    return { runs: [{ label: `a startup rejection derived for ${env.route.cli} (no recorded one)`, attempts: [attempt], cases: [base] }] };
  },
  judge: ([run], env) => {
    const o = run!.observed;
    const message = run!.planned.attempts[0]!.stderr.split(/\r?\n/).find((l) => l.trim() !== '')?.trim() ?? '';
    const problems = failedRunProblems(o, 'the CLI refused to start');
    if (!logHas(o, message)) problems.push(`${o.label}: the log lacks the CLI's message "${message}"`);
    const calls = callsTo(o, env.route.cli).length;
    if (calls !== 1) problems.push(`${o.label}: a startup rejection is not retried (it fails the same way), got ${calls} calls`);
    return verdict(problems, [`${o.label}: the log has "${message}"`]);
  },
};

const idleWindow: CheckDefinition = {
  id: 'idle-window',
  title: 'a peer whose output stops growing is reaped at the idle window',
  stage: 'check',
  covers: ['idle'],
  expectedVerdict: 'timeout',
  plan: (env) => {
    if (!env.route.streams) return { skip: `${env.route.route} is buffered (the CLI prints at the end): only the hard window applies` };
    const c = findCase(env.cases, env.route.route, { tags: ['timeout'], attempts: 1 });
    if (!c) return noCase('stall case', env.route.route);
    const windows = { idleWindowS: 1, hardWindowS: 30 };
    return {
      runs: [{ label: `case ${caseLabel(c)}: output, then silence`, attempts: [{ ...replayOf(c, 0), hang: true }], cases: [c], windows, outerDeadlineMs: windows.idleWindowS * 1000 + OUTER_GRACE_MS }],
    };
  },
  judge: ([run], env) => {
    const o = run!.observed;
    const problems = failedRunProblems(o, 'the peer stalled');
    if (o.killedAtOuterDeadline && !env.adapterHasIdle) problems.push('the adapter declares no idle-window variable (`windowEnv.idleWindowS`): the worker has no idle detection');
    return verdict(problems, [`${o.label}: the silent peer was reaped and the worker ended by itself (${windowsNote(o)})`]);
  },
};

const termHonoured: CheckDefinition = {
  id: 'term-honoured',
  title: 'a worker stopped with SIGTERM (as CI and supervisors stop a job) ends by itself, without SIGKILL, and stops its peer',
  stage: 'check',
  covers: ['deadline', 'signals'],
  expectedVerdict: 'timeout',
  plan: (env) => {
    if (env.inProcess) return { skip: 'not applicable: the worker runs in routecert\'s process, so it is aborted, not signalled (other checks judge the abort)' };
    const c = env.smoke.final;
    if (!c) return noCase('well-formed final case', env.route.route);
    // The peer hangs and the worker's own windows are long: routecert's SIGTERM comes first, 2 s after the first CLI call.
    return { runs: [{ label: `case ${caseLabel(c)} printed, then the CLI hangs; SIGTERM to the worker`, attempts: [{ ...replayOf(c, 0), hang: true }], cases: [c], windows: { hardWindowS: 120, idleWindowS: 120 }, outerDeadlineMs: 2000 }] };
  },
  judge: ([run]) => {
    const o = run!.observed;
    const problems: string[] = [];
    if (o.fault) problems.push(`${o.label}: ${o.fault}`);
    if (!o.killedAtOuterDeadline) problems.push(`${o.label}: the worker ended before routecert's SIGTERM, so the check could not judge it (it should wait for a hanging peer within its windows)`);
    if (o.termIgnored) problems.push(termIgnoredProblem(o));
    // Stopping is not enough: a peer in a process group of its own does not get the SIGTERM routecert
    // sends the worker's group, so a worker that exits without stopping it leaves it running.
    if (o.leftovers.length > 0) problems.push(`${o.label}: the worker ended on SIGTERM but left ${o.leftovers.map((l) => l.what).join(', ')} running: a worker stopped with SIGTERM must stop its peer's process group before it exits`);
    return verdict(problems, [`${o.label}: the worker ended on SIGTERM (exit ${o.exitCode ?? o.signal ?? 'unknown'}) and left nothing running`]);
  },
};

const processGroup: CheckDefinition = {
  id: 'process-group',
  title: 'a peer that outlives its deadline is killed with its process group (SIGKILL, since a grandchild ignores SIGTERM); nothing is left behind',
  stage: 'check',
  covers: ['deadline', 'process-group'],
  expectedVerdict: 'timeout',
  plan: (env) => {
    const c = findCase(env.cases, env.route.route, { tags: ['timeout'], attempts: 1 }) ?? env.smoke.final;
    if (!c) return noCase('stall or final case', env.route.route);
    return {
      runs: [
        {
          label: `case ${caseLabel(c)}, then the CLI hangs with a grandchild in its process group that ignores SIGTERM`,
          attempts: [{ ...replayOf(c, 0), hang: { children: 1 } }],
          cases: [c],
          // 5 s: the grandchild is in place (recorded) long before a worker may reap, even on a busy machine.
          windows: { hardWindowS: 5, idleWindowS: 30 },
        },
      ],
    };
  },
  judge: ([run], env) => {
    const o = run!.observed;
    const problems = failedRunProblems(o, 'the peer never exited within the hard window');
    const children = o.records.filter((r) => r.kind === 'child').length;
    if (callsTo(o, env.route.cli).length === 0) problems.push(neverCalled(o, env.route.cli));
    else if (children === 0) problems.push(`${o.label}: the fake CLI recorded no grandchild, so the fault was not injected (the CLI was ended before it started one)`);
    if (o.leftovers.some((l) => l.what.startsWith('grandchild'))) {
      problems.push(`${o.label}: the grandchild ignores SIGTERM; a worker must end its peer's whole process group with SIGKILL (SIGTERM, a grace, then SIGKILL), not only the CLI's pid and not SIGTERM alone`);
    }
    return verdict(problems, [`${o.label}: the peer and its ${children} grandchild(ren) were gone when the worker ended (${windowsNote(o)})`]);
  },
};

/** Every check, in certificate order. */
export const CHECKS: readonly CheckDefinition[] = [
  smokeFinal,
  smokeProse,
  acceptedArtifact,
  chunkedOutput,
  ...FAILURE_CHECKS,
  missingFinal,
  structuredBesideText,
  tieToLater,
  ...SELECTION_CHECKS,
  retryOnce,
  retryParagraph,
  retrySameArgv,
  dropSecondNonfinal,
  noRetryLate,
  skipEvidence,
  timeoutDiscard,
  stderrShort,
  stderrLong,
  startupRejection,
  idleWindow,
  processGroup,
  termHonoured,
  outputFormat,
  schemaSent,
  schemaOneToken,
  forbiddenFlags,
];

/** The smoke cases of `route`: a well-formed final (structured field first, single attempt) and a prose-only answer. */
export function smokeCases(cases: readonly LoadedCase[], route: string): CheckEnv['smoke'] {
  const structured = (c: LoadedCase) => c.case.expect.value !== undefined && /^structured/i.test(c.case.expect.origin ?? '');
  // A route whose answer never lands in a structured field (Codex: the last agent message and its
  // -o file; cursor-agent: the result text) is smoked with an accepted answer from wherever it lands.
  // Not a case made to test a selection rule (a draft, a stub or a placeholder beside the answer).
  const selection = ['last-shaped-wins', 'populated-beats-stub', 'placeholder-then-final', 'tie'];
  const valued = (c: LoadedCase) => c.case.expect.value !== undefined && c.case.attempts[0]!.exitCode === 0 && !c.case.tags.some((t) => selection.includes(t));
  const final =
    findCase(cases, route, { tags: ['final'], verdict: 'accepted', attempts: 1, where: structured }) ??
    findCase(cases, route, { verdict: 'accepted', attempts: 1, where: structured }) ??
    findCase(cases, route, { tags: ['final'], verdict: 'accepted', attempts: 1, where: valued }) ??
    findCase(cases, route, { verdict: 'accepted', attempts: 1, where: valued });
  const prose =
    findCase(cases, route, { tags: ['prose-only'], verdict: 'dropped-unusable', attempts: 1 }) ??
    findCase(cases, route, { verdict: 'dropped-unusable', attempts: 1, where: (c) => c.case.attempts[0]!.exitCode === 0 && c.case.attempts[0]!.stderr === '' });
  return { ...(final ? { final } : {}), ...(prose ? { prose } : {}) };
}
