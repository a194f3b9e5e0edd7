/**
 * Certifying consumers (issue 14), a small sample for CI:
 * - the consumer checks bite: a miniature naive consumer (examples/consumers/_kit/naive-adapter.mjs)
 *   fails the prose smoke, the answer-place, empty-answer, provider-error and usage checks; it needs no install;
 * - a real consumer, @openai/codex-sdk, goes through the smoke and two checks, unchanged, behind
 *   the fake `codex`: it reports a provider error as an error, and it hands over an answer from a
 *   stream cut before `turn.completed` (the finding in examples/consumers/FINDINGS.md); a fail-open
 *   copy of it (examples/consumers/_kit/failopen.ts) that drops `--output-schema` is refused by
 *   schema-sent. It skips, saying so, when `npm run consumers:install` was not run;
 * - the real-CLI probe runs the codex the consumer pins (0.163.0, installed from npm by
 *   `npm run consumers:install`), and when that one is not installed, the certificate names the
 *   version that ran instead, the pinned one, and why.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { certify } from '#src/harness/certify/certify.ts';
import { certificateProblems } from '#src/harness/certify/certificate.ts';
import { defineConfig, loadConfig } from '#src/harness/certify/config.ts';
import { CONSUMER_CONTRACT } from '#src/harness/certify/consumer.ts';
import { projectPath } from '#src/paths.ts';
import { certifyConsumer, CONSUMERS, installedVersion, pinnedCliPackage, realCliFor } from '../examples/consumers/_kit/consumers.ts';
import { certifyFailOpen, FAULTS } from '../examples/consumers/_kit/failopen.ts';

const LONG = 180_000;
const codexSdk = installedVersion('codex-sdk', '@openai/codex-sdk');
if (codexSdk === null) console.warn('[routecert] suites/consumers.test.ts: @openai/codex-sdk is not installed: run `npm run consumers:install` (the real-consumer test is skipped)');

describe('consumer checks', () => {
  it(
    'a naive consumer (first StructuredOutput, no is_error, no usage) fails answer-last-message, empty-answer, provider-error and usage',
    async () => {
      const config = defineConfig({
        worker: {
          name: 'naive consumer (miniature)',
          command: ['node', projectPath('examples/consumers/_kit/naive-adapter.mjs'), '{schema}', '{prompt}', '{out}'],
          prompt: 'file',
          artifact: '{outDir}/outcome.json',
          windowEnv: { hardWindowS: 'CONSUMER_DEADLINE_S', retryMinS: 'CONSUMER_RETRY_MIN_S' },
        },
        routes: ['claude-code/stream-json'],
        contract: CONSUMER_CONTRACT,
      });
      const { certificate } = await certify(config, { checks: ['answer-last-message', 'empty-answer', 'provider-error', 'usage'] });
      const r = certificate.routes[0]!;
      // Its prose-only answer is an empty success: the smoke fails, the consumer's fault (it called
      // the CLI), so the route is not certified and every other check still runs.
      expect(r.smoke.map((k) => k.status)).toEqual(['pass', 'fail']);
      expect(r.smoke[1]!.evidence.join(' ')).toContain('neither an error nor the prose');
      expect(r.status).toBe('not-certified');
      const status = Object.fromEntries(r.checks.filter((k) => k.status !== 'skipped').map((k) => [k.id, k.status]));
      expect(status).toEqual({ 'answer-last-message': 'fail', 'empty-answer': 'fail', 'provider-error': 'fail', usage: 'fail' });
      expect(r.checks.find((k) => k.id === 'provider-error')!.evidence.join(' ')).toContain('empty success');
    },
    LONG,
  );
});

describe.skipIf(codexSdk === null)(`@openai/codex-sdk@${codexSdk ?? '(not installed: run npm run consumers:install)'} behind the fake codex`, () => {
  it(
    'passes the smoke and provider-error, fails incomplete-stream, and writes a valid certificate',
    async () => {
      const loaded = await loadConfig(projectPath('examples/consumers/codex-sdk/routecert.config.ts'));
      const certificate = await certifyConsumer(CONSUMERS.find((c) => c.dir === 'codex-sdk')!, { checks: ['provider-error', 'incomplete-stream'], probe: false });
      const exitCode = certificate.footer.exitCode;
      expect(await certificateProblems(certificate)).toEqual([]);
      const r = certificate.routes[0]!;
      expect(r.contract).toBe('consumer-answer');
      expect(r.smoke.map((k) => [k.id, k.status])).toEqual([
        ['smoke-final', 'pass'],
        ['smoke-prose-only', 'pass'],
      ]);
      const byId = Object.fromEntries(r.checks.map((k) => [k.id, k]));
      expect(byId['provider-error']!.status).toBe('pass');
      expect(byId['incomplete-stream']!.status).toBe('fail');
      expect(byId['incomplete-stream']!.evidence[0]).toMatch(/cut-before-turn-completed.*cut before its terminal event.*answer object/);
      expect(exitCode).toBe(1);
      expect(path.basename(loaded.dir)).toBe('codex-sdk');
      // The certificate names the package and the codex it pins, not the one the cases were recorded with.
      expect(certificate.header.subject).toEqual({ name: '@openai/codex-sdk', version: codexSdk });
      expect(certificate.routes[0]!.cli).toMatchObject({ name: 'codex', version: '0.163.0', casesRecordedWith: '0.171.0' });
    },
    LONG,
  );

  it(
    'a fail-open copy that drops --output-schema is refused by schema-sent; the original passes it',
    async () => {
      const fault = FAULTS.find((f) => f.dir === 'codex-sdk' && f.check === 'schema-sent')!;
      const copy = await certifyFailOpen(fault);
      expect(copy.check?.status, copy.check?.evidence.join(' ')).toBe('fail');
      expect(copy.check?.evidence.join(' ')).toContain('no --output-schema');
      expect(copy.routeStatus).toBe('not-certified');
      const original = await certify(await loadConfig(projectPath('examples/consumers/codex-sdk/routecert.config.ts')), { checks: ['schema-sent'] });
      expect(original.certificate.routes[0]!.checks.find((k) => k.id === 'schema-sent')!.status).toBe('pass');
    },
    LONG,
  );
});

describe.skipIf(codexSdk === null)('the real CLI of the hermetic probe', () => {
  const codex = CONSUMERS.find((c) => c.dir === 'codex-sdk')!;
  const pinned = codexSdk === null ? null : pinnedCliPackage(codex, 'codex');
  const probes = projectPath('probes/node_modules/.bin/codex');

  it.skipIf(!pinned?.bin)(`is the codex @openai/codex-sdk pins, ${pinned?.version ?? ''}, installed from npm and reporting that version${pinned?.bin ? '' : ' (skipped: run npm run consumers:install)'}`, async () => {
    const real = await realCliFor(codex, 'codex/jsonl');
    expect(real).toMatchObject({ bin: pinned!.bin, cli: { name: 'codex', version: '0.163.0', source: expect.stringMatching(/^pinned by @openai\/codex-sdk@0\.163\.0 .*installed from npm as @openai\/codex@0\.163\.0$/) } });
    expect((real as { cli: object }).cli).not.toHaveProperty('pinned');
  }, LONG);

  it.skipIf(!existsSync(probes))('when the pinned codex is not installed, is the probes\' one, and the certificate says which, the pinned one and why', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'routecert-no-clis-'));
    try {
      const real = await realCliFor(codex, 'codex/jsonl', empty);
      expect(real).toMatchObject({ bin: probes, cli: { name: 'codex', pinned: '0.163.0' } });
      const { cli } = real as { cli: { version: string; source: string } };
      expect(cli.version).not.toBe('0.163.0');
      expect(cli.source).toMatch(/^the probes' CLI \(probes\/package\.json\), not the 0\.163\.0 pinned by @openai\/codex-sdk@0\.163\.0 .*: @openai\/codex@0\.163\.0 is not installed in .* \(npm run consumers:install\)$/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, LONG);
});
