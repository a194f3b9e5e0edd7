import { validateFrom } from '#src/scan/validate.ts';
import { balancedSpanEnd } from '#src/scan/span.ts';
import { jsonDocument } from './scan.inputs.ts';
const text = jsonDocument.generate(4 << 20, 2027);
for (let r = 0; r < 5; r++) {
  let t = performance.now(); const v = validateFrom(text, 0, 3); console.log('validate', v.end, (performance.now() - t).toFixed(1));
  t = performance.now(); const e = balancedSpanEnd(text, 0); console.log('span', e, (performance.now() - t).toFixed(1));
  t = performance.now(); JSON.parse(text); console.log('parse', (performance.now() - t).toFixed(1));
}
