import { describe, expect, it } from 'vitest';
import { terminalSafe } from './terminal.ts';

describe('terminalSafe', () => {
  it('shows the controls a terminal acts on, keeps colours, newlines, tabs and the progress rewrite', () => {
    expect(terminalSafe('ok\u001b]0;title\u0007\rPASS')).toBe('ok\\x1b]0;title\\x07\\x0dPASS');
    expect(terminalSafe('\u001b[2J\u001b[1A\u009b2J\u007f')).toBe('\\x1b[2J\\x1b[1A\\x9b2J\\x7f');
    expect(terminalSafe('\u001b[31mFAIL\u001b[39m\ta\r\nb\n')).toBe('\u001b[31mFAIL\u001b[39m\ta\nb\n');
    expect(terminalSafe('\r\u001b[Kcases 1/2')).toBe('\r\u001b[Kcases 1/2');
    expect(terminalSafe('x \r\u001b[Kforged')).toBe('x \\x0d\\x1b[Kforged');
    expect(terminalSafe('plain text, unicode é ✓')).toBe('plain text, unicode é ✓');
    // Conceal, reverse, black and a background could hide what follows: shown, not obeyed.
    expect(terminalSafe('FAIL \u001b[8mhidden\u001b[0m \u001b[7mrev \u001b[30;40mblack')).toBe('FAIL \\x1b[8mhidden\\x1b[0m \\x1b[7mrev \\x1b[30;40mblack');
  });
});
