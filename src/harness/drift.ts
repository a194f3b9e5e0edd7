/**
 * Envelope drift: when a probe runs a CLI whose version differs from the version its recorded case
 * was recorded with, the probed envelope's shape is compared with the recorded one, and each
 * difference becomes one report line, e.g.
 * `drift claude-code/json final: keys added [ttft_ms], removed [] (recorded 2.1.332, probed 2.1.340)`.
 * Drift is information for whoever updates the corpus (`routecert record --force`), never a crash
 * or a conformance failure: CLIs add telemetry keys every release (research/cli-envelopes.md
 * section 2: `ttft_ms`, `subagent_stats`, ... "appear and grow by release").
 *
 * What is compared, per attempt:
 * - the top-level keys of the terminal object (`Decoded.keys` of the route's decoder);
 * - for JSONL stdout, the set of event `type` values.
 */
import type { Envelope, RouteDecoder } from '#src/envelope/types.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { readJsonDocuments } from '#src/envelope/jsonl.ts';
import { decoderFor } from '#src/envelope/registry.ts';
import { loadCaseFile } from '#src/record/corpus.ts';
import { recordedCasePath } from '#src/record/recordProbes.ts';

/** One side of the comparison: the CLI version and the envelope of each attempt. */
export interface DriftSide {
  version: string | null;
  attempts: readonly Envelope[];
}

/**
 * Inputs of {@link driftLines}: the route and plan slug (they name the lines), the decoder that
 * reads both sides, the recorded case's side and the probe's side.
 */
export interface DriftInput {
  route: string;
  slug: string;
  decoder: RouteDecoder;
  recorded: DriftSide;
  probed: DriftSide;
}

/** The set of `type` values of stdout's JSON events when stdout is JSONL; `null` for one whole document or none. */
export function eventTypes(stdout: string): string[] | null {
  const docs = readJsonDocuments(stdout);
  if (docs.framing !== 'lines') return null;
  const types = new Set<string>();
  for (const doc of docs.documents) if (isPlainObject(doc.value) && typeof doc.value.type === 'string') types.add(doc.value.type);
  return [...types].sort();
}

function difference(before: readonly string[], after: readonly string[]): { added: string[]; removed: string[] } {
  const b = new Set(before);
  const a = new Set(after);
  return { added: [...a].filter((k) => !b.has(k)).sort(), removed: [...b].filter((k) => !a.has(k)).sort() };
}

/**
 * The drift lines between a recorded case and a probe of the same route and slug. Pure; never throws
 * for any envelope (decoders never throw).
 *
 * - No line when either version is unknown or both are equal (the same CLI version with another
 *   shape is a scenario or mock change, not drift).
 * - Per attempt present on both sides (the attempt is named only when the case has several):
 *   `drift <route> <slug>: keys added [..], removed [..] (recorded <v>, probed <v>)` when the
 *   terminal object's top-level keys differ, and
 *   `drift <route> <slug>: event types added [..], removed [..] (recorded <v>, probed <v>)` when the
 *   JSONL event types differ. Names are sorted.
 *
 * @example
 * driftLines({ route: 'claude-code/json', slug: 'final', decoder, recorded: { version: '2.1.332', attempts: [old] }, probed: { version: '2.1.340', attempts: [now] } })
 * // ['drift claude-code/json final: keys added [ttft_ms], removed [] (recorded 2.1.332, probed 2.1.340)']
 */
export function driftLines(input: DriftInput): string[] {
  const { recorded, probed } = input;
  if (recorded.version === null || probed.version === null || recorded.version === probed.version) return [];
  const lines: string[] = [];
  const count = Math.min(recorded.attempts.length, probed.attempts.length);
  const versions = `(recorded ${recorded.version}, probed ${probed.version})`;
  for (let i = 0; i < count; i += 1) {
    const label = `drift ${input.route} ${input.slug}${Math.max(recorded.attempts.length, probed.attempts.length) > 1 ? ` attempt ${i + 1}` : ''}`;
    const before = recorded.attempts[i]!;
    const after = probed.attempts[i]!;
    const keys = difference(input.decoder.decode(before).keys, input.decoder.decode(after).keys);
    if (keys.added.length > 0 || keys.removed.length > 0) {
      lines.push(`${label}: keys added [${keys.added.join(', ')}], removed [${keys.removed.join(', ')}] ${versions}`);
    }
    const typesBefore = eventTypes(before.stdout);
    const typesAfter = eventTypes(after.stdout);
    if (typesBefore !== null && typesAfter !== null) {
      const types = difference(typesBefore, typesAfter);
      if (types.added.length > 0 || types.removed.length > 0) {
        lines.push(`${label}: event types added [${types.added.join(', ')}], removed [${types.removed.join(', ')}] ${versions}`);
      }
    }
  }
  return lines;
}

/**
 * The drift lines of a probe against the recorded case of the same route and slug under
 * `casesDir` (`<casesDir>/<route>/<slug>.json`, where `routecert record` writes it). No recorded
 * case, an unreadable one, or a route no decoder knows: `[]`. Never throws.
 */
export async function driftForProbe(
  casesDir: string,
  probe: { route: string; slug: string; version: string | null; attempts: readonly Envelope[] },
): Promise<string[]> {
  try {
    const { loaded } = await loadCaseFile(recordedCasePath(casesDir, probe.route, probe.slug));
    if (!loaded || loaded.case.provenance.source !== 'recorded') return [];
    return driftLines({
      route: probe.route,
      slug: probe.slug,
      decoder: decoderFor(probe.route),
      recorded: { version: loaded.case.cli.version, attempts: loaded.case.attempts },
      probed: { version: probe.version, attempts: probe.attempts },
    });
  } catch {
    return [];
  }
}
