/**
 * `npm run bench` refuses an option no selected benchmark reads (issue 24, "benchmarks that can
 * fail"): a typo such as `--size=1` once ran the defaults, the whole 1-64 MiB scan and the memory
 * section, and its figures read as those of the options typed. Spawned as `npm run bench` runs it
 * (bin/bench.js), refused before any benchmark starts.
 */
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';

const bench = (args: string[]) => execa('node', [projectPath('bin/bench.js'), ...args], { cwd: projectPath('.'), reject: false, timeout: 120_000, stdin: 'ignore' });

describe('npm run bench: options', () => {
  it.each([
    [['scan', '--size=1'], /unknown option --size=1 for scan; options: --quick --sizes=<value>/],
    [['--quik'], /unknown option --quik for scan, robustness, probes/],
    [['robustness', '--sizes=1'], /unknown option --sizes=1 for robustness; options: --inputs=<value>/],
    [['scan', '--sizes='], /unknown option --sizes= for scan/],
  ])('%j exits 2 naming the option and the ones it takes, before any benchmark runs', async (args, message) => {
    const r = await bench(args);
    expect(r.stderr).toMatch(message);
    expect(r.exitCode).toBe(2);
    expect(String(r.stdout)).not.toContain('# scan');
  });
});
