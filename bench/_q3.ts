import { timeOnce } from './benchmark.ts';
import { balancedSpanEnd } from '#src/scan/span.ts';
import { INPUTS } from './scan.inputs.ts';
const input = INPUTS.find((i) => i.name === 'json-doc')!;
for (const mb of [0.5, 1, 2, 4, 8]) {
  const text = input.generate(mb * (1 << 20), 1);
  for (let k = 0; k < 3; k++) JSON.parse(text);
  const ts = Array.from({ length: 11 }, () => timeOnce(() => JSON.parse(text))).sort((a, b) => a - b);
  const ls = Array.from({ length: 11 }, () => timeOnce(() => balancedSpanEnd(text, 0))).sort((a, b) => a - b);
  console.log('parse', mb, ts[5]!.toFixed(1), 'lex', ls[5]!.toFixed(1));
}
