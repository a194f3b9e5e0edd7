import { describe, expect, it } from 'vitest';
import { forbiddenIn } from './argvChecks.ts';

describe('forbiddenIn', () => {
  it('finds the sandbox lifted through a Codex configuration override, in every spelling a user can send', () => {
    // ai-sdk-provider-codex-cli 2.2.1 sends its sandboxMode setting as `-c sandbox_mode=<mode>`.
    for (const argv of [
      ['exec', '--experimental-json', '-c', 'sandbox_mode=danger-full-access'],
      ['exec', '--config', 'sandbox_mode="danger-full-access"'],
      ['exec', '--config=sandbox_mode = "danger-full-access"'],
      ['exec', "-csandbox_mode='danger-full-access'"],
    ]) {
      expect(forbiddenIn('codex', argv).join('\n'), argv.join(' ')).toContain('sandbox_mode=danger-full-access');
    }
  });

  it('leaves other configuration overrides and safe sandbox modes alone', () => {
    expect(forbiddenIn('codex', ['exec', '-c', 'sandbox_mode=workspace-write', '-c', 'approval_policy=never', '-c', 'model_reasoning_effort="high"', '-s', 'read-only'])).toEqual([]);
  });

  it('reads an attached one-letter value as the CLI does (`-sdanger-full-access`)', () => {
    expect(forbiddenIn('codex', ['exec', '-sdanger-full-access']).join('\n')).toContain('-s danger-full-access');
    expect(forbiddenIn('codex', ['exec', '-sread-only'])).toEqual([]);
  });

  it("finds cursor-agent's sandbox turned off, and leaves it alone when enabled", () => {
    expect(forbiddenIn('cursor-agent', ['-p', '--mode', 'ask', '--trust', '--sandbox', 'disabled']).join('\n')).toContain('--sandbox disabled');
    expect(forbiddenIn('cursor-agent', ['-p', '--sandbox=disabled']).join('\n')).toContain('--sandbox disabled');
    expect(forbiddenIn('cursor-agent', ['-p', '--mode', 'ask', '--trust', '--sandbox', 'enabled'])).toEqual([]);
  });
});
