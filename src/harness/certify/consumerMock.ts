/**
 * Certifying an in-process consumer against a provider mock: one that spawns no CLI but runs the
 * CLI's core in its own process (ai-sdk-provider-gemini-cli runs @google/gemini-cli-core, which
 * calls the Gemini API through @google/genai). No fake CLI can stand in for it; instead each run
 * gets its own Gemini mock on 127.0.0.1 playing a scenario (src/mock/gemini.ts), reached through
 * `GOOGLE_GEMINI_BASE_URL` (read by @google/genai 1.30.0, `getBaseUrl`), and the adapter's outcome
 * is judged by the same rules as the fake-CLI consumer checks (./consumer.ts).
 *
 * Checks about a CLI process (its stderr, its process group, its argv, a stream cut before its
 * terminal event) do not apply and are skipped with that reason.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { geminiHandlers } from '#src/mock/gemini.ts';
import { startLoopbackServer, type RecordedRequest } from '#src/mock/server.ts';
import { GEMINI_GENERATE_PATH, GEMINI_STREAM_PATH } from '#src/mock/gemini.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { DEFAULT_FINAL_PAYLOAD, type ScenarioName } from '#src/mock/scenarios.ts';
import { certificateHeader, type Certificate, type CheckResult, type RouteCertificate } from './certificate.ts';
import { adapterFault, notSelectedReason, routeStatus, type CertifyOutcome } from './certify.ts';
import { CONSUMER_CHECKS, judgeDeadline, judgeFinal, judgeProse, judgeProviderError, mockErrorFacts, outcomeOf, runProblems, verdict } from './consumer.ts';
import type { CheckJudgement } from './checks.ts';
import { DEFAULT_CERTIFY_PROMPT } from './certify.ts';
import { executeRun, type RunObservation } from './execute.ts';
import type { LoadedConfig } from './config.ts';
import { certifyRoute } from './routes.ts';
import { readFile } from 'node:fs/promises';
import { projectPath } from '#src/paths.ts';


/** The fake Gemini API key the adapter gets (never a real one). */
export const GEMINI_MOCK_KEY = 'AIzaRoutecertFakeKey000000000000000000';

/** How each consumer check is played against the mock: a scenario and a judge, or why it does not apply. */
type MockPlan = { scenario: ScenarioName; deadlineS?: number; judge: (o: RunObservation, requests: readonly RecordedRequest[], schema: Record<string, unknown>) => CheckJudgement } | { skip: string };

const sortedKeys = (v: unknown): string[] => (isPlainObject(v) ? Object.keys(v).sort() : []);
const sortedStrings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').sort() : []);

/**
 * The JSON mode the Gemini API was asked for, in each `generateContent` request the mock received:
 * `generationConfig.responseMimeType` `application/json` and a response schema
 * (`responseJsonSchema`, or the OpenAPI-subset `responseSchema`) with the contract schema's
 * properties and required keys. Gemini has no schema flag: JSON mode off, or another schema, is the
 * in-process consumer's way of not sending the schema.
 */
export function judgeSchemaSent(o: RunObservation, requests: readonly RecordedRequest[], schema: Record<string, unknown>): CheckJudgement {
  const calls = requests.filter((r) => GEMINI_GENERATE_PATH.test(r.path.split('?')[0]!) || GEMINI_STREAM_PATH.test(r.path.split('?')[0]!));
  if (calls.length === 0) return { pass: false, evidence: [`${o.label}: the consumer made no generateContent request`] };
  const problems: string[] = [];
  for (const [i, r] of calls.entries()) {
    const config = isPlainObject(r.body) && isPlainObject(r.body.generationConfig) ? r.body.generationConfig : {};
    const sent = config.responseJsonSchema ?? config.responseSchema;
    if (config.responseMimeType !== 'application/json') problems.push(`${o.label}: request ${i + 1} has responseMimeType ${JSON.stringify(config.responseMimeType ?? null)}, not application/json (JSON mode off)`);
    else if (!isPlainObject(sent)) problems.push(`${o.label}: request ${i + 1} carries no response schema (responseJsonSchema / responseSchema)`);
    else if (sortedKeys(sent.properties).join() !== sortedKeys(schema.properties).join() || sortedStrings(sent.required).join() !== sortedStrings(schema.required).join()) {
      problems.push(`${o.label}: request ${i + 1} carries another schema: properties ${sortedKeys(sent.properties).join(', ')}; required ${sortedStrings(sent.required).join(', ')}`);
    }
  }
  return problems.length > 0 ? { pass: false, evidence: problems } : { pass: true, evidence: [`${o.label}: ${calls.length} generateContent request(s) in JSON mode with the contract's schema`] };
}

