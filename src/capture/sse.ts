/**
 * Reads raw `text/event-stream` bodies (OpenAI Chat, Anthropic Messages, OpenAI Responses) into
 * normalised replies.
 *
 * SSE framing is done by the `eventsource-parser` package (the event-stream rules of the WHATWG
 * HTML Living Standard §9.2 Server-sent events,
 * https://html.spec.whatwg.org/multipage/server-sent-events.html: CRLF, LF and lone CR line ends,
 * `:` comments, `data:` with or without the space, multi-line data joined with `\n`); guard adds
 * what captures need on top (docs/sources.md "SSE parsing"): a trailing event without a final blank
 * line is still dispatched, a leading BOM is dropped, each event is tagged with the 1-based line
 * where it starts, and a `data` value that is not JSON is reported (INVALID_JSON) without stopping
 * the read. The API is sniffed from the first recognisable payload (src/capture/streams/index.ts).
 */

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { CappedReports } from './capped.js';
import type { Line } from './lines.js';
import {
  createStreamAccumulator,
  fitsStreamApi,
  knownStreamEvent,
  SSE_FORMAT,
  CAPTURE_STREAM_API_NAMES,
  STREAM_APIS,
  sniffCaptureStreamPayload,
  type StreamAccumulator,
  type CaptureStreamApi,
  type StreamOutput,
} from './streams/index.js';
import { emptyOutput, isObject, mergeOutput } from './streams/common.js';
import type { AdvertisedTool, CaptureError, CaptureFormat, CaptureItem } from './types.js';
import { jsonErrorMessage } from '../base/json.js';

/** Events held while no payload has said which API the stream is; more are dropped (and reported). */
const MAX_PENDING_EVENTS = 64;

interface SessionContext {
  file: string;
  advertised: AdvertisedTool[] | null;
  /**
   * The API the user forced; otherwise it is sniffed from the payloads. With a forced API, an
   * event that does not fit it ({@link fitsStreamApi}) is an INVALID_RECORD error, not read.
   */
  api?: CaptureStreamApi | undefined;
  /** Format stamped on replies; defaults to the API's `-sse` format. */
  format?: CaptureFormat | undefined;
}

interface DecodedEvent {
  payload: unknown;
  event: string | undefined;
  line: number;
}

/**
 * One SSE body being read: text goes in (`feed`, with the line it came from), replies and errors
 * come out. Holds at most one pending SSE event plus one open reply.
 */
class SseSession {
  private readonly parser;
  /** Events the parser dispatched and not yet read (reassigned, not truncated: cheaper in V8). */
  private ready: { msg: EventSourceMessage; line: number }[] = [];
  /** Line where the event being framed started (null between events). */
  private startLine: number | null = null;
  private currentLine = 0;
  private acc: StreamAccumulator | null = null;
  /** The stream's API, once known (forced, or sniffed from its first recognisable event). */
  private api: CaptureStreamApi | null = null;
  /** Events the stream's API does not define: listed up to a cap, then counted. */
  private readonly unknown: CappedReports;
  private pending: DecodedEvent[] = [];
  private dropped = 0;
  private firstUnknownLine: number | null = null;
  /** Events that do not fit the forced API: listed up to a cap, then counted. */
  private readonly misfits: CappedReports;

  constructor(private readonly ctx: SessionContext) {
    const forced = ctx.api ? (ctx.format ?? SSE_FORMAT[ctx.api]) : 'none';
    this.misfits = new CappedReports(ctx.file, 'INVALID_RECORD', `SSE events not in the forced input format ${forced}`);
    this.unknown = new CappedReports(ctx.file, 'UNKNOWN_FORMAT', 'SSE events the stream\'s API does not define');
    this.parser = createParser({
      onEvent: (msg) => {
        this.ready.push({ msg, line: this.startLine ?? this.currentLine });
        this.startLine = null;
      },
    });
  }

  /**
   * Feeds text that came from `line` (one physical line plus '\n', or a whole body). `startsEvent`
   * says whether this text can open an event (not blank, not a comment).
   */
  feed(text: string, line: number, startsEvent: boolean): StreamOutput {
    this.mark(line, startsEvent);
    this.parser.feed(text);
    if (text === '\n') this.startLine = null; // a blank line ends any event, dispatched or not
    return this.drain();
  }

  /**
   * Notes that the line `line` is next, before its text is fed: `startsEvent` says whether it
   * can open an event (not blank, not a comment). Lines noted and then fed together with
   * {@link feedLines} are framed exactly as if fed one by one, since only a blank line
   * dispatches an event.
   */
  mark(line: number, startsEvent: boolean): void {
    this.currentLine = line;
    if (startsEvent && this.startLine === null) this.startLine = line;
  }

