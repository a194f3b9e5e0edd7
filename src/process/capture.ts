/**
 * Capped capture of a child's stdout or stderr (issue 23 point 3): memory is bounded by the cap,
 * never by what the child prints. The first half of the cap and the last half are kept, every byte
 * is counted, and a cut output says so in a line of its own where the cut is, so whatever judges
 * the output (a decoder's evidence, a check's message) quotes the cut.
 */
import { TOKEN_CHAR } from '#src/diagnostics/shapes.ts';
import { DEFAULT_CAPTURE_BYTES, NUMERIC_VARIABLES, numericVariable } from '#src/envNumbers.ts';

/**
 * Bytes kept of one stream: `ROUTECERT_CAPTURE_BYTES` (an integer > 0; for tests, which prove the
 * cap on kilobytes instead of gigabytes) or 8 MiB (4 MiB head, 4 MiB tail) when it is unset or
 * empty. An invalid value also gives the default here; the command line refuses it first
 * (src/envNumbers.ts).
 */
export function captureBytes(env: NodeJS.ProcessEnv = process.env): number {
  return numericVariable(NUMERIC_VARIABLES.captureBytes, env) ?? DEFAULT_CAPTURE_BYTES;
}

/** At most this many token characters touching a cut are dropped (longer than any secret shape but a PEM key, which a cut breaks anyway). */
const EDGE_MAX = 512;

/**
 * `text` without the run of token characters (src/diagnostics/shapes.ts `TOKEN_CHAR`) at its end
 * (`atEnd`) or its start, up to {@link EDGE_MAX} of them: no secret is left half-visible where the
 * capture cut the stream. Linear in what it drops.
 */
function dropEdge(text: string, atEnd: boolean): string {
  let n = 0;
  while (n < EDGE_MAX && n < text.length && TOKEN_CHAR.test(text[atEnd ? text.length - 1 - n : n]!)) n += 1;
  return atEnd ? text.slice(0, text.length - n) : text.slice(n);
}

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
export function capture(name: string, capBytes: number = captureBytes()): Capture {
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
      // No cut leaves part of a secret: the run of token characters touching a cut goes too.
      const headText = Buffer.concat(head).toString('utf8');
      const tailText = tailBuf.toString('utf8');
      return { text: `${dropEdge(headText, true)}${line}${dropEdge(tailText, false)}`, totalBytes: total, cut: true };
    },
  };
}

/**
 * Read the file `file` as a stream named `name` through a {@link capture} of `capBytes`: a file a
 * child wrote (a worker's log) costs at most the cap, however large it grew. Rejects as the read
 * does (ENOENT, EACCES), and for a path that is not a regular file (a named pipe would block).
 */
export async function captureFile(file: string, name: string, capBytes: number = captureBytes()): Promise<Captured> {
  const c = capture(name, capBytes);
  const { createReadStream } = await import('node:fs');
  const { stat } = await import('node:fs/promises');
  // A named pipe or a device left at the path would block the read forever.
  if (!(await stat(file)).isFile()) throw new Error(`${file} is not a regular file`);
  for await (const chunk of createReadStream(file)) c.push(chunk as Buffer);
  return c.result();
}
