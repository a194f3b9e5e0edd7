import { describe, expect, it } from 'vitest';
import { capture } from './capture.ts';

describe('capture', () => {
  it('keeps everything under the cap', () => {
    const c = capture('stdout', 16);
    c.push(Buffer.from('hello '));
    c.push(Buffer.from('world'));
    expect(c.result()).toEqual({ text: 'hello world', totalBytes: 11, cut: false });
  });

  it('over the cap: head and tail kept, the total counted, the cut said where it is', () => {
    const c = capture('stderr', 8);
    for (const chunk of ['012 ', '4567', '89ab', 'cdef', ' hij']) c.push(Buffer.from(chunk));
    const r = c.result();
    expect(r.cut).toBe(true);
    expect(r.totalBytes).toBe(20);
    expect(r.text.startsWith('012 \n')).toBe(true);
    expect(r.text.endsWith('\n hij')).toBe(true);
    expect(r.text).toContain('[routecert] stderr cut: 20 bytes in all, 12 dropped here');
  });

  it('no cut leaves part of a secret: the token characters touching a cut go, the words around them stay', () => {
    const c = capture('stderr', 32);
    // A cut falls inside each key id: 16 bytes of head end in `AKIA`, 16 of tail start in its middle.
    c.push(Buffer.from(`key is AKIA${'X'.repeat(16)} then ${'y'.repeat(40)} ok AKIA${'Z'.repeat(16)} end`));
    const r = c.result();
    expect(r.cut).toBe(true);
    expect(r.text.startsWith('key is \n')).toBe(true);
    expect(r.text).not.toMatch(/AKIA|XX|ZZ/);
    expect(r.text.endsWith('\n end')).toBe(true);
  });

  it('memory stays bounded by the cap whatever is pushed (1 GiB in 1 MiB chunks)', () => {
    const c = capture('stdout', 2 ** 20);
    const chunk = Buffer.alloc(2 ** 20, 0x61);
    // What the capture holds, not the process's memory (which the garbage collector decides when to free).
    let most = 0;
    for (let i = 0; i < 1024; i += 1) {
      c.push(chunk);
      most = Math.max(most, c.heldBytes());
    }
    expect(most).toBeLessThanOrEqual(2 ** 20 + chunk.length);
    expect(c.result().totalBytes).toBe(2 ** 30);
  });
});
