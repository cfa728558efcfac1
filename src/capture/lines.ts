/**
 * Streaming line reader with 1-based line numbers, bounded memory and byte-level checks.
 *
 * A line ends at LF, at CRLF, or at a lone CR (the three line ends of the WHATWG event-stream
 * grammar, HTML Living Standard §9.2.5; JSON Lines / NDJSON 1.0 allow LF and CRLF, and a JSON text
 * cannot hold a raw CR, so treating a lone CR as a line end never splits a valid JSON line). A CR
 * at the end of one chunk followed by an LF at the start of the next is still one line end. One
 * UTF-8 BOM at the start is stripped; UTF-16 with a byte order mark is decoded; each line is decoded as UTF-8 and invalid sequences are
 * flagged rather than thrown on; never more than one line (capped by `maxLineBytes`) is held.
 */

import { isAscii, isUtf8 } from 'node:buffer';
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
  /**
   * Set on the last line of an input that reading stopped in: no line end came within twice
   * `maxLineBytes` and at least {@link ENDLESS_FLOOR_BYTES} (an endless input such as a pipe with
   * no newline), or the input
   * opened with NUL bytes and no line end within {@link BINARY_SNIFF_BYTES} (a binary file).
   */
  stopped?: 'endless' | 'binary';
  /**
   * With {@link LineReaderOptions.blankRuns}: this empty line stands for `blanks` empty lines in a
   * row (lines `line` to `line + blanks - 1`); set only when there are two or more.
   */
  blanks?: number;
}

/** The least number of bytes with no line end after which reading stops (see `Line.stopped`): 64 MiB. */
export const ENDLESS_FLOOR_BYTES = 64 * 1024 * 1024;

/** Bytes read at the start of an input before one without a line end but with NUL bytes is called binary. */
export const BINARY_SNIFF_BYTES = 8192;

export interface LineReaderOptions {
  /** Longest line kept, in bytes; longer lines are reported `tooLong` with empty text. */
  maxLineBytes?: number;
  /**
   * Bytes of ASCII text decoded at once ahead of the line being read (default
   * {@link DEFAULT_DECODE_WINDOW_BYTES}). Only speed depends on it; tests set a few bytes to reach
   * every window boundary.
   */
  decodeWindowBytes?: number;
  /**
   * Give a run of empty lines in a chunk as one {@link Line} with `blanks` set, instead of one
   * line each (default false). For readers to which a run of blank lines means what one does
   * (JSON Lines, JSON documents, SSE framing): a file of blank lines was read at 1-2 MB/s.
   */
  blankRuns?: boolean;
}

/** Default cap on one line: 256 MiB. A 100 MB line is read; a larger one is reported and skipped. */
export const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

