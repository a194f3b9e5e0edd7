/**
 * `routecert run --generic <route>=<spec>` and `"route": "generic:<spec>"` case files: a CLI routecert
 * does not know is judged where the user says its answer lives.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_FINAL_PAYLOAD } from '#src/mock/scenarios.ts';
import { caseId } from '#src/record/caseId.ts';
import { main } from './main.ts';

const FINAL = DEFAULT_FINAL_PAYLOAD;

/** A made-up CLI: JSONL whose `done` event holds the answer as a JSON string at /payload/answer, then a telemetry line. */
const STDOUT = [{ kind: 'progress' }, { kind: 'done', payload: { answer: JSON.stringify(FINAL) } }, { kind: 'telemetry', ms: 3 }]
  .map((e) => JSON.stringify(e))
  .join('\n');

let dir: string;
let out: string[];
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'routecert-generic-'));
  out = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

async function writeCase(name: string, route: string): Promise<void> {
  const attempts = [{ stdout: STDOUT, stderr: '', exitCode: 0, elapsedMs: 10 }];
  const expect_ = { verdict: 'accepted' as const, origin: 'answer', value: FINAL };
  const c = {
    id: caseId({ attempts, contract: 'pov', expect: expect_ }),
    description: `mycli ${name}`,
    route,
    cli: { name: 'mycli', version: '1.0.0' },
    provenance: { source: 'generated', date: '2026-11-30' },
    contract: 'pov',
    attempts,
    expect: expect_,
    tags: [],
  };
  await mkdir(path.join(dir, 'cases'), { recursive: true });
  await writeFile(path.join(dir, 'cases', `${name}.json`), JSON.stringify(c));
}

/** The printed text without ANSI colours (picocolors colours output when CI is set). */
function plain(chunks: string[]): string {
  return stripVTControlCharacters(chunks.join(''));
}

function run(...extra: string[]): Promise<number> {
  return main(['run', '--no-probes', '--no-certify', '--cases', path.join(dir, 'cases'), '--reports', path.join(dir, 'reports'), ...extra]);
}

describe('routecert run --generic', () => {
  it('judges a route routecert does not know once --generic says where its answer lives', async () => {
    await writeCase('a', 'mycli/jsonl');
    expect(await run()).toBe(2);
    expect(plain(out)).toContain('unknown route "mycli/jsonl"');
    out = [];
    expect(await run('--generic', 'mycli/jsonl=event=kind=done;pointer=/payload/answer')).toBe(0);
    expect(plain(out)).toContain('1 cases: 1 passed');
  });

  it('needs no flag for a case whose route is generic:<spec>', async () => {
    await writeCase('b', 'generic:event=kind=done;key=answer');
    expect(await run()).toBe(0);
    const [folder] = await readdir(path.join(dir, 'reports'));
    const report = JSON.parse(await readFile(path.join(dir, 'reports', folder!, 'report.json'), 'utf8')) as { cases: { outcome: string; verdict: { origin: string } }[] };
    expect(report.cases[0]).toMatchObject({ outcome: 'pass', verdict: { origin: 'answer' } });
  });

  it('refuses a spec that does not parse with exit 2 and the grammar', async () => {
    await writeCase('c', 'mycli/jsonl');
    expect(await run('--generic', 'mycli/jsonl=where=/x')).toBe(2);
    expect(plain(out)).toContain('unknown part "where"');
    expect(plain(out)).toContain('pointer=<JSON Pointer>');
  });

  it('documents the spec in `run --help`', async () => {
    expect(await main(['run', '--help'])).toBe(0);
    const help = plain(out);
    expect(help).toContain('--generic <route=spec>');
    expect(help).toContain('event=<field>=<value>');
    expect(help).toContain('generic:<spec>');
  });
});
