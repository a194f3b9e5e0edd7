/**
 * Capped capture of a child's stdout or stderr (issue 23 point 3): memory is bounded by the cap,
 * never by what the child prints. The first half of the cap and the last half are kept, every byte
 * is counted, and a cut output says so in a line of its own where the cut is, so whatever judges
 * the output (a decoder's evidence, a check's message) quotes the cut.
 */

/** Bytes kept of one stream by default: 8 MiB (4 MiB head, 4 MiB tail). */
export const DEFAULT_CAPTURE_BYTES = 8 * 2 ** 20;

/** What a capture holds at the end. */
export interface Captured {
  /** The kept bytes as UTF-8; when cut, head + a `[routecert] ... cut ...` line + tail. */
  text: string;
  /** Every byte the stream carried. */
  totalBytes: number;
  /** True when bytes were dropped. */
  cut: boolean;
}

/** A capture of one stream: `push` each chunk, `result()` at the end. */
export interface Capture {
  push(chunk: Buffer): void;
  result(): Captured;
  /** Bytes held right now (head + tail chunks): at most the cap plus one chunk, whatever was pushed. */
  heldBytes(): number;
}

/**
 * A capture keeping at most `capBytes` bytes (half head, half tail) of a stream named `name`
 * (`stdout`, `stderr`, shown in the cut line).
 *
 * @example
 * const c = capture('stderr', 8); c.push(Buffer.from('0123456789abcdef')); c.result().cut // => true
 */
export function capture(name: string, capBytes: number = DEFAULT_CAPTURE_BYTES): Capture {
  const headCap = Math.ceil(capBytes / 2);
  const tailCap = capBytes - headCap;
  const head: Buffer[] = [];
  let headBytes = 0;
  let tail: Buffer[] = [];
  let tailBytes = 0;
  let total = 0;
  return {
    push(chunk) {
      total += chunk.length;
      let rest = chunk;
      if (headBytes < headCap) {
        const take = rest.subarray(0, headCap - headBytes);
        head.push(Buffer.from(take));
        headBytes += take.length;
        rest = rest.subarray(take.length);
      }
      if (rest.length === 0 || tailCap === 0) return;
      tail.push(Buffer.from(rest.subarray(Math.max(0, rest.length - tailCap))));
      tailBytes += Math.min(rest.length, tailCap);
      // Drop whole chunks from the front while the rest still covers the tail.
      while (tail.length > 1 && tailBytes - tail[0]!.length >= tailCap) {
        tailBytes -= tail[0]!.length;
        tail = tail.slice(1);
      }
    },
    heldBytes() {
      let held = 0;
      for (const b of head) held += b.length;
      for (const b of tail) held += b.length;
      return held;
    },
    result() {
      const kept = headBytes + tailBytes;
      if (total <= kept || total <= capBytes) return { text: Buffer.concat([...head, ...tail]).toString('utf8'), totalBytes: total, cut: false };
      let tailBuf = Buffer.concat(tail);
      tailBuf = tailBuf.subarray(Math.max(0, tailBuf.length - tailCap));
      const dropped = total - headBytes - tailBuf.length;
      const line = `\n[routecert] ${name} cut: ${total} bytes in all, ${dropped} dropped here (the first ${headBytes} and the last ${tailBuf.length} kept)\n`;
      return { text: `${Buffer.concat(head).toString('utf8')}${line}${tailBuf.toString('utf8')}`, totalBytes: total, cut: true };
    },
  };
}
