/**
 * The layer rules of .dependency-cruiser.cjs bite: on a miniature tree with src/'s folder names
 * (in a temp folder this test owns), an import that points the wrong way, an import cycle and a
 * folder outside every layer are each an error, and imports that follow the layers are not.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';

const config = createRequire(import.meta.url)(projectPath('.dependency-cruiser.cjs')) as IConfiguration;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'routecert-layers-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Writes `files` (path under the tree -> source) and returns `rule from → to` for each violation. */
async function violations(name: string, files: Record<string, string>): Promise<string[]> {
  const base = path.join(root, name);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(base, file)), { recursive: true });
    await writeFile(path.join(base, file), text);
  }
  const { output } = await cruise(
    ['src'],
    { baseDir: base, validate: true, ruleSet: { forbidden: config.forbidden ?? [] }, tsPreCompilationDeps: true },
    { extensions: ['.ts'] },
  );
  const result = output as ICruiseResult;
  return result.summary.violations.map((v) => `${v.rule.name} ${v.from} → ${v.to}`);
}

describe('dependency rules (.dependency-cruiser.cjs)', () => {
  it('take imports that follow the layers', async () => {
    expect(
      await violations('good', {
        'src/pointer.ts': 'export const p = 1;\n',
        'src/scan/find.ts': "import { p } from '../pointer.ts';\nexport const f = p;\n",
        'src/envelope/keys.ts': "import { f } from '../scan/find.ts';\nexport const k = f;\n",
        'src/contract/judge.ts': "import { k } from '../envelope/keys.ts';\nexport const j = k;\n",
        'src/cli/main.ts': "import { j } from '../contract/judge.ts';\nexport const m = j;\n",
      }),
    ).toEqual([]);
  });

  it('refuse a lower layer importing a higher one', async () => {
    expect(
      await violations('upward', {
        'src/contract/types.ts': 'export const VERDICTS = [];\n',
        'src/scan/find.ts': "import { VERDICTS } from '../contract/types.ts';\nexport const f = VERDICTS;\n",
      }),
    ).toEqual(['layer-scan src/scan/find.ts → src/contract/types.ts']);
  });

  it('let report import only types from the layers it reads', async () => {
    const files = {
      'src/contract/types.ts': 'export type Verdict = string;\nexport const VERDICTS = [];\n',
      'src/report/json.ts': "import type { Verdict } from '../contract/types.ts';\nexport const v: Verdict = 'x';\n",
    };
    expect(await violations('report-types', files)).toEqual([]);
    expect(
      await violations('report-value', { ...files, 'src/report/markdown.ts': "import { VERDICTS } from '../contract/types.ts';\nexport const n = VERDICTS;\n" }),
    ).toEqual(['layer-report-types-only src/report/markdown.ts → src/contract/types.ts']);
  });

  it('refuse an import cycle, a type-only one included', async () => {
    const found = await violations('cycle', {
      'src/routes/define.ts': "import type { Plan } from './plan.ts';\nexport type Route = { plan: Plan };\n",
      'src/routes/plan.ts': "import type { Route } from './define.ts';\nexport type Plan = { route?: Route };\n",
    });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((v) => v.startsWith('no-circular src/routes/'))).toBe(true);
  });

  it('refuse a module of src/ that belongs to no layer', async () => {
    expect(await violations('stray', { 'src/stray/thing.ts': 'export const t = 1;\n' })).toEqual(['orphan-outside-layers src/stray/thing.ts → src/stray/thing.ts']);
  });
});
