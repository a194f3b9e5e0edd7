/**
 * Recording a team's own contract (`routecert record --config`): the contract's production schema
 * is sent to each real CLI its contract names (`clis`), hermetically, against the provider mock
 * playing scenarios generated from that schema, and each envelope becomes a redacted case of the
 * team's contract.
 *
 * The scenarios (one hermetic run each, on every route of the CLI):
 * - `final`: a schema-valid payload generated from the schema (the finality key, if any, `true`);
 * - `placeholder-then-final`: a placeholder (the payload with the finality key `false`, or only the
 *   anchor's member for a contract without finality) in text, then the valid payload;
 * - `missing-<field>`: the payload without one required top-level field, one scenario per field;
 * - `prose-only`: text without JSON; `scalar`: the JSON scalar `42` as the whole answer;
 * - `api-400`, `api-429`, `api-529`: the provider answers that HTTP error on every request;
 * - `stall`: the provider starts its answer and never finishes it.
 *
 * The rule each scenario must meet, by the contract's meaning: `final` and `placeholder-then-final`
 * are accepted with the valid payload; `stall` is a timeout; every other scenario is never
 * accepted (fail closed). The case file expects the verdict the contract reached, so it is a
 * baseline a later CLI version or worker change is compared with; a run whose verdict breaks the
 * rule is reported and, for a scenario that must fail closed, not written.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { DefinedContract } from '#src/contract/define.ts';
import type { Verdict } from '#src/contract/types.ts';
import type { CaseAttempt, CaseExpectation, CaseFile } from '#src/envelope/caseTypes.ts';
import { PROSE_ONLY_TEXT, type JsonObject, type ScenarioName, type ScenarioPayloads } from '#src/mock/scenarios.ts';
import { samplePayload } from '#src/probe/samplePayload.ts';
import { STALL_AFTER_REQUEST_MS } from '#src/routes/plans/shared.ts';
import { CLAUDE_TEST_API_KEY } from '#src/routes/claude/probe.ts';
import { PROJECT_ROOT } from '#src/paths.ts';
import { caseId } from './caseId.ts';
import { redactValue } from '#src/diagnostics/redact.ts';

/** What a scenario's verdict must be: `accept` (accepted, with the valid payload), `refuse` (anything but accepted), `timeout`. */
export type ScenarioRule = 'accept' | 'refuse' | 'timeout';

/**
 * One generated scenario of a contract: `slug` (the case file's name), what the mock plays
 * (`scenario` with `payloads`), the rule its verdict must meet, and the deadlines of a `stall`.
 */
export interface ContractScenario {
  slug: string;
  description: string;
  scenario: ScenarioName;
  payloads: ScenarioPayloads;
  rule: ScenarioRule;
  tags: string[];
  timeoutMs?: number;
  deadlineAfterRequestMs?: number;
}

/** The JSON scalar the `scalar` scenario answers as the whole reply. */
export const SCALAR_ANSWER = '42';

/** Thrown when no schema-valid payload can be generated from a contract's schema (the message names the contract and the schema file). */
export class PayloadGenerationError extends Error {
  readonly code = 'ROUTECERT_PAYLOAD';
}

/**
 * The scenarios of `contract` (see the module doc), generated from its production schema.
 *
 * @throws {PayloadGenerationError} when no schema-valid object can be generated from the schema.
 */
export async function contractScenarios(contract: DefinedContract): Promise<ContractScenario[]> {
  const def = contract.definition;
  const schema = def.schema;
  const sample = await samplePayload(schema, {});
  const flag = def.finality === 'none' ? null : def.finality.key;
  if (Object.keys(sample).length === 0 && Array.isArray(schema.required) && schema.required.length > 0) {
    throw new PayloadGenerationError(
      `contract "${contract.name}": no schema-valid object could be generated from ${def.schemaFile ?? 'its inline schema'} (json-schema-faker, seed 1): check that the schema describes an object that can exist`,
    );
  }
  const final: JsonObject = flag ? { ...sample, [flag]: true } : sample;
  const anchorKey = def.anchorPointer.split('/')[1] ?? def.anchor;
  const placeholder: JsonObject = flag ? { ...final, [flag]: false } : anchorKey in final ? { [anchorKey]: final[anchorKey] } : {};
  const payloads: ScenarioPayloads = { final, placeholder };
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  const out: ContractScenario[] = [
    { slug: 'final', description: 'the model answers a schema-valid payload generated from the schema', scenario: 'final', payloads, rule: 'accept', tags: ['final'] },
    {
      slug: 'placeholder-then-final',
      description: `a placeholder (${flag ? `${flag}: false` : `only ${anchorKey}`}) in text, then the schema-valid payload`,
      scenario: 'placeholder-then-final',
      payloads,
      rule: 'accept',
      tags: ['placeholder-then-final'],
    },
    ...required.map((field): ContractScenario => ({
      slug: `missing-${field.replace(/[^A-Za-z0-9._-]+/g, '-')}`,
      description: `the payload without its required field "${field}", on every request: never accepted`,
      scenario: 'nonfinal-only',
      payloads: { final, placeholder: Object.fromEntries(Object.entries(final).filter(([k]) => k !== field)) },
      rule: 'refuse',
      tags: ['missing-required'],
    })),
    { slug: 'prose-only', description: 'the model answers prose without JSON: never accepted', scenario: 'prose-only', payloads: { ...payloads, text: PROSE_ONLY_TEXT }, rule: 'refuse', tags: ['prose-only'] },
    { slug: 'scalar', description: `the model answers the JSON scalar ${SCALAR_ANSWER}: never accepted`, scenario: 'prose-only', payloads: { ...payloads, text: SCALAR_ANSWER }, rule: 'refuse', tags: ['scalar'] },
    { slug: 'api-400', description: 'the provider answers HTTP 400 on every request: never accepted', scenario: 'api-400', payloads, rule: 'refuse', tags: ['api-error'] },
    {
      slug: 'api-429',
      description: 'the provider answers HTTP 429 (rate limited) on every request: never accepted',
      scenario: 'api-400',
      payloads: { ...payloads, error: { status: 429, errorType: 'rate_limit_error', message: 'routecert mock: rate limited (scenario api-429)' } },
      rule: 'refuse',
      tags: ['api-error'],
    },
    { slug: 'api-529', description: 'the provider answers HTTP 529 (overloaded) on every request: never accepted', scenario: 'api-529', payloads, rule: 'refuse', tags: ['api-error'] },
    {
      slug: 'stall',
      description: 'the provider starts its answer and never finishes it: a timeout',
      scenario: 'stall',
      payloads,
      rule: 'timeout',
      tags: ['timeout'],
      timeoutMs: 15_000,
      deadlineAfterRequestMs: STALL_AFTER_REQUEST_MS,
    },
  ];
  return out;
}

