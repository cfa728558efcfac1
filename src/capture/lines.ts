/**
 * Streaming line reader with 1-based line numbers, bounded memory and byte-level checks.
 *
 * Splits on LF (a CR before it is dropped), strips one UTF-8 BOM at the start, decodes each line
 * as UTF-8 and flags (rather than throws on) invalid sequences, and never holds more than one line
 * (capped by `maxLineBytes`) in memory. Line terminators per JSON Lines / NDJSON 1.0.
 */

import type { Readable } from 'node:stream';

/** One physical line of input. */
export interface Line {
  /** 1-based line number. */
  line: number;
  /** The decoded text without its terminator; '' for an over-long line (see `tooLong`). */
  text: string;
  /** Length of the raw line in bytes (terminator excluded). */
  bytes: number;
  /** The line held bytes that are not valid UTF-8; `text` has U+FFFD in their place. */
  invalidUtf8: boolean;
  /** The line was longer than `maxLineBytes` and was skipped without being buffered. */
  tooLong: boolean;
  /** The line holds a NUL byte (binary data). */
  hasNul: boolean;
}

export interface LineReaderOptions {
  /** Longest line kept, in bytes; longer lines are reported `tooLong` with empty text. */
  maxLineBytes?: number;
}

/** Default cap on one line: 256 MiB. A 100 MB line is read; a larger one is reported and skipped. */
export const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

function decodeLine(buf: Buffer, line: number, tooLong: boolean): Line {
  let end = buf.length;
  if (end > 0 && buf[end - 1] === CR) end--;
  let start = 0;
  if (line === 1 && end >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
  const body = buf.subarray(start, end);
  const hasNul = body.includes(0);
  if (tooLong) return { line, text: '', bytes: body.length, invalidUtf8: false, tooLong, hasNul };
  try {
    return { line, text: strictDecoder.decode(body), bytes: body.length, invalidUtf8: false, tooLong, hasNul };
  } catch {
    return { line, text: lenientDecoder.decode(body), bytes: body.length, invalidUtf8: true, tooLong, hasNul };
  }
}

/**
 * Reads `input` line by line.
 *
 * @param input a byte stream (a file stream or stdin).
 * @param options `maxLineBytes` (bytes, default {@link DEFAULT_MAX_LINE_BYTES}).
 * @returns an async iterable of {@link Line}; a final line without a terminator is yielded too,
 *   an empty input yields nothing.
 * @throws whatever the underlying stream emits (e.g. EACCES, EISDIR) on its first read.
 */
export async function* readLines(input: Readable, options: LineReaderOptions = {}): AsyncGenerator<Line> {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let parts: Buffer[] = [];
  let partBytes = 0;
  let overflowBytes = 0; // bytes of the current line dropped because it is too long
  let lineNo = 0;
  let sawAny = false;

  const flush = (tail: Buffer): Line => {
    lineNo++;
    if (overflowBytes > 0) {
      const bytes = overflowBytes + tail.length;
      parts = [];
      partBytes = 0;
      overflowBytes = 0;
      return { ...decodeLine(Buffer.alloc(0), lineNo, true), bytes };
    }
    const buf = parts.length === 0 ? tail : Buffer.concat([...parts, tail]);
    parts = [];
    partBytes = 0;
    return decodeLine(buf, lineNo, false);
  };

  for await (const chunk of input) {
    const buf: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    sawAny = sawAny || buf.length > 0;
    let from = 0;
    for (;;) {
      const nl = buf.indexOf(LF, from);
      if (nl === -1) {
        const rest = buf.subarray(from);
        if (overflowBytes > 0 || partBytes + rest.length > max) {
          overflowBytes += partBytes + rest.length;
          parts = [];
          partBytes = 0;
        } else if (rest.length > 0) {
          // copy: the stream may reuse its chunk buffer
          parts.push(Buffer.from(rest));
          partBytes += rest.length;
        }
        break;
      }
      const piece = buf.subarray(from, nl);
      if (overflowBytes === 0 && partBytes + piece.length > max) {
        overflowBytes = partBytes + piece.length;
        parts = [];
        partBytes = 0;
        yield flush(Buffer.alloc(0));
      } else if (overflowBytes > 0) {
        overflowBytes += piece.length;
        yield flush(Buffer.alloc(0));
      } else {
        yield flush(piece);
      }
      from = nl + 1;
    }
  }
  if (sawAny && (partBytes > 0 || overflowBytes > 0)) yield flush(Buffer.alloc(0));
}
