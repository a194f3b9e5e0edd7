/**
 * Fail-open copies of compound-engineering-plugin's peer workers (issue 19): each is the upstream
 * skill folder copied to a temporary folder with ONE realistic fault put into its bash script (a
 * flag, a kill, a clip, a guard changed the way real workers break, each with its public source),
 * certified with the smoke and the check named for the fault. Each must be refused by that check.
 * `npm run ce:failopen -- <plugin checkout>` certifies every copy and writes the table to
 * examples/ce-workers/FAILOPEN.md. Nothing here is fetched: the checkout is the caller's
 * (`git clone https://github.com/EveryInc/compound-engineering-plugin`).
 *
 * A patch must match the upstream script exactly (every occurrence is replaced), so a newer
 * script that moved the code fails loudly instead of testing nothing.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { certify } from '../../src/harness/certify/certify.ts';
import type { CheckResult } from '../../src/harness/certify/certificate.ts';
import { projectPath } from '../../src/paths.ts';
import { CE_WORKERS, ceConfig, ceWorkTree, type CeWorker } from './adapters.ts';

/**
 * One fault: the worker and route it is certified on, the edits to its script (`find` must occur,
 * every occurrence becomes `replace`), what the copy does wrong, where that fault comes from, and
 * the check that must refuse it.
 */
export interface CeFault {
  id: string;
  worker: CeWorker;
  route: string;
  edits: { find: string; replace: string }[];
  fault: string;
  source: string;
  check: string;
}

const CLAUDE = 'claude-code/stream-json';
const CODEX = 'codex/jsonl';
const GROK = 'grok/json';
const CURSOR = 'cursor-agent/stream-json';

/** ce-plugin's own history, by PR or issue number (research/ce-plugin.md section 5). */
const ce = (n: number) => `https://github.com/EveryInc/compound-engineering-plugin/pull/${n}`;

// Edits shared by the three scripts (their run machinery is byte-identical by upstream's parity tests).
const PGROUP_TERM = 'if kill -TERM -- -"$pid" 2>/dev/null; then grp=1; else kill -TERM "$pid" 2>/dev/null || true; grp=0; fi';
const KILL_SWEEP = '[ "$grp" = 1 ] && kill -KILL -- -"$pid" 2>/dev/null || true';
const KILL_LAST = 'if [ "$grp" = 1 ]; then kill -KILL -- -"$pid" 2>/dev/null; else kill -KILL "$pid" 2>/dev/null; fi';
const IDLE_TEST = 'if [ $(( now - lastchg )) -ge "$IDLE_SECS" ]; then';
const CLIP_IF = 'if [ "${#evidence}" -gt 300 ]; then';
const CLIP_HEAD_TAIL = 'evidence="${evidence:0:147} ... ${evidence: -147}"';
const BUILD_CMD = `while IFS= read -r -d '' tok; do CMD+=("$tok"); done < <(adapter_argv "$1")`;
const TERM_TRAP = "trap 'on_term' TERM INT";
const RAN_OK = 'if [ "$RUN_SUCCEEDED" != true ]; then';

