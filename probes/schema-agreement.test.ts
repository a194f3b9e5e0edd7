/**
 * Lint and probes agree: for every installed CLI whose probe driver takes a schema flag
 * (`schemaFlag: true` in PROBE_DRIVERS; Claude Code and Codex when this was written, Qwen Code as
 * soon as its driver is registered), every canary and production schema that the CLI's lint profile
 * flags (an error finding) is rejected by the real CLI against its provider mock, and every one it
 * passes (no finding at all) is accepted. Canaries the profile only warns about are listed as
 * skipped with that reason: the profile does not decide them.
 *
 * - `claude-code` profile vs the real Claude Code (its Ajv startup check);
 * - `codex` profile vs the real Codex sending the schema to the OpenAI Responses mock, which
 *   enforces OpenAI strict rules (src/mock/openaiStrict.ts);
 * - `qwen-code` profile vs the real Qwen Code (its Ajv startup check).
 *
 * A disagreement fails a test named after the keyword and the CLI version. Also pinned here: the
 * output format does not change validation, and Claude Code's exact rejection lines for the rows
 * research/schema-vocabularies.md §9 asked to confirm (observed with Claude Code 2.1.332; a failure
 * after a CLI upgrade is drift to record, not a flaky test).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildStartupTable, canarySubjects, formatSubjects, productionSubjects, startupTargets } from '../src/harness/startupProbes.ts';
import { lintExpectation, routeFormat, startupRoutes, type StartupCell, type StartupSubject, type StartupTable } from '../src/probe/index.ts';
import { skipUnlessInstalled } from './_helpers.ts';

/** Deadline of one probe (an accepted schema completes in about a second; a rejected one sooner). */
const PROBE_TIMEOUT_MS = 60_000;
/** Deadline of building one CLI's table (about 35 probes, as many at once as there are cores). */
const TABLE_TIMEOUT_MS = 900_000;

const targets = await startupTargets();
const production = await productionSubjects();
const canaries = canarySubjects();

/** The rows whose lint expectation is checked: production schemas, then canaries. */
const checked: StartupSubject[] = [...production, ...canaries];

function cellOf(table: StartupTable, id: string): StartupCell {
  const row = table.rows.find((r) => r.id === id);
  expect(row, `row ${id} was probed`).toBeDefined();
  expect(row!.cells, `row ${id} has one cell`).toHaveLength(1);
  return row!.cells[0]!;
}

/** `x-meta at /properties/answer` / `pov.schema.json`. */
function what(subject: StartupSubject): string {
  if (subject.kind === 'production') return subject.label;
  if (subject.keyword === '') return 'the canary baseline';
  return `keyword ${subject.keyword} at ${subject.pointer === '' ? 'the root' : subject.pointer}`;
}

for (const target of targets.filter((t) => t.cli.bin === null)) {
  const reason = `${target.driver.cli} is not installed: run \`${target.cli.installHint}\``;
  console.warn(`[routecert] probes/schema-agreement.test.ts: ${reason}`);
  skipUnlessInstalled(target.cli, `lint/probe agreement for ${target.driver.cli}`, reason);
}

for (const target of targets.filter((t) => t.cli.bin !== null)) {
  const title = `${target.driver.cli} ${target.cli.version ?? '(version unknown)'}`;
  const profile = target.profile;
  if (profile === null) {
    describe.skip(`lint/probe agreement for ${title}: no lint profile models this CLI (LINT_PROFILE_BY_CLI)`, () => {
      it('no lint profile', () => undefined);
    });
    continue;
  }

  describe(`${title} vs the ${profile} lint profile`, () => {
    let table: StartupTable;
    beforeAll(async () => {
      table = await buildStartupTable({ targets: [target], timeoutMs: PROBE_TIMEOUT_MS });
    }, TABLE_TIMEOUT_MS);

    for (const subject of checked) {
      const { expected, because } = lintExpectation(subject.schema, profile);
      const listed = subject.listedProfiles?.includes(profile) === true ? ' (profiles.json sends it here)' : '';
      if (expected === 'unknown') {
        it.skip(`${subject.label}: ${profile} only warns (${because.join(', ')}), so it predicts nothing for ${title}`, () => undefined);
        continue;
      }
      it(`${subject.label}${listed}: ${profile} says ${expected}, and ${title} agrees`, () => {
        const cell = cellOf(table, subject.id);
        const observed = cell.outcome === 'fault' ? `could not be probed (${cell.message ?? 'fault'})` : cell.outcome === 'rejected' ? `rejected it: ${cell.message ?? ''}` : 'accepted it';
        const lintSays = expected === 'rejected' ? `flags it (${because.join(', ')})` : 'passes it (no finding)';
        expect(cell.outcome, `${what(subject)}: the ${profile} lint profile ${lintSays}, but ${title} ${observed}`).toBe(expected);
      });
    }

    const formats = startupRoutes(target.driver).map(routeFormat);
    for (const subject of formatSubjects([target.driver]).filter((s) => s.format === formats[0])) {
      const canaryId = subject.id.split(':').slice(2).join(':');
      it(`${canaryId} has the same outcome under every output format of ${title} (${formats.join(', ')})`, () => {
        const reference = cellOf(table, `canary:${canaryId}`);
        expect(reference.outcome).not.toBe('fault');
        for (const format of formats) {
          const cell = cellOf(table, `format:${format}:${canaryId}`);
          expect(cell.outcome, `${canaryId} as ${format} on ${title}: ${cell.message ?? ''}`).toBe(reference.outcome);
          expect(cell.message, `${canaryId} as ${format} on ${title}`).toBe(reference.message);
        }
      });
    }

    if (target.driver.cli === 'claude') {
      // research/schema-vocabularies.md §9: the inferred Claude Code rows, confirmed on the pinned CLI.
      const PREFIX = 'Error: --json-schema is not a valid JSON Schema: ';
      const lines: [string, string][] = [
        ['x-meta@root', `${PREFIX}strict mode: unknown keyword: "x-meta"`],
        ['x-meta@/properties/answer', `${PREFIX}strict mode: unknown keyword: "x-meta"`],
        ['_meta@root', `${PREFIX}strict mode: unknown keyword: "_meta"`],
        ['_meta@/properties/answer', `${PREFIX}strict mode: unknown keyword: "_meta"`],
        ['prefixItems@/properties/tags', `${PREFIX}strict mode: unknown keyword: "prefixItems"`],
        ['dependentRequired@root', `${PREFIX}strict mode: unknown keyword: "dependentRequired"`],
        ['$anchor@/properties/answer', `${PREFIX}strict mode: unknown keyword: "$anchor"`],
        ['if@root', `${PREFIX}strict mode: "if" without "then" and "else" is ignored`],
        ['$schema=2020-12@root', `${PREFIX}no schema with key or ref "https://json-schema.org/draft/2020-12/schema"`],
      ];
      for (const [id, line] of lines) {
        it(`${title} refuses ${id} at startup, before any request, with: ${line}`, () => {
          const cell = cellOf(table, `canary:${id}`);
          expect(cell).toMatchObject({ outcome: 'rejected', stage: 'startup', message: line, exitCode: 1, requests: 0 });
        });
      }
    }
  });
}
