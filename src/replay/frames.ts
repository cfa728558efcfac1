/**
 * SSE frames for replay: the input split into events with their raw text kept, so an event guard
 * does not change goes out byte for byte, and the serialisation of the events guard makes or
 * rewrites.
 *
 * Framing follows the event-stream rules of the WHATWG HTML Living Standard §9.2 Server-sent events
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html; summarised with guard's additions
 * in docs/sources.md "SSE parsing"): lines end at CRLF, LF or a lone CR (a CR at the end of
 * a chunk waits for the next chunk), a blank line ends an event, a trailing event without its blank
 * line is still delivered (captures are often cut). Field parsing (comments, `data:` with or
 * without its space, multi-line data joined with `\n`, `event`, `id`) is done by
 * `eventsource-parser`, fed one event at a time.
 */

import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** How a capture holds its events: a raw `text/event-stream` body, or one `data` payload per line
 * (the `*.chunks.jsonl` form, guard's `*-chunks` formats: README.md "Formats guard reads"). */
export type Wire = 'sse' | 'jsonl';

/** One event of a stream (or one block of lines without data: comments, stray blank lines). */
export interface SseFrame {
  /** The text exactly as read, terminators included; absent on frames guard made or rewrote. */
  raw?: string;
  /** 1-based line where the frame starts in the input; 0 for frames guard made. */
  line: number;
  /** The `event:` field, if any. */
  event?: string;
  /** The `id:` field, if any. */
  id?: string;
  /** The `data` value (lines joined with `\n`); undefined for a block with no data (comment). */
  data?: string;
}

/** One line of the input: its text without terminator, its raw text with it, its 1-based number. */
interface Line {
  text: string;
  raw: string;
  line: number;
}

/**
 * Splits text into lines, keeping each line's terminator; a CR at the very end of a chunk waits for
 * the next chunk (CRLF or a lone CR). Linear in the input whatever the chunking: each chunk is
 * scanned once, and a line that spans many chunks is kept as its pieces and joined once when it
 * ends (scanning the whole unfinished line again on every chunk made a 16 MB line quadratic).
 */
/**
 * Longest line, and longest frame, replay reads, in characters: the default line limit of
 * `guard scan` (256 Mi). An input that never ends a line (`/dev/zero`, a pipe with no newline)
 * was read for ever, holding every character.
 */
export const MAX_FRAME_CHARS = 256 * 1024 * 1024;

/** Characters read before an input that opens with a NUL and has ended no line is called binary (as `guard scan` does). */
const BINARY_SNIFF_CHARS = 8192;

/** The input is past a limit of {@link readSseFrames} / {@link readJsonlFrames}: reading stopped at `line`. */
export class FrameLimitError extends Error {
  constructor(
    readonly line: number,
    readonly code: 'LINE_TOO_LONG' | 'BINARY_FILE',
    message: string,
  ) {
    super(message);
    this.name = 'FrameLimitError';
  }
}

class LineSplitter {
  /** Pieces of the line being read (no terminator seen yet). */
  private parts: string[] = [];
  /** Characters in `parts`. */
  private partChars = 0;
  /** The line's text is complete and its terminator began with a CR that ended the last chunk. */
  private cr = false;
  private line = 0;
  /** The first line was checked for NUL characters (binary input). */
  private sniffed = false;

  constructor(private readonly maxChars: number) {}

  /** Keeps a piece of the unfinished line; throws FrameLimitError past the limits. */
  private hold(piece: string): void {
    this.parts.push(piece);
    this.partChars += piece.length;
    if (!this.sniffed && this.line === 0 && this.partChars >= BINARY_SNIFF_CHARS) {
      this.sniffed = true; // once: scanning the held pieces on every chunk made an endless line quadratic
      if (this.parts.some((p) => p.includes('\u0000'))) throw new FrameLimitError(1, 'BINARY_FILE', `the input holds NUL bytes and no line end in its first ${BINARY_SNIFF_CHARS} characters: it is binary, not a stream; not read`);
    }
    if (this.partChars > this.maxChars) {
      throw new FrameLimitError(this.line + 1, 'LINE_TOO_LONG', `no line end within ${this.partChars} characters (the limit is ${this.maxChars}): reading stopped here`);
    }
  }

  /** Lines completed by `chunk` (`end`: no more input follows). */
  *push(chunk: string, end: boolean): Generator<Line> {
    let start = 0;
    if (this.cr) {
      if (chunk === '' && !end) return;
      const crlf = chunk.charCodeAt(0) === 0x0a;
      yield this.take('', crlf ? '\r\n' : '\r');
      this.cr = false;
      start = crlf ? 1 : 0;
    }
    for (let i = start; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) continue;
      if (c === 0x0d && i + 1 === chunk.length && !end) {
        this.hold(chunk.slice(start, i));
        this.cr = true;
        return;
      }
      const stop = c === 0x0d && chunk.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1;
      yield this.take(chunk.slice(start, i), chunk.slice(i, stop));
      start = stop;
      i = stop - 1;
    }
    if (start < chunk.length) this.hold(chunk.slice(start));
    if (end && this.parts.length > 0) yield this.take('', '');
  }

  /** Ends the current line with its last piece `tail` and terminator `eol`. */
  private take(tail: string, eol: string): Line {
    const text = this.parts.length === 0 ? tail : this.parts.join('') + tail;
    this.parts = [];
    this.partChars = 0;
    return { text, raw: eol === '' ? text : text + eol, line: ++this.line };
  }
}

