import { scanJson } from '#src/scan/index.ts';
import { INPUTS } from './scan.inputs.ts';
const input = INPUTS.find((i) => i.name === 'log')!;
const text = Buffer.from(input.generate(4 << 20, 2028), 'latin1').toString('latin1');
const hits = scanJson(text); const spans = hits.map((h) => [h.start, h.end] as const);
for (let r = 0; r < 8; r++) {
  let t = performance.now();
  for (const [s, e] of spans) JSON.parse(text.slice(s, e));
  const a = performance.now() - t;
  t = performance.now();
  for (let k = 0; k < spans.length; k += 128) {
    const parts: string[] = []; for (const [s, e] of spans.slice(k, k + 128)) parts.push(text.slice(s, e));
    JSON.parse('[' + parts.join(',') + ']');
  }
  const b = performance.now() - t;
  t = performance.now();
  for (let k = 0; k < spans.length; k += 128) {
    let str = '['; const end = Math.min(spans.length, k + 128);
    for (let j = k; j < end; j++) str += (j > k ? ',' : '') + text.slice(spans[j]![0], spans[j]![1]);
    JSON.parse(str + ']');
  }
  const c = performance.now() - t;
  console.log(spans.length, 'single', a.toFixed(1), 'batch-join', b.toFixed(1), 'batch-concat', c.toFixed(1));
}
