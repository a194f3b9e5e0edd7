/**
 * Guard (issue 15): no spread of an array into a call's arguments anywhere in src/. A spread call
 * such as `candidates.push(...found)` throws `RangeError: Maximum call stack size exceeded` at
 * about 120,000 elements, which a 3 MB envelope reaches; `pushAll` / `prependAll`
 * (src/arrays.ts) have no such limit. Comment lines are not checked (the rule is quoted in some).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prependAll, pushAll } from './arrays.ts';

const SRC = path.dirname(fileURLToPath(import.meta.url));

/** Calls whose arguments must never be a spread list: they copy every element onto the stack. */
const SPREAD_CALLEE = /(?:\.(?:push|unshift|splice)|\bMath\.(?:max|min)|\bString\.fromCharCode|\bString\.fromCodePoint)\(/g;

/** Whether the argument list opening at `text[open]` (a `(`) holds a `...` at its own level. */
function spreadsArguments(text: string, open: number): boolean {
  let depth = 0;
  let quote = '';
  for (let i = open; i < text.length; i++) {
    const c = text[i] as string;
    if (quote !== '') {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (--depth === 0) return false;
    } else if (depth === 1 && text.startsWith('...', i)) return true;
  }
  return false;
}

/** `file:line: text` for every call in `text` that spreads a list into its arguments, comment lines left out. */
export function spreadCalls(file: string, text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, k) => {
    const code = line.trim();
    if (code.startsWith('*') || code.startsWith('//') || code.startsWith('/*')) return;
    for (const m of code.matchAll(SPREAD_CALLEE)) {
      if (spreadsArguments(code, (m.index ?? 0) + m[0].length - 1)) {
        out.push(`${file}:${k + 1}: ${code}`);
        break;
      }
    }
  });
  return out;
}

describe('no spread calls in src/', () => {
  it('finds none in any .ts file under src/', () => {
    const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && f !== 'spreads.test.ts');
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => spreadCalls(f, readFileSync(path.join(SRC, f), 'utf8')));
    expect(found, 'use pushAll/prependAll from src/arrays.ts, or a loop').toEqual([]);
  });

  it('bites: the forms that overflow the stack are reported, plain pushes and array literals are not', () => {
    const text = [
      'candidates.push(...candidatesFromText(x));',
      'a.b.unshift(...xs);',
      'const m = Math.max(...sizes);',
      'out.splice(0, 0, ...items);',
      'String.fromCharCode(...codes);',
      'list.push(item);',
      'const all = [...a, ...b];',
      "rows.push({ ...known, where });",
      'pieces.push(slice(fc.constantFrom(...examples)));',
      ' * never `push(...x)` in a comment line',
    ].join('\n');
    expect(spreadCalls('f.ts', text).map((l) => l.split(':')[1])).toEqual(['1', '2', '3', '4', '5']);
  });
});

describe('pushAll / prependAll', () => {
  it('append and prepend 300,000 elements, past where a spread call overflows', () => {
    const many = Array.from({ length: 300_000 }, (_, k) => k);
    expect(() => Array.prototype.push.apply([], many)).toThrow(RangeError);
    const target = [-1];
    pushAll(target, many);
    expect(target.length).toBe(300_001);
    expect(target[300_000]).toBe(299_999);
    const front = ['z'];
    prependAll(front, ['x', 'y']);
    expect(front).toEqual(['x', 'y', 'z']);
  });
});
