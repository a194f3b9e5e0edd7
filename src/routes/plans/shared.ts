/**
 * Planned-probe entries that several pov plans share word for word (src/harness/probePlan.ts and
 * the plans in this folder): each builder takes only what differs between CLIs (the schema
 * variant, a description, a deadline, the accepted answer), so a plan states its own facts and
 * nothing else. Slugs, descriptions, tags and expectations are those the recorded cases under
 * fixtures/cases were made with; changing one here changes every plan that uses it.
 */
import type { PlannedProbe, SchemaVariant } from '#src/routes/plan.ts';
import { DEFAULT_PLACEHOLDER_PAYLOAD, PROSE_ONLY_TEXT } from '#src/mock/scenarios.ts';

/** The skip evidence line of a dropped non-final answer (the placeholder's position). */
export const NONFINAL_EVIDENCE = `peer skip evidence: non-final position: ${String(DEFAULT_PLACEHOLDER_PAYLOAD.position)}`;

/**
 * The three non-final probes, in plan order: `nonfinal-only` (retry), `nonfinal-then-final`
 * (`acceptedOnRetry`, the verdict of the final answer on attempt 1) and `nonfinal-twice`
 * (dropped with {@link NONFINAL_EVIDENCE}).
 */
export function nonfinalProbes(schema: SchemaVariant, acceptedOnRetry: PlannedProbe['expect']): PlannedProbe[] {
  return [
    {
      slug: 'nonfinal-only',
      description: 'the only answer is a schema-valid placeholder with final: false; time remains, so retry',
      scenarios: ['nonfinal-only'],
      schema,
      tags: ['nonfinal', 'fail-closed'],
      expect: () => ({ verdict: 'retry' }),
    },
    {
      slug: 'nonfinal-then-final',
      description: 'a non-final answer, then the retry with the final-answer paragraph returns the final POV',
      scenarios: ['nonfinal-only', 'final'],
      schema,
      tags: ['nonfinal', 'retry'],
      expect: acceptedOnRetry,
    },
    {
      slug: 'nonfinal-twice',
      description: 'non-final on the first attempt and on the retry: dropped with the skip evidence line',
      scenarios: ['nonfinal-only', 'nonfinal-only'],
      schema,
      tags: ['nonfinal', 'fail-closed'],
      expect: () => ({ verdict: 'dropped-nonfinal', evidence: [NONFINAL_EVIDENCE], attempt: 1 }),
    },
  ];
}

/** The `missing-final` probe; `expect` @default retry (a shaped answer without `final` reads non-final). */
export function missingFinalProbe(
  schema: SchemaVariant,
  description: string,
  expect: PlannedProbe['expect'] = () => ({ verdict: 'retry' }),
): PlannedProbe {
  return { slug: 'missing-final', description, scenarios: ['missing-final'], schema, tags: ['missing-final', 'fail-closed'], expect };
}

/** The `prose-only` probe: dropped unusable, quoting `evidenceText` (@default the mock's prose). */
export function proseOnlyProbe(schema: SchemaVariant, description: string, evidenceText: string = PROSE_ONLY_TEXT): PlannedProbe {
  return {
    slug: 'prose-only',
    description,
    scenarios: ['prose-only'],
    schema,
    tags: ['prose-only'],
    expect: () => ({ verdict: 'dropped-unusable', evidence: [`peer skip evidence: ${evidenceText}`] }),
  };
}

/**
 * The `api-<status>` probe (scenario of the same name): a provider error whose evidence is
 * `api_error_status=<reported>` (@default `status`; Qwen's driver answers overloads with 503)
 * followed by `moreEvidence`.
 */
export function apiErrorProbe(
  schema: SchemaVariant,
  status: 400 | 529,
  description: string,
  options: { reported?: number; moreEvidence?: string[] } = {},
): PlannedProbe {
  return {
    slug: `api-${String(status)}`,
    description,
    scenarios: [`api-${status}`],
    schema,
    tags: ['api-error'],
    expect: () => ({ verdict: 'provider-error', evidence: [`api_error_status=${String(options.reported ?? status)}`, ...(options.moreEvidence ?? [])] }),
  };
}

/** The words of the `stall` probe of a CLI whose provider streams. */
export const STALL_STREAM_DESCRIPTION = 'the provider never finishes the stream; the probe kills the process group at its deadline';

/**
 * How long a `stall` probe waits once the CLI reached the stalled stream (ms): the evidence (the
 * deadline fires, the group is reaped, `timedOut`) is the same after 2 s as after 30 s, and the
 * CLI's start-up time no longer counts (issue 12 part 5).
 */
export const STALL_AFTER_REQUEST_MS = 2_000;

/** The `stall` probe: a timeout {@link STALL_AFTER_REQUEST_MS} after the stalled request, at most `timeoutMs` after spawn. */
export function stallProbe(schema: SchemaVariant, timeoutMs: number, description: string = STALL_STREAM_DESCRIPTION): PlannedProbe {
  return { slug: 'stall', description, scenarios: ['stall'], schema, timeoutMs, deadlineAfterRequestMs: STALL_AFTER_REQUEST_MS, tags: ['timeout'], expect: () => ({ verdict: 'timeout' }) };
}

/** The `startup-meta` probe of a CLI with a schema flag whose validator (Ajv strict) refuses a root `_meta`. */
export const STARTUP_META_PROBE: PlannedProbe = {
  slug: 'startup-meta',
  description: 'the schema carries a _meta member: the CLI refuses it at startup with a short stderr',
  scenarios: ['final'],
  schema: 'meta-root',
  tags: ['startup-rejected', 'short-stderr'],
  expect: () => ({ verdict: 'startup-rejected', evidence: ['strict mode: unknown keyword: "_meta"'] }),
};
