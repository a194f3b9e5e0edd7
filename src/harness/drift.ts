/**
 * Envelope drift: when a probe runs a CLI whose version differs from the version its recorded case
 * was recorded with (the corpus `--cases` names), the probed envelope is compared with the recorded
 * one, and each difference becomes one report line, e.g.
 * `drift codex/jsonl final: item.completed paths added [/item/item_type: string], removed [/item/type: string] (recorded 0.170.0, probed 0.171.0)`.
 * Drift is information for whoever updates the corpus (`routecert record --force`), never a crash
 * or a conformance failure: CLIs add telemetry keys every release (research/cli-envelopes.md
 * section 2: `ttft_ms`, `subagent_stats`, ... "appear and grow by release").
 *
 * What is compared, per attempt present on both sides (issue 12 part 2):
 * - framing: one JSON document, a JSON array, JSONL, SSE, plain text, or empty ({@link ObservedFraming});
 * - event types (JSONL, array and SSE events; `type`, or `type/subtype` when a subtype is a string);
 * - per event type, every JSON Pointer path with its JSON type (array indices read `*`), so a
 *   nested rename (`/item/type` -> `/item/item_type`) or a retyped field is a line of its own;
 * - the flags sent (argv tokens starting with `-`), when both attempts carry their argv;
 * - the answer's channel: the origin of the decoder's chosen candidate (`structured_output`,
 *   `assistant-text`, ... or `none`).
 *
 * A probe whose envelope says it crashed or was refused at startup (the decoder's status
 * `crashed` / `startup-rejected`, when the recorded one did not) gives no drift line: it is
 * reported as broken ({@link probeBroken}), never as drift.
 */
import { joinPointer } from '#src/pointer.ts';
import type { Envelope, RouteDecoder } from '#src/envelope/types.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { readJsonDocuments } from '#src/envelope/jsonl.ts';
import { decoderFor } from '#src/routes/registry.ts';
import { loadCaseFile } from '#src/record/corpus.ts';
import { recordedCasePath } from '#src/record/recordProbes.ts';
import type { Framing } from '#src/routes/define.ts';

/** An attempt as compared: its envelope, and the argv it was run with when known. */
export type DriftAttempt = Envelope & { argv?: readonly string[] };

/** One side of the comparison: the CLI version and the envelope of each attempt. */
export interface DriftSide {
  version: string | null;
  attempts: readonly DriftAttempt[];
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

/**
 * How stdout was framed: a route's {@link Framing} (`json-document`, `json-array`, `jsonl`;
 * src/routes/define.ts), or what no route declares: `sse` (`event:` / `data:` lines), `text` (no
 * JSON), `empty`.
 */
export type ObservedFraming = Framing | 'sse' | 'text' | 'empty';

/** The JSON type of a value: `object`, `array`, `string`, `number`, `boolean` or `null`. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** The shape of one envelope: framing, events, per-event-type paths, flags and answer channel. */
export interface EnvelopeShape {
  framing: ObservedFraming;
  /** Event type -> JSON Pointer path (array indices as `*`) -> JSON types seen there. `(document)` for a whole document. */
  paths: Map<string, Map<string, Set<string>>>;
  /** Distinct event types (JSONL, array, SSE); `null` for one document, text or empty. */
  eventTypes: string[] | null;
  flags: string[] | null;
  channel: string;
  status: string;
}

/** Deepest path walked (deeper values are summarised by their type at this depth). */
const MAX_DEPTH = 16;
/** Most names one drift line lists before `and N more`. */
const MAX_LISTED = 24;

function walkPaths(value: unknown, pointer: string, into: Map<string, Set<string>>, depth: number): void {
  const types = into.get(pointer) ?? new Set<string>();
  types.add(jsonType(value));
  into.set(pointer, types);
  if (depth >= MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) walkPaths(item, `${pointer}/*`, into, depth + 1);
  } else if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) walkPaths(v, joinPointer(pointer, k), into, depth + 1);
  }
}