/**
 * Splits a raw SSE body into frames, keeping each frame's raw text (its lines and the blank line
 * that ends it). Blank lines between events become frames of their own (raw only), so
 * concatenating every frame's `raw` gives the input back exactly. One leading BOM stays in the
 * first frame's raw text and is ignored for parsing.
 *
 * @param chunks the body as decoded text, in any chunking.
 * @param maxChars the longest line, and the longest event, read (default {@link MAX_FRAME_CHARS}).
 * @returns the frames in order; memory holds one event at a time.
 * @throws FrameLimitError when a line or an event is longer than `maxChars` (an endless input),
 *   or the input opens with NUL characters and no line end (binary); the frames before it were
 *   given.
 */
export async function* readSseFrames(chunks: AsyncIterable<string>, maxChars = MAX_FRAME_CHARS): AsyncGenerator<SseFrame> {
  const lines = new LineSplitter(maxChars);
  let got: EventSourceMessage | null = null;
  const parser = createParser({ onEvent: (m) => void (got = m) });
  let raw = '';
  let body: string[] = [];
  let startLine = 0;
  let first = true;
  const frame = (): SseFrame => {
    got = null;
    if (body.length > 0) parser.feed(`${body.join('\n')}\n\n`);
    const m = got as EventSourceMessage | null;
    const f: SseFrame = { raw, line: startLine };
    if (m) {
      f.data = m.data;
      if (m.event !== undefined) f.event = m.event;
      if (m.id !== undefined) f.id = m.id;
    }
    raw = '';
    body = [];
    return f;
  };
  const take = function* (l: Line): Generator<SseFrame> {
    let text = l.text;
    if (first && text.startsWith('\uFEFF')) text = text.slice(1);
    first = false;
    if (raw === '') startLine = l.line;
    raw += l.raw;
    if (raw.length > maxChars) throw new FrameLimitError(startLine, 'LINE_TOO_LONG', `an event of over ${maxChars} characters with no blank line to end it: reading stopped here`);
    if (text === '') yield frame();
    else body.push(text);
  };
  for await (const chunk of chunks) for (const l of lines.push(chunk, false)) yield* take(l);
  for (const l of lines.push('', true)) yield* take(l);
  if (raw !== '') yield frame();
}

/**
 * Splits a `*.chunks.jsonl` capture into frames: each non-blank line is one event's `data`;
 * blank lines are kept as raw-only frames.
 *
 * @param chunks the file as decoded text, in any chunking.
 * @param maxChars the longest line read (default {@link MAX_FRAME_CHARS}).
 * @throws FrameLimitError as {@link readSseFrames}.
 */
export async function* readJsonlFrames(chunks: AsyncIterable<string>, maxChars = MAX_FRAME_CHARS): AsyncGenerator<SseFrame> {
  const lines = new LineSplitter(maxChars);
  let first = true;
  const take = (l: Line): SseFrame => {
    let text = l.text;
    if (first && text.startsWith('\uFEFF')) text = text.slice(1);
    first = false;
    return text.trim() === '' ? { raw: l.raw, line: l.line } : { raw: l.raw, line: l.line, data: text };
  };
  for await (const chunk of chunks) for (const l of lines.push(chunk, false)) yield take(l);
  for (const l of lines.push('', true)) yield take(l);
}

/**
 * The text of a frame on the wire: its raw text when it has one, otherwise `event:`/`id:`/`data:`
 * lines and a blank line (SSE; a `data` value holding line ends is split over several `data:`
 * lines), or the data value and a line end (JSONL).
 */
export function formatFrame(frame: SseFrame, wire: Wire): string {
  if (frame.raw !== undefined) return frame.raw;
  if (wire === 'jsonl') return frame.data === undefined ? '\n' : `${frame.data}\n`;
  let out = '';
  if (frame.event !== undefined) out += `event: ${frame.event}\n`;
  if (frame.id !== undefined) out += `id: ${frame.id}\n`;
  for (const d of (frame.data ?? '').split(/\r\n|\r|\n/)) out += `data: ${d}\n`;
  return `${out}\n`;
}
