/**
 * The hermetic probe of a consumer: the consumer, unchanged, drives a REAL installed CLI (the caller
 * chooses which: by default the version the consumer pins or bundles) against routecert's provider mock on 127.0.0.1,
 * with the CLI's hermetic environment from its probe driver (src/routes/<cli>/probe.ts: base URL,
 * fake key, config in a throwaway HOME). The adapter gets the CLI's path in CONSUMER_CLI_PATH.
 * Three scenarios, judged by the consumer checks' rules (./consumer.ts): a final answer reaches the
 * caller as the object, a prose-only answer is not an object, a provider 400 is an error.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { driverForRoute } from '#src/probe/drivers.ts';
import { DEFAULT_FINAL_PAYLOAD, DEFAULT_PAYLOADS, type ScenarioName } from '#src/mock/scenarios.ts';
import { startLoopbackServer } from '#src/mock/server.ts';
import { projectPath } from '#src/paths.ts';
import type { CertifiedCli, CheckResult, RouteCertificate } from './certificate.ts';
import type { CheckJudgement } from './checks.ts';
import { adapterFault, DEFAULT_CERTIFY_PROMPT, routeStatus } from './certify.ts';
import type { LoadedConfig } from './config.ts';
import { CONSUMER_CHECKS, judgeFinal, judgeProse, judgeProviderError, mockErrorFacts } from './consumer.ts';
import { executeRun, type RunObservation } from './execute.ts';
import { certifyRoute } from './routes.ts';

const PROBES: { id: string; scenario: ScenarioName; judge: (o: RunObservation) => CheckJudgement }[] = [
  { id: 'smoke-final', scenario: 'final', judge: (o) => judgeFinal(o, DEFAULT_FINAL_PAYLOAD) },
  {
    id: 'smoke-prose-only',
    scenario: 'prose-only',
    judge: judgeProse,
  },
  { id: 'provider-error', scenario: 'api-400', judge: (o) => judgeProviderError(o, mockErrorFacts('api-400'), 'the provider answered HTTP 400') },
];

/**
 * Probe the consumer of `loaded` with the real CLI `bin` on `route`; `cli` is what the certificate
 * says of it (its version, where it comes from, and the pinned version when it is another one).
 * `schemaOverride` (a project-relative file) replaces the config's schema, e.g. the OpenAI-strict
 * POV schema for Codex, whose provider refuses a schema outside OpenAI's strict subset.
 * Returns a route certificate named `<route> (real <cli> <version> against the provider mock)`;
 * never throws for what the consumer or the CLI does.
 *
 * @throws {Error} when no probe driver serves `route`.
 */
export async function probeConsumerWithRealCli(loaded: LoadedConfig, route: string, bin: string, cli: CertifiedCli, schemaOverride?: string): Promise<RouteCertificate> {
  const { version } = cli;
  const driver = driverForRoute(route);
  if (!driver) throw new Error(`[routecert] no probe driver serves ${route}`);
  const schemaFile = schemaOverride ? projectPath(schemaOverride) : loaded.config.schema ? path.resolve(loaded.dir, loaded.config.schema) : projectPath('schemas/contracts/pov.schema.json');
  const schemaText = await readFile(schemaFile, 'utf8');
  const prompt = loaded.config.prompt ?? DEFAULT_CERTIFY_PROMPT;
  const root = await mkdtemp(path.join(tmpdir(), 'routecert-consumer-probe-'));
  const contract = typeof loaded.config.contract === 'object' ? loaded.config.contract.name : 'pov';
  const results: CheckResult[] = [];
  const smokeRuns: RunObservation[] = [];
  try {
    for (const probe of PROBES) {
      const def = CONSUMER_CHECKS.find((d) => d.id === probe.id)!;
      const workspace = { root: await mkdtemp(path.join(root, 'ws-')), home: '', cwd: '', tmpDir: '' };
      Object.assign(workspace, { home: path.join(workspace.root, 'home'), cwd: path.join(workspace.root, 'work'), tmpDir: path.join(workspace.root, 'tmp') });
      await Promise.all([mkdir(workspace.home), mkdir(workspace.cwd), mkdir(workspace.tmpDir)]);
      const server = await startLoopbackServer(await driver.handlers(probe.scenario, DEFAULT_PAYLOADS));
      let observed: RunObservation;
      try {
        const prepared = await driver.prepare({ route, schema: JSON.parse(schemaText) as object, prompt, mockUrl: server.url, workspace });
        const env = { ...prepared.env, ...(loaded.config.worker.env ?? {}), CONSUMER_CLI_PATH: bin };
        const config = { ...loaded.config, worker: { ...loaded.config.worker, env } };
        observed = await executeRun(
          { label: `real ${driver.cli} ${version}, mock scenario ${probe.scenario}`, route: certifyRoute(route), attempts: [], cliVersion: version, windows: { hardWindowS: 60, idleWindowS: 60, retryMinS: 1 }, outerDeadlineMs: 90_000 },
          { loaded: { ...loaded, config }, root, schemaText, prompt },
        );
      } finally {
        await server.close();
      }
      if (def.stage === 'smoke') smokeRuns.push(observed);
      const judged = probe.judge(observed);
      results.push({ id: def.id, title: def.title, status: judged.pass ? 'pass' : 'fail', evidence: judged.evidence, cases: [`${driver.cli} mock scenario ${probe.scenario}`], covers: [...def.covers], expectedVerdict: def.expectedVerdict, durationMs: observed.elapsedMs });
    }
  } finally {
    await rm(root, { recursive: true, force: true }).catch(() => undefined);
  }
  const smoke = results.filter((r) => r.id.startsWith('smoke-'));
  const checks = results.filter((r) => !r.id.startsWith('smoke-'));
  return {
    route: `${route} (real ${driver.cli} ${version} against the provider mock)`,
    cli,
    contract,
    status: adapterFault(smokeRuns, { calls: false }) !== null ? 'adapter-broken' : routeStatus(smoke, checks),
    smoke,
    checks,
    summary: { pass: checks.filter((r) => r.status === 'pass').length, fail: checks.filter((r) => r.status === 'fail').length, skipped: 0 },
  };
}
