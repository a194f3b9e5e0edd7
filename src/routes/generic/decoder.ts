/**
 * The generic decoder: any CLI whose answer sits in a structured field (any key spelling), in a
 * string field of its last JSON object (`result`, `text`, `response`), or in free text; and, for a
 * CLI routecert does not know, wherever the user says it lives (a JSON Pointer, a key, a JSONL event
 * filter, free text), written as a one-line spec (see {@link parseGenericSpec}).
 *
 * Also the decoder of the documented-only routes (xAI grok `--json-schema`, cursor-agent, Amp), whose
 * shapes come from vendor docs and public bug reports (shared/research/cli-envelopes.md 9b, 10, 11).
 */
import { readJsonDocuments, type JsonDocument } from '#src/envelope/jsonl.ts';
import { candidatesFromStructured, pushCandidatesFromText } from '#src/envelope/candidates.ts';
import { findKeys, foldKey, isPlainObject } from '#src/envelope/keys.ts';
import { apiErrorTextStatus, crashedStatus, incompleteStatus, pushApiErrorStatus, schemaRefusedStatus, statusInErrorText } from '#src/envelope/status.ts';
import { finishDecode } from '#src/envelope/decodeParts.ts';
import { objectReply, textReply } from '#src/envelope/reply.ts';
import type { Candidate, DecodeOptions, EnvelopeStatus, Reply, RouteDecoder } from '#src/envelope/types.ts';
import { splitMessageTexts, subagentParent } from '#src/envelope/splitMessages.ts';
import { joinPointer, parsePointer } from '#src/pointer.ts';
import { pushAll, prependAll } from '#src/arrays.ts';

/**
 * A JSONL event filter: the terminal object is the last JSON object of stdout whose `field` (a
 * dotted path, e.g. `type` or `item.type`) reads `equals` (compared as text).
 */
export interface EventFilter {
  field: string;
  equals: string;
}

/**
 * Options of {@link genericDecoder}.
 * - `structuredKeys`: names of the structured field, spelling-insensitive
 *   (default `structured_output`, `structured_result`);
 * - `errorKeys`: names of a field that carries the CLI's structured-output failure message
 *   (default `structured_output_error`, i.e. grok's `structuredOutputError`);
 * - `textFields`: string fields of the terminal object scanned for JSON (default `result`, `text`, `response`);
 * - `terminalType`: when set, the terminal object is the last one whose `type` is this (or one of
 *   these), e.g. `result`; otherwise the last JSON object in stdout;
 * - `assistantEvents`: also read Claude Code-style `{"type":"assistant","message":{"content":[..]}}`
 *   events in stream order: `tool_use` inputs (origin `tool_use:<name>`) and text blocks (origin
 *   `assistant-text`) (for Claude Code-compatible streams: Amp, cursor-agent, grok's messages mode);
 * - `textEvents`: the answer text streams as chunk events (`{"type": <type>, <field>: "<piece>"}`,
 *   xAI grok `--output-format streaming-json` `{"type":"text","data":"..."}`, one event or many small
 *   chunks): consecutive chunks are one text, assembled before it is read (origin `assistant-text`,
 *   `event` = the line of its first chunk); any other event ends it, except the `passThrough` types
 *   (`thought`), which are never read;
 * - `event`: a JSONL event filter that picks the terminal object (wins over `terminalType`);
 * - `pointer`: RFC 6901 JSON Pointer to the answer inside the terminal object (`""` = the object
 *   itself); the answer is then read ONLY there (an object, or JSON inside a string);
 * - `key`: the answer's key in the terminal object, spelling-insensitive, searched breadth-first
 *   (top level first); the answer is then read ONLY there;
 * - `freeText`: also scan the whole stdout as free text (origin `stdout`), after everything else.
 *
 * The reply: the terminal object's structured field (raw) and first string among `textFields`, or
 * the value at `pointer` / `key` (a string is text); stdout itself when it holds no JSON document.
 */
export interface GenericDecoderOptions {
  structuredKeys?: readonly string[];
  errorKeys?: readonly string[];
  textFields?: readonly string[];
  terminalType?: string | readonly string[];
  assistantEvents?: boolean;
  textEvents?: { type: string; field: string; passThrough?: readonly string[] };
  event?: EventFilter;
  pointer?: string;
  key?: string;
  freeText?: boolean;
  header?: string;
}

