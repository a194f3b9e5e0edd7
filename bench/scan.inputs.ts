/**
 * Deterministic inputs for the scanner benchmark. Each generator takes a size in UTF-16 code
 * units (all inputs are ASCII, so also bytes) and a seed, and returns text of exactly that size.
 * Use {@link asDecodedOutput} on the result before timing anything.
 */
import { seededRandom } from './benchmark.ts';

/** One benchmark input family. `validJson`: the whole text is one JSON document. */
export interface InputKind {
  name: string;
  description: string;
  validJson: boolean;
  generate(size: number, seed: number): string;
}

type Random = () => number;
const pick = <T>(rnd: Random, list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
const int = (rnd: Random, max: number): number => Math.floor(rnd() * max);

const WORDS = ['worker', 'batch', 'cache', 'request', 'session', 'retry', 'model', 'route', 'token', 'schema', 'queue', 'shard'];
const KINDS = ['tick', 'result', 'usage', 'tool_use', 'assistant', 'error'];

function timestamp(k: number): string {
  return new Date(Date.UTC(2026, 10, 30, 4, 0, 0) + k * 37).toISOString();
}

/** Concatenates lines from `line(k)` until `size`, cutting the last one. */
function fill(size: number, line: (k: number) => string, glue = '\n'): string {
  const parts: string[] = [];
  let length = 0;
  for (let k = 0; length < size; k++) {
    const text = line(k) + glue;
    parts.push(text);
    length += text.length;
  }
  return parts.join('').slice(0, size);
}

function smallEvent(rnd: Random, k: number): string {
  return JSON.stringify({
    id: k,
    kind: pick(rnd, KINDS),
    ok: rnd() < 0.9,
    ms: Math.round(rnd() * 10_000) / 100,
    tags: [pick(rnd, WORDS), pick(rnd, WORDS)],
  });
}

/** (a) Ordinary log text: prose lines, `[INFO]`-style prefixes now and then, a small object every few lines. */
export const logText: InputKind = {
  name: 'log',
  description: 'log lines of prose, occasional [INFO] prefixes, a small JSON object every ~4 lines',
  validJson: false,
  generate(size, seed) {
    const rnd = seededRandom(seed);
    return fill(size, (k) => {
      const ts = timestamp(k);
      const r = rnd();
      if (r < 0.25) return `${ts} INFO event ${smallEvent(rnd, k)}`;
      if (r < 0.35) return `${ts} [${pick(rnd, ['INFO', 'WARN', 'DEBUG'])}] ${pick(rnd, WORDS)}-${int(rnd, 64)} ready (pid ${int(rnd, 99999)})`;
      return `${ts} ${pick(rnd, ['INFO', 'DEBUG', 'WARN'])} ${pick(rnd, WORDS)}-${int(rnd, 64)} processed ${pick(rnd, WORDS)} ${int(rnd, 100000)} in ${int(rnd, 900)} ms; hit ratio 0.${int(rnd, 99)} (user "${pick(rnd, WORDS)}")`;
    });
  },
};

/** (b) One long valid JSON document of many events, strings with braces and escaped quotes included. */
export const jsonDocument: InputKind = {
  name: 'json-doc',
  description: 'one valid JSON document: {"events":[...]} of nested events (brace-dense)',
  validJson: true,
  generate(size, seed) {
    const rnd = seededRandom(seed);
    const head = '{"version":1,"events":[';
    const tail = ']}';
    const parts: string[] = [];
    let length = head.length + tail.length;
    for (let k = 0; ; k++) {
      const event = JSON.stringify({
        id: k,
        ts: timestamp(k),
        kind: pick(rnd, KINDS),
        payload: {
          text: `call ${pick(rnd, WORDS)}({ "n": ${int(rnd, 100)} }) said "ok" [${int(rnd, 9)}]`,
          scores: [rnd(), rnd(), int(rnd, 1000)],
          ok: rnd() < 0.5,
          meta: { route: `${pick(rnd, WORDS)}/json`, attempt: int(rnd, 3), parent: null },
        },
      });
      if (length + event.length + 1 > size) break;
      parts.push(event);
      length += event.length + 1;
    }
    const body = head + parts.join(',');
    // Pad with blanks inside the array so the document is exactly `size` long and still valid.
    return body + ' '.repeat(Math.max(0, size - body.length - tail.length)) + tail;
  },
};

/** (b) A crash dump: unbalanced braces, `{{{{` runs, code, short objects, cut-off state dumps. */
export const crashDump: InputKind = {
  name: 'crash-dump',
  description: 'crash dump: stack lines, code with unbalanced {, {{{{ runs, short objects, cut-off nested state dumps',
  validJson: false,
  generate(size, seed) {
    const rnd = seededRandom(seed);
    return fill(size, (k) => {
      const r = rnd();
      if (r < 0.2) return `    at ${pick(rnd, WORDS)}.${pick(rnd, WORDS)} (file:///app/${pick(rnd, WORDS)}.js:${int(rnd, 900)}:${int(rnd, 80)})`;
      if (r < 0.35) return `  > ${int(rnd, 900)} | function ${pick(rnd, WORDS)}(x) { if (x) { return {a: x, b: [x, 1]}; } else {`;
      if (r < 0.45) return `{{{{${pick(rnd, WORDS)}}}}} {{{{{{{{ {{ ${'{'.repeat(1 + int(rnd, 12))} }} }`;
      if (r < 0.65) return `frame #${k} {"pc":"0x${int(rnd, 1 << 30).toString(16)}","sp":${int(rnd, 65536)},"fn":"${pick(rnd, WORDS)}"} [${int(rnd, 9)}, ${int(rnd, 9)}]`;
      if (r < 0.75) return `registers [rax=0x${int(rnd, 4096).toString(16)}, rbx=0x${int(rnd, 4096).toString(16)}] flags {ZF, CF}`;
      if (r < 0.8) {
        const depth = 5 + int(rnd, 60);
        return `state = ${'{"node":{"id":1,"tag":"n"},"next":'.repeat(depth)}... <truncated>`;
      }
      return `}\n] ${pick(rnd, WORDS)} aborted`;
    });
  },
};

/**
 * (b) A nested tree cut off by a size limit, the raw_decode loop's quadratic case: every level
 * holds a complete ~9 KB payload object and one child that never closes, so every level's `{`
 * starts an attempt that reads to the cut. Depth grows with the size (about 115 levels per MB).
 */
export const truncatedTree: InputKind = {
  name: 'cut-tree',
  description: 'nested tree cut off at the end: each level a complete ~9 KB payload and an open child',
  validJson: false,
  generate(size, seed) {
    const rnd = seededRandom(seed);
    const payloads: string[] = [];
    for (let v = 0; v < 16; v++) {
      const items = Array.from({ length: 200 }, (_, j) => ({ j, w: pick(rnd, WORDS), x: Math.round(rnd() * 1e6) / 1e3, on: rnd() < 0.5 }));
      payloads.push(JSON.stringify({ kind: pick(rnd, KINDS), items }));
    }
    const cut = '\n[truncated]';
    return fill(size - cut.length, (k) => `{"id":${k},"payload":${pick(rnd, payloads)},"child":`, '') + cut;
  },
};

/**
 * The same text as a flat string decoded from bytes, which is what a CLI's stdout is once read
 * (generated text is built by concatenation and slicing, which V8 keeps as rope or slice strings
 * that are slower to read character by character).
 */
export function asDecodedOutput(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** All input families, in report order. */
export const INPUTS: readonly InputKind[] = [logText, jsonDocument, crashDump, truncatedTree];
