/**
 * schemas/report.schema.json compiles under ajv's strict mode (every `required` property defined,
 * no unknown keyword), and report.json of a real run validates against it.
 */
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '#src/harness/run.ts';
import { projectPath } from '#src/paths.ts';
import { mixedCorpus, tempRoot } from '#src/cli/cliTestKit.ts';

const require = createRequire(import.meta.url);
const Ajv = require('ajv') as typeof import('ajv').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;

function strictAjv() {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

const roots: Awaited<ReturnType<typeof tempRoot>>[] = [];
afterAll(async () => Promise.all(roots.map((r) => r.remove())));

describe('schemas/report.schema.json', { timeout: 120_000 }, () => {
  it('compiles under ajv strict mode, and a report with a failure, a skip, a fault and a shard validates', async () => {
    const schema = JSON.parse(await readFile(projectPath('schemas/report.schema.json'), 'utf8')) as Record<string, unknown>;
    const validate = strictAjv().compile(schema);
    const root = await tempRoot('report-schema');
    roots.push(root);
    const cases = path.join(root.dir, 'cases');
    await mixedCorpus(cases);
    const { report } = await runConformance({ casesDir: cases, filter: { shard: { index: 1, count: 1 } } });
    expect(report.summary.fail + report.summary.skip + report.faults.length).toBe(3);
    const ok = validate(JSON.parse(JSON.stringify(report)));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the strict check bites: a `required` property the schema does not define is refused', async () => {
    const schema = JSON.parse(await readFile(projectPath('schemas/report.schema.json'), 'utf8')) as { properties: { cases: { items: { properties: { cli: Record<string, unknown> } } } } };
    delete schema.properties.cases.items.properties.cli.properties;
    expect(() => strictAjv().compile(schema)).toThrow(/strict mode: required property "name" is not defined/);
  });
});
