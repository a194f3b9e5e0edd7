/**
 * `routecert record --config <file>`: each contract of a team's config, its production schema sent
 * to each real CLI the contract names (`clis`), hermetically, with the scenarios generated from
 * the schema (src/record/recordContract.ts); every envelope is written as a redacted case of the
 * team's contract in the config's cases folder (`<cases>/<contract>/<route>/<scenario>.json`).
 *
 * Exit codes: 0 every recorded verdict meets its scenario's rule (cases refused because they exist
 * count as recorded); 1 a verdict breaks the rule; 2 a bad config, filter or schema; 3 no CLI the
 * contracts name is installed, or a probe could not run.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import pc from 'picocolors';
import { configFor, clisOf, ownCasesFolder } from '#src/config/project.ts';
import type { DefinedContract } from '#src/contract/define.ts';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { decoderFor } from '#src/routes/registry.ts';
import { runAll } from '#src/harness/probeSource.ts';
import { ProbeRunPool } from '#src/probe/pool.ts';
import { candidateFor, discoverCli, notFoundMessage, type DiscoveredCli } from '#src/probe/discover.ts';
import type { ProbeDriver } from '#src/probe/driver.ts';
import { PROBE_DRIVERS } from '#src/probe/drivers.ts';
import { DEFAULT_PROBE_PROMPT, runProbe } from '#src/probe/run.ts';
import { supportOf } from '#src/probe/versions.ts';
import { contractCase, contractCasePath, contractScenarios, ruleProblems, withExpectation, type ContractScenario } from '#src/record/recordContract.ts';
import { writeCaseFile } from '#src/record/recordProbes.ts';
import { shownPath } from '../options.ts';
import { interruption } from '#src/process/interrupt.ts';

/** Options of `record --config` (a subset of `routecert record`'s). */
export interface RecordConfigOptions {
  config: string;
  /** Only these CLIs (of those the contracts name). */
  cli?: string[];
  route?: string[];
  /** Only these scenario slugs (`final`, `missing-<field>`, ...). */
  scenario?: string[];
  /** Only these contracts of the config. */
  contract?: string[];
  /** The cases folder; @default the config's `cases`, else `cases/` beside the config. */
  out?: string;
  force?: boolean;
  probeTimeout: number;
  bin?: Record<string, string>;
  allowUnsupported?: boolean;
  /** Seconds between "still recording" lines while runs are going (@default 20). */
  heartbeatS?: number;
}

interface Task {
  contract: DefinedContract;
  driver: ProbeDriver;
  cli: DiscoveredCli;
  route: string;
  scenario: ContractScenario;
}