/** Raised for a generic spec that does not parse; `code` is stable, the message shows the grammar. */
export class GenericSpecError extends Error {
  readonly code = 'ROUTECERT_BAD_GENERIC_SPEC';
  constructor(spec: string, why: string) {
    super(`[routecert] generic spec "${spec}": ${why}. ${GENERIC_SPEC_HELP}`);
    this.name = 'GenericSpecError';
  }
}

/** The spec grammar, as `--help` and errors print it. */
export const GENERIC_SPEC_HELP =
  'A generic spec is parts joined by ";": pointer=<JSON Pointer> | key=<name> | event=<field>=<value> | text. ' +
  'Example: "event=type=result;pointer=/structured_output" (the last JSONL event with type "result", its /structured_output).';

/** The route prefix that carries a spec: `generic:<spec>`. */
export const GENERIC_ROUTE_PREFIX = 'generic:';

/**
 * Parse a generic spec: parts joined by `;`, each one of
 * - `pointer=<JSON Pointer>`: the answer's place in the terminal object (`pointer=/data/answer`);
 * - `key=<name>`: the answer's key, spelling-insensitive, anywhere in the terminal object (`key=structuredOutput`);
 * - `event=<field>=<value>`: the terminal object is the last JSONL event whose dotted `field` reads
 *   `value` (`event=type=result`, `event=item.type=agent_message`);
 * - `text`: also scan the whole stdout as free text.
 *
 * @throws {GenericSpecError} on an unknown part, a repeated part, a pointer that does not start with
 *   `/`, an empty key, an event part without `<field>=<value>`, or an empty spec.
 * @example
 * parseGenericSpec('event=type=result;key=structured_output')
 * // { event: { field: 'type', equals: 'result' }, key: 'structured_output' }
 */
export function parseGenericSpec(spec: string): GenericDecoderOptions {
  const options: GenericDecoderOptions = {};
  const parts = spec.split(';').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0) throw new GenericSpecError(spec, 'it is empty');
  const seen = new Set<string>();
  for (const part of parts) {
    const eq = part.indexOf('=');
    const name = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? undefined : part.slice(eq + 1);
    if (seen.has(name)) throw new GenericSpecError(spec, `"${name}" is given twice`);
    seen.add(name);
    switch (name) {
      case 'pointer':
        if (value === undefined || (value !== '' && !value.startsWith('/'))) throw new GenericSpecError(spec, `pointer "${value ?? ''}" must be "" or start with "/" (RFC 6901)`);
        options.pointer = value;
        break;
      case 'key':
        if (!value) throw new GenericSpecError(spec, 'key needs a name (key=<name>)');
        options.key = value;
        break;
      case 'event': {
        const eq2 = value?.indexOf('=') ?? -1;
        if (value === undefined || eq2 <= 0) throw new GenericSpecError(spec, 'event needs <field>=<value> (event=type=result)');
        options.event = { field: value.slice(0, eq2), equals: value.slice(eq2 + 1) };
        break;
      }
      case 'text':
        if (value !== undefined) throw new GenericSpecError(spec, 'text takes no value');
        options.freeText = true;
        break;
      default:
        throw new GenericSpecError(spec, `unknown part "${name}"`);
    }
  }
  if (options.pointer !== undefined && options.key !== undefined) throw new GenericSpecError(spec, 'give pointer or key, not both');
  return options;
}

/**
 * The decoder of a `generic:<spec>` route (e.g. `generic:event=type=result;pointer=/answer`), or
 * `undefined` when `route` does not start with {@link GENERIC_ROUTE_PREFIX}.
 *
 * @throws {GenericSpecError} when the spec does not parse.
 */
export function genericRouteDecoder(route: string): RouteDecoder | undefined {
  if (!route.startsWith(GENERIC_ROUTE_PREFIX)) return undefined;
  return genericDecoder(route, { ...parseGenericSpec(route.slice(GENERIC_ROUTE_PREFIX.length)), header: `generic (${route.slice(GENERIC_ROUTE_PREFIX.length)})` });
}

/**
 * The decoder of a `--generic <route>=<spec>` option of `routecert run`: cases of `<route>` are
 * decoded by a generic decoder configured by `<spec>` (the route is everything before the first
 * `=`), e.g. `mycli/json=event=type=result;pointer=/answer`.
 *
 * @throws {GenericSpecError} when there is no `=`, the route is empty, or the spec does not parse.
 */
export function genericDecoderFromOption(option: string): RouteDecoder {
  const eq = option.indexOf('=');
  if (eq <= 0) throw new GenericSpecError(option, 'write it as <route>=<spec>, e.g. mycli/json=pointer=/answer');
  const route = option.slice(0, eq);
  const spec = option.slice(eq + 1);
  return genericDecoder(route, { ...parseGenericSpec(spec), header: `generic (${route}: ${spec})` });
}

