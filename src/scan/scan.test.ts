import { fc, test } from '@fast-check/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eachJsonHit, scanJson } from '#src/scan/index.ts';
import type { ScanHit } from '#src/scan/index.ts';

/** The text of each hit. */
const slices = (text: string, hits: ScanHit[]): string[] => hits.map((h) => text.slice(h.start, h.end));
const values = (text: string): unknown[] => scanJson(text).map((h) => h.value);

/**
 * Reference: the raw_decode loop. At each `{`/`[` from `pos`, the shortest span that `JSON.parse`
 * accepts (a container's end is fixed, so this is where raw_decode stops); on success jump past
 * it, on failure move one character on. Quadratic and then some: for short texts only.
 */
function rawDecodeLoop(text: string): string[] {
  const out: string[] = [];
  let pos = 0;
  for (;;) {
    let i = pos;
    while (i < text.length && text[i] !== '{' && text[i] !== '[') i++;
    if (i >= text.length) return out;
    let end = -1;
    for (let e = i + 2; e <= text.length && end < 0; e++) {
      const last = text[e - 1];
      if (last !== '}' && last !== ']') continue;
      try {
        JSON.parse(text.slice(i, e));
        end = e;
      } catch {
        // not yet a complete value
      }
    }
    if (end > 0) {
      out.push(text.slice(i, end));
      pos = end;
    } else {
      pos = i + 1;
    }
  }
}

/** Every UTF-16 code unit, lone surrogates and NUL included. */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const anyText = fc.string({ unit: anyUnit, maxLength: 200 });

/** JSON-ish tokens whose strings hold no bracket or quote, so every parse reads quotes in pairs. */
const TOKENS = [
  '{', '}', '[', ']', ',', ':', '"k"', '"v w"', '""', '"\\n"', '"\\u00e9"', '"\\x"', '"\u0001"', '1', '-2.5e3',
  '0', '01', '-', '1.', '1e', '.5', 'true', 'tru', 'null', 'false', ' ', '\n', '\t', '\r\n', 'x', 'oops',
  '[INFO]', '{"a":1}', '[1,2]', '{"a":{"b":[]}}', '\uFEFF',
];
const tokenSoup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((t) => t.join(''));

/** Structural soup: brackets, quotes, escapes and prose, to reach every failure path. */
const STRUCTURAL = ['{', '}', '[', ']', '"', '\\', ':', ',', '1', 'a', ' ', '"k"', '{"a":', '\\"', 'true'];
const structuralSoup = fc.array(fc.constantFrom(...STRUCTURAL), { maxLength: 60 }).map((t) => t.join(''));