/**
 * Whether `verdict` meets `scenario`'s rule: `[]`, or the problems, one sentence each.
 * `accept`: accepted with the scenario's valid payload (on the members the payload has);
 * `refuse`: not accepted; `timeout`: a timeout.
 */
export function ruleProblems(scenario: ContractScenario, verdict: Verdict): string[] {
  if (scenario.rule === 'accept') {
    if (verdict.verdict !== 'accepted') return [`a schema-valid answer was not accepted (${verdict.verdict}): check the contract's anchor, finality and textFallback, or the CLI's startup rejection in the evidence`];
    const value = verdict.value as Record<string, unknown> | null;
    const differ = Object.keys(scenario.payloads.final).filter((k) => typeof value !== 'object' || value === null || !isDeepStrictEqual(value[k], scenario.payloads.final[k]));
    return differ.length === 0 ? [] : [`the accepted value differs from the payload the model answered in ${differ.map((k) => `"${k}"`).join(', ')}`];
  }
  if (scenario.rule === 'timeout') return verdict.verdict === 'timeout' ? [] : [`a stalled provider must end as a timeout, got ${verdict.verdict}`];
  return verdict.verdict === 'accepted' ? [`${scenario.slug} was accepted: the contract does not fail closed (an answer the schema refuses, or none, must never be accepted)`] : [];
}

/**
 * The case file of one recorded scenario: redacted attempts, the contract's name, the verdict the
 * contract reached as the expectation (with the accepted origin and value), id computed.
 */
export function contractCase(options: { contract: string; route: string; cli: { name: string; version: string | null; bin?: string | null }; scenario: ContractScenario; attempts: readonly CaseAttempt[]; verdict: Verdict; date?: Date }): CaseFile {
  const paths = [{ path: PROJECT_ROOT.replace(/[\\/]+$/, ''), placeholder: '<project>' }, { path: process.cwd(), placeholder: '<project>' }, ...cliPrefixes(options.cli.bin ?? null)];
  const attempts = redactValue([...options.attempts], { secrets: [CLAUDE_TEST_API_KEY], paths }).map((a) => ({ ...a, elapsedMs: Math.round(a.elapsedMs) }));
  const v = options.verdict;
  const expect: CaseExpectation = v.verdict === 'accepted' && 'origin' in v ? { verdict: 'accepted', origin: String(v.origin), value: v.value } : { verdict: v.verdict };
  const body = { attempts, contract: options.contract, expect };
  return {
    id: caseId(body),
    description: `${options.contract} on ${options.route}: ${options.scenario.description}`,
    route: options.route,
    scenario: options.scenario.slug,
    cli: { name: options.cli.name, version: options.cli.version ?? 'unknown' },
    provenance: { source: 'recorded', ref: 'routecert record --config: real CLI against the scripted provider mock on 127.0.0.1', date: (options.date ?? new Date()).toISOString().slice(0, 10) },
    contract: options.contract,
    attempts,
    expect,
    tags: [...options.scenario.tags, 'recorded'],
  };
}

/** `c` with `expect` as its expectation and its id recomputed from the new content. */
export function withExpectation(c: CaseFile, expect: CaseExpectation): CaseFile {
  return { ...c, expect, id: caseId({ attempts: c.attempts, contract: c.contract, expect }) };
}

/**
 * The folders a CLI is installed in (the part of its binary's path, and of that path with links
 * resolved, before the last `/node_modules/`), each as `<cli-prefix>`: a CLI's stack trace names
 * its own files (Gemini CLI 0.61.0 on every API error), and that path belongs to one machine.
 */
function cliPrefixes(bin: string | null): { path: string; placeholder: string }[] {
  if (bin === null) return [];
  let real = bin;
  try {
    real = realpathSync(bin);
  } catch {
    // A binary that vanished since the run: its unresolved path is still hidden.
  }
  return [...new Set([bin, real])]
    .map((p) => p.slice(0, Math.max(0, p.lastIndexOf(`${path.sep}node_modules${path.sep}`))))
    .filter((p) => p.length > 1)
    .map((p) => ({ path: p, placeholder: '<cli-prefix>' }));
}

/** Where a recorded case of a team's contract lives: `<out>/<contract>/<route>/<slug>.json`. */
export function contractCasePath(outDir: string, contract: string, route: string, slug: string): string {
  return path.join(outDir, contract, ...route.split('/'), `${slug}.json`);
}
