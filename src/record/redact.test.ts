import { describe, expect, it } from 'vitest';
import { redact, redactValue } from './redact.ts';

// Machine-like paths, spelled in pieces so the repository holds no literal path of a machine.
const ROOT_HOME = ['', 'root'].join('/');
const TMP = ['', 'tmp'].join('/');

// Canary secrets: none of these may survive redaction.
const CANARIES = {
  anthropic: 'sk-ant-api03-CANARYabcdefghijklmnop',
  openai: 'sk-proj-CANARY1234567890abcdef',
  bearer: 'Bearer eyJhbGciOiJIUzI1NiJ9.CANARY.sig',
  github: 'ghp_CANARYabcdefghijklmnopqrstuvwxyz01',
  email: 'ana.canary@example.com',
  given: 'my-own-CANARY-token',
};

describe('redact', () => {
  it('removes every canary secret, e-mail, uuid, timestamp, home and temp path', () => {
    const text = [
      `key=${CANARIES.anthropic}`,
      `openai=${CANARIES.openai}`,
      `auth: ${CANARIES.bearer}`,
      `gh=${CANARIES.github}`,
      `from ${CANARIES.email}`,
      `custom ${CANARIES.given}`,
      'session 3f2b8c1e-1d2a-4e5f-9a8b-7c6d5e4f3a2b at 2026-11-30T04:21:10.123Z',
      `cwd /home/ana/project and ${ROOT_HOME}/.claude and ${TMP}/routecert-abc123/work`,
    ].join('\n');
    const out = redact(text, { secrets: [CANARIES.given] });
    expect(out).not.toMatch(/CANARY/);
    expect(out).not.toContain('ana.canary');
    expect(out).not.toContain('3f2b8c1e');
    expect(out).not.toContain('2026-11-30T04');
    expect(out).not.toContain('/home/ana');
    expect(out).not.toContain('/root');
    expect(out).not.toContain('/tmp/routecert-abc123');
    expect(out).toContain('<redacted:api-key>');
    expect(out).toContain('<email>');
    expect(out).toContain('<uuid>');
    expect(out).toContain('<timestamp>');
    expect(out).toContain('<home>/project');
    expect(out).toContain('<tmp>/work');
  });

  it('replaces caller-named paths, longest first', () => {
    const out = redact('cd /x/tmp-home/cwd && ls /x/tmp-home', {
      paths: [
        { path: '/x/tmp-home', placeholder: '<home>' },
        { path: '/x/tmp-home/cwd', placeholder: '<cwd>' },
      ],
    });
    expect(out).toBe('cd <cwd> && ls <home>');
  });

  it('keeps JSON text parseable', () => {
    const json = JSON.stringify({ session_id: '3f2b8c1e-1d2a-4e5f-9a8b-7c6d5e4f3a2b', cwd: '/home/ana/p', key: CANARIES.anthropic });
    const out = redact(json);
    expect(JSON.parse(out)).toEqual({ session_id: '<uuid>', cwd: '<home>/p', key: '<redacted:api-key>' });
  });

  it('redacts keys and values of nested values', () => {
    expect(redactValue({ [CANARIES.email]: [CANARIES.openai] })).toEqual({ '<email>': ['<redacted:api-key>'] });
  });
});

describe('redact: paths inside temp folders', () => {
  it('does not take a /home segment inside a redacted temp path for a home folder', () => {
    expect(redact(`${TMP}/routecert-probe-AbC123/home/.claude/x`)).toBe('<tmp>/home/.claude/x');
  });

  it('hides the random suffix of a temp folder folded into a name', () => {
    expect(redact('projects/-tmp-routecert-probe-AbC123-work')).toBe('projects/-tmp-routecert-probe-<id>-work');
  });
});

describe('redact: loopback ports', () => {
  it('replaces the mock port, which changes with every recording', () => {
    expect(redact('check your inference gateway (127.0.0.1:35377).')).toBe('check your inference gateway (127.0.0.1:<port>).');
  });
});
