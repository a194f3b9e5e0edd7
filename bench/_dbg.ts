import { scanJson } from '#src/scan/index.ts';
import { naiveScan } from './naive-scan.ts';
import { truncatedTree } from './scan.inputs.ts';
const text = truncatedTree.generate(1 << 20, 2029);
const hits = scanJson(text);
console.log(hits.length, hits.slice(0, 5).map((h) => [h.start, h.end, h.kind, text.slice(h.start, h.start + 40)]));
const levels = text.split('"child":').length - 1; console.log('levels', levels, 'avg', text.length / levels);