/** The faults, each with the check named for it. */
export const CE_FAULTS: readonly CeFault[] = [
  // ce-pov cross-model-pov.sh
  {
    id: 'pov-sigterm-only', worker: 'pov', route: CLAUDE, check: 'process-group',
    fault: 'reaps the peer group with SIGTERM only (the SIGKILL sweep removed)',
    source: 'nyldn/claude-octopus#956, vanillagreencom/kendex#1886 (children that survive TERM outlive the timeout)',
    edits: [{ find: KILL_SWEEP, replace: ':' }, { find: KILL_LAST, replace: ':' }],
  },
  {
    id: 'pov-no-idle', worker: 'pov', route: CLAUDE, check: 'idle-window',
    fault: 'a silent peer is reaped only at the hard window (idle test compares with HARD_SECS)',
    source: `${ce(1270).replace('/pull/', '/issues/')} (run_timeout_cmd routes had no output-idle detection; fixed by #1287)`,
    edits: [{ find: IDLE_TEST, replace: 'if [ $(( now - lastchg )) -ge "$HARD_SECS" ]; then' }],
  },
  {
    id: 'pov-buffered-json', worker: 'pov', route: CLAUDE, check: 'output-format',
    fault: 'asks Claude for `--output-format json` (buffered) instead of stream-json',
    source: `${ce(1007)} (the original buffered json argv), moved to stream-json by ${ce(1287)}`,
    edits: [{ find: '--output-format stream-json --verbose', replace: '--output-format json' }],
  },
  {
    id: 'pov-word-split-argv', worker: 'pov', route: CLAUDE, check: 'schema-one-token',
    fault: 'builds the argv by word splitting (`CMD=($(...))`), so the schema JSON is split into many tokens',
    source: `${ce(1153)} (the schema must stay ONE --json-schema token; upstream tests assert it)`,
    edits: [{ find: BUILD_CMD, replace: `CMD=($(adapter_argv "$1" | tr '\\0' ' '))` }],
  },
  {
    id: 'pov-bypass-permissions', worker: 'pov', route: CLAUDE, check: 'forbidden-flags',
    fault: 'runs Claude with `--permission-mode bypassPermissions` (the write worker\'s mode) instead of dontAsk',
    source: 'research/ce-plugin.md 1.2 (ce-work\'s claude argv; never-emit list asserted by upstream tests)',
    edits: [{ find: '--effort high --permission-mode dontAsk \\', replace: '--effort high --permission-mode bypassPermissions \\' }],
  },
  {
    id: 'pov-last-300', worker: 'pov', route: CLAUDE, check: 'stderr-short',
    fault: 'keeps the last 300 characters of the evidence always (`${x: -300}` is empty for a shorter string)',
    source: `${ce(1153)} and docs/solutions portable-structured-output-schemas (startup failures looked like silent empty results)`,
    edits: [{ find: CLIP_IF, replace: 'if true; then' }, { find: CLIP_HEAD_TAIL, replace: 'evidence="${evidence: -300}"' }],
  },
  {
    id: 'pov-stderr-devnull', worker: 'pov', route: CLAUDE, check: 'startup-rejection',
    fault: 'sends the peer\'s stderr to /dev/null (a startup rejection leaves no trace)',
    source: 'simonlin1212/Vibe-Research#16 (stderr=DEVNULL showed only "exit code 1"), Agent-Field/agentfield#268',
    edits: [{ find: '( cd "$READ_ROOT" && exec "${CMD[@]}" ) < "$stdin_file" > "$PEERLOG" 2>"$PEERERR" &', replace: '( cd "$READ_ROOT" && exec "${CMD[@]}" ) < "$stdin_file" > "$PEERLOG" 2>/dev/null &' }],
  },
  {
    id: 'pov-retry-no-window', worker: 'pov', route: CLAUDE, check: 'no-retry-late',
    fault: 'retries a non-final answer whatever is left of the window',
    source: `${ce(1403)} (one retry only within the remaining HARD_SECS), ${ce(1519)} (bound peer retries)`,
    edits: [{ find: 'if [ "$remaining" -lt "$RETRY_MIN_SECS" ]; then', replace: 'if false; then' }],
  },
  {
    id: 'pov-retry-prompt-replaced', worker: 'pov', route: CLAUDE, check: 'retry-paragraph',
    fault: 'the retry prompt is the final-answer paragraph alone (`>` instead of `>>`): the subject is lost',
    source: `${ce(1403)} (the retry prompt is the original with an appended final-answer paragraph)`,
    edits: [{ find: "final set to true.\\n' >> \"$PROMPT_FILE\"", replace: "final set to true.\\n' > \"$PROMPT_FILE\"" }],
  },
  {
    id: 'pov-missing-final-is-final', worker: 'pov', route: CLAUDE, check: 'missing-final',
    fault: 'reads a missing `final` as final (`.final != false`, jq null), in the gate, the scores and the publish step',
    source: 'docs/solutions grok-camelcase-structuredoutput-and-nonfinal-peer-position.md (a stub without `final` must retry and drop; fail closed)',
    edits: [
      { find: `jq -e '.final == true' "$RAW_OUT"`, replace: `jq -e '.final != false' "$RAW_OUT"` },
      { find: `if jq -e '.final == true' "$1"`, replace: `if jq -e '.final != false' "$1"` },
      { find: 'if shaped(d) and d.get("final") is True:', replace: 'if shaped(d) and d.get("final") is not False:' },
      { find: 'and .final==true)', replace: 'and .final!=false)' },
    ],
  },
  {
    id: 'pov-trusts-structured-field', worker: 'pov', route: GROK, check: 'structured-beside-text',
    fault: 'returns the structured field whatever it scores (a non-final structuredOutput beats a final answer in text)',
    source: `${ce(1403)} (review: a non-POV structured value must not block the shaped text candidate), ${ce(1325)}`,
    edits: [{ find: 'if [ "$picked" = true ] && [ "$(pov_score "$2")" = 2 ]; then return 0; fi', replace: 'if [ "$picked" = true ]; then return 0; fi' }],
  },
  {
    id: 'pov-keeps-timed-out', worker: 'pov', route: CLAUDE, check: 'timeout-discard',
    fault: 'parses and publishes what a reaped (timed-out) peer printed',
    source: 'simonlin1212/Vibe-Research#16 (a cut run\'s partial stdout taken as the answer); upstream test "timed-out schema-valid output never published"',
    edits: [
      { find: '[ "$RUN_SUCCEEDED" = true ] && parse_structured "$PEERLOG" "$RAW_OUT" ;;   # claude -p reads stdin', replace: 'parse_structured "$PEERLOG" "$RAW_OUT" ;;   # claude -p reads stdin' },
      { find: RAN_OK, replace: 'if false; then' },
    ],
  },
  {
    id: 'pov-exit-ignored', worker: 'pov', route: GROK, check: 'failed-run',
    fault: 'ignores the peer\'s exit status (a run that exits 1 is parsed and published)',
    source: 'simonlin1212/Vibe-Research#16 (non-zero exit with stdout returned as a complete answer)',
    edits: [{ find: 'if wait "$pid" 2>/dev/null; then RUN_SUCCEEDED=true', replace: 'if wait "$pid" 2>/dev/null || true; then RUN_SUCCEEDED=true' }],
  },
  {
    id: 'pov-ignores-term', worker: 'pov', route: CLAUDE, check: 'term-honoured',
    fault: 'ignores SIGTERM like SIGHUP (`trap \'\' TERM`): a supervisor\'s stop is not honoured',
    source: 'research/ce-plugin.md 1.1 (HUP ignored, TERM/INT reap the peer group); lhpaul/ai-dev-framework-template#1635',
    edits: [{ find: TERM_TRAP, replace: "trap '' TERM; trap 'on_term' INT" }],
  },
  {
    id: 'pov-term-leaves-peer', worker: 'pov', route: CLAUDE, check: 'term-honoured',
    fault: 'on SIGTERM exits at once, leaving the peer CLI (in its own process group) running',
    source: 'research/ce-plugin.md 1.1 (the TERM/INT handler reaps the live peer group, then exits); vanillagreencom/kendex#1886 (children outliving a stopped job)',
    edits: [{ find: '    reap "$_term_peer" 2>/dev/null || true\n', replace: '' }, { find: '    wait "$_term_peer" 2>/dev/null || true\n', replace: '' }],
  },
  {
    id: 'pov-cursor-sandbox-off', worker: 'pov', route: CURSOR, check: 'forbidden-flags',
    fault: 'runs cursor-agent with `--sandbox disabled` instead of enabled',
    source: 'cursor-agent CLI parameters (`--sandbox <mode>`: enabled | disabled; linuxcommandlibrary.com/man/cursor, cheatsheets.zip/cursor-cli); research/ce-plugin.md 1.2 (`--sandbox enabled` on every cursor route)',
    edits: [{ find: '--sandbox enabled', replace: '--sandbox disabled' }],
  },
  // ce-code-review cross-model-adversarial-review.sh
  {
    id: 'code-stderr-devnull', worker: 'code', route: CLAUDE, check: 'stderr-short',
    fault: 'sends the peer\'s stderr to /dev/null',
    source: 'simonlin1212/Vibe-Research#16, Agent-Field/agentfield#268 (stderr never captured: only "exit code 1")',
    edits: [{ find: '( cd "$PEER_WORKDIR" && exec "${CMD[@]}" ) < "$stdin_file" > "$PEERLOG" 2>"$PEERERR" &', replace: '( cd "$PEER_WORKDIR" && exec "${CMD[@]}" ) < "$stdin_file" > "$PEERLOG" 2>/dev/null &' }],
  },
  {
    id: 'code-tail-only', worker: 'code', route: CLAUDE, check: 'stderr-long',
    fault: 'clips long evidence to its last 300 characters (the head, where the message is, is lost)',
    source: `${ce(1175)} (bounded_failure_evidence keeps head 147 + tail 147 because a raw tail dropped the message)`,
    edits: [{ find: CLIP_HEAD_TAIL, replace: 'evidence="${evidence: -300}"' }],
  },
  {
    id: 'code-kills-pid-only', worker: 'code', route: CODEX, check: 'process-group',
    fault: 'signals only the peer\'s pid, not its process group',
    source: 'lhpaul/ai-dev-framework-template#1635 (timeout fallback kills only the PID), dirge-code/dirge#81',
    edits: [{ find: PGROUP_TERM, replace: 'kill -TERM "$pid" 2>/dev/null || true; grp=0' }],
  },
  {
    id: 'code-ignores-term', worker: 'code', route: CLAUDE, check: 'term-honoured',
    fault: 'ignores SIGTERM (`trap \'\' TERM`)',
    source: 'research/ce-plugin.md 1.1 (TERM/INT handler reaps the live peer group)',
    edits: [{ find: TERM_TRAP, replace: "trap '' TERM; trap 'on_term' INT" }],
  },
  {
    id: 'code-keeps-timed-out', worker: 'code', route: CLAUDE, check: 'timeout-discard',
    fault: 'parses and publishes what a reaped (timed-out) peer printed',
    source: 'upstream test "timed-out schema-valid output never published" (research/ce-plugin.md 3.4); simonlin1212/Vibe-Research#16',
    edits: [
      { find: '[ "$RUN_SUCCEEDED" = true ] && parse_structured "$PEERLOG" "$RAW_OUT"', replace: 'parse_structured "$PEERLOG" "$RAW_OUT"' },
      { find: RAN_OK, replace: 'if false; then' },
    ],
  },
  // ce-doc-review cross-model-doc-review.sh
  {
    id: 'doc-last-300', worker: 'doc', route: CLAUDE, check: 'stderr-short',
    fault: 'keeps the last 300 characters of the evidence always (`${x: -300}` is empty for a shorter string)',
    source: `${ce(1153)} (short-stderr fix)`,
    edits: [{ find: CLIP_IF, replace: 'if true; then' }, { find: CLIP_HEAD_TAIL, replace: 'evidence="${evidence: -300}"' }],
  },
  {
    id: 'doc-codex-stderr-devnull', worker: 'doc', route: CODEX, check: 'stderr-short',
    fault: "drops Codex's stderr (`2>/dev/null` where upstream merges it into the peer log)",
    source: 'simonlin1212/Vibe-Research#16 (codex stderr=DEVNULL: only "exit code 1" left)',
    edits: [{ find: '"${CMD[@]}" < "$PROMPT_FILE" > "$PEERLOG" 2>&1 &', replace: '"${CMD[@]}" < "$PROMPT_FILE" > "$PEERLOG" 2>/dev/null &' }],
  },
  {
    id: 'doc-no-idle', worker: 'doc', route: CLAUDE, check: 'idle-window',
    fault: 'a silent peer is reaped only at the hard window',
    source: `${ce(1270).replace('/pull/', '/issues/')}, ${ce(1287)}`,
    edits: [{ find: IDLE_TEST, replace: 'if [ $(( now - lastchg )) -ge "$HARD_SECS" ]; then' }],
  },
  {
    id: 'doc-danger-sandbox', worker: 'doc', route: CODEX, check: 'forbidden-flags',
    fault: 'runs Codex with `-s danger-full-access` instead of read-only',
    source: 'research/ce-plugin.md 1.2 ("NEVER emit: codex without -s read-only")',
    edits: [{ find: '--skip-git-repo-check -s read-only', replace: '--skip-git-repo-check -s danger-full-access' }],
  },
  {
    id: 'doc-buffered-json', worker: 'doc', route: CLAUDE, check: 'output-format',
    fault: 'asks Claude for `--output-format json` instead of stream-json',
    source: `${ce(1007)}, ${ce(1287)}`,
    edits: [{ find: '--output-format stream-json --verbose', replace: '--output-format json' }],
  },
  {
    id: 'doc-word-split-argv', worker: 'doc', route: CLAUDE, check: 'schema-one-token',
    fault: 'builds the argv by word splitting, so the schema JSON is split into many tokens',
    source: `${ce(1153)} (multiline schema as ONE argv token, asserted by upstream tests)`,
    edits: [{ find: BUILD_CMD, replace: `CMD=($(adapter_argv "$1" | tr '\\0' ' '))` }],
  },
];

