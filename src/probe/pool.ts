/**
 * One scheduler for every CLI run of a batch (`routecert run`, `record`, `npm run bench`): the
 * scenario probes, the startup table, the bench's own start-up rounds. At most `limit` CLIs run at
 * once (the number of cores: a CLI's start-up is CPU-bound), each distinct run is started once, and
 * every run started is counted by CLI, so a benchmark can set the wall time beside the floor of
 * the runs it started.
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import { DEFAULT_PAYLOADS } from '#src/mock/scenarios.ts';
import { DEFAULT_PROBE_PROMPT, DEFAULT_PROBE_TIMEOUT_MS, type ProbeOptions, type ProbeResult } from './run.ts';

/**
 * The identity of a hermetic run: two runs with the same key do the same thing (same binary, route,
 * scenario, schema, the payloads the scenario answers with, prompt and deadlines), because the mock
 * plays a scenario the same way every time. `final` answers only with `payloads.final`, so its key
 * leaves the other payloads out: a startup probe of a schema and the scenario probe `final` of the
 * same schema and route are then one run. `null` for a live run (the real provider is not
 * deterministic: never shared).
 */
export function probeRunKey(options: ProbeOptions): string | null {
  if (options.live === true) return null;
  const payloads = options.payloads ?? DEFAULT_PAYLOADS;
  return JSON.stringify([
    options.cli.bin,
    options.route,
    options.scenario,
    options.schema,
    options.scenario === 'final' ? { final: payloads.final } : payloads,
    options.prompt ?? DEFAULT_PROBE_PROMPT,
    options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
    options.deadlineAfterRequestMs ?? null,
    options.model ?? null,
  ]);
}

/**
 * The CLI runs of one batch: at most `limit` runs at once, and each distinct run started once.
 * Attempts that are the same run ({@link probeRunKey}) share it: the first attempt of
 * `nonfinal-then-final` and of `nonfinal-twice` is the `nonfinal-only` run, and a startup probe of
 * the production schema is the scenario probe `final` of the same route (issue 12 and issue 24,
 * "identical start-ups run once").
 *
 * A caller waits for its run without holding a slot, so a slot is only ever held by a running CLI;
 * runs start in the order they were asked for (ask longest first). The scenario probes and the
 * startup table of one `routecert run` share one pool, so the cores stay busy until the last CLI run
 * of the whole run, not of each phase.
 */
export class ProbeRunPool {
  readonly #slot: ReturnType<typeof pLimit>;
  readonly #runs = new Map<string, Promise<ProbeResult & { runMs: number }>>();
  /** Runs asked for that were answered by a run another caller had already asked for. */
  reused = 0;
  /** By CLI name: the runs started and their summed wall time (ms). */
  readonly byCli = new Map<string, { runs: number; ms: number }>();

  /** @param limit most CLI runs at once; @default the number of cores. */
  constructor(limit: number = availableParallelism()) {
    this.#slot = pLimit(Math.max(1, limit));
  }

  /**
   * The result of the run `key` names, starting `work` (under the limit) unless a run of that key
   * was already asked for; `key: null` always starts a run of its own. Never rejects when `work`
   * does not (`runProbe` never throws). `runMs`: the run's wall time, slot wait excluded.
   */
  run(key: string | null, cli: string, work: () => Promise<ProbeResult>): Promise<ProbeResult & { runMs: number }> {
    const known = key === null ? undefined : this.#runs.get(key);
    if (known) {
      this.reused += 1;
      return known;
    }
    const started = this.#slot(async () => {
      const at = performance.now();
      const result = await work();
      const runMs = performance.now() - at;
      const seen = this.byCli.get(cli) ?? { runs: 0, ms: 0 };
      this.byCli.set(cli, { runs: seen.runs + 1, ms: seen.ms + runMs });
      return { ...result, runMs };
    });
    if (key !== null) this.#runs.set(key, started);
    return started;
  }

  /**
   * The runs as `routecert run` prints them last, e.g. `CLI runs: 218 started (claude 40, codex 14),
   * 30 asked-for runs shared one already started` (read back by {@link parseCliRuns}).
   */
  summary(): string {
    const byCli = [...this.byCli.entries()];
    const runs = byCli.reduce((n, [, c]) => n + c.runs, 0);
    return `CLI runs: ${runs} started (${byCli.map(([cli, c]) => `${cli} ${c.runs}`).join(', ')}), ${this.reused} asked-for runs shared one already started`;
  }
}

/**
 * The runs started by CLI name from the output of `routecert run` (its {@link ProbeRunPool.summary}
 * line), and how many asked-for runs were shared; `null` when the output has no such line (no CLI ran).
 */
export function parseCliRuns(output: string): { byCli: Map<string, number>; shared: number } | null {
  const m = /^CLI runs: \d+ started \(([^)]*)\), (\d+) asked-for runs shared/m.exec(output);
  if (!m) return null;
  const byCli = new Map<string, number>();
  for (const part of m[1]!.split(', ')) {
    const at = part.lastIndexOf(' ');
    byCli.set(part.slice(0, at), Number(part.slice(at + 1)));
  }
  return { byCli, shared: Number(m[2]) };
}
