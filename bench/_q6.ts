import { validateFrom } from '#src/scan/validate.ts';
import { balancedSpanEnd } from '#src/scan/span.ts';
import { INPUTS } from './scan.inputs.ts';
const text = Buffer.from(INPUTS[1]!.generate(4 << 20, 2028), 'latin1').toString('latin1');
const cut = Buffer.from(INPUTS[3]!.generate(4 << 20, 2028), 'latin1').toString('latin1');
for (let r = 0; r < 8; r++) {
  let t = performance.now(); validateFrom(text, 0, 3); const a = performance.now() - t;
  t = performance.now(); balancedSpanEnd(text, 0); const b = performance.now() - t;
  t = performance.now(); JSON.parse(text); const c = performance.now() - t;
  t = performance.now(); const v = validateFrom(cut, 0, 3); const d = performance.now() - t;
  console.log('validate', a.toFixed(1), 'lex', b.toFixed(1), 'parse', c.toFixed(1), 'cut validate', d.toFixed(1), v.inner.length / 2);
}