/** Prose that can never start a value or a string. */
const prose = fc.string({ unit: anyUnit, maxLength: 20 }).map((s) => s.replace(/[{["]/g, ''));
const container = fc
  .jsonValue({ maxDepth: 4 })
  .filter((v) => typeof v === 'object' && v !== null)
  .chain((v) => fc.constantFrom(0, 2, '\t').map((indent) => JSON.stringify(v, null, indent)));

function expectWellFormed(text: string, hits: ScanHit[]): void {
  let last = 0;
  for (const h of hits) {
    expect(h.start).toBeGreaterThanOrEqual(last);
    expect(h.end).toBeGreaterThan(h.start);
    expect(h.end).toBeLessThanOrEqual(text.length);
    expect(JSON.parse(text.slice(h.start, h.end))).toEqual(h.value);
    expect(h.kind).toBe(text[h.start] === '{' ? 'object' : 'array');
    last = h.end;
  }
}

describe('scanJson: shapes', () => {
  it('finds an object inside prose, with exact offsets', () => {
    const text = 'Here is the answer: {"a":1} hope it helps';
    expect(scanJson(text)).toEqual([{ start: 20, end: 27, value: { a: 1 }, kind: 'object', fenced: false }]);
  });

  it('finds concatenated objects with and without blanks between', () => {
    expect(values('{"a":1}{"b":2}')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(values('{"a":1} \n\t{"b":2}\n[3]')).toEqual([{ a: 1 }, { b: 2 }, [3]]);
  });

  it('reports a nested object as part of its parent hit, not separately', () => {
    expect(values('x {"a":{"b":{"c":[{}]}}} y')).toEqual([{ a: { b: { c: [{}] } } }]);
  });

  it('ignores braces and brackets inside JSON strings', () => {
    const text = 'pre {"a":"a { b","c":"] } ["} post';
    expect(slices(text, scanJson(text))).toEqual(['{"a":"a { b","c":"] } ["}']);
  });

  it('keeps escaped quotes and backslashes inside strings', () => {
    const text = '{"say":"say \\"{\\"","path":"C:\\\\"} {"n":1}';
    expect(values(text)).toEqual([{ say: 'say "{"', path: 'C:\\' }, { n: 1 }]);
  });

  it('reads CRLF line ends as blanks inside values and prose outside', () => {
    const text = 'line one\r\n{\r\n  "a": [1,\r\n 2]\r\n}\r\nline three\r\n';
    const hits = scanJson(text);
    expect(hits.map((h) => h.value)).toEqual([{ a: [1, 2] }]);
    expect(hits[0]?.start).toBe(10);
  });

  it('counts a leading BOM in offsets and never reports it', () => {
    const text = '\uFEFF{"a":1}';
    expect(scanJson(text)).toEqual([{ start: 1, end: 8, value: { a: 1 }, kind: 'object', fenced: false }]);
  });

  it('skips [INFO]-style prose brackets next to real arrays', () => {
    const text = '[INFO] loaded [1,2] [WARN] x [ ] [see note] ["ok"]';
    expect(values(text)).toEqual([[1, 2], [], ['ok']]);
  });

  it('never reports JSON scalars', () => {
    expect(scanJson('"a" 1 true null -2.5e3')).toEqual([]);
  });

  it('reports nothing for text without JSON', () => {
    expect(scanJson('')).toEqual([]);
    expect(scanJson('no json here {not json} [nor this]')).toEqual([]);
  });

  it('rejects what JSON.parse rejects: trailing commas, single quotes, comments, NaN', () => {
    expect(scanJson('{"a":1,} {\'a\':1} {"a":1 /* c */} [NaN] {a:1}')).toEqual([]);
  });

  it('keeps lone surrogates and NUL inside string values', () => {
    const text = '\u0000{"s":"\uD800x\uDC00"}\u0000';
    expect(values(text)).toEqual([{ s: '\uD800x\uDC00' }]);
  });
});

describe('scanJson: recovery from values that never close', () => {
  it('reports the complete inner value of an unterminated outer object', () => {
    const text = '{ "a": {"b":1} oops';
    expect(scanJson(text)).toEqual([{ start: 7, end: 14, value: { b: 1 }, kind: 'object', fenced: false }]);
  });

  it('reports every maximal complete inner value, in order, then goes on after the failure', () => {
    const text = '[ {"a":1}, [ {"b":2}, [3] oops {"c":3}';
    expect(values(text)).toEqual([{ a: 1 }, { b: 2 }, [3], { c: 3 }]);
  });

  it('reports inner values of an outer cut off by the end of the text', () => {
    expect(values('[[[[1]')).toEqual([[1]]);
    expect(values('{"a":{"b":1},"c":')).toEqual([{ b: 1 }]);
  });

  it('resumes at the failure character, which may open the next value', () => {
    expect(values('{"a" {"b":1}}')).toEqual([{ b: 1 }]);
    expect(values('{"a": tru {"b":1}')).toEqual([{ b: 1 }]);
  });

  it('resumes after a mismatched closer', () => {
    expect(values('{"a":[1}, {"b":2}')).toEqual([{ b: 2 }]);
  });

  it('finds values after a bad escape inside a string', () => {
    expect(values('{"a": "\\x {"b":1}"}')).toEqual([{ b: 1 }]);
  });

  it('misses, as documented, a value that a failed outer value read as the inside of a string', () => {
    // The outer string "see {" swallows the brace; raw_decode at every brace would find {"b":1}.
    const text = '{"note": "see {"b":1} here';
    expect(scanJson(text)).toEqual([]);
    expect(rawDecodeLoop(text)).toEqual(['{"b":1}']);
    // The same value outside that string is found.
    expect(values('{"note": "see" {"b":1} here')).toEqual([{ b: 1 }]);
  });

  it('builds the complete values of a cut-off document while validating it, with the hits of one at a time (issue 24)', () => {
    const payload = (k: number): string => JSON.stringify({ k, items: Array.from({ length: 40 }, (_, j) => ({ j, w: 'a { b' })) });
    const notJson = payload(2).replace('"w"', 'w'); // balanced, rejected by JSON.parse
    const levels = [payload(0), `[${payload(1)}, "x"]`, notJson, payload(3)];
    const text = `${levels.map((p, k) => `{"id":${k},"payload":${p},"child":`).join('')} [truncated]`;
    const hits = scanJson(text);
    expect(hits).toEqual([...eachJsonHit(text)]); // eachJsonHit parses each hit alone
    expect(hits.slice(0, 2).map((h) => h.value)).toEqual([JSON.parse(payload(0)), JSON.parse(`[${payload(1)}, "x"]`)]);
    expect(hits.at(-1)?.value).toEqual(JSON.parse(payload(3)));
    expectWellFormed(text, hits);
    expect(scanJson(text, { kinds: ['object'] })).toEqual([...eachJsonHit(text, { kinds: ['object'] })]);
    expect(scanJson(text, { minLength: 600 })).toEqual([...eachJsonHit(text, { minLength: 600 })]);
  });
});

describe('scanJson: a text that is one value (issue 24)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('parses a JSON envelope once, prose or blanks before it and blanks after it', () => {
    const envelope = '{"type":"result","result":"see {\\"a\\": [1]} here","usage":{"in":3}}';
    for (const [before, after] of [['', ''], ['\uFEFF  ', '\n'], ['Here is the answer:\n[INFO] ', ' \r\n\t']] as const) {
      const text = before + envelope + after;
      const parse = vi.spyOn(JSON, 'parse');
      const hits = scanJson(text);
      expect(parse).toHaveBeenCalledTimes(1);
      parse.mockRestore();
      expect(hits).toEqual([{ start: before.length, end: before.length + envelope.length, value: JSON.parse(envelope), kind: 'object', fenced: false }]);
    }
  });

  const before = fc.constantFrom('', ' \n', '\uFEFF', 'answer: ', '[INFO] ', '```json\n', '{"a":1} ', '{"a": x ', '[');
  const after = fc.constantFrom('', '\n', ' \r\n\t', '}', ']', ' {"z":[]}', '\n```');
  const options = fc.constantFrom({}, { kinds: ['object'] as const }, { kinds: ['array'] as const }, { minLength: 8 }, { maxHits: 1 });
  test.prop([before, fc.oneof(container, tokenSoup), after, options], { numRuns: 400 })(
    'gives the hits of the scan that reads it, whatever surrounds the value',
    (head, body, tail, opts) => {
      const text = head + body + tail;
      expect(scanJson(text, opts)).toEqual([...eachJsonHit(text, opts)]); // eachJsonHit never parses ahead
    },
  );

  it('parses a long complete value inside a value that fails before it only once, as its hit', () => {
    const long = JSON.stringify({ items: Array.from({ length: 60 }, (_, j) => ({ j, w: 'a { b' })) });
    const text = `{"a" 1, "b": ${long} oops`;
    const expected = JSON.parse(long) as unknown;
    const parse = vi.spyOn(JSON, 'parse');
    const hits = scanJson(text);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(hits.map((h) => h.value)).toEqual([expected]);
  });
});

describe('scanJson: Markdown fences', () => {
  it('flags values in a ```json fence and not those outside it', () => {
    const text = 'Before {"x":0}\n```json\n{"a":1}\n```\nafter {"z":2}\n';
    expect(scanJson(text).map((h) => [h.value, h.fenced])).toEqual([
      [{ x: 0 }, false],
      [{ a: 1 }, true],
      [{ z: 2 }, false],
    ]);
  });

  it('flags values in plain ``` fences, ~~~ fences and CRLF fences', () => {
    expect(scanJson('```\n[1]\n```').map((h) => h.fenced)).toEqual([true]);
    expect(scanJson('~~~~\n{"a":1}\n~~~~\n').map((h) => h.fenced)).toEqual([true]);
    expect(scanJson('text\r\n```json\r\n{"a":1}\r\n```\r\n{"b":2}').map((h) => h.fenced)).toEqual([true, false]);
  });

  it('runs an unclosed fence to the end of the text', () => {
    expect(scanJson('```json\n{"a":1}\n{"b":2}').map((h) => h.fenced)).toEqual([true, true]);
  });

  it('closes a fence only with a line of at least as many of the same character', () => {
    const text = '````\n```\n{"a":1}\n~~~~\n{"b":2}\n````\n{"c":3}';
    expect(scanJson(text).map((h) => h.fenced)).toEqual([true, true, false]);
  });

  it('does not take inline backticks, an info string with a backtick, or a 4-space indent as a fence', () => {
    expect(scanJson('say ```json {"a":1}``` ok').map((h) => h.fenced)).toEqual([false]);
    expect(scanJson('```json {"a":1}```\n{"b":2}').map((h) => h.fenced)).toEqual([false, false]);
    expect(scanJson('    ```\n{"a":1}\n    ```').map((h) => h.fenced)).toEqual([false]);
    expect(scanJson('   ```\n{"a":1}\n   ```').map((h) => h.fenced)).toEqual([true]);
  });
});

describe('scanJson: options', () => {
  it('stops after maxHits', () => {
    expect(values('{"a":1}{"b":2}{"c":3}').length).toBe(3);
    expect(scanJson('{"a":1}{"b":2}{"c":3}', { maxHits: 2 }).map((h) => h.value)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(scanJson('[ {"a":1}, {"b":2} oops', { maxHits: 1 }).map((h) => h.value)).toEqual([{ a: 1 }]);
    expect(scanJson('{"a":1}', { maxHits: 0 })).toEqual([]);
  });

  it('with kinds: ["object"] treats [ as prose, so objects in arrays are reported one by one', () => {
    const hits = scanJson('[{"a":1},{"b":[2]}] [3]', { kinds: ['object'] });
    expect(hits.map((h) => h.value)).toEqual([{ a: 1 }, { b: [2] }]);
  });

  it('with kinds: ["array"] treats { as prose, so arrays in objects are reported', () => {
    const hits = scanJson('{"a":[1],"b":{"c":[2]}} {"d":0}', { kinds: ['array'] });
    expect(hits.map((h) => h.value)).toEqual([[1], [2]]);
  });

  it('with kinds: ["object"] lists only the complete inner objects of a failed outer value', () => {
    expect(scanJson('{"a":[{"b":1}] oops', { kinds: ['object'] }).map((h) => h.value)).toEqual([{ b: 1 }]);
  });

  it('with kinds: [] reports nothing', () => {
    expect(scanJson('{"a":1}', { kinds: [] })).toEqual([]);
  });

  test.prop([tokenSoup, fc.nat({ max: 5 }), fc.nat({ max: 12 })])(
    'maxHits keeps a prefix of the full scan and minLength filters it, without changing the rest',
    (text, maxHits, minLength) => {
      const all = scanJson(text);
      expect(scanJson(text, { maxHits })).toEqual(all.slice(0, maxHits));
      expect(scanJson(text, { minLength })).toEqual(all.filter((h) => h.end - h.start >= minLength));
    },
  );

  it('drops hits shorter than minLength without reporting their insides', () => {
    expect(scanJson('{} [] {"a":1} [[]]', { minLength: 3 }).map((h) => h.value)).toEqual([{ a: 1 }, [[]]]);
  });
});

describe('scanJson: robustness', () => {
  it('handles 10,000 nesting levels, complete or not, without throwing', () => {
    const depth = 10_000;
    const deep = '['.repeat(depth) + ']'.repeat(depth);
    expect(scanJson(`x ${deep} y`).map((h) => [h.start, h.end])).toEqual([[2, 2 + 2 * depth]]);
    const objects = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    expect(scanJson(objects)).toHaveLength(1);
    expect(scanJson('['.repeat(depth))).toEqual([]);
    const cut = '{"a":'.repeat(depth) + '{"b":1}';
    expect(scanJson(cut).map((h) => h.value)).toEqual([{ b: 1 }]);
    const oneShort = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth - 1);
    expect(scanJson(oneShort).map((h) => [h.start, h.end])).toEqual([[5, oneShort.length]]);
  });

  it('stays linear on adversarial brace-dense text (quadratic would take minutes; the bound is generous for a loaded machine)', () => {
    const n = 200_000;
    const inputs = [
      '[x"'.repeat(n / 3),
      '{"a":'.repeat(n / 5),
      '{{{{'.repeat(n / 4),
      '[1"'.repeat(n / 3),
      '{"a":"'.repeat(n / 6),
      '{"a":[1,{"b":2}'.repeat(n / 15),
    ];
    const started = performance.now();
    for (const text of inputs) scanJson(text);
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  test.prop([anyText])('never throws on arbitrary UTF-16 text and returns well-formed hits', (text) => {
    expectWellFormed(text, scanJson(text));
  });

  test.prop([structuralSoup])('never throws on bracket, quote and escape soup and returns well-formed hits', (text) => {
    expectWellFormed(text, scanJson(text));
  });
});

describe('scanJson: differential', () => {
  test.prop([fc.array(fc.tuple(prose, container), { maxLength: 6 }), prose])(
    'returns exactly the JSON values placed between prose fragments, in order',
    (parts, tail) => {
      const text = parts.map(([p, json]) => p + json).join('') + tail;
      const expected = parts.map(([, json]) => JSON.stringify(JSON.parse(json)));
      expect(scanJson(text).map((h) => JSON.stringify(h.value))).toEqual(expected);
      expectWellFormed(text, scanJson(text));
    },
  );

  test.prop([tokenSoup], { numRuns: 500 })(
    'agrees with the raw_decode loop when no string holds a bracket',
    (text) => {
      expect(slices(text, scanJson(text))).toEqual(rawDecodeLoop(text));
    },
  );
});

describe('eachJsonHit: lazy hits, and mustContain builds only the spans that can hold it (issue 15)', () => {
  afterEach(() => vi.restoreAllMocks());

  test.prop([fc.oneof(tokenSoup, structuralSoup)])('yields exactly the hits of scanJson, in order', (text) => {
    expect([...eachJsonHit(text)]).toEqual(scanJson(text));
  });

  test.prop([fc.oneof(tokenSoup, structuralSoup, anyText)], { numRuns: 300 })(
    'with mustContain, keeps exactly the hits whose text holds the needle or a \\u escape',
    (text) => {
      const holds = (h: ScanHit): boolean => text.slice(h.start, h.end).includes('k') || text.slice(h.start, h.end).includes('\\u');
      expect(scanJson(text, { mustContain: 'k' })).toEqual(scanJson(text).filter(holds));
      expect(scanJson(text, { mustContain: 'a"', kinds: ['object'] })).toEqual(
        scanJson(text, { kinds: ['object'] }).filter((h) => text.slice(h.start, h.end).includes('a"') || text.slice(h.start, h.end).includes('\\u')),
      );
    },
  );

  it('with mustContain, parses none of 100,000 brace-heavy spans without the needle', () => {
    const parts: string[] = [];
    for (let k = 0; k < 25_000; k++) parts.push('{ }', '[1, 2]', `{"n": ${k}}`, '[[], {"x": [3]}]');
    const text = `${parts.join(' prose ')} {"position": "final"} ${parts.slice(0, 8).join(' ')} {"a": oops`;
    const parse = vi.spyOn(JSON, 'parse');
    const hits = scanJson(text, { mustContain: 'position' });
    expect(hits.map((h) => h.value)).toEqual([{ position: 'final' }]);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(scanJson(text).length).toBe(100_000 + 1 + 8);
  });

  it('a caller that stops at the first hit parses only that one', () => {
    const text = '{"n": 1}\n'.repeat(100_000);
    const parse = vi.spyOn(JSON, 'parse');
    const first = eachJsonHit(text).next();
    expect(first.value).toEqual({ start: 0, end: 8, value: { n: 1 }, kind: 'object', fenced: false });
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('reports inner values of a failed outer value one at a time, and stops at maxHits', () => {
    const it = eachJsonHit('[ {"a":1}, {"b":2}, {"c":3} oops {"d":4}', { maxHits: 3 });
    expect([...it].map((h) => h.value)).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
    expect(it.next().done).toBe(true);
  });

  it('is done at once for a non-string text, maxHits 0 or no kinds', () => {
    expect([...eachJsonHit(42 as unknown as string)]).toEqual([]);
    expect([...eachJsonHit('{"a":1}', { maxHits: 0 })]).toEqual([]);
    expect([...eachJsonHit('{"a":1}', { kinds: [] })]).toEqual([]);
  });
});
