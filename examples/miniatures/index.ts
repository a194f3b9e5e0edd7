/**
 * Miniature broken bash workers: examples/bash-worker/peer-worker.sh with one classic mistake each
 * (after bowtie's miniatures, STYLE.md item 13). Each script sources the example worker, redefines
 * one rule and runs it; {@link BASH_MINIATURES} names the route it is certified on and the checks
 * it must fail, exactly (suites/certify-miniatures.test.ts). The example worker itself passes all.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadedConfig } from '../../src/harness/certify/config.ts';
import example from '../bash-worker/routecert.config.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * One miniature: `script` (in this folder), the `mistake` in a phrase, the `route` it is certified
 * on (where the checks of that mistake have cases), and the check ids it fails: no more, no fewer.
 */
export interface BashMiniature {
  script: string;
  mistake: string;
  route: string;
  fails: readonly string[];
}

const claude = 'claude-code/stream-json';

/** Every bash miniature, by name (the script's name without `.sh`). */
export const BASH_MINIATURES: Readonly<Record<string, BashMiniature>> = {
  'no-retry': { script: 'no-retry.sh', mistake: 'no retry', route: claude, fails: ['retry-once', 'drop-second-nonfinal'] },
  'publishes-nonfinal': { script: 'publishes-nonfinal.sh', mistake: 'publishes non-final', route: claude, fails: ['missing-final', 'structured-beside-text', 'retry-once', 'drop-second-nonfinal', 'no-retry-late'] },
  'retries-without-window': { script: 'retries-without-window.sh', mistake: 'retries without window', route: claude, fails: ['no-retry-late'] },
  'no-idle-detection': { script: 'no-idle-detection.sh', mistake: 'no idle detection', route: claude, fails: ['idle-window'] },
  'kills-only-leader': { script: 'kills-only-leader.sh', mistake: 'kills only the leader', route: claude, fails: ['process-group'] },
  'tail-only-evidence': { script: 'tail-only-evidence.sh', mistake: 'tail-only evidence', route: claude, fails: ['stderr-long'] },
  'no-skip-line': { script: 'no-skip-line.sh', mistake: 'no skip line', route: claude, fails: ['skip-evidence'] },
  'retry-without-paragraph': { script: 'retry-without-paragraph.sh', mistake: 'retry without the paragraph', route: claude, fails: ['retry-paragraph'] },
  'schema-as-path': { script: 'schema-as-path.sh', mistake: 'schema passed as a path', route: claude, fails: ['schema-sent', 'schema-one-token'] },
  'keeps-timed-out-output': { script: 'keeps-timed-out-output.sh', mistake: "keeps a timed-out run's output", route: claude, fails: ['timeout-discard'] },
  'forbidden-flag': { script: 'forbidden-flag.sh', mistake: 'sends a flag the route forbids', route: claude, fails: ['forbidden-flags'] },
  'trusts-structured-field': { script: 'trusts-structured-field.sh', mistake: 'trusts the structured field', route: 'grok/json', fails: ['structured-beside-text'] },
  'ties-to-earlier': { script: 'ties-to-earlier.sh', mistake: 'ties to the earlier candidate', route: 'grok/json', fails: ['tie-to-later'] },
  'retry-changes-flags': { script: 'retry-changes-flags.sh', mistake: 'retry changes flags', route: claude, fails: ['retry-same-argv'] },
  'missing-final-as-final': { script: 'missing-final-as-final.sh', mistake: 'missing final read as final', route: claude, fails: ['missing-final'] },
  'only-sigterm': { script: 'only-sigterm.sh', mistake: 'only SIGTERM', route: claude, fails: ['process-group'] },
  'publishes-failed-run': { script: 'publishes-failed-run.sh', mistake: 'publishes from a run that says it failed (is_error: true)', route: claude, fails: ['failed-run'] },
  'loose-anchor-type': { script: 'loose-anchor-type.sh', mistake: 'never checks the anchor\'s type', route: claude, fails: ['wrong-shape'] },
  'ignores-required-field': { script: 'ignores-required-field.sh', mistake: 'skips a required member in its shape test', route: claude, fails: ['schema-invalid'] },
  'wrong-output-format': { script: 'wrong-output-format.sh', mistake: "asks for another output format than the route's", route: 'claude-code/json', fails: ['output-format'] },
  'final-string-as-final': { script: 'final-string-as-final.sh', mistake: 'takes "final": "true" (a string) for final', route: claude, fails: ['missing-final'] },
  'ignores-enum': { script: 'ignores-enum.sh', mistake: 'takes any string for an enum member in its shape test', route: claude, fails: ['schema-invalid'] },
  'reads-result-only': { script: 'reads-result-only.sh', mistake: 'reads the result string only, never the structured field', route: 'claude-code/json', fails: ['accepted-artifact'] },
  'copies-extra-member': { script: 'copies-extra-member.sh', mistake: 'publishes a member the schema forbids (copies the answer through)', route: claude, fails: ['schema-invalid'] },
  'term-leaves-peer': { script: 'term-leaves-peer.sh', mistake: 'exits on SIGTERM leaving its peer running', route: claude, fails: ['term-honoured'] },
};