  /**
   * Feeds the text of lines already {@link mark}ed (each ending in '\n'); `blank` says that the
   * last of them is a blank line (it ends any event, dispatched or not). Appends what the events
   * complete to `out`.
   */
  feedLines(text: string, blank: boolean, out: StreamOutput): void {
    this.parser.feed(text);
    if (blank) this.startLine = null;
    if (this.ready.length > 0) this.drainInto(out);
  }

  /**
   * End of input: dispatches a trailing event that lacks its blank line (or even its line end:
   * the first '\n' ends the line, the second is the blank line), then closes the stream.
   * eventsource-parser's `reset({consume:true})` alone does not dispatch it (checked in v3.1.1).
   */
  end(): StreamOutput {
    this.parser.feed('\n\n');
    this.parser.reset({ consume: true });
    const out = this.drain();
    for (const summary of [this.misfits.summary(), this.unknown.summary()]) if (summary) out.errors.push(summary);
    if (this.acc) return mergeOutput(out, this.guarded(this.startLine ?? this.currentLine, () => this.acc!.finish()));
    if (this.firstUnknownLine !== null || this.pending.length > 0 || this.dropped > 0) {
      const apis = CAPTURE_STREAM_API_NAMES.map((a) => STREAM_APIS[a].title).join(', ');
      const only = this.firstUnknownLine === null ? ' (it holds only keep-alives and [DONE] sentinels)' : '';
      out.errors.push({
        file: this.ctx.file,
        line: this.firstUnknownLine ?? this.pending[0]?.line ?? null,
        code: 'UNKNOWN_FORMAT',
        message: `no SSE event here belongs to a known streaming API (${apis})${only}; ${this.pending.length + this.dropped} events skipped`,
        severity: 'error',
      });
    }
    return out;
  }

  private drain(): StreamOutput {
    const out = emptyOutput();
    this.drainInto(out);
    return out;
  }

  /** Reads the events the parser dispatched, appending their output to `out`. */
  private drainInto(out: StreamOutput): void {
    const ready = this.ready;
    this.ready = [];
    for (const { msg, line } of ready) {
      try {
        mergeOutput(out, this.onMessage(msg, line));
      } catch (e) {
        out.errors.push(this.readError(line, e));
      }
    }
  }

  /** Runs one step; an exception becomes an INVALID_RECORD error at `line` and reading goes on. */
  private guarded(line: number, run: () => StreamOutput): StreamOutput {
    try {
      return run();
    } catch (e) {
      const out = emptyOutput();
      out.errors.push(this.readError(line, e));
      return out;
    }
  }

