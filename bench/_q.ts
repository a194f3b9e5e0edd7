import { scanJson } from '#src/scan/index.ts';
import { medianTime } from './benchmark.ts';
import { INPUTS } from './scan.inputs.ts';
for (const input of INPUTS) for (const mb of [1, 2, 4, 8]) {
  const text = input.generate(mb << 20, 1);
  const t = medianTime(() => scanJson(text), 9, 2);
  const p = input.validJson ? medianTime(() => JSON.parse(text), 9, 2) : NaN;
  console.log(input.name, mb, (mb * 1000 / t).toFixed(1), 'MB/s', t.toFixed(1), 'ms', 'parse', p.toFixed(1));
}