/** Record; returns the exit code (see the module doc). */
export async function recordConfigCommand(opts: RecordConfigOptions): Promise<number> {
  const out = (s: string) => process.stdout.write(s);
  const err = (s: string) => process.stderr.write(s);
  const project = await configFor(opts.config);
  if (!project || project.contracts.length === 0) {
    err(`[routecert] record --config: ${opts.config} defines no contracts to record (add \`contracts: [defineContract({...})]\`; README "Your own contracts")\n`);
    return 2;
  }
  const unknown = (opts.contract ?? []).filter((n) => !project.contracts.some((c) => c.name === n));
  if (unknown.length > 0) {
    err(`[routecert] --contract ${unknown.join(', ')}: not a contract of ${shownPath(project.file)}. Contracts: ${project.contracts.map((c) => c.name).join(', ')}\n`);
    return 2;
  }
  const contracts = project.contracts.filter((c) => !opts.contract?.length || opts.contract.includes(c.name));
  const bins = opts.bin ?? {};
  const outDir = opts.out !== undefined ? path.resolve(opts.out) : (ownCasesFolder(project) ?? path.join(project.dir, 'cases'));
  const named = [...new Set(contracts.flatMap((c) => clisOf(c)))];
  const wanted = named.filter((n) => !opts.cli?.length || opts.cli.includes(n));
  if (opts.cli?.length && wanted.length === 0) {
    err(`[routecert] --cli ${opts.cli.join(', ')}: no contract of the config names it in clis (named: ${named.join(', ')})\n`);
    return 2;
  }
  // Discover each named CLI once; one that is missing is named with its install line, and skipped.
  out(`looking for ${wanted.join(', ')} (the CLIs the contracts name in clis)\n`);
  const found = new Map<string, { driver: ProbeDriver; cli: DiscoveredCli }>();
  for (const name of wanted) {
    const driver = PROBE_DRIVERS.find((d) => d.cli === name);
    if (!driver) {
      out(pc.yellow(`skip ${name}: no hermetic probe for it (routecert probe --list)\n`));
      continue;
    }
    const cli = await discoverCli(driver.cli, { bin: driver.bin, npmPackage: driver.npmPackage, candidate: candidateFor(driver.cli, bins) });
    if (cli.bin === null) {
      out(pc.yellow(`skip ${name}: ${notFoundMessage(cli).replace(/^\[routecert\] /, '')}\n`));
      continue;
    }
    const support = supportOf(driver, cli.version);
    if (!support.supported && opts.allowUnsupported !== true) {
      out(pc.yellow(`skip ${name}: ${(support.message ?? 'version outside the supported range').replace(/^\[routecert\] /, '')} (--allow-unsupported records it anyway)\n`));
      continue;
    }
    found.set(name, { driver, cli });
  }
  if (found.size === 0) {
    err(`[routecert] record --config: none of ${wanted.join(', ')} is installed here, so nothing was recorded. Install one (e.g. \`npm install --save-dev @anthropic-ai/claude-code\`) or point at it with --bin <cli>=<path>.\n`);
    return 3;
  }
  const tasks: Task[] = [];
  for (const contract of contracts) {
    const scenarios = (await contractScenarios(contract)).filter((s) => !opts.scenario?.length || opts.scenario.includes(s.slug));
    for (const name of clisOf(contract)) {
      const entry = found.get(name);
      if (!entry) continue;
      for (const route of entry.driver.routes.filter((r) => !opts.route?.length || opts.route.some((x) => r === x || r.startsWith(`${x}/`) || x === name))) {
        for (const scenario of scenarios) tasks.push({ contract, driver: entry.driver, cli: entry.cli, route, scenario });
      }
    }
  }
  if (tasks.length === 0) {
    err('[routecert] record --config: the filters (--route, --scenario, --cli) select no run\n');
    return 2;
  }
  out(`recording ${tasks.length} run(s): ${contracts.map((c) => c.name).join(', ')} on ${[...found.values()].map(({ cli }) => `${cli.name} ${cli.version ?? '(version unknown)'}`).join(', ')}, into ${shownPath(outDir)}\n`);
  const pool = new ProbeRunPool(availableParallelism());
  const running = new Set<string>();
  let done = 0;
  let broken = 0;
  let faults = 0;
  const heartbeat = setInterval(() => {
    err(`[routecert] progress: ${done}/${tasks.length} recorded; running: ${[...running].slice(0, 4).join(', ')}${running.size > 4 ? ` and ${running.size - 4} more` : ''}\n`);
  }, (opts.heartbeatS ?? 20) * 1000);
  // A CLI that rejects the schema at startup rejects it in every scenario: the first scenario of
  // each contract and route runs first, and after a startup rejection ONE case of it is written and
  // the route's other scenarios are skipped (issue 22).
  const keyOf = (t: Task) => `${t.contract.name} ${t.route}`;
  const rejected = new Map<string, string>();
  const firsts = new Map<string, Task>();
  for (const t of tasks) if (!firsts.has(keyOf(t))) firsts.set(keyOf(t), t);
  const lintHint = `npx routecert lint --config ${shownPath(project.file)}`;
  const record = async (batch: readonly Task[]) => {
    // Stall runs wait for their deadline: start them first, so they never end the batch alone.
    const ordered = [...batch].sort((a, b) => Number(b.scenario.rule === 'timeout') - Number(a.scenario.rule === 'timeout'));
    await runAll(
      ordered,
      async (t) => {
        const label = `${t.contract.name} ${t.route} ${t.scenario.slug}`;
        const result = await pool.run(null, t.cli.name, async () => {
          running.add(label);
          try {
            return await runProbe({
              cli: t.cli,
              driver: t.driver,
              route: t.route,
              scenario: t.scenario.scenario,
              payloads: t.scenario.payloads,
              schema: t.contract.definition.schema,
              timeoutMs: t.scenario.timeoutMs ?? opts.probeTimeout,
              ...(t.scenario.deadlineAfterRequestMs !== undefined ? { deadlineAfterRequestMs: t.scenario.deadlineAfterRequestMs } : {}),
            });
          } finally {
            running.delete(label);
          }
        });
        return { t, label, result };
      },
      async ({ t, label, result }) => {
        done += 1;
        const head = `[${done}/${tasks.length}] ${label}`;
        // A run stopped by SIGINT/SIGTERM shows the signal, not the CLI: never a case.
        if (interruption()) {
          out(`${pc.yellow('STOPPED')} ${head}: routecert was interrupted (${interruption()}); no case written\n`);
          return;
        }
        if (result.fault) {
          faults += 1;
          out(`${pc.magenta('FAULT')} ${head}: ${result.fault}\n`);
          return;
        }
        const attempts = [{ ...result.envelope, argv: result.argv, prompt: DEFAULT_PROBE_PROMPT }];
        const verdict = judgeCase({ attempts }, t.contract, decoderFor(t.route)).verdict;
        if (verdict.verdict === 'startup-rejected') {
          rejected.set(keyOf(t), verdict.evidence[0] ?? 'startup rejected');
          const scenario: ContractScenario = { ...t.scenario, slug: 'startup-rejected', description: `${t.cli.name} rejects the schema at startup (recorded from scenario ${t.scenario.slug})`, tags: ['startup-rejected'] };
          const c = contractCase({ contract: t.contract.name, route: t.route, cli: t.cli, scenario, attempts, verdict });
          const written = await writeCaseFile(contractCasePath(outDir, t.contract.name, t.route, 'startup-rejected'), c, opts.force ?? false, outDir);
          const where = 'written' in written ? `wrote ${shownPath(written.written)}` : pc.yellow(`exists, not overwritten (--force overwrites): ${shownPath(written.refused)}`);
          broken += 1;
          out(`${pc.red('FAIL')} ${head}: ${t.cli.name} rejects the schema at startup; ${where}\n${verdict.evidence.slice(0, 2).map((e) => pc.dim(`        evidence: ${e}\n`)).join('')}`);
          return;
        }
        const problems = ruleProblems(t.scenario, verdict);
        if (result.unexpected.length > 0) problems.push(`the mock got requests it did not expect: ${result.unexpected.map((r) => `${r.method} ${r.path}`).join(', ')}`);
        const file = contractCasePath(outDir, t.contract.name, t.route, t.scenario.slug);
        if (problems.length > 0 && t.scenario.rule === 'refuse') {
          broken += 1;
          out(`${pc.red('FAIL')} ${head}: ${verdict.verdict}; not written\n${problems.map((p) => `        ${p}\n`).join('')}`);
          return;
        }
        let c = contractCase({ contract: t.contract.name, route: t.route, cli: t.cli, scenario: t.scenario, attempts, verdict });
        if (problems.length > 0) {
          // The case keeps the rule's verdict, so `routecert run` fails on it too until it is fixed
          // (its id recomputed, so it still matches its content).
          c = withExpectation(c, t.scenario.rule === 'timeout' ? { verdict: 'timeout' } : { verdict: 'accepted', value: t.scenario.payloads.final });
        }
        const written = await writeCaseFile(file, c, opts.force ?? false, outDir);
        const where = 'written' in written ? `wrote ${shownPath(written.written)}` : pc.yellow(`exists, not overwritten (--force overwrites): ${shownPath(written.refused)}`);
        if (problems.length > 0) {
          broken += 1;
          out(`${pc.red('FAIL')} ${head}: ${verdict.verdict}; ${where}\n${problems.map((p) => `        ${p}\n`).join('')}${verdict.evidence.slice(0, 2).map((e) => pc.dim(`        evidence: ${e}\n`)).join('')}`);
          return;
        }
        out(`${head}: ${pc.green(verdict.verdict)}; ${where}\n`);
      },
    );
  };
  let skippedRuns = 0;
  try {
    await record([...firsts.values()]);
    const rest = tasks.filter((t) => firsts.get(keyOf(t)) !== t);
    for (const [key, why] of rejected) {
      const n = rest.filter((t) => keyOf(t) === key).length;
      skippedRuns += n;
      if (n > 0) out(pc.yellow(`skip ${key}: its other ${n} scenario(s) are not run, the CLI rejects the schema at startup (${why}); see why with \`${lintHint}\`\n`));
    }
    await record(rest.filter((t) => !rejected.has(keyOf(t))));
  } finally {
    clearInterval(heartbeat);
  }
  const skipped = wanted.filter((n) => !found.has(n));
  out(`${done} run(s) of ${[...found.keys()].join(', ')}: ${done - broken - faults} met their scenario's rule, ${broken} did not, ${faults} could not run${skippedRuns > 0 ? `, ${skippedRuns} skipped after a startup rejection` : ''}${skipped.length ? `; not recorded: ${skipped.join(', ')}` : ''}\n`);
  out(`judge them: npx routecert run --config ${shownPath(project.file)} --no-probes\n`);
  if (faults > 0) return 3;
  return broken > 0 ? 1 : 0;
}