  /** The INVALID_RECORD error for an event whose reading threw `e`. */
  private readError(line: number, e: unknown): CaptureError {
    return this.error(line, 'INVALID_RECORD', `the SSE event could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }

  private onMessage(msg: EventSourceMessage, line: number): StreamOutput {
    const data = msg.data;
    if (data.trim() === '') return emptyOutput(); // keep-alive
    let payload: unknown;
    if (data.trim() === '[DONE]') payload = '[DONE]';
    else {
      try {
        payload = JSON.parse(data);
      } catch (e) {
        const out = emptyOutput();
        out.errors.push(this.error(line, 'INVALID_JSON', `SSE data is not valid JSON: ${jsonErrorMessage(e)}`));
        return out;
      }
    }
    const ev: DecodedEvent = { payload, event: msg.event, line };
    if (this.ctx.api && !fitsStreamApi(this.ctx.api, payload, msg.event)) {
      const out = emptyOutput();
      const like = sniffCaptureStreamPayload(payload, msg.event);
      const forced = this.ctx.format ?? SSE_FORMAT[this.ctx.api];
      const error = this.misfits.report(line, `the SSE event is not in the forced input format ${forced}${like ? ` (it is an ${like} stream event)` : ''}`);
      if (error) out.errors.push(error);
      return out;
    }
    if (this.acc) return this.pushKnown(ev);
    // a keep-alive `{"type":"ping"}` says "Anthropic" but some OpenAI-compatible servers send it
    // too, and `[DONE]` ends more than one vendor's stream: neither decides the API
    const api = this.ctx.api ?? (isPing(payload) ? null : sniffCaptureStreamPayload(payload, msg.event));
    if (api === null) {
      if (payload !== '[DONE]' && !isPing(payload)) this.firstUnknownLine ??= line;
      if (this.pending.length < MAX_PENDING_EVENTS) this.pending.push(ev);
      else this.dropped++;
      return emptyOutput();
    }
    this.api = api;
    this.acc = createStreamAccumulator(api, {
      file: this.ctx.file,
      format: this.ctx.format ?? SSE_FORMAT[api],
      advertised: this.ctx.advertised,
    });
    const out = emptyOutput();
    if (this.dropped > 0) {
      out.errors.push(
        this.error(this.firstUnknownLine ?? line, 'INVALID_RECORD', `${this.dropped} SSE events before the first recognisable one were skipped`),
      );
    }
    for (const p of this.pending.splice(0)) mergeOutput(out, this.pushKnown(p));
    this.firstUnknownLine = null;
    return mergeOutput(out, this.pushKnown(ev));
  }

  /**
   * Hands an event to the accumulator when the stream's API defines it; an event it does not
   * define (another vendor's, a new event type) is an UNKNOWN_FORMAT error at its line (capped),
   * never dropped silently.
   */
  private pushKnown(ev: DecodedEvent): StreamOutput {
    const api = this.api!;
    if (knownStreamEvent(api, ev.payload, ev.event)) return this.acc!.push(ev.payload, ev.event, ev.line);
    const out = emptyOutput();
    const type = isObject(ev.payload) && typeof ev.payload['type'] === 'string' ? ` (type ${JSON.stringify(ev.payload['type'].slice(0, 60))})` : ev.event ? ` (event ${JSON.stringify(ev.event.slice(0, 60))})` : '';
    const error = this.unknown.report(ev.line, `the SSE event${type} is not an event of the ${STREAM_APIS[api].title} stream this file holds; skipped`);
    if (error) out.errors.push(error);
    return out;
  }

  private error(line: number, code: CaptureError['code'], message: string): CaptureError {
    return { file: this.ctx.file, line, code, message, severity: 'error' };
  }
}

function isPing(payload: unknown): boolean {
  return typeof payload === 'object' && payload !== null && (payload as Record<string, unknown>)['type'] === 'ping';
}

/** Appends the replies, then the errors, of `out` to `items`. */
function pushItems(out: StreamOutput, items: CaptureItem[]): void {
  for (const reply of out.replies) items.push({ kind: 'reply', reply });
  for (const error of out.errors) items.push({ kind: 'error', error });
}

/** The SSE field names by their first character code (d, e, i, r). */
const FIELD_BY_FIRST: ReadonlyMap<number, string> = new Map(['data', 'event', 'id', 'retry'].map((name) => [name.charCodeAt(0), name]));

/**
 * A line that is an SSE field the spec defines: `data`, `event`, `id` or `retry`, with a value
 * (`data:...`) or without (`data`). Compared char by char: cheaper than `startsWith` or a regex
 * on the sliced strings lines are.
 */
function isSseField(text: string): boolean {
  const name = FIELD_BY_FIRST.get(text.charCodeAt(0));
  if (name === undefined || text.length < name.length) return false;
  for (let i = 1; i < name.length; i++) if (text.charCodeAt(i) !== name.charCodeAt(i)) return false;
  return text.length === name.length || text.charCodeAt(name.length) === 0x3a;
}

/** Lines of one event held before they are fed together; more are fed at once (an event that long is rare). */
const MAX_BLOCK_LINES = 64;
/** Characters of held lines past which they are fed at once, so holding stays bounded. */
const MAX_BLOCK_CHARS = 1 << 20;

/**
 * The synchronous core of {@link readSseLines}: feed it the lines of a raw SSE body one by one
 * ({@link SseLineReader.push}), then {@link SseLineReader.end}; each call appends what it
 * completed (replies and errors, in input order) to the array given. Same rules and items as
 * readSseLines; lets a caller read a batch of lines in one synchronous loop.
 *
 * The lines of one event are held until its blank line and fed to the SSE parser as one text
 * (one parser call per event rather than per line); only a blank line dispatches an event, so
 * the output and its order are those of feeding line by line.
 */
export class SseLineReader {
  private readonly session: SseSession;
  private first = true;
  /** Lines that are no SSE field (`data`, `event`, `id`, `retry`) nor a comment, and the first. */
  private foreign = 0;
  private firstForeign = 0;
  /** Text of the lines held (noted to the session, not yet fed), each ending in '\n', and how many. */
  private block = '';
  private blockLines = 0;
  /** Reused output of one feed, emptied after its items are appended. */
  private readonly fed: StreamOutput = { replies: [], errors: [] };

  /** @param ctx `file` for the records, the request's `advertised` tools if known, and `api` to skip sniffing. */
  constructor(private readonly ctx: { file: string; advertised: AdvertisedTool[] | null; api?: CaptureStreamApi }) {
    this.session = new SseSession(ctx);
  }

  /** Reads one line (see readSseLines for `tooLong` / `invalidUtf8`); appends its items to `out`. */
  push(l: Line, out: CaptureItem[]): void {
    const file = this.ctx.file;
    if (l.tooLong) {
      out.push({ kind: 'error', error: { file, line: l.line, code: 'LINE_TOO_LONG', message: `line of ${l.bytes} bytes skipped`, severity: 'error' } });
      return;
    }
    if (l.invalidUtf8) {
      out.push({ kind: 'error', error: { file, line: l.line, code: 'INVALID_UTF8', message: 'line is not valid UTF-8; read with U+FFFD replacements', severity: 'error' } });
    }
    let text = l.text;
    if (this.first && text.startsWith('\uFEFF')) text = text.slice(1);
    this.first = false;
    const blank = text === '';
    const startsEvent = !blank && text.charCodeAt(0) !== 0x3a; // not a `:` comment
    if (startsEvent && !isSseField(text)) {
      if (this.foreign++ === 0) this.firstForeign = l.line;
    }
    this.session.mark(l.line, startsEvent);
    this.block = this.blockLines++ === 0 ? `${text}\n` : `${this.block}${text}\n`;
    if (blank) this.feedBlock(true, out);
    else if (this.blockLines >= MAX_BLOCK_LINES || this.block.length >= MAX_BLOCK_CHARS) this.feedBlock(false, out);
  }

  /** Feeds the held lines as one text (`blank`: the last is a blank line) and appends what they complete to `out`. */
  private feedBlock(blank: boolean, out: CaptureItem[]): void {
    if (this.blockLines === 0) return;
    const text = this.block;
    this.block = '';
    this.blockLines = 0;
    const fed = this.fed;
    this.session.feedLines(text, blank, fed);
    if (fed.replies.length > 0 || fed.errors.length > 0) {
      pushItems(fed, out);
      fed.replies.length = 0;
      fed.errors.length = 0;
    }
  }

  /** End of the body: appends what the last events complete or leave unfinished to `out`. */
  end(out: CaptureItem[]): void {
    this.feedBlock(false, out);
    pushItems(this.session.end(), out);
    // The SSE spec ignores unknown fields; in a capture they mean the file is not (only) an SSE
    // body (e.g. JSON lines read with a forced -sse format), so they must not pass silently.
    if (this.foreign > 0) {
      const n = this.foreign;
      out.push({
        kind: 'error',
        error: {
          file: this.ctx.file,
          line: this.firstForeign,
          code: 'INVALID_RECORD',
          message: `${n} line${n === 1 ? ' is not an SSE field line' : 's are not SSE field lines'} (data, event, id, retry), the first here; ignored, so what they hold was not judged`,
          severity: 'error',
        },
      });
    }
  }
}

/**
 * Reads a raw SSE body line by line.
 *
 * @param lines the body's lines (from `readLines` in src/capture/lines.ts: 1-based, terminator
 *   and BOM already removed). A line flagged `tooLong` is skipped with a LINE_TOO_LONG error; a
 *   line flagged `invalidUtf8` is reported (INVALID_UTF8) and read with U+FFFD in place.
 * @param ctx `file` for the records, the request's `advertised` tools if known, and `api` to skip
 *   sniffing.
 * @returns replies (format `openai-chat-sse` / `anthropic-sse` / `openai-responses-sse`,
 *   `source.line` = line where the reply's first event starts) and errors, in input order; no
 *   `file-end` (the caller adds it). A reply is yielded as soon as its end marker is read.
 *   Never throws on bad content (only if `lines` itself throws).
 */
export async function* readSseLines(
  lines: AsyncIterable<Line>,
  ctx: { file: string; advertised: AdvertisedTool[] | null; api?: CaptureStreamApi },
): AsyncGenerator<CaptureItem> {
  const reader = new SseLineReader(ctx);
  for await (const l of lines) {
    const out: CaptureItem[] = [];
    reader.push(l, out);
    yield* out;
  }
  const out: CaptureItem[] = [];
  reader.end(out);
  yield* out;
}

/**
 * Reads an SSE body held in a string (pair logs keep it as `response.body_raw`).
 *
 * @param text the whole body.
 * @param ctx `file`; `line` = the 1-based line of the record holding the body, used as every
 *   reply's and error's line; the request's `advertised` tools; the `format` stamped on replies
 *   (e.g. 'pair-log').
 * @returns all replies and errors in the body (same rules as {@link readSseLines}). Never throws.
 */
export function parseSseText(
  text: string,
  ctx: { file: string; line: number; advertised: AdvertisedTool[] | null; format: CaptureFormat },
): StreamOutput {
  const session = new SseSession(ctx);
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const out = session.feed(body, ctx.line, true);
  return mergeOutput(out, session.end());
}