/**
 * Build a decoder for `route` that reads answers where {@link GenericDecoderOptions} says.
 *
 * @example
 * const grok = genericDecoder('grok/json', { header: 'xAI grok --json-schema (documented)' });
 * const mine = genericDecoder('mycli/json', parseGenericSpec('event=type=done;pointer=/answer'));
 */
export function genericDecoder(route: string, options: GenericDecoderOptions = {}): RouteDecoder {
  const structuredKeys = options.structuredKeys ?? ['structured_output', 'structured_result'];
  const errorKeys = options.errorKeys ?? ['structured_output_error'];
  const textFields = options.textFields ?? ['result', 'text', 'response'];
  const terminalTypes = options.terminalType === undefined ? undefined : typeof options.terminalType === 'string' ? [options.terminalType] : options.terminalType;
  const located = options.pointer !== undefined || options.key !== undefined;
  return {
    route,
    header: options.header ?? `generic (${route})`,
    detect: () => true,
    decode: (envelope, decodeOptions: DecodeOptions = {}) => {
      const anchor = decodeOptions.anchor;
      const docs = readJsonDocuments(envelope.stdout);
      const notes = [...docs.notes];
      const candidates: Candidate[] = [];
      let structured: Candidate | undefined;
      let terminal: { value: Record<string, unknown>; line: number; offset: number } | undefined;
      for (const doc of docs.documents) {
        if (!isPlainObject(doc.value)) continue;
        const pick = options.event
          ? String(readPath(doc.value, options.event.field)) === options.event.equals
          : terminalTypes === undefined || terminalTypes.includes(String(doc.value.type));
        if (pick) terminal = { value: doc.value, line: doc.line, offset: doc.offset };
      }
      const event = (line: number) => (docs.framing === 'lines' ? { event: line } : {});
      const human: string[] = [];
      const ancillary: string[] = [];
      let status: EnvelopeStatus = { kind: 'ok' };
      let reply: Reply = {};

      if (options.assistantEvents && !located) pushAll(candidates, assistantEventCandidates(docs.documents, docs.framing === 'lines', anchor));
      if (options.textEvents && !located) pushAll(candidates, textEventCandidates(docs.documents, options.textEvents, docs.framing === 'lines', anchor, notes, human));

      if (terminal) {
        const t = terminal.value;
        const at = (origin: string, pointer: string) => ({ origin, pointer, offset: terminal.offset, ...event(terminal.line) });
        if (located) {
          const found = options.pointer !== undefined ? resolvePointer(t, options.pointer) : findKeyBreadthFirst(t, options.key!);
          if (found === undefined) {
            notes.push(`the answer location ${options.pointer !== undefined ? `pointer ${options.pointer || '"'}` : `key ${options.key}`} is not in the terminal object`);
          } else {
            reply = typeof found.value === 'string' ? textReply(found.value, found.label, t.usage) : { structured: { key: found.label, value: found.value }, ...(t.usage === undefined ? {} : { usage: t.usage }) };
            const fromLocation = candidatesFromStructured(found.value, at(found.label, found.pointer));
            if (fromLocation[0]) structured = fromLocation[0];
            pushAll(candidates, fromLocation);
          }
        } else {
          reply = objectReply(t, { structuredKeys, textFields });
          // The structured field goes first (before the assistant events already read), text fields last.
          const fromStructured: Candidate[] = [];
          for (const key of findKeys(t, structuredKeys)) {
            const found = candidatesFromStructured(t[key], at(key, joinPointer('', key)));
            if (found[0] && !structured) structured = found[0];
            pushAll(fromStructured, found);
          }
          prependAll(candidates, fromStructured);
          for (const field of findKeys(t, textFields)) {
            const value = t[field];
            if (typeof value === 'string') pushCandidatesFromText(candidates, value, at(field, joinPointer('', field)), anchor, notes);
          }
        }
        for (const field of [t.result, t.message, isPlainObject(t.error) ? t.error.message : t.error]) {
          if (typeof field === 'string' && field.trim() !== '') human.push(field);
        }
        if (Array.isArray(t.errors)) for (const e of t.errors) if (typeof e === 'string' && e.trim() !== '') human.push(e);
        for (const key of findKeys(t, errorKeys)) {
          const value = t[key];
          if (typeof value === 'string' && value !== '') {
            human.push(value);
            status = { kind: 'cli-error', message: value };
          }
        }
        const httpStatus = readHttpStatus(t);
        if (httpStatus !== null) {
          ancillary.push(`api_error_status=${httpStatus}`);
          status = { kind: 'provider-error', apiErrorStatus: httpStatus, message: human[0] ?? `HTTP ${httpStatus}` };
        } else if (t.is_error === true && typeof t.result === 'string' && apiErrorTextStatus(t.result) !== undefined) {
          // Claude Code clones: the error flag wins over `subtype: "success"` (claude-code#79500).
          const code = apiErrorTextStatus(t.result);
          status = { kind: 'provider-error', message: t.result, ...(typeof code === 'number' ? { apiErrorStatus: code } : {}) };
          pushApiErrorStatus(status, ancillary);
        } else if (t.type === 'error' && human[0] !== undefined && statusInErrorText(human[0]) !== null) {
          // An error frame whose words carry the provider's status (`{"type":"error","message":"429 ..."}`,
          // a relayed body's `"status_code": 429`): the provider's error, naming it (issue 21 point 2).
          status = { kind: 'provider-error', apiErrorStatus: statusInErrorText(human[0]), message: human[0] };
          pushApiErrorStatus(status, ancillary);
        } else if (t.type === 'error' || t.is_error === true || (typeof t.subtype === 'string' && t.subtype.startsWith('error'))) {
          status = { kind: 'cli-error', message: human[0] ?? 'error' };
          if (typeof t.subtype === 'string') status.subtype = t.subtype;
        }
        status = schemaRefusedStatus(status, human);
        if (options.freeText) pushCandidatesFromText(candidates, envelope.stdout, { origin: 'stdout', pointer: '', offset: 0 }, anchor);
      } else {
        if (docs.documents.length > 0 && (options.event || terminalTypes)) {
          notes.push(`no terminal object (${options.event ? `${options.event.field}=${options.event.equals}` : `type ${terminalTypes!.join('|')}`}) in stdout`);
        }
        // No terminal object: free text, scanned whole; stdout with no JSON document is the reply text.
        if (docs.documents.length === 0 && envelope.stdout.trim() !== '') reply = textReply(envelope.stdout, 'stdout');
        pushCandidatesFromText(candidates, envelope.stdout, { origin: 'stdout', pointer: '', offset: 0 }, anchor);
        status = crashedStatus(envelope) ?? status;
      }
      // A route with a terminal event: without it, or with a cut last line, the stream is incomplete.
      const streamed = options.event !== undefined || terminalTypes !== undefined;
      if (streamed && (docs.truncated || (!terminal && docs.documents.length > 0)) && status.kind !== 'startup-rejected') {
        const reason = docs.truncated ? 'the last line of stdout is cut' : 'no terminal object';
        status = status.kind === 'ok' || status.kind === 'crashed' ? incompleteStatus(envelope, reason, ancillary) : { ...status, incomplete: reason };
      }
      const decoded = finishDecode(route, { candidates, human, ancillary, notes, docs, reply }, status, terminal?.value, envelope, decodeOptions);
      if (structured) decoded.structured = structured;
      if (terminal && terminal.value.usage !== undefined) decoded.usage = terminal.value.usage;
      return decoded;
    },
  };
}

