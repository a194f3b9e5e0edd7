import { crashDump } from './scan.inputs.ts';
const text = crashDump.generate(1 << 20, 2028);
const re = /\{"id":1,"tag":"n"\}/g; const spans: number[] = [];
let m; while ((m = re.exec(text))) spans.push(m.index, m.index + m[0].length);
console.log(spans.length / 2);
for (let r = 0; r < 5; r++) {
  let t = performance.now(); for (let k = 0; k < spans.length; k += 2) JSON.parse(text.slice(spans[k], spans[k + 1])); console.log('slice+parse', performance.now() - t);
  t = performance.now(); for (let k = 0; k < spans.length; k += 2) text.slice(spans[k], spans[k + 1]); console.log('slice only', performance.now() - t);
  t = performance.now(); for (let k = 0; k < spans.length; k += 2) JSON.parse('{"id":1,"tag":"n"}'); console.log('parse literal', performance.now() - t);
}
