import { scanJson } from '#src/scan/index.ts';
import { logText, asDecodedOutput } from './scan.inputs.ts';
const sizes = [1, 2, 4, 8];
const texts = sizes.map((s) => asDecodedOutput(logText.generate(s << 20, 2026)));
for (let w = 0; w < 5; w++) for (const t of texts) scanJson(t);
const all = sizes.map(() => [] as number[]);
for (let r = 0; r < 9; r++) texts.forEach((t, k) => { const s = performance.now(); scanJson(t); all[k]!.push(performance.now() - s); });
all.forEach((a, k) => console.log(sizes[k], a.map((x) => x.toFixed(1)).join(' ')));