/**
 * Claude Code-style assistant events: tool_use inputs and JSON in text blocks, in stream order; the
 * text of one message id spread over several events is also read joined, at its last event
 * (src/envelope/splitMessages.ts).
 */
function assistantEventCandidates(documents: JsonDocument[], lines: boolean, anchor: string | undefined): Candidate[] {
  const out: Candidate[] = [];
  const split = splitMessageTexts(documents.map((d) => d.value));
  for (const [index, doc] of documents.entries()) {
    if (!isPlainObject(doc.value) || doc.value.type !== 'assistant') continue;
    // A sub-agent's messages are what it hands its parent, never the run's answer.
    if (subagentParent(doc.value) !== null) continue;
    const message = doc.value.message;
    const content = isPlainObject(message) && Array.isArray(message.content) ? message.content : [];
    const event = lines ? { event: doc.line } : {};
    content.forEach((block, i) => {
      if (!isPlainObject(block)) return;
      const pointer = `/message/content/${i}`;
      if (block.type === 'tool_use' && isPlainObject(block.input)) {
        out.push({ value: block.input, origin: `tool_use:${String(block.name)}`, pointer: `${pointer}/input`, offset: doc.offset, nested: 0, ...event });
      } else if (block.type === 'text' && typeof block.text === 'string') {
        pushCandidatesFromText(out, block.text, { origin: 'assistant-text', pointer: `${pointer}/text`, offset: doc.offset, ...event }, anchor);
      }
    });
    const joined = split.get(index);
    if (joined) pushCandidatesFromText(out, joined.text, { origin: 'assistant-text', pointer: '/message/content', offset: documents[joined.first]!.offset, ...event }, anchor);
  }
  return out;
}