function decodeLine(buf: Buffer, line: number): Line {
  let start = 0;
  if (line === 1 && buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
  const body = buf.subarray(start);
  const hasNul = body.includes(0);
  try {
    return { line, text: strictDecoder.decode(body), bytes: body.length, invalidUtf8: false, tooLong: false, hasNul };
  } catch {
    return { line, text: lenientDecoder.decode(body), bytes: body.length, invalidUtf8: true, tooLong: false, hasNul };
  }
}

/** The line being assembled across chunks, capped at `max` bytes. */
class PendingLine {
  private parts: Buffer[] = [];
  private partBytes = 0;
  /** Bytes of the current line counted but dropped because it is too long (0 while it fits). */
  private overflowBytes = 0;

  constructor(private readonly max: number) {}

  get empty(): boolean {
    return this.partBytes === 0 && this.overflowBytes === 0;
  }

  /** Bytes of the current line so far. */
  get size(): number {
    return this.overflowBytes + this.partBytes;
  }

  /** True when the held (not yet overflowed) bytes of the line start with NUL bytes within `n`. */
  nulWithin(n: number): boolean {
    let seen = 0;
    for (const p of this.parts) {
      const k = p.subarray(0, n - seen).indexOf(0);
      if (k >= 0) return true;
      seen += p.length;
      if (seen >= n) break;
    }
    return false;
  }

  /** Adds bytes of the current line (copied: the stream may reuse its chunk buffer). */
  add(piece: Buffer): void {
    if (this.overflowBytes > 0 || this.partBytes + piece.length > this.max) {
      this.overflowBytes += this.partBytes + piece.length;
      this.parts = [];
      this.partBytes = 0;
    } else if (piece.length > 0) {
      this.parts.push(Buffer.from(piece));
      this.partBytes += piece.length;
    }
  }

  /** Ends the current line with `tail` (its last bytes, not copied) and starts a new one. */
  finish(tail: Buffer, line: number): Line {
    const fits = this.overflowBytes === 0 && this.partBytes + tail.length <= this.max;
    const bytes = this.overflowBytes + this.partBytes + tail.length;
    const buf = !fits || this.parts.length === 0 ? tail : Buffer.concat([...this.parts, tail]);
    this.parts = [];
    this.partBytes = 0;
    this.overflowBytes = 0;
    if (fits) return decodeLine(buf, line);
    return { line, text: '', bytes, invalidUtf8: false, tooLong: true, hasNul: false };
  }
}

/**
 * Bytes of a chunk decoded at once ahead of the line being read (when ASCII): small enough that
 * the string is an ordinary young object (V8 puts strings over 128 KiB in large-object space,
 * which made a 256 KiB decode ~6x slower per byte), large enough to span many lines.
 */
export const DEFAULT_DECODE_WINDOW_BYTES = 32 * 1024;

/** The smallest window checked ahead of an ASCII line in a chunk that is not all ASCII. */
const MIN_WINDOW_BYTES = 1024;

/**
 * The complete lines of one chunk from a given byte offset to its last line end, decoded with
 * one UTF-8 check for them all instead of one strict decode per line. Built only when those
 * bytes are valid UTF-8 (`isUtf8`), so each line's text is what a strict per-line decode gives.
 * Runs of ASCII bytes (nearly all of a capture) are decoded a window at a time as Latin-1, one
 * char per byte, and each line is a slice of that; a line holding other bytes is decoded alone.
 * When the chunk is not all ASCII, the window ahead of an ASCII line is checked first and shrinks
 * while checks fail (down to {@link MIN_WINDOW_BYTES}), so text where most lines hold other
 * bytes costs about one check and one decode per line.
 */
class ChunkText {
  /** Decoded ASCII bytes `segFrom`..`segTo` of `buf` (one char per byte). */
  private seg = '';
  private segFrom = 0;
  private segTo = 0;
  /** Offset of the next NUL byte at or after the current line (-1: none up to the region end). */
  private nul: number;
  /** Bytes decoded ahead of the next line that misses the run: halves when its check fails, doubles when it passes. */
  private window: number;

  private constructor(
    private readonly buf: Buffer,
    from: number,
    /** Offset just past the region's last line end. */
    private readonly limit: number,
    /** Every byte up to `limit` is ASCII. */
    private readonly ascii: boolean,
    /** Most bytes decoded at once ahead of a line (at least the line). */
    private readonly maxWindow: number,
  ) {
    this.window = maxWindow;
    const nul = buf.indexOf(0, from);
    this.nul = nul >= limit ? -1 : nul;
  }

  /** The decoded lines of `buf` from `from` to its last line end, or null when those bytes are not valid UTF-8. */
  static of(buf: Buffer, from: number, window: number): ChunkText | null {
    const limit = Math.max(buf.lastIndexOf(LF), buf.lastIndexOf(CR)) + 1;
    const region = buf.subarray(from, limit);
    if (isAscii(region)) return new ChunkText(buf, from, limit, true, window);
    if (isUtf8(region)) return new ChunkText(buf, from, limit, false, window);
    return null;
  }

  /** The line of bytes `from`..`end` (exclusive; `buf[end]` is its LF or CR), numbered `line`. */
  line(from: number, end: number, line: number, max: number): Line {
    const bytes = end - from;
    if (bytes > max) return { line, text: '', bytes, invalidUtf8: false, tooLong: true, hasNul: false };
    let text: string;
    if (from >= this.segFrom && end <= this.segTo) text = this.seg.slice(from - this.segFrom, end - this.segFrom);
    else if (this.ascii) {
      this.decode(from, Math.min(this.limit, Math.max(end, from + this.window)));
      text = this.seg.slice(0, bytes);
    } else if (!isAscii(this.buf.subarray(from, end))) text = this.buf.toString('utf8', from, end);
    else {
      // an ASCII line: decode the window after it too if that is ASCII, else the line alone
      const to = Math.min(this.limit, from + this.window);
      if (to > end && isAscii(this.buf.subarray(end, to))) {
        this.decode(from, to);
        this.window = Math.min(this.maxWindow, this.window * 2);
      } else {
        this.decode(from, end);
        this.window = Math.max(Math.min(MIN_WINDOW_BYTES, this.maxWindow), this.window >>> 1);
      }
      text = this.seg.slice(0, bytes);
    }
    if (this.nul !== -1 && this.nul < from) {
      const nul = this.buf.indexOf(0, from);
      this.nul = nul >= this.limit ? -1 : nul;
    }
    return { line, text, bytes, invalidUtf8: false, tooLong: false, hasNul: this.nul !== -1 && this.nul < end };
  }

  /** Decodes the ASCII bytes `from`..`to` as the current run. */
  private decode(from: number, to: number): void {
    this.seg = this.buf.toString('latin1', from, to);
    this.segFrom = from;
    this.segTo = to;
  }
}

/**
 * Reads `input` line by line.
 *
 * @param input a byte stream (a file stream or stdin).
 * @param options `maxLineBytes` (bytes, default {@link DEFAULT_MAX_LINE_BYTES}); `decodeWindowBytes` (bytes, speed only).
 * @returns an async iterable of {@link Line}; a final line without a terminator is yielded too,
 *   an empty input yields nothing. Lines end at LF, CRLF or a lone CR.
 * @throws whatever the underlying stream emits (e.g. EACCES, EISDIR) on its first read.
 */
export async function* readLines(input: Readable, options: LineReaderOptions = {}): AsyncGenerator<Line> {
  for await (const batch of readLineBatches(input, options)) yield* batch;
}

/**
 * Reads `input` as batches of lines: the lines that each chunk of the stream completes, in order
 * (one async step per chunk instead of one per line; the same lines as {@link readLines}). A
 * batch holds at most one chunk's lines (plus the line the chunk completes), so memory stays
 * bounded by the stream's chunk size and `maxLineBytes`; chunks that complete no line yield
 * nothing.
 *
 * @param input a byte stream (a file stream or stdin), or any async iterable of its chunks.
 * @param options `maxLineBytes` (bytes, default {@link DEFAULT_MAX_LINE_BYTES}); `decodeWindowBytes` (bytes, speed only).
 * @returns an async iterable of non-empty arrays of {@link Line}.
 * @throws whatever the underlying stream emits (e.g. EACCES, EISDIR).
 */
export async function* readLineBatches(input: Readable | AsyncIterable<Buffer | string>, options: LineReaderOptions = {}): AsyncGenerator<Line[]> {
  yield* readUtf8LineBatches(utf8Chunks(input), options);
}

/**
 * True when the bytes after a UTF-16 byte order mark look like UTF-16 text of a capture: JSON and
 * SSE open with ASCII characters, each a code unit with a zero byte, so 32 code units with none
 * are two stray bytes before UTF-8 text (its first line is then damaged, the rest read).
 */
function looksUtf16(buf: Buffer): boolean {
  const end = Math.min(buf.length, 2 + 64);
  if (end < 6) return true;
  for (let i = 2; i < end; i++) if (buf[i] === 0) return true;
  return false;
}

/**
 * The UTF-16 encoding of an input that opens without a byte order mark, judged on its first bytes
 * (what `Out-File -Encoding Unicode` without a mark, .NET's `Encoding.Unicode.GetBytes` and
 * iconv's `UTF-16LE` write), or null. A capture opens with ASCII (`{`, `[`, `data:`), so: the
 * first two code units ASCII (a printable character or whitespace, the other byte zero), one
 * printable among the units, no U+0000 unit, and at least three quarters of the units in the first 64 bytes with a zero high
 * byte (text in other scripts may follow). Binary data, whose NUL bytes fall anywhere, is still
 * BINARY_FILE.
 */
export function utf16WithoutBom(buf: Buffer): 'utf-16le' | 'utf-16be' | null {
  const units = Math.min(buf.length, 64) >> 1;
  if (units < 2) return null;
  // one unit at least a printable character: `\0\n\0\n` is two NUL lines of UTF-8 as much as two
  // blank lines of UTF-16 BE, and is read as written
  const ascii = (c: number) => (c >= 0x20 && c <= 0x7e) || (c >= 0x09 && c <= 0x0d);
  for (const [lo, hi, name] of [[0, 1, 'utf-16le'], [1, 0, 'utf-16be']] as const) {
    if (!ascii(buf[lo]!) || buf[hi] !== 0 || !ascii(buf[2 + lo]!) || buf[2 + hi] !== 0) continue;
    let zeroHigh = 0;
    let nulUnit = false;
    let printable = false;
    for (let i = 0; i < units; i++) {
      const l = buf[2 * i + lo]!;
      const h = buf[2 * i + hi]!;
      if (h === 0) zeroHigh++;
      if (l === 0 && h === 0) nulUnit = true;
      if (h === 0 && l >= 0x21 && l <= 0x7e) printable = true;
    }
    if (!nulUnit && printable && zeroHigh * 4 >= units * 3) return name;
  }
  return null;
}

/**
 * The input's bytes as UTF-8: an input that opens with a UTF-16 byte order mark (FF FE little
 * endian, FE FF big endian: what Windows PowerShell's `>` writes) is decoded from UTF-16 (WHATWG
 * Encoding Standard, https://encoding.spec.whatwg.org/#utf-16le) chunk by chunk and re-encoded, so
 * its lines are read as usual (unless no zero byte follows the mark: {@link looksUtf16}); so is
 * one without a mark whose first bytes are UTF-16 text ({@link utf16WithoutBom}); any
 * other input passes through unchanged. Unpaired surrogates
 * become U+FFFD, as the decoder does. `guard scan`'s line reader and `guard replay` both read
 * through it, so the two commands take the same encodings.
 *
 * @param input the input's chunks (Buffers; strings are taken as UTF-8), in any chunking.
 * @returns the same input as UTF-8 Buffers (UTF-16 decoded and re-encoded; the mark dropped).
 */
export async function* utf8Chunks(input: AsyncIterable<unknown>): AsyncGenerator<Buffer> {
  let decoder: TextDecoder | null | undefined;
  // the encoding is judged on the first HEAD_BYTES bytes however the input is chunked: a stream
  // that hands over 4 bytes at a time is read as the same file read at once; an input whose first
  // two bytes rule UTF-16 out (the usual case) is passed on at once, so a live capture's first
  // record is not held back
  let head: Buffer[] = [];
  const decide = (buf: Buffer): TextDecoder | null => {
    const bom = bomOf(buf);
    if (bom) return looksUtf16(buf) ? new TextDecoder(bom, { fatal: false, ignoreBOM: false }) : null;
    const bare = utf16WithoutBom(buf);
    return bare ? new TextDecoder(bare, { fatal: false, ignoreBOM: false }) : null;
  };
  function* pass(buf: Buffer): Generator<Buffer> {
    if (!decoder) yield buf;
    else {
      const text = decoder.decode(buf, { stream: true });
      if (text !== '') yield Buffer.from(text, 'utf8');
    }
  }
  // decides on the held chunks, then passes them on as they came (a batch never holds more than a chunk's lines)
  function* flush(first: Buffer): Generator<Buffer> {
    decoder = decide(first);
    for (const c of head) yield* pass(c);
    head = [];
  }
  for await (const chunk of input) {
    const buf: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    if (buf.length === 0) continue;
    if (decoder !== undefined) {
      yield* pass(buf);
      continue;
    }
    head.push(buf);
    const first = head.length === 1 ? head[0]! : Buffer.concat(head);
    if (first.length < HEAD_BYTES && mayOpenUtf16(first)) continue;
    yield* flush(first);
  }
  if (decoder === undefined && head.length > 0) yield* flush(Buffer.concat(head));
  if (decoder) {
    const rest = decoder.decode();
    if (rest !== '') yield Buffer.from(rest, 'utf8');
  }
}

/**
 * True while the first bytes of an input (fewer than {@link HEAD_BYTES}) could still open UTF-16:
 * fewer than two bytes, a byte order mark, or a zero among the first two (an ASCII code unit).
 */
function mayOpenUtf16(buf: Buffer): boolean {
  return buf.length < 2 || bomOf(buf) !== null || buf[0] === 0 || buf[1] === 0;
}

/** The UTF-16 encoding named by a byte order mark at the start (FF FE little endian, FE FF big endian), or null. */
function bomOf(buf: Buffer): 'utf-16le' | 'utf-16be' | null {
  if (buf[0] === 0xff && buf[1] === 0xfe) return 'utf-16le';
  if (buf[0] === 0xfe && buf[1] === 0xff) return 'utf-16be';
  return null;
}

/** Bytes the encoding of an input is judged on: a byte order mark and the 64 bytes after it. */
const HEAD_BYTES = 66;

async function* readUtf8LineBatches(input: AsyncIterable<Buffer>, options: LineReaderOptions): AsyncGenerator<Line[]> {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const window = Math.max(1, options.decodeWindowBytes ?? DEFAULT_DECODE_WINDOW_BYTES);
  const runs = options.blankRuns === true;
  const pending = new PendingLine(max);
  let lineNo = 0;
  /** The previous chunk ended with CR: an LF opening the next chunk completes that CRLF. */
  let skipLf = false;

  for await (const buf of input) {
    const batch: Line[] = [];
    let from = 0;
    if (skipLf) {
      skipLf = false;
      if (buf[0] === LF) from = 1;
    }
    // The chunk's first line end completes the line pending from earlier chunks (and line 1 may
    // open with a BOM): that line is decoded on its own. The lines after it lie wholly in this
    // chunk and are decoded together (ChunkText), or one by one when the bytes are not valid UTF-8.
    let text: ChunkText | null | undefined; // built at the second line end; null: not valid UTF-8
    // next LF / CR at or after `from`, each searched again only once passed (-1: none left)
    let lf = buf.indexOf(LF, from);
    let cr = buf.indexOf(CR, from);
    for (;;) {
      if (lf !== -1 && lf < from) lf = buf.indexOf(LF, from);
      if (cr !== -1 && cr < from) cr = buf.indexOf(CR, from);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) {
        pending.add(buf.subarray(from));
        break;
      }
      if (batch.length === 0) batch.push(pending.finish(buf.subarray(from, end), ++lineNo));
      else {
        if (text === undefined) text = ChunkText.of(buf, from, window);
        batch.push(text ? text.line(from, end, ++lineNo, max) : pending.finish(buf.subarray(from, end), ++lineNo));
      }
      from = end + 1;
      if (buf[end] === CR) {
        if (from === buf.length) skipLf = true;
        else if (buf[from] === LF) from++;
      }
      // a run of blank lines is numbered here, without a search and a decode per line (a file of
      // blank lines was read at 1-2 MB/s); a CR that ends the chunk is left to the search above,
      // which knows to wait for an LF in the next chunk
      let blanks = 0;
      while (from < buf.length) {
        const c = buf[from]!;
        if (c === LF) from++;
        else if (c === CR && from + 1 < buf.length) from += buf[from + 1] === LF ? 2 : 1;
        else break;
        if (runs) blanks++;
        else batch.push({ line: ++lineNo, text: '', bytes: 0, invalidUtf8: false, tooLong: false, hasNul: false });
      }
      if (blanks > 0) {
        const blank: Line = { line: lineNo + 1, text: '', bytes: 0, invalidUtf8: false, tooLong: false, hasNul: false };
        if (blanks > 1) blank.blanks = blanks;
        batch.push(blank);
        lineNo += blanks;
      }
    }
    // no line end for too long: an input that never ends a line is stopped, never read forever
    if (lineNo === 0 && pending.size >= BINARY_SNIFF_BYTES && pending.nulWithin(BINARY_SNIFF_BYTES)) {
      batch.push({ line: ++lineNo, text: '', bytes: pending.size, invalidUtf8: false, tooLong: true, hasNul: true, stopped: 'binary' });
      yield batch;
      return;
    }
    if (pending.size > Math.max(2 * max, ENDLESS_FLOOR_BYTES)) {
      batch.push({ line: ++lineNo, text: '', bytes: pending.size, invalidUtf8: false, tooLong: true, hasNul: false, stopped: 'endless' });
      yield batch;
      return;
    }
    if (batch.length > 0) yield batch;
  }
  if (!pending.empty) yield [pending.finish(Buffer.alloc(0), ++lineNo)];
}
