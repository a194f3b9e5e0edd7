import { timeOnce } from './benchmark.ts';
import { balancedSpanEnd } from '#src/scan/span.ts';
import { INPUTS } from './scan.inputs.ts';
const input = INPUTS.find((i) => i.name === 'json-doc')!;
const t0 = input.generate(4 << 20, 1);
const t1 = Buffer.from(t0, 'latin1').toString('latin1');
for (const [name, text] of [['orig', t0], ['seq', t1]] as const) {
  for (let k = 0; k < 3; k++) balancedSpanEnd(text, 0);
  const ls = Array.from({ length: 11 }, () => timeOnce(() => balancedSpanEnd(text, 0))).sort((a, b) => a - b);
  console.log(name, ls[5]!.toFixed(1));
}
// count structure
let q = 0, other = 0; let inStr = false;
for (let i = 0; i < t1.length; i++) { const c = t1.charCodeAt(i); if (c === 34) { q++; } }
console.log('quotes', q, 'len', t1.length);
