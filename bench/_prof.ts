import { scanJson } from '#src/scan/index.ts';
import { crashDump } from './scan.inputs.ts';
const text = crashDump.generate(1 << 20, 2028);
for (let k = 0; k < 5; k++) { const t = performance.now(); const n = scanJson(text).length; console.log(n, performance.now() - t); }
