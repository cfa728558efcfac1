/**
 * SSE frames for replay: the input split into events with their raw text kept, so an event guard
 * does not change goes out byte for byte, and the serialisation of the events guard makes or
 * rewrites.
 *
 * Framing follows the WHATWG event-stream rules as summarised in
 * ../shared/research/capture-formats.md §6: lines end at CRLF, LF or a lone CR (a CR at the end of
 * a chunk waits for the next chunk), a blank line ends an event, a trailing event without its blank
 * line is still delivered (captures are often cut). Field parsing (comments, `data:` with or
 * without its space, multi-line data joined with `\n`, `event`, `id`) is done by
 * `eventsource-parser`, fed one event at a time.
 */

import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** How a capture holds its events: a raw `text/event-stream` body, or one `data` payload per line
 * (the `*.chunks.jsonl` form, capture-formats.md §0). */
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

/** Splits text into lines, keeping each line's terminator; a CR at the very end waits. */
class LineSplitter {
  private buf = '';
  private line = 0;

  /** Lines completed by `chunk`: text without terminator, raw with it, 1-based number. */
  *push(chunk: string, end: boolean): Generator<{ text: string; raw: string; line: number }> {
    this.buf += chunk;
    let start = 0;
    for (let i = 0; i < this.buf.length; i++) {
      const c = this.buf.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) continue;
      let stop = i + 1;
      if (c === 0x0d) {
        if (i + 1 === this.buf.length && !end) break; // CR at the chunk end: CRLF or lone CR?
        if (this.buf.charCodeAt(i + 1) === 0x0a) stop = i + 2;
      }
      yield { text: this.buf.slice(start, i), raw: this.buf.slice(start, stop), line: ++this.line };
      start = stop;
      i = stop - 1;
    }
    this.buf = this.buf.slice(start);
    if (end && this.buf !== '') {
      yield { text: this.buf, raw: this.buf, line: ++this.line };
      this.buf = '';
    }
  }
}

/**
 * Splits a raw SSE body into frames, keeping each frame's raw text (its lines and the blank line
 * that ends it). Blank lines between events become frames of their own (raw only), so
 * concatenating every frame's `raw` gives the input back exactly. One leading BOM stays in the
 * first frame's raw text and is ignored for parsing.
 *
 * @param chunks the body as decoded text, in any chunking.
 * @returns the frames in order. Never throws on content; memory holds one event at a time.
 */
export async function* readSseFrames(chunks: AsyncIterable<string>): AsyncGenerator<SseFrame> {
  const lines = new LineSplitter();
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
  const take = function* (l: { text: string; raw: string; line: number }): Generator<SseFrame> {
    let text = l.text;
    if (first && text.startsWith('\uFEFF')) text = text.slice(1);
    first = false;
    if (raw === '') startLine = l.line;
    raw += l.raw;
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
 */
export async function* readJsonlFrames(chunks: AsyncIterable<string>): AsyncGenerator<SseFrame> {
  const lines = new LineSplitter();
  let first = true;
  const take = (l: { text: string; raw: string; line: number }): SseFrame => {
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