/** The skill folder of `worker` in a plugin checkout `plugin`. */
export function skillOf(plugin: string, worker: CeWorker): string {
  return path.join(plugin, CE_WORKERS[worker].skill);
}

/**
 * Copy `skillDir` (the skill folder of `fault.worker`) under `root` and apply the fault's edits;
 * returns the copy's skill folder.
 *
 * @throws {Error} when an edit matches nothing (the upstream script moved).
 */
export async function ceFailOpenCopy(fault: CeFault, skillDir: string, root: string): Promise<string> {
  const skill = path.join(root, path.basename(CE_WORKERS[fault.worker].skill));
  await cp(skillDir, skill, { recursive: true });
  const script = path.join(skill, CE_WORKERS[fault.worker].script);
  let text = await readFile(script, 'utf8');
  for (const edit of fault.edits) {
    if (!text.includes(edit.find)) throw new Error(`the fault ${fault.id} (${edit.find.slice(0, 60)}) matches nothing in ${CE_WORKERS[fault.worker].script}: the upstream script moved`);
    text = text.split(edit.find).join(edit.replace);
  }
  await writeFile(script, text);
  return skill;
}

/** What certifying one copy gave: the named check's result and the route's status. */
export interface CeFailOpenResult {
  fault: CeFault;
  check: CheckResult | undefined;
  routeStatus: string;
}

