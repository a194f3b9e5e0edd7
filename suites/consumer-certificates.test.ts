/**
 * The committed consumer certificates (examples/consumers/certificates/) say what was certified
 * and were made on today's corpus (issue 19 part 6): each names its subject (package and the
 * version its package.json pins), the CLI the consumer pins or bundles (the real-CLI probe ran that
 * version, or names it and says why another ran), and the digest of the
 * corpus it replayed; when a case of its route is added, changed or removed, this test fails until
 * `npm run consumers:certify` regenerates the certificates. The README's consumer matrix is the
 * one produced from them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDigest, replayedCaseIds, type Certificate } from '#src/harness/certify/certificate.ts';
import { projectPath } from '#src/paths.ts';
import { loadCorpus } from '#src/record/corpus.ts';
import { CONSUMERS, matrixMarkdown, pinnedVersion } from '../examples/consumers/_kit/consumers.ts';

const certificateOf = (dir: string) => JSON.parse(readFileSync(projectPath('examples/consumers/certificates', `${dir}.json`), 'utf8')) as Certificate;
const REGENERATE = 'run `npm run consumers:install && npm run consumers:certify` and commit examples/consumers/certificates, MATRIX.md and README.md';

describe('committed consumer certificates', async () => {
  const corpus = await loadCorpus(projectPath('fixtures/cases'));
  const pov = corpus.cases.filter((c) => c.case.contract === 'pov').map((c) => ({ id: c.case.id, route: c.case.route }));

  for (const c of CONSUMERS) {
    it(`${c.dir}: names its subject and CLI, and was made on today's corpus`, () => {
      const cert = certificateOf(c.dir);
      expect(cert.header.subject, `${c.dir}.json names no subject: ${REGENERATE}`).toEqual({ name: c.pkg, version: pinnedVersion(c) });
      const r = cert.routes[0]!;
      expect(r.cli.version).not.toBe('unknown');
      if (c.drive !== 'fake-cli') return;
      expect(r.cli.source, `${c.dir}.json does not say which CLI the consumer pins or bundles: ${REGENERATE}`).toMatch(/^(bundled by|pinned by|the lowest version of)/);
      // The real-CLI probe ran the CLI the consumer pins or bundles, or names the one pinned and says why another ran.
      const probe = cert.routes[1];
      if (probe && probe.cli.pinned === undefined) expect(probe.cli.version, `${c.dir}.json: the real-CLI probe ran ${probe.cli.version}, not the ${r.cli.version} the consumer pins or bundles, and does not say why: ${REGENERATE}`).toBe(r.cli.version);
      if (probe?.cli.pinned !== undefined) expect(probe.cli.source).toMatch(/not the .*: /);
      const today = corpusDigest(pov, [r.route], replayedCaseIds(cert));
      expect(cert.header.corpusDigest, `examples/consumers/certificates/${path.basename(c.dir)}.json was made on another corpus (today's digest of ${r.route} is ${today}): ${REGENERATE}`).toBe(today);
    });
  }

  it("the README's consumer matrix is the one produced from the committed certificates", () => {
    const rows = CONSUMERS.map((c) => {
      const cert = certificateOf(c.dir);
      return { c, version: cert.header.subject?.version ?? pinnedVersion(c), cert };
    });
    const readme = readFileSync(projectPath('README.md'), 'utf8');
    const start = '<!-- consumer-matrix:start -->\n';
    const inReadme = readme.slice(readme.indexOf(start) + start.length, readme.indexOf('<!-- consumer-matrix:end -->'));
    expect(inReadme, `README.md's consumer matrix differs from the certificates: ${REGENERATE}`).toBe(matrixMarkdown(rows));
  });

  it('the digest bites: a case added to or removed from the route changes it, a case of another route does not', () => {
    const routes = ['codex/jsonl'];
    const base = corpusDigest(pov, routes);
    expect(corpusDigest([...pov, { id: 'ffffffffffffffff', route: 'codex/jsonl' }], routes)).not.toBe(base);
    expect(corpusDigest(pov.filter((x, i) => !(x.route === 'codex/jsonl' && i === pov.findIndex((y) => y.route === 'codex/jsonl'))), routes)).not.toBe(base);
    expect(corpusDigest([...pov, { id: 'ffffffffffffffff', route: 'pi/json' }], routes)).toBe(base);
    expect(corpusDigest([...pov, { id: 'ffffffffffffffff', route: 'pi/json' }], routes, ['ffffffffffffffff'])).not.toBe(base);
  });
});
