import { readFile } from 'node:fs/promises';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { COMMANDS, commandsTableMarkdown, README_COMMANDS_BEGIN, README_COMMANDS_END, README_MATRIX_BEGIN, README_MATRIX_END, withCommandsTable, withReadmeTables, type CommandSpec } from './commandTable.ts';
import { BEHAVIOUR_CLASSES } from '#src/report/matrix.ts';
import { main } from './main.ts';

let out: string[];
beforeEach(() => {
  out = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The long flags (`--out`, `--no-probes`) a `--help` text lists in its Options section. */
function helpFlags(help: string): string[] {
  const options = help.slice(help.indexOf('Options:'));
  return [...options.matchAll(/^\s{2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!).filter((flag) => flag !== '--help');
}

const longFlag = (spec: CommandSpec['options'][number]) => /--[\w-]+/.exec(spec.flags)![0];

describe('the option table', () => {
  it('the README command table is the one the table generates (run `npm run readme:commands`)', async () => {
    const readme = await readFile(projectPath('README.md'), 'utf8');
    expect(withCommandsTable(readme)).toBe(readme);
  });

  it("the README's table of the behaviour matrix columns is the one src/report/matrix.ts generates, a row per column", async () => {
    const readme = await readFile(projectPath('README.md'), 'utf8');
    expect(withReadmeTables(readme)).toBe(readme);
    const block = readme.slice(readme.indexOf(README_MATRIX_BEGIN), readme.indexOf(README_MATRIX_END));
    for (const b of BEHAVIOUR_CLASSES) expect(block, b.name).toContain(`| \`${b.name}\` | ${b.tags.map((t) => `\`${t}\``).join(', ')} |`);
    expect(block).toContain('`missing-field` | `missing-required`');
    expect(block).toContain('`scalar` | `scalar`');
  });

  it('the generated table names every command and every option of each', () => {
    const table = commandsTableMarkdown();
    for (const command of COMMANDS) {
      const row = table.split('\n').find((line) => line.startsWith(`| \`${command.name}`))!;
      expect(row, command.name).toBeDefined();
      for (const option of command.options) expect(row, `${command.name} ${option.flags}`).toContain(longFlag(option));
    }
  });

  it('a table that lacks an option the README names, or a README without markers, is caught', () => {
    const readme = `intro\n${README_COMMANDS_BEGIN}\n${commandsTableMarkdown()}${README_COMMANDS_END}\nrest`;
    expect(withCommandsTable(readme)).toBe(readme);
    const fewer = COMMANDS.map((c) => (c.name === 'run' ? { ...c, options: c.options.filter((o) => o.flags !== '--quiet') } : c));
    expect(withCommandsTable(readme, commandsTableMarkdown(fewer))).not.toBe(readme);
    expect(() => withCommandsTable('no markers here')).toThrow(/no generated-table markers/);
  });

  it.each(COMMANDS.map((c) => [c.name, c] as const))('`routecert %s --help` lists exactly the options of the table', async (name, command) => {
    expect(await main([name, '--help'])).toBe(0);
    const help = stripVTControlCharacters(out.join(''));
    expect(helpFlags(help)).toEqual(command.options.map(longFlag));
    expect(help).toContain(command.description.slice(0, 40));
  });

  it('`routecert --help` lists every command of the table, in its order', async () => {
    expect(await main(['--help'])).toBe(0);
    const help = stripVTControlCharacters(out.join(''));
    const listed = [...help.slice(help.indexOf('Commands:')).matchAll(/^\s{2}([a-z][\w-]*)/gm)].map((m) => m[1]).filter((n) => n !== 'help');
    expect(listed).toEqual(COMMANDS.map((c) => c.name));
  });
});