/**
 * Certify the fail-open copy of `fault` (made from `skillDir`, the worker's skill folder) with the
 * smoke and its named check. Never throws for what the copy does; its folder is removed.
 */
export async function certifyCeFailOpen(fault: CeFault, skillDir: string): Promise<CeFailOpenResult> {
  const root = await mkdtemp(path.join(tmpdir(), 'routecert-ce-failopen-'));
  try {
    const skill = await ceFailOpenCopy(fault, skillDir, root);
    const cwd = ceWorkTree(root);
    const { certificate } = await certify(ceConfig(fault.worker, skill, fault.route, cwd), { checks: fault.check.startsWith('smoke-') ? [] : [fault.check] });
    const r = certificate.routes[0]!;
    return { fault, check: [...r.smoke, ...r.checks].find((k) => k.id === fault.check), routeStatus: r.status };
  } finally {
    await rm(root, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The markdown table of the results. */
export function ceFailOpenMarkdown(results: readonly CeFailOpenResult[], commit: string): string {
  const refused = results.filter((r) => r.check?.status === 'fail').length;
  const lines = [
    '# Fail-open copies of the compound-engineering-plugin workers',
    '',
    `Written by \`npm run ce:failopen -- <plugin checkout>\` (${new Date().toISOString().slice(0, 10)}, checkout ${commit}): each row is the upstream skill folder copied with ONE fault put into its bash script (examples/ce-workers/failopen.ts), certified with the smoke and the check named for the fault. ${refused} of ${results.length} copies refused by their named check.`,
    '',
    '| worker | route | fault put in | source | refusing check | result | route status | evidence |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const status = r.check ? (r.check.status === 'fail' ? '**refused**' : r.check.status === 'pass' ? 'NOT refused' : `skipped: ${r.check.reason ?? ''}`) : 'check missing';
    const evidence = (r.check?.status === 'skipped' ? '' : (r.check?.evidence[0] ?? '')).replace(/\|/g, '\\|').replace(/\(pid \d+\)/g, '(pid <pid>)').replace(/\n/g, ' ').slice(0, 240);
    lines.push(`| \`${CE_WORKERS[r.fault.worker].script.replace('scripts/', '')}\` | ${r.fault.route} | ${r.fault.fault.replace(/\|/g, '\\|')} | ${r.fault.source.replace(/\|/g, '\\|')} | \`${r.fault.check}\` | ${status} | ${r.routeStatus} | ${evidence} |`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `ce:failopen [plugin checkout] [fault id...]`: certify every fail-open copy (or the named ones),
 * of the plugin checkout given (default: ROUTECERT_CE_PLUGIN, else the byte-identical copies in
 * fixtures/upstream/compound-engineering-plugin, commit 925b4ef7 per its PROVENANCE.md),
 * write examples/ce-workers/FAILOPEN.md when all ran; returns 0 when each was refused by its check,
 * 1 when one was not, 2 on a usage error.
 */
export async function ceFailOpenMain(argv: readonly string[]): Promise<number> {
  const vendored = projectPath('fixtures', 'upstream', 'compound-engineering-plugin');
  const first = argv[0] ?? '';
  const givenPlugin = first !== '' && !CE_FAULTS.some((f) => f.id === first);
  const plugin = givenPlugin ? first : process.env.ROUTECERT_CE_PLUGIN || vendored;
  const ids = givenPlugin ? argv.slice(1) : [...argv];
  if (plugin === '' || !Object.keys(CE_WORKERS).every((w) => existsSync(skillOf(plugin, w as CeWorker)))) {
    process.stderr.write('usage: npm run ce:failopen -- [compound-engineering-plugin checkout] [fault id...] (with skills/ce-pov, skills/ce-code-review, skills/ce-doc-review)\n');
    return 2;
  }
  const faults = CE_FAULTS.filter((f) => ids.length === 0 || ids.includes(f.id));
  const results: CeFailOpenResult[] = [];
  for (const fault of faults) {
    const r = await certifyCeFailOpen(fault, skillOf(plugin, fault.worker));
    process.stdout.write(`${fault.id} (${fault.worker}, ${fault.route}) -> ${fault.check}: ${r.check?.status ?? 'missing'}${r.check?.status === 'fail' ? '' : ` ${(r.check?.evidence ?? []).join(' | ').slice(0, 600)}`}\n`);
    results.push(r);
  }
  if (ids.length === 0) {
    const commit = process.env.ROUTECERT_CE_COMMIT ?? (plugin === vendored ? '925b4ef7 (fixtures/upstream)' : 'unnamed');
    await writeFile(projectPath('examples/ce-workers/FAILOPEN.md'), ceFailOpenMarkdown(results, commit));
  }
  return results.every((r) => r.check?.status === 'fail') ? 0 : 1;
}
