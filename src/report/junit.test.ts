/**
 * junit.xml against the Jenkins JUnit XSD (schemas/junit.xsd: routecert's own XSD of what the Jenkins JUnit and xUnit plugins accept),
 * validated by libxml2 (xmllint-wasm): a run with a failure, an error, a skip and a run fault.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { runConformance } from '#src/harness/run.ts';
import { projectPath } from '#src/paths.ts';
import { mixedCorpus, tempRoot } from '#src/cli/cliTestKit.ts';
import { junitXml } from './junit.ts';
import type { RunReport } from './types.ts';

async function validate(xml: string): Promise<{ valid: boolean; errors: string[] }> {
  const xsd = await readFile(projectPath('schemas/junit.xsd'), 'utf8');
  const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: xsd }] });
  return { valid: result.valid, errors: result.errors.map((e) => e.rawMessage) };
}

let root: Awaited<ReturnType<typeof tempRoot>>;
let report: RunReport;
beforeAll(async () => {
  root = await tempRoot('junit');
  const cases = path.join(root.dir, 'cases');
  await mixedCorpus(cases);
  report = (await runConformance({ casesDir: cases })).report;
}, 120_000);
afterAll(() => root.remove());

describe('junit.xml', { timeout: 120_000 }, () => {
  it('is valid against the Jenkins JUnit XSD with a failure, a skip and a run fault in it', async () => {
    expect(report.summary.fail).toBe(1);
    expect(report.summary.skip).toBe(1);
    expect(report.faults.length).toBe(1);
    const xml = junitXml(report);
    expect(xml).toContain('<failure');
    expect(xml).toContain('<skipped');
    expect(xml).toContain('<error');
    expect(await validate(xml)).toEqual({ valid: true, errors: [] });
  });

  it('the XSD check bites: `skipped` on <testsuites> (what junit.xml used to write) is refused', async () => {
    const xml = junitXml(report).replace('<testsuites ', '<testsuites skipped="1" ');
    const result = await validate(xml);
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toMatch(/skipped.*not allowed/);
  });

  it('stays well-formed and valid when evidence holds control characters and lone surrogates', async () => {
    const c = report.cases.find((x) => x.outcome === 'fail')!;
    const hostile: RunReport = { ...report, cases: [{ ...c, problems: ['escape \u001b[31m red, NUL \u0000, lone \ud800 surrogate'] }] };
    const xml = junitXml(hostile);
    // eslint-disable-next-line no-control-regex
    expect(xml).not.toMatch(/[\u0000\u001b]/);
    expect(await validate(xml)).toEqual({ valid: true, errors: [] });
  });
});