const NO_PROCESS = 'the consumer spawns no CLI (Gemini CLI core runs in its process): there is no CLI process';

/** The plan of every consumer check against the Gemini mock, by check id. */
const PLANS: Record<string, MockPlan> = {
  'smoke-final': { scenario: 'final', judge: (o) => judgeFinal(o, DEFAULT_FINAL_PAYLOAD) },
  'smoke-prose-only': {
    scenario: 'prose-only',
    judge: judgeProse,
  },
  'answer-structured-field': { skip: 'a generateContent response in JSON mode has one text part, the JSON: no separate structured field' },
  'empty-answer': { skip: 'the Gemini mock has no empty-answer scenario (generateContent answers the scenario or an error)' },
  'output-format': { skip: `${NO_PROCESS}, so no argv` },
  'schema-sent': { scenario: 'final', judge: judgeSchemaSent },
  'schema-one-token': { skip: `${NO_PROCESS}, so no argv` },
  'answer-last-message': { skip: 'a one-shot generateContent response in JSON mode carries one JSON value: there is no progress message before it' },
  'provider-error': { scenario: 'api-400', judge: (o) => judgeProviderError(o, mockErrorFacts('api-400'), 'the provider answered HTTP 400') },
  'stderr-visible': { skip: `${NO_PROCESS}, so no stderr` },
  'incomplete-stream': { skip: 'generateText calls the one-shot generateContent (no stream to cut)' },
  deadline: {
    scenario: 'stall',
    deadlineS: 2,
    judge: judgeDeadline,
  },
  'no-process-left': { skip: `${NO_PROCESS} to leave behind` },
  usage: {
    scenario: 'final',
    judge: (o) => {
      const out = outcomeOf(o);
      const problems = runProblems(o);
      if ('problem' in out) problems.push(out.problem);
      else if (out.usage?.inputTokens !== 100 || typeof out.usage?.outputTokens !== 'number' || out.usage.outputTokens <= 0) {
        problems.push(`${o.label}: usage ${JSON.stringify(out.usage ?? null)}; the mock's usageMetadata says promptTokenCount 100 and a candidatesTokenCount > 0`);
      }
      return verdict(problems, ['problem' in out ? '' : `${o.label}: usage ${out.usage?.inputTokens} input, ${out.usage?.outputTokens} output tokens`]);
    },
  },
  'forbidden-flags': { skip: `${NO_PROCESS}, so no argv` },
};

/**
 * Certify the in-process Gemini consumer of `loaded` against the Gemini mock. `cli` names the core
 * it runs (package and version) for the certificate; `options.checks`: only these checks besides
 * the smoke; `options.subject`: the package certified, for the header.
 *
 * Never throws for what the consumer does.
 */
