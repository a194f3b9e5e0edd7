import { balancedSpanEnd } from '#src/scan/span.ts';
import { jsonDocument, logText } from './scan.inputs.ts';
const CLASS = new Uint8Array(128);
for (const ch of ' \t\n\r,:0123456789+-.eEtrufalsn') CLASS[ch.charCodeAt(0)] = 1;
CLASS[0x22] = 2; CLASS[0x7b] = 3; CLASS[0x5b] = 4; CLASS[0x7d] = 5; CLASS[0x5d] = 6;
let stack = new Uint8Array(1 << 20);
function v2(text: string, start: number): number {
  const len = text.length; let depth = 0; const st = stack;
  for (let i = start; i < len; i++) {
    let c = text.charCodeAt(i);
    if (c === 0x22) {
      for (;;) {
        c = text.charCodeAt(++i);
        if (c === 0x22) break;
        if (c === 0x5c) i++;
        else if (i >= len) return -1 - len;
      }
      continue;
    }
    if (c >= 128) return -1 - i;
    const k = CLASS[c];
    if (k === 1) continue;
    if (k === 3) st[depth++] = 0;
    else if (k === 4) st[depth++] = 1;
    else if (k === 5) { if (st[--depth] !== 0) return -1 - i; if (depth === 0) return i + 1; }
    else if (k === 6) { if (st[--depth] !== 1) return -1 - i; if (depth === 0) return i + 1; }
    else return -1 - i;
  }
  return -1 - len;
}
const text = jsonDocument.generate(8 << 20, 2027);
for (let r = 0; r < 6; r++) {
  let t = performance.now(); let e = balancedSpanEnd(text, 0); const a = performance.now() - t;
  t = performance.now(); e = v2(text, 0); const b = performance.now() - t;
  t = performance.now(); JSON.parse(text); const c = performance.now() - t;
  console.log(e, 'cur', a.toFixed(1), 'v2', b.toFixed(1), 'parse', c.toFixed(1));
}
{
const t1 = Buffer.from(text, 'latin1').toString('latin1');
const logt = Buffer.from(logText.generate(8 << 20, 1), 'latin1').toString('latin1');
for (let r = 0; r < 6; r++) {
  let t = performance.now(); let e = balancedSpanEnd(t1, 0); const a = performance.now() - t;
  t = performance.now(); e = v2(t1, 0); const b = performance.now() - t;
  t = performance.now(); JSON.parse(t1); const c = performance.now() - t;
  console.log('seq', e, 'cur', a.toFixed(1), 'v2', b.toFixed(1), 'parse', c.toFixed(1));
}
}
