/**
 * The reference worker: runs one route's real CLI (found on PATH), decodes each attempt with
 * routecert's route decoder, judges it with the pov contract, retries once with the final-answer
 * paragraph when the contract allows, and publishes the artifact only when accepted. Every decision
 * is logged with its evidence lines (`peer skip evidence: ...`), as ce-pov logs them
 * (research/ce-plugin.md sections 1.8 and 1.9).
 *
 * Data flows one way: peer envelope -> route decoder -> candidates -> contract verdict -> artifact/log.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PovPolicy } from '#src/contract/pov.ts';
import { povContract } from '#src/contract/pov.ts';
import type { Contract, Verdict } from '#src/contract/types.ts';
import { decoderFor } from '#src/routes/registry.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { runPeer, type PeerOutcome, type PeerRunner } from './peer.ts';
import { WORKER_ROUTES, type WorkerRoute } from './routes.ts';
import { windowsFromEnv, WorkerUsageError, type WorkerWindows } from './windows.ts';

/** The prefix of every line the reference worker logs. */
export const WORKER_LOG_PREFIX = '[routecert-worker]';

/** Builds the contract a worker applies from the production schema and the time policy. */
export type ContractMaker = (schema: Record<string, unknown>, policy: Partial<PovPolicy>) => Contract | Promise<Contract>;

/** The pov contract as `schemas/contracts/pov.contract.json` defines it, over `schema`. */
export const povContractMaker: ContractMaker = (schema, policy) => povContract(schema, { policy });

/**
 * Options of {@link runWorker}.
 * - `route`: one of {@link WORKER_ROUTES};
 * - `schema`: the production schema (sent to the CLI as one argv token and used to judge);
 * - `prompt`: the prompt text; the retry appends the contract's final-answer paragraph;
 * - `out`: where the artifact (the accepted value as JSON) is published, atomically;
 * - `env`: the peer's environment and the source of the windows; @default `process.env`;
 * - `windows`: @default read from `env` ({@link windowsFromEnv});
 * - `model`: passed as `--model` when set;
 * - `log`: receives each log line (prefixed); @default stderr;
 * - `signal`: abort = reap the peer and stop;
 * - `contract`, `runPeer`: seams for miniature workers in tests; @default the pov contract and {@link runPeer}.
 */
export interface WorkerOptions {
  route: string;
  schema: Record<string, unknown>;
  prompt: string;
  out: string;
  env?: NodeJS.ProcessEnv;
  windows?: WorkerWindows;
  model?: string;
  cwd?: string;
  log?: (line: string) => void;
  signal?: AbortSignal;
  contract?: ContractMaker;
  runPeer?: PeerRunner;
}

/** One attempt as the worker lived it: the argv it ran, what came back, and the verdict on it. */
export interface WorkerAttempt {
  argv: string[];
  outcome: PeerOutcome;
  verdict: Verdict;
}

/** What the worker did: the final verdict, each attempt, and the artifact path when it published one. */
export interface WorkerResult {
  route: string;
  verdict: Verdict;
  attempts: WorkerAttempt[];
  published: string | null;
}

/**
 * Run the worker on one route. Never throws for anything the peer does; a spawn failure, a crash or
 * a deadline is a verdict.
 *
 * @throws {WorkerUsageError} for an unknown route or bad windows.
 * @example
 * const result = await runWorker({ route: 'claude-code/stream-json', schema, prompt, out: 'pov-claude.json' });
 * result.verdict.verdict // 'accepted' | 'dropped-nonfinal' | ...
 */
export async function runWorker(options: WorkerOptions): Promise<WorkerResult> {
  const route: WorkerRoute | undefined = WORKER_ROUTES[options.route];
  if (!route) throw new WorkerUsageError(`unknown route "${options.route}". Known routes: ${Object.keys(WORKER_ROUTES).join(', ')}.`);
  const env = options.env ?? process.env;
  const windows = options.windows ?? windowsFromEnv(env);
  const log = (line: string) => (options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(`${WORKER_LOG_PREFIX} ${line}`);
  const contract = await (options.contract ?? povContractMaker)(options.schema, { hardWindowS: windows.hardWindowS, retryMinS: windows.retryMinS });
  const decoder = decoderFor(route.route);
  const peer = options.runPeer ?? runPeer;
  const schemaJson = JSON.stringify(options.schema);

  const started = performance.now();
  const deadlineAt = Date.now() + windows.hardWindowS * 1000;
  const scratch = await mkdtemp(path.join(tmpdir(), 'routecert-worker-'));
  const attempts: WorkerAttempt[] = [];
  let verdict: Verdict | undefined;
  try {
    let prompt = options.prompt;
    for (let attempt = 0; ; attempt += 1) {
      const promptFile = route.promptVia === 'file' ? path.join(scratch, 'prompt.txt') : null;
      if (promptFile !== null) await writeFile(promptFile, prompt);
      const argv = route.argv({ schemaJson, promptFile, ...(options.model ? { model: options.model } : {}) });
      const leftS = Math.max(0, (deadlineAt - Date.now()) / 1000);
      log(`${route.route} attempt ${attempt + 1}: running ${route.cli} (${leftS.toFixed(1)}s of the ${windows.hardWindowS}s window left)`);
      const outcome = await peer({
        bin: route.cli,
        argv,
        env,
        ...(options.cwd ? { cwd: options.cwd } : {}),
        ...(route.promptVia === 'stdin' ? { stdin: prompt } : {}),
        deadlineAt,
        idleMs: route.streams && windows.idleWindowS !== null ? windows.idleWindowS * 1000 : null,
        ...(options.signal ? { signal: options.signal } : {}),
        onLog: log,
      });
      if (outcome.spawnError) log(`could not run ${route.cli}: ${outcome.spawnError}`);
      const envelope: Envelope = outcome.envelope;
      const decoded = decoder.decode(envelope, contract.decodeOptions);
      verdict = contract.judge(decoded, { attempt, elapsedMs: performance.now() - started });
      attempts.push({ argv, outcome, verdict });
      for (const line of verdict.evidence) log(line);
      if (verdict.verdict !== 'retry') break;
      prompt = `${options.prompt}\n\n${verdict.addendum}`;
    }
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }

  let published: string | null = null;
  if (verdict.verdict === 'accepted') {
    await mkdir(path.dirname(path.resolve(options.out)), { recursive: true });
    const tmp = `${options.out}.tmp-${process.pid}`;
    await writeFile(tmp, `${JSON.stringify(verdict.value, null, 2)}\n`);
    await rename(tmp, options.out);
    published = options.out;
    log(`wrote peer answer to ${options.out} (from ${verdict.origin}, attempt ${verdict.attempt + 1})`);
  } else {
    log(`${route.cli} produced no usable final answer on ${route.route} (${verdict.verdict}); nothing published`);
  }
  return { route: route.route, verdict, attempts, published };
}