/**
 * The answer text of chunk events (see {@link GenericDecoderOptions.textEvents}): consecutive
 * chunks joined, each text read when it closes, so candidates stay in stream order; each non-empty
 * text is also a human-readable evidence line.
 */
function textEventCandidates(
  documents: JsonDocument[],
  spec: { type: string; field: string; passThrough?: readonly string[] },
  lines: boolean,
  anchor: string | undefined,
  notes: string[],
  human: string[],
): Candidate[] {
  const out: Candidate[] = [];
  let open: { text: string; doc: JsonDocument; pieces: number } | undefined;
  const close = () => {
    if (!open) return;
    const { text, doc, pieces } = open;
    open = undefined;
    if (text.trim() !== '') human.push(text);
    if (pieces > 1) notes.push(`assembled the text on line ${doc.line + 1} from ${pieces} ${spec.type} events`);
    pushCandidatesFromText(out, text, { origin: 'assistant-text', pointer: joinPointer('', spec.field), offset: doc.offset, ...(lines ? { event: doc.line } : {}) }, anchor, notes);
  };
  for (const doc of documents) {
    if (!isPlainObject(doc.value)) continue;
    const type = String(doc.value.type);
    if (type === spec.type) {
      const piece = doc.value[spec.field];
      const text = typeof piece === 'string' ? piece : '';
      if (open) {
        open.text += text;
        open.pieces += 1;
      } else {
        open = { text, doc, pieces: 1 };
      }
    } else if (!spec.passThrough?.includes(type)) {
      close();
    }
  }
  close();
  return out;
}

/** The value at a dotted path (`item.type`), or `undefined`. */
function readPath(value: unknown, path: string): unknown {
  let here: unknown = value;
  for (const part of path.split('.')) {
    if (!isPlainObject(here)) return undefined;
    here = here[part];
  }
  return here;
}

/** A value found at an answer location: the value, its origin label and its JSON Pointer. */
interface Located {
  value: unknown;
  label: string;
  pointer: string;
}

/** Resolve an RFC 6901 pointer in `root`; `undefined` when any token is missing or `pointer` is not a pointer. */
function resolvePointer(root: unknown, pointer: string): Located | undefined {
  if (pointer === '') return { value: root, label: 'document', pointer: '' };
  if (!pointer.startsWith('/')) return undefined;
  const tokens = parsePointer(pointer);
  let here: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(here) && /^(0|[1-9]\d*)$/.test(token) && Number(token) < here.length) here = here[Number(token)];
    else if (isPlainObject(here) && Object.hasOwn(here, token)) here = here[token];
    else return undefined;
  }
  return { value: here, label: tokens.at(-1)!, pointer };
}

/** The first key whose folded spelling equals `key`'s, breadth-first (top level first), in objects and arrays. */
function findKeyBreadthFirst(root: Record<string, unknown>, key: string): Located | undefined {
  const wanted = foldKey(key);
  const queue: { value: unknown; pointer: string }[] = [{ value: root, pointer: '' }];
  for (let i = 0; i < queue.length && i < 10_000; i += 1) {
    const { value, pointer } = queue[i]!;
    if (Array.isArray(value)) {
      value.forEach((v, j) => queue.push({ value: v, pointer: `${pointer}/${j}` }));
      continue;
    }
    if (!isPlainObject(value)) continue;
    for (const k of Object.keys(value)) {
      if (foldKey(k) === wanted) return { value: value[k], label: k, pointer: joinPointer(pointer, k) };
    }
    for (const k of Object.keys(value)) queue.push({ value: value[k], pointer: joinPointer(pointer, k) });
  }
  return undefined;
}

/** An HTTP error status the envelope reports: `api_error_status`, `statusCode`, `status` (>= 400). */
function readHttpStatus(t: Record<string, unknown>): number | null {
  const places: unknown[] = [t.api_error_status, t.statusCode, t.status_code];
  if (isPlainObject(t.error)) places.push(t.error.statusCode, t.error.status, t.error.code);
  if (typeof t.status === 'number') places.push(t.status);
  for (const p of places) if (typeof p === 'number' && p >= 400 && p <= 599) return p;
  return null;
}
