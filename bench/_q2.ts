import { scanJson } from '#src/scan/index.ts';
import { timeOnce } from './benchmark.ts';
import { INPUTS } from './scan.inputs.ts';
const name = process.argv[2] ?? 'log';
const input = INPUTS.find((i) => i.name === name)!;
for (const mb of [1, 2, 4, 8]) {
  const text = input.generate(mb << 20, 1);
  for (let k = 0; k < 3; k++) scanJson(text);
  const ts = Array.from({ length: 15 }, () => timeOnce(() => scanJson(text))).sort((a, b) => a - b);
  console.log(name, mb, ts.map((t) => t.toFixed(1)).join(' '));
}