export async function certifyAgainstGeminiMock(loaded: LoadedConfig, cli: { name: string; version: string }, options: { checks?: readonly string[]; subject?: { name: string; version: string } } = {}): Promise<CertifyOutcome> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const schemaFile = loaded.config.schema ? path.resolve(loaded.dir, loaded.config.schema) : projectPath('schemas/contracts/pov.schema.json');
  const schemaText = await readFile(schemaFile, 'utf8');
  const root = await mkdtemp(path.join(tmpdir(), 'routecert-consumer-mock-'));
  const route = certifyRoute('gemini-cli/json');
  const contract = typeof loaded.config.contract === 'object' ? loaded.config.contract.name : 'pov';
  const results: CheckResult[] = [];
  const smokeRuns: RunObservation[] = [];
  try {
    for (const def of CONSUMER_CHECKS.filter((d) => d.stage === 'smoke' || !options.checks || options.checks.includes(d.id))) {
      const plan = PLANS[def.id];
      const base = { id: def.id, title: def.title, covers: [...def.covers], expectedVerdict: def.expectedVerdict };
      if (!plan || 'skip' in plan) {
        results.push({ ...base, status: 'skipped', reason: plan?.skip ?? 'no mock plan for this check', evidence: [], cases: [], durationMs: 0 });
        continue;
      }
      const server = await startLoopbackServer(geminiHandlers({ scenario: plan.scenario, generateContent: 'scenario' }));
      const hard = plan.deadlineS ?? 10;
      const config = { ...loaded.config, worker: { ...loaded.config.worker, env: { ...loaded.config.worker.env, GOOGLE_GEMINI_BASE_URL: server.url, GEMINI_API_KEY: GEMINI_MOCK_KEY } } };
      let observed: RunObservation;
      try {
        observed = await executeRun(
          { label: `Gemini mock scenario ${plan.scenario}`, route, attempts: [], cliVersion: cli.version, windows: { hardWindowS: hard, idleWindowS: 30, retryMinS: 1 }, outerDeadlineMs: hard * 1000 + 8000 },
          { loaded: { ...loaded, config }, root, schemaText, prompt: loaded.config.prompt ?? DEFAULT_CERTIFY_PROMPT },
        );
      } finally {
        await server.close();
      }
      if (def.stage === 'smoke') smokeRuns.push(observed);
      const judged = plan.judge(observed, server.requests, JSON.parse(schemaText) as Record<string, unknown>);
      results.push({ ...base, status: judged.pass ? 'pass' : 'fail', evidence: judged.evidence, cases: [`gemini mock scenario ${plan.scenario}`], durationMs: observed.elapsedMs });
    }
  } finally {
    await rm(root, { recursive: true, force: true }).catch(() => undefined);
  }
  const smoke = results.filter((r) => r.id.startsWith('smoke-'));
  const checks = results.filter((r) => !r.id.startsWith('smoke-'));
  const leftOut = options.checks ? CONSUMER_CHECKS.filter((d) => d.stage !== 'smoke' && !options.checks!.includes(d.id)).map((d) => d.id) : [];
  const status: RouteCertificate['status'] = adapterFault(smokeRuns, { calls: false }) !== null ? 'adapter-broken' : routeStatus(smoke, checks, { notSelected: leftOut.length });
  const exitCode: 0 | 1 | 3 = status === 'adapter-broken' ? 3 : status === 'not-certified' ? 1 : 0;
  const certificate: Certificate = {
    certificateVersion: 1,
    header: certificateHeader({ startedAt, worker: loaded.config.worker, configFile: loaded.file, contract, corpus: 'src/mock/gemini.ts scenarios (Gemini API mock on 127.0.0.1)', subject: options.subject }),
    routes: [
      {
        route: 'gemini-api/in-process',
        cli,
        contract,
        status,
        smoke,
        checks,
        summary: { pass: checks.filter((r) => r.status === 'pass').length, fail: checks.filter((r) => r.status === 'fail').length, skipped: checks.filter((r) => r.status === 'skipped').length },
        ...(leftOut.length > 0 ? { notSelected: { ids: leftOut, reason: notSelectedReason(options) } } : {}),
      },
    ],
    footer: { finishedAt: new Date().toISOString(), durationMs: Math.round(performance.now() - started), exitCode },
  };
  return { certificate, exitCode };
}
