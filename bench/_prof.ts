import { scanJson } from '#src/scan/index.ts';
import { INPUTS } from './scan.inputs.ts';
const input = INPUTS.find((i) => i.name === (process.argv[2] ?? 'log'))!;
const text = Buffer.from(input.generate(4 << 20, 2028), 'latin1').toString('latin1');
for (let k = 0; k < 30; k++) { const t = performance.now(); const n = scanJson(text).length; if (k > 26) console.log(n, performance.now() - t); }
