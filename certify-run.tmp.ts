import { certify } from '#src/harness/certify/certify.ts';
import { loadConfig } from '#src/harness/certify/config.ts';
import { referenceWorkerConfig } from '#src/harness/certify/reference.ts';
const which = process.argv[2] ?? 'ref';
const cfg = which === 'ref' ? referenceWorkerConfig({ inProcess: true }) : await loadConfig(which);
const t0 = Date.now();
const { certificate, exitCode } = await certify(cfg, { parallelRoutes: true, ...(process.argv[3] ? { routes: process.argv[3].split(',') } : {}) });
for (const r of certificate.routes) {
  console.log(`== ${r.route}: ${r.status}`);
  for (const c of [...r.smoke, ...r.checks]) console.log(`  ${c.status.padEnd(7)} ${c.id} ${c.status === 'pass' ? '' : (c.reason ?? c.evidence.join(' | ')).slice(0, 400)}`);
}
console.log('exit', exitCode, 'ms', Date.now() - t0);
