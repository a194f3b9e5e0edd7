import { eachJsonHit, findJsonObjects, scanJson } from '#src/scan/index.ts';
import { candidatesFromText, dedupeCandidates } from '#src/envelope/candidates.ts';
const parts: string[] = [];
for (let k = 0; k < 150_000; k++) parts.push(`{"position": "draft ${k}"}`);
const text = parts.join('\n');
for (let r = 0; r < 3; r++) {
let t = performance.now();
const h = scanJson(text); const t1 = performance.now() - t; t = performance.now();
const f = findJsonObjects(text, { anchor: 'position' }); const t2 = performance.now() - t; t = performance.now();
const c = candidatesFromText(text, { origin: 'result', pointer: '/result', offset: 0 }, 'position'); const t3 = performance.now() - t; t = performance.now();
const d = dedupeCandidates(c); const t4 = performance.now() - t;
console.log(h.length, f.length, c.length, d.length, t1.toFixed(0), t2.toFixed(0), t3.toFixed(0), t4.toFixed(0));
}