function eventTypeOf(value: unknown): string {
  if (!isPlainObject(value) || typeof value.type !== 'string') return '(untyped)';
  return typeof value.subtype === 'string' ? `${value.type}/${value.subtype}` : value.type;
}

/** SSE `data:` payloads of stdout, parsed; `null` when stdout is not SSE-framed. */
function sseDocuments(stdout: string): unknown[] | null {
  const lines = stdout.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0 || !lines.every((l) => /^(event|data|id|retry):|^:/.test(l))) return null;
  const docs: unknown[] = [];
  for (const l of lines) {
    if (!l.startsWith('data:')) continue;
    try {
      docs.push(JSON.parse(l.slice(5).trim()));
    } catch {
      docs.push(l.slice(5).trim());
    }
  }
  return docs;
}

/** The shape of `envelope` as `decoder` reads it. Pure; never throws. */
export function envelopeShape(envelope: DriftAttempt, decoder: RouteDecoder): EnvelopeShape {
  const decoded = decoder.decode(envelope);
  const chosen = decoded.structured ?? decoded.candidates[0];
  const shape: EnvelopeShape = {
    framing: 'empty',
    paths: new Map(),
    eventTypes: null,
    flags: envelope.argv ? envelope.argv.filter((t) => t.startsWith('-')) : null,
    channel: chosen?.origin ?? 'none',
    status: decoded.status.kind,
  };
  const docs = readJsonDocuments(envelope.stdout);
  let events: unknown[] | null = null;
  if (docs.framing === 'whole') {
    const value = docs.documents[0]?.value;
    if (Array.isArray(value)) {
      shape.framing = 'json-array';
      events = value;
    } else {
      shape.framing = 'json-document';
      const paths = new Map<string, Set<string>>();
      walkPaths(value, '', paths, 0);
      shape.paths.set('(document)', paths);
    }
  } else if (docs.framing === 'lines') {
    const sse = sseDocuments(envelope.stdout);
    if (sse !== null) {
      shape.framing = 'sse';
      events = sse;
    } else if (docs.documents.length > 0) {
      shape.framing = 'jsonl';
      events = docs.documents.map((d) => d.value);
    } else shape.framing = 'text';
  } else if (envelope.stdout.trim() !== '') shape.framing = 'text';
  if (events !== null) {
    const types = new Set<string>();
    for (const e of events) {
      const type = eventTypeOf(e);
      types.add(type);
      const paths = shape.paths.get(type) ?? new Map<string, Set<string>>();
      walkPaths(e, '', paths, 0);
      shape.paths.set(type, paths);
    }
    shape.eventTypes = [...types].sort();
  }
  return shape;
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

function list(names: readonly string[]): string {
  const shown = names.slice(0, MAX_LISTED).join(', ');
  return names.length > MAX_LISTED ? `[${shown}, and ${names.length - MAX_LISTED} more]` : `[${shown}]`;
}

const typed = (path: string, types: Set<string>): string => `${path === '' ? '/' : path}: ${[...types].sort().join('|')}`;

/** Path lines of one event type: paths added/removed (with their types) and paths whose type changed. */
function pathChanges(before: Map<string, Set<string>>, after: Map<string, Set<string>>): string | null {
  const added = [...after.keys()].filter((p) => !before.has(p)).sort();
  const removed = [...before.keys()].filter((p) => !after.has(p)).sort();
  const retyped = [...after.keys()]
    .filter((p) => before.has(p) && [...before.get(p)!].sort().join('|') !== [...after.get(p)!].sort().join('|'))
    .sort()
    .map((p) => `${p === '' ? '/' : p}: ${[...before.get(p)!].sort().join('|')} -> ${[...after.get(p)!].sort().join('|')}`);
  // A new or vanished parent implies its children: list only the topmost paths.
  const top = (paths: string[]) => paths.filter((p) => !paths.some((q) => q !== p && p.startsWith(`${q}/`)));
  const parts: string[] = [];
  if (added.length > 0 || removed.length > 0) {
    parts.push(`paths added ${list(top(added).map((p) => typed(p, after.get(p)!)))}, removed ${list(top(removed).map((p) => typed(p, before.get(p)!)))}`);
  }
  if (retyped.length > 0) parts.push(`retyped ${list(retyped)}`);
  return parts.length > 0 ? parts.join('; ') : null;
}

/**
 * True when the probed attempt crashed or was refused at startup (decoder status `crashed` or
 * `startup-rejected`) while the recorded one was not: a broken probe, reported as that, never as
 * drift. Also true for a probe with no attempt at all. An attempt killed at its deadline
 * (`timedOut`) is not a crash.
 */
export function probeBroken(input: Pick<DriftInput, 'decoder' | 'recorded' | 'probed'>): boolean {
  if (input.probed.attempts.length === 0) return true;
  return input.probed.attempts.some((after, i) => {
    // Killed at the deadline is the harness's doing (a stall probe), not a crash of the CLI.
    if (after.timedOut === true) return false;
    const before = input.recorded.attempts[i];
    const now = input.decoder.decode(after).status.kind;
    if (now !== 'crashed' && now !== 'startup-rejected') return false;
    return before === undefined || input.decoder.decode(before).status.kind !== now;
  });
}

/**
 * The drift lines between a recorded case and a probe of the same route and slug. Pure; never throws
 * for any envelope (decoders never throw).
 *
 * - No line when either version is unknown or both are equal (the same CLI version with another
 *   shape is a scenario or mock change, not drift), and none for a broken probe ({@link probeBroken}).
 * - Per attempt present on both sides (named only when the case has several), one line each for
 *   `framing <before> -> <after>`, `event types added [..], removed [..]`,
 *   `<event type> paths added [<pointer>: <type>], removed [..]; retyped [..]`,
 *   `flags sent added [..], removed [..]` and `answer channel <before> -> <after>`, each ending
 *   `(recorded <v>, probed <v>)`. Names are sorted.
 *
 * @example
 * driftLines({ route: 'claude-code/json', slug: 'final', decoder, recorded: { version: '2.1.332', attempts: [old] }, probed: { version: '2.1.340', attempts: [now] } })
 * // ['drift claude-code/json final: (document) paths added [/ttft_ms: number], removed [] (recorded 2.1.332, probed 2.1.340)']
 */
export function driftLines(input: DriftInput): string[] {
  const { recorded, probed } = input;
  if (recorded.version === null || probed.version === null || recorded.version === probed.version) return [];
  if (probeBroken(input)) return [];
  const lines: string[] = [];
  const count = Math.min(recorded.attempts.length, probed.attempts.length);
  const versions = `(recorded ${recorded.version}, probed ${probed.version})`;
  for (let i = 0; i < count; i += 1) {
    const label = `drift ${input.route} ${input.slug}${Math.max(recorded.attempts.length, probed.attempts.length) > 1 ? ` attempt ${i + 1}` : ''}`;
    const before = envelopeShape(recorded.attempts[i]!, input.decoder);
    const after = envelopeShape(probed.attempts[i]!, input.decoder);
    if (before.framing !== after.framing) lines.push(`${label}: framing ${before.framing} -> ${after.framing} ${versions}`);
    if (before.eventTypes !== null && after.eventTypes !== null) {
      const types = difference(before.eventTypes, after.eventTypes);
      if (types.added.length > 0 || types.removed.length > 0) lines.push(`${label}: event types added ${list(types.added)}, removed ${list(types.removed)} ${versions}`);
    }
    // Paths of the event types on both sides (a new or vanished event type is the line above).
    for (const type of [...after.paths.keys()].filter((t) => before.paths.has(t)).sort()) {
      const changed = pathChanges(before.paths.get(type)!, after.paths.get(type)!);
      if (changed !== null) lines.push(`${label}: ${type} ${changed} ${versions}`);
    }
    if (before.flags !== null && after.flags !== null) {
      const flags = difference(before.flags, after.flags);
      if (flags.added.length > 0 || flags.removed.length > 0) lines.push(`${label}: flags sent added ${list(flags.added)}, removed ${list(flags.removed)} ${versions}`);
    }
    if (before.channel !== after.channel) lines.push(`${label}: answer channel ${before.channel} -> ${after.channel} ${versions}`);
  }
  return lines;
}

/**
 * What a probe of a new version gave, against the recorded corpus: `drift` lines, and whether it
 * was `broken` (crashed or refused at startup; then `drift` is empty).
 */
export interface ProbeDrift {
  drift: string[];
  broken: boolean;
  /** The CLI version of the recorded case compared with, `null` when there was none. */
  recordedVersion: string | null;
}

/**
 * The drift of a probe against the recorded case of the same route and slug under `casesDir`
 * (`<casesDir>/<route>/<slug>.json`, where `routecert record` writes it). No recorded case, an
 * unreadable one, or a route no decoder knows: no drift. Never throws.
 */
export async function probeDrift(
  casesDir: string,
  probe: { route: string; slug: string; version: string | null; attempts: readonly DriftAttempt[] },
): Promise<ProbeDrift> {
  try {
    const { loaded } = await loadCaseFile(recordedCasePath(casesDir, probe.route, probe.slug));
    if (!loaded || loaded.case.provenance.source !== 'recorded') return { drift: [], broken: false, recordedVersion: null };
    const input: DriftInput = {
      route: probe.route,
      slug: probe.slug,
      decoder: decoderFor(probe.route),
      recorded: { version: loaded.case.cli.version, attempts: loaded.case.attempts },
      probed: { version: probe.version, attempts: probe.attempts },
    };
    return { drift: driftLines(input), broken: probeBroken(input), recordedVersion: loaded.case.cli.version };
  } catch {
    return { drift: [], broken: false, recordedVersion: null };
  }
}

/** {@link probeDrift}'s lines only (the form `routecert run` and `record` attach to a result). */
export async function driftForProbe(casesDir: string, probe: { route: string; slug: string; version: string | null; attempts: readonly DriftAttempt[] }): Promise<string[]> {
  return (await probeDrift(casesDir, probe)).drift;
}

/**
 * One probed CLI version's result against the recorded corpus:
 * - `same`: no drift line and every probe conforms;
 * - `drifted (still conforms)`: drift lines, every probe conforms;
 * - `drifted (breaks: <case ids>)`: some probes fail or crashed (the behaviour drifted, whether or
 *   not the shape did); the ids are sorted;
 * - `broken`: no probe could be compared (every one faulted or crashed; e.g. Copilot CLI 1.0.81
 *   sent a flag it rejects, issue 12);
 * - `unknown (...)`: the probed CLI's version could not be read (`version` null), so no line can
 *   say it is the recorded one or another: never `same` (issue 22); a broken or breaking run still says so.
 */
export type VersionResult = 'same' | 'drifted (still conforms)' | `drifted (breaks: ${string})` | 'broken' | `unknown (${string})`;

/** Classify one version's probes (`id`, whether it conforms, its drift lines, whether it was broken or faulted). */
export function versionResult(probes: readonly { id: string; conforms: boolean; drift: readonly string[]; broken: boolean }[], version?: string | null): VersionResult {
  if (probes.length === 0 || probes.every((p) => p.broken)) return 'broken';
  const breaks = probes.filter((p) => !p.conforms || p.broken).map((p) => p.id).sort();
  if (breaks.length > 0) return `drifted (breaks: ${breaks.join(', ')})`;
  if (version === null) return 'unknown (the CLI\'s version could not be read, so its drift is not known)';
  return probes.some((p) => p.drift.length > 0) ? 'drifted (still conforms)' : 'same';
}