/** The certification config of a miniature: the example worker's adapter running the miniature's script, on its route. */
export function bashMiniatureConfig(name: string): LoadedConfig {
  const m = BASH_MINIATURES[name];
  if (!m) throw new Error(`[routecert] no bash miniature "${name}". Known: ${Object.keys(BASH_MINIATURES).join(', ')}`);
  const worker = { ...example.worker, name: `bash miniature ${name} (${m.mistake})`, command: example.worker.command!.map((t) => (t === 'peer-worker.sh' ? m.script : t)) };
  return { config: { ...example, worker, routes: [m.route] }, file: null, dir: HERE };
}

/**
 * Findings miniatures: examples/miniatures/findings-worker.py (contract `findings-code`) and its
 * broken variants (environment `MISTAKE`), each certified on `route` with `checks` only (the
 * selection and fail-closed checks: a small worker with no windows of its own), failing exactly `fails`.
 */
export interface FindingsMiniature {
  mistake: string | null;
  route: string;
  checks: readonly string[];
  fails: readonly string[];
}

const FINDINGS_CHECKS = ['last-shaped-wins', 'populated-beats-stub', 'failed-run', 'wrong-shape'] as const;

/** Every findings miniature, by name; `findings-worker` is the correct one. */
export const FINDINGS_MINIATURES: Readonly<Record<string, FindingsMiniature>> = {
  'findings-worker (codex)': { mistake: null, route: 'codex/jsonl', checks: FINDINGS_CHECKS, fails: [] },
  'findings-worker (grok)': { mistake: null, route: 'grok/json', checks: FINDINGS_CHECKS, fails: [] },
  'findings-first-shaped': { mistake: 'first-shaped', route: 'codex/jsonl', checks: FINDINGS_CHECKS, fails: ['last-shaped-wins'] },
  'findings-stub-wins': { mistake: 'stub-wins', route: 'grok/json', checks: FINDINGS_CHECKS, fails: ['populated-beats-stub'] },
};

/** The certification config of a findings miniature. */
export function findingsMiniatureConfig(name: string): LoadedConfig {
  const m = FINDINGS_MINIATURES[name];
  if (!m) throw new Error(`[routecert] no findings miniature "${name}". Known: ${Object.keys(FINDINGS_MINIATURES).join(', ')}`);
  return {
    config: {
      worker: {
        name: `findings miniature ${name}${m.mistake ? ` (${m.mistake})` : ''}`,
        command: ['python3', 'findings-worker.py', '{routeArg}', '{schema}', '{outDir}'],
        prompt: 'stdin',
        artifact: '{outDir}/findings.json',
        windowEnv: { hardWindowS: 'FINDINGS_HARD_SECS' },
        env: m.mistake ? { MISTAKE: m.mistake } : {},
        routeNames: { 'claude-code/stream-json': 'claude', 'codex/jsonl': 'codex', 'grok/json': 'grok' },
      },
      routes: [m.route],
      contract: 'findings-code',
    },
    file: null,
    dir: HERE,
  };
}
