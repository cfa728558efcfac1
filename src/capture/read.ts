/**
 * The capture reader every command uses: one file (or stdin) in, normalised replies and input
 * problems out, streamed in input order.
 *
 * A binary AWS event stream (Bedrock's stream bodies) is recognised first, by the prelude and CRC
 * of its first frame (src/capture/eventstream.ts), and its frames are read as records. Otherwise
 * layout is decided from the first non-blank line, and the next few when that one is not JSON on
 * its own: a text format of its own layout (Aider's Markdown history; the registry's `text`
 * specs, src/capture/formats.ts) is recognised first, from that line and the file name, and read
 * line by line by its reader; otherwise (src/capture/detect.ts sniffLayout) raw SSE goes to the
 * SSE reader (src/capture/sse.ts); JSON Lines are parsed line by line; a JSON document (pretty
 * printed, an array, `jq .` output) is split into records without holding more than one record
 * (an agent session document, `{sessionId, messages: [...]}` or a trajectory, one message at a
 * time: the registry's `envelope` claims, src/capture/json-values.ts).
 * Each record is classified and read by src/capture/records.ts. Line handling follows JSON Lines
 * (https://jsonlines.org/) and NDJSON 1.0 (https://github.com/ndjson/ndjson-spec), as summarised in
 * docs/sources.md "JSON Lines": 1-based numbers, CRLF (and a lone CR) accepted, one BOM stripped,
 * blank lines skipped, a bad line reported with its number and the read goes on.
 *
 * Lines are read in batches (the lines each chunk of the stream completes) and each batch is read
 * in a synchronous loop, so the async machinery costs one step per chunk, not per line
 * ({@link readCaptureBatches}; {@link readCapture} flattens it).
 */

import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { captureError } from './bodies/common.js';
import { CappedReports, MAX_LINE_REPORTS } from './capped.js';
import { isSseLine, sniffLayout } from './detect.js';
import type { RecordOutput } from './bodies/common.js';
import { EventStreamDecoder, isEventStreamPrelude, type EventStreamItem } from './eventstream.js';
import { envelopeSplit, textFormatFor, type TextFormatReader } from './formats.js';
import type { EnvelopePlace } from './json-values.js';
import { badLineError, DocumentRecords, jsonLineRecord, type RecordOrError } from './line-records.js';
import { BINARY_SNIFF_BYTES, DEFAULT_MAX_LINE_BYTES, readLineBatches, type Line } from './lines.js';
import { describeShape, RecordReader, type RecordStep } from './records.js';
import { SseLineReader } from './sse.js';
import { streamFormatApi } from './streams/index.js';
import { ARGUMENTS_UNDER_UNREAD_KEY, argumentsTooDeep, argumentsUnderUnreadKey, MAX_ARGUMENT_DEPTH } from './toolcall.js';
import type { CaptureError, CaptureFormat, CaptureItem, Reply } from './types.js';

export interface ReadOptions {
  /** Read every file as this format instead of detecting it (`--input-format`). */
  inputFormat?: CaptureFormat;
  /** Longest line kept, in bytes (default 256 MiB); longer lines are LINE_TOO_LONG errors. */
  maxLineBytes?: number;
  /**
   * Largest JSON value held when a file is a JSON document, in bytes (default
   * {@link DEFAULT_MAX_DOCUMENT_BYTES}): the whole document, or one element of a top-level array.
   * A larger one is a DOCUMENT_TOO_LARGE error and is skipped.
   */
  maxDocumentBytes?: number;
}

/** Default cap on one JSON document (or array element) in document mode: 64 MiB. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;


/** Problems held while no record of the file has been recognised; past this they are released. */
const MAX_HELD_ITEMS = 1000;

/** Counts what was yielded for one file and builds its `file-end` item. */
class Tally {
  replies = 0;
  errors = 0;
  readonly formats = new Set<CaptureFormat>();

  constructor(private readonly file: string) {}

  count(item: CaptureItem): CaptureItem {
    if (item.kind === 'reply') {
      this.replies++;
      this.formats.add(item.reply.format);
    } else if (item.kind === 'error') this.errors++;
    return item;
  }

  end(): CaptureItem {
    return { kind: 'file-end', file: this.file, formats: [...this.formats], replies: this.replies, errors: this.errors };
  }
}

const errorItem = (error: CaptureError): CaptureItem => ({ kind: 'error', error });
const errorItems = (error: CaptureError | null | undefined): CaptureItem[] => (error ? [errorItem(error)] : []);


/**
 * Reports the records that are in no known format, in bounded memory and output.
 *
 * While no record of the file has been recognised, its unknown records and bad-line problems are
 * held, so a file with no known record at all gets one file-level UNKNOWN_FORMAT error (plus its
 * bad lines) instead of one per line. Holding stops at the first recognised record, or when more
 * than {@link MAX_HELD_ITEMS} problems are held; from then on every unknown record is reported at
 * its line, the first {@link MAX_LINE_REPORTS} one by one and the rest in one summary error at
 * the end, and reading always goes on to the end of the file.
 */
class UnknownGate {
  private holding = true;
  /** Problems found while holding, in input order (at most MAX_HELD_ITEMS + one step). */
  private held: CaptureItem[] = [];
  /** The first MAX_LINE_REPORTS unknown records seen while holding. */
  private heldUnknown: { line: number; shape: string }[] = [];
  /** Unknown records seen while holding, and the first / last line of those not in heldUnknown. */
  private unknownCount = 0;
  private firstUnlisted = 0;
  private lastUnlisted = 0;
  private readonly unknown: CappedReports;

  constructor(private readonly file: string) {
    this.unknown = new CappedReports(file, 'UNKNOWN_FORMAT', 'records in no known capture format');
  }

  /** Items to yield after one record was read. */
  step(step: RecordStep, line: number, value: unknown): CaptureItem[] {
    const items: CaptureItem[] = [];
    for (const reply of step.replies) items.push({ kind: 'reply', reply });
    for (const error of step.errors) items.push(errorItem(error));
    if (items.length > 1) items.sort(byLine);
    if (step.status === 'unknown') {
      const shape = describeShape(value);
      if (!this.holding) return errorItems(this.unknown.report(line, unknownMessage(shape)));
      this.unknownCount++;
      if (this.heldUnknown.length < MAX_LINE_REPORTS) this.heldUnknown.push({ line, shape });
      else {
        if (this.firstUnlisted === 0) this.firstUnlisted = line;
        this.lastUnlisted = line;
      }
      return [];
    }
    if (step.status === 'read' && this.holding) return [...this.release(), ...items];
    return this.pass(items);
  }

  /** Items to yield for problems found outside any record (bad lines). */
  pass(items: CaptureItem[]): CaptureItem[] {
    if (!this.holding) return items;
    this.held.push(...items);
    return this.held.length > MAX_HELD_ITEMS ? this.release() : [];
  }

  /** End of file: what is still held (with one file-level UNKNOWN_FORMAT), or the summary of unlisted unknown records. */
  end(): CaptureItem[] {
    if (!this.holding) return errorItems(this.unknown.summary());
    const out = this.held;
    this.held = [];
    const first = this.heldUnknown[0];
    if (first) {
      const n = this.unknownCount;
      const error = captureError(
        this.file,
        null,
        'UNKNOWN_FORMAT',
        `no record in this file is in a known capture format (${n} JSON record${n === 1 ? '' : 's'}; the first, at line ${first.line}, is ${first.shape})`,
      );
      const at = out.findIndex((item) => lineOf(item) > first.line);
      out.splice(at === -1 ? out.length : at, 0, errorItem(error));
    }
    return out;
  }

  /** Stops holding: the held problems and the held unknown records (capped), in line order. */
  private release(): CaptureItem[] {
    this.holding = false;
    const out = this.held;
    for (const u of this.heldUnknown) out.push(...errorItems(this.unknown.report(u.line, unknownMessage(u.shape))));
    this.unknown.skip(this.unknownCount - this.heldUnknown.length, this.firstUnlisted, this.lastUnlisted);
    this.held = [];
    this.heldUnknown = [];
    return out.sort(byLine);
  }
}

const unknownMessage = (shape: string): string => `record is in no known capture format (${shape})`;

/**
 * The INVALID_RECORD errors for the tool calls of `reply` whose arguments were not read: nested
 * too deep (src/capture/toolcall.ts {@link MAX_ARGUMENT_DEPTH}), or absent where the format keeps
 * them while the call holds keys guard does not read. The call is kept with `arguments` null.
 */
function unreadArgumentErrors(reply: Reply): CaptureError[] {
  const out: CaptureError[] = [];
  for (const call of reply.toolCalls) {
    const which = `tool call ${call.id ?? '(no id)'} (${call.name || 'no name'})`;
    if (argumentsTooDeep(call)) out.push(captureError(reply.source.file, reply.source.line, 'INVALID_RECORD', `the arguments of ${which} nest deeper than ${MAX_ARGUMENT_DEPTH} levels; they were not read`));
    else if (argumentsUnderUnreadKey(call)) {
      const keys = call.argumentsError!.slice(ARGUMENTS_UNDER_UNREAD_KEY.length).trim();
      out.push(captureError(reply.source.file, reply.source.line, 'INVALID_RECORD', `${which} has no arguments where its format keeps them, but holds keys guard does not read (${keys}); they may be its arguments, so the call was inspected as unreadable`));
    }
  }
  return out;
}

/** Orders items by line (a stable sort keeps the order of items on one line). */
const byLine = (a: CaptureItem, b: CaptureItem): number => lineOf(a) - lineOf(b);

function lineOf(item: CaptureItem): number {
  if (item.kind === 'reply') return item.reply.source.line;
  if (item.kind === 'error') return item.error.line ?? Number.MAX_SAFE_INTEGER;
  return Number.MAX_SAFE_INTEGER;
}

const isContent = (l: Line): boolean => !l.tooLong && !l.invalidUtf8 && l.text.trim() !== '';

/** A blank line that is no problem of its own (not too long, valid UTF-8, no NUL byte). */
const isPlainBlank = (l: Line): boolean => !l.tooLong && !l.invalidUtf8 && !l.hasNul && l.text.trim() === '';


/**
 * Reads one capture and yields, in input order, every reply and every problem, then one
 * `file-end` item with the distinct formats seen and the counts.
 *
 * Formats (sources in docs/sources.md "Capture formats"): OpenAI Chat / Anthropic Messages / OpenAI
 * Responses bodies (their SDKs' types) as JSON Lines, a JSON document or a JSON array; pair logs
 * (claude-trace `RawPair`); Claude Code sessions; Codex rollouts; agent files (Gemini CLI, Cline
 * and Roo Code, plain chat messages, OpenHands, SWE-agent, mini-swe-agent, Aider, OpenCode,
 * Goose: src/capture/agents/); stream payloads one per line (`*-chunks`); raw SSE (HTML Living
 * Standard §9.2); guard reply records. Detected per file, then per record; `inputFormat` forces
 * one.
 *
 * Problems are error items naming the file and 1-based line: INVALID_JSON, INVALID_UTF8,
 * LINE_TOO_LONG, UNKNOWN_FORMAT (once for the file, line null, when no record of it is in a known
 * format; otherwise per record, the first {@link MAX_LINE_REPORTS} at their lines and one summary
 * for the rest), INVALID_RECORD (a record that does not fit the forced format, capped the same
 * way; a record whose reading threw; a tool call whose arguments nest deeper than
 * {@link MAX_ARGUMENT_DEPTH}), DOCUMENT_TOO_LARGE; whole-file problems with line null:
 * BINARY_FILE (NUL before or on the first line of text; reading stops), EMPTY_FILE (severity error: an empty
 * capture is bad input), UNREADABLE when the stream fails (EACCES, EISDIR). A bad record never
 * stops the read: the next line is read. Replies of multi-line records (Claude Code groups,
 * streams) are yielded when complete, with the line where they start.
 *
 * @param file the path as given, or '-' for stdin; copied into every item.
 * @param input the byte stream to read (destroyed when reading stops early).
 * @param options see {@link ReadOptions}.
 * @returns an async generator; `file-end.errors` counts error items of both severities.
 *   Never throws for bad content or a failing stream.
 */
export async function* readCapture(file: string, input: Readable, options: ReadOptions = {}): AsyncGenerator<CaptureItem> {
  for await (const batch of readCaptureBatches(file, input, options)) yield* batch;
}

/**
 * {@link readCapture} in batches: the same items in the same order, grouped as each chunk of the
 * input completes them (one async step per chunk rather than per item; a batch is non-empty and
 * holds at most the items of one chunk's lines, so memory stays bounded). The last batch ends
 * with the `file-end` item.
 *
 * @param file the path as given, or '-' for stdin; copied into every item.
 * @param input the byte stream to read (destroyed when reading stops early).
 * @param options see {@link ReadOptions}.
 * @returns an async generator of item arrays. Never throws for bad content or a failing stream.
 */
export async function* readCaptureBatches(file: string, input: Readable, options: ReadOptions = {}): AsyncGenerator<CaptureItem[]> {
  const tally = new Tally(file);
  try {
    for await (const batch of readItemBatches(file, input, options, tally)) {
      const out: CaptureItem[] = [];
      for (const item of batch) {
        out.push(tally.count(item));
        if (item.kind === 'reply' && item.reply.toolCalls.length > 0) for (const e of unreadArgumentErrors(item.reply)) out.push(tally.count(errorItem(e)));
      }
      if (out.length > 0) yield out;
    }
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    // Node's fs messages begin with the code already ("ENOENT: no such file…"): not twice
    const message = String(err?.message ?? err);
    const what = err.code && !message.startsWith(err.code) ? `${err.code}: ${message}` : message;
    yield [tally.count(errorItem(captureError(file, null, 'UNREADABLE', `cannot read the input: ${what}`)))];
  }
  yield [tally.end()];
}

/**
 * Lines of the input for the layout sniff: `pull` takes one line at a time (each kept in `head`),
 * then `rest` gives every line read so far and the rest of the input, in batches.
 */
class LineSource {
  /** Every line pulled, in order. */
  readonly head: Line[] = [];
  private batch: Line[] = [];
  private at = 0;
  private readonly batches: AsyncIterator<Line[]>;

  constructor(input: AsyncIterable<Buffer | string>, maxLineBytes: number) {
    // a run of blank lines comes as one line (Line.blanks): every layout reads it as one blank
    // line, and a text format's reader gets each again (readTextLines)
    this.batches = readLineBatches(input, { maxLineBytes, blankRuns: true })[Symbol.asyncIterator]();
  }

  /** The next line (kept in `head`), or undefined at the end of input. */
  async pull(): Promise<Line | undefined> {
    while (this.at >= this.batch.length) {
      const r = await this.batches.next();
      if (r.done) return undefined;
      this.batch = r.value;
      this.at = 0;
    }
    const l = this.batch[this.at++]!;
    this.head.push(l);
    return l;
  }

  /**
   * Forgets the last line pulled, when it is blank: blank lines before a file's first content
   * line are nothing to replay, and keeping them made a file of a billion empty lines (a
   * decompressed bomb) exhaust the heap before it was found empty.
   */
  forgetBlank(): void {
    const l = this.head[this.head.length - 1];
    if (l !== undefined && isPlainBlank(l)) {
      this.head.pop();
      this.forgotBlank = true;
    }
  }

  /** True once a blank line was forgotten (the input was not empty). */
  forgotBlank = false;

  /**
   * Forgets the last line pulled when it is blank and so is the line before it: after a file's
   * first content line, the sniff reads on to the next content line, and every line it pulls is
   * kept to be replayed. A run of blank lines reads as one blank line in every layout the sniff
   * decides (an SSE event ends at the first, JSON Lines and JSON documents skip them), so one is
   * kept: an SSE stream followed by 20 million blank lines held them all (1.9 GB).
   */
  forgetRepeatedBlank(): void {
    const n = this.head.length;
    if (n >= 2 && isPlainBlank(this.head[n - 1]!) && isPlainBlank(this.head[n - 2]!)) this.head.pop();
  }

  /** Every line from the first (those pulled, then the rest), in non-empty batches. */
  async *rest(): AsyncGenerator<Line[]> {
    if (this.head.length > 0) yield this.head;
    if (this.at < this.batch.length) yield this.batch.slice(this.at);
    for (;;) {
      const r = await this.batches.next();
      if (r.done) return;
      yield r.value;
    }
  }

  /** Stops reading (destroys the input stream). */
  async close(): Promise<void> {
    await this.batches.return?.(undefined);
  }
}

/** A first line of text that begins a capture guard reads: a JSON value or an SSE line. */
function looksLikeCaptureStart(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[') || isSseLine(t);
}

/** Bytes read before the layout sniff to recognise a binary AWS event stream by its first frame's prelude. */
const EVENT_STREAM_SNIFF_BYTES = 14;

/** The first bytes of `input` (at least `n` unless it is shorter), and the input as it was, those bytes included. */
async function peek(input: Readable, n: number): Promise<{ head: Buffer; input: AsyncIterable<Buffer> }> {
  const it = input[Symbol.asyncIterator]() as AsyncIterator<unknown>;
  const chunks: Buffer[] = [];
  let size = 0;
  while (size < n) {
    const r = await it.next();
    if (r.done) break;
    const b = typeof r.value === 'string' ? Buffer.from(r.value) : (r.value as Buffer);
    chunks.push(b);
    size += b.length;
  }
  async function* replay(): AsyncGenerator<Buffer> {
    try {
      yield* chunks;
      for (;;) {
        const r = await it.next();
        if (r.done) return;
        yield typeof r.value === 'string' ? Buffer.from(r.value) : (r.value as Buffer);
      }
    } finally {
      await it.return?.(undefined);
    }
  }
  // the first bytes only (a view of the first chunk when it is long enough: no copy of a big chunk)
  const head = chunks.length > 0 && chunks[0]!.length >= n ? chunks[0]!.subarray(0, n) : Buffer.concat(chunks).subarray(0, n);
  return { head, input: replay() };
}

/** Decompressed bytes allowed per compressed byte once past {@link GUNZIP_FREE_BYTES} (captures compress 5 to 50 times; a stream of one repeated byte reaches 1 000 and a bomb far beyond). */
export const MAX_GUNZIP_RATIO = 512;
/** Decompressed bytes always allowed, whatever the ratio. */
const GUNZIP_FREE_BYTES = 64 * 1024 * 1024;

/**
 * Decompresses a gzip stream as it is read, and stops (throwing, so the file is UNREADABLE with
 * the reason) when the output outgrows {@link MAX_GUNZIP_RATIO} times the input read so far:
 * a decompression bomb never runs for ever.
 */
async function* gunzip(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let compressed = 0;
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of input) {
      compressed += chunk.length;
      yield chunk;
    }
  }
  const z = Readable.from(counted()).pipe(createGunzip());
  let out = 0;
  for await (const chunk of z as AsyncIterable<Buffer>) {
    out += chunk.length;
    if (out > GUNZIP_FREE_BYTES && out > compressed * MAX_GUNZIP_RATIO) {
      z.destroy();
      throw new Error(`the gzip stream decompresses to more than ${MAX_GUNZIP_RATIO} times its size (a decompression bomb?); reading stopped after ${out} bytes`);
    }
    yield chunk;
  }
}

/**
 * True when a file starts with a gzip member header (RFC 1952 §2.3.1: ID1 0x1f, ID2 0x8b, CM 8,
 * deflate, the only method defined), or any magic bytes in a file named `.gz`. Two stray magic
 * bytes before JSON Lines are not gzip: the file is read as text and only its first line is damaged.
 */
const isGzip = (head: Buffer, file: string): boolean => head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b && (head[2] === 8 || /\.gz$/i.test(file));

/**
 * The compression format other than gzip that a file opens with, by its magic bytes, or null:
 * Zstandard (RFC 8878 §3.1.1: 28 B5 2F FD), xz (.xz file format 1.2.1 §2.1.1.1: FD 37 7A 58 5A 00,
 * https://tukaani.org/xz/xz-file-format.txt), bzip2 ("BZh", a block size digit 1-9, then a block's
 * 31 41 59 26 53 59 or the end-of-stream 17 72 45 38 50 90). Such a file was BINARY_FILE, which did
 * not say it only needs decompressing.
 */
function compressionOf(head: Buffer): { name: string; tool: string } | null {
  const at = (bytes: number[], from = 0) => head.length >= from + bytes.length && bytes.every((b, i) => head[from + i] === b);
  if (at([0x28, 0xb5, 0x2f, 0xfd])) return { name: 'Zstandard (zstd)', tool: 'zstd -d FILE' };
  if (at([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return { name: 'xz', tool: 'xz -d FILE' };
  if (at([0x42, 0x5a, 0x68]) && head[3]! >= 0x31 && head[3]! <= 0x39 && (at([0x31, 0x41, 0x59, 0x26, 0x53, 0x59], 4) || at([0x17, 0x72, 0x45, 0x38, 0x50, 0x90], 4))) return { name: 'bzip2', tool: 'bunzip2 FILE' };
  return null;
}

async function* readItemBatches(file: string, source0: Readable, options: ReadOptions, tally: Tally, gunzipped = false): AsyncGenerator<CaptureItem[]> {
  // a binary AWS event stream (Bedrock ConverseStream / InvokeModelWithResponseStream bodies) is
  // recognised by its first frame's prelude, before any line is read
  const peeked = await peek(source0, EVENT_STREAM_SNIFF_BYTES);
  // a gzip-compressed capture (`.jsonl.gz` archives) is read through zlib as it streams, once
  // (gzip inside gzip is not unpacked again: a bomb stays one layer deep); a corrupt member is
  // UNREADABLE, with what was read before it kept; lines count in the decompressed text
  if (isGzip(peeked.head, file) && !gunzipped) {
    yield* readItemBatches(file, Readable.from(gunzip(peeked.input)), options, tally, true);
    return;
  }
  const compressed = compressionOf(peeked.head);
  if (compressed !== null) {
    yield [errorItem(captureError(file, null, 'COMPRESSED_FILE', `the input is ${compressed.name}-compressed (it opens with the format's magic bytes): guard reads gzip only; decompress it first (${compressed.tool}) and scan the result; not read`))];
    return;
  }
  if (isEventStreamPrelude(peeked.head)) {
    yield* readEventStream(file, peeked.input, options, tally);
    return;
  }
  const input = peeked.input;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const forced = options.inputFormat;
  const source = new LineSource(input, maxLineBytes);
  const head = source.head;
  const pull = () => source.pull();
  let offset = 0;
  let first: Line | undefined;
  try {
    // find the first content line, and look for NUL bytes in the first BINARY_SNIFF_BYTES
    let nulLine: Line | null = null;
    for (let l = await pull(); l; l = await pull()) {
      // NUL bytes in the first bytes, unless the file has begun as a text capture (a JSON value or
      // an SSE line) or one follows them within the sniffed bytes (a JSON Lines file whose first
      // line was damaged: that line is a problem of its own, the records after it are read). A
      // binary file is a whole-file problem (line null; the line of the first NUL byte is in the
      // message). After a capture's first line, a NUL is that line's problem only.
      if (l.hasNul && !(first && looksLikeCaptureStart(first.text))) {
        nulLine ??= l;
        offset += l.bytes + (l.blanks ?? 1);
        if (offset >= BINARY_SNIFF_BYTES) break;
        continue;
      }
      offset += l.bytes + (l.blanks ?? 1);
      if (!first && isContent(l)) first = l;
      if (!first) source.forgetBlank();
      // once the input has begun as a text capture, later NULs are their lines' problems, so
      // reading on would only delay a live stream's first replies (stdin from a gateway)
      if (first && (offset >= BINARY_SNIFF_BYTES || looksLikeCaptureStart(first.text))) break;
    }
    if (nulLine !== null && !(first && looksLikeCaptureStart(first.text))) {
      yield [errorItem(captureError(file, null, 'BINARY_FILE', `the input holds NUL bytes (first on line ${nulLine.line}): it is binary, not a text capture; not read`))];
      return;
    }
    if (!first) {
      const bad = head.map((l) => badLineError(file, l, maxLineBytes)).filter((e): e is CaptureError => e !== null);
      if (bad.length > 0) yield bad.map(errorItem);
      else yield [errorItem(captureError(file, null, 'EMPTY_FILE', head.length === 0 && !source.forgotBlank ? 'the input is empty' : 'the input holds only blank lines', 'error'))];
      return;
    }
    // a text format of its own layout (Aider's Markdown history), recognised before the JSON / SSE sniff
    const textSpec = textFormatFor(forced, first.text, file);
    if (textSpec) {
      tally.formats.add(textSpec.name);
      yield* readTextLines(textSpec.open(file, options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES, () => new RecordReader(file)), source.rest(), file, maxLineBytes);
      return;
    }
    const forcedStream = streamFormatApi(forced);
    const sseApi = forcedStream?.framing === 'sse' ? forcedStream.api : undefined;
    let sniffed = first.line;
    let { layout, parsed } = await sniffLayout(first.text, async () => {
      // the next content line after the last one sniffed: already read during the binary check, or read now
      const seen = head.find((l) => l.line > sniffed && isContent(l));
      if (seen) {
        sniffed = seen.line;
        return seen.text;
      }
      for (let l = await pull(); l; l = await pull()) {
        if (isContent(l)) {
          sniffed = l.line;
          return l.text;
        }
        source.forgetRepeatedBlank();
      }
      return undefined;
    });
    if (sseApi) layout = 'sse';
    else if (forced && (layout === 'sse' || layout === 'unknown')) layout = 'jsonl';
    if (layout === 'unknown') {
      const start = first.text.trimStart().slice(0, 40);
      yield [errorItem(
        captureError(file, null, 'UNKNOWN_FORMAT', `not a capture guard reads: line ${first.line} is neither JSON nor SSE (starts ${JSON.stringify(start)})`),
      )];
      return;
    }
    const all = source.rest();
    if (layout === 'sse') {
      if (forced) tally.formats.add(forced);
      const sse = new SseLineReader(sseApi ? { file, advertised: null, api: sseApi } : { file, advertised: null });
      for await (const batch of all) {
        const out: CaptureItem[] = [];
        for (const l of batch) sse.push(l, out);
        if (out.length > 0) yield out;
      }
      const out: CaptureItem[] = [];
      sse.end(out);
      if (out.length > 0) yield out;
      return;
    }
    const reader = new RecordReader(file, forced);
    const gate = new UnknownGate(file);
    const take = (r: RecordOrError, out: CaptureItem[]): void => {
      const items = 'error' in r ? gate.pass([errorItem(r.error)]) : readRecord(r.value, r.line, r.envelope);
      for (const item of items) out.push(item);
    };
    const readRecord = (value: unknown, line: number, envelope?: EnvelopePlace): CaptureItem[] => {
      const step = reader.push(value, line, envelope);
      if (step.format) tally.formats.add(step.format);
      return gate.step(step, line, value);
    };
    if (layout === 'jsonl') {
      const preParsed = parsed ? { line: first.line, value: parsed.value } : undefined;
      for await (const batch of all) {
        const out: CaptureItem[] = [];
        for (const l of batch) {
          const r = jsonLineRecord(file, l, maxLineBytes, preParsed);
          if (r !== null) take(r, out);
        }
        if (out.length > 0) yield out;
      }
    } else {
      const doc = new DocumentRecords(file, maxLineBytes, options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES, envelopeSplit(forced));
      for await (const batch of all) {
        const out: CaptureItem[] = [];
        for (const l of batch) {
          for (const r of doc.line(l)) take(r, out);
          if (doc.stopped) break;
        }
        if (out.length > 0) yield out;
        if (doc.stopped) break;
      }
      if (!doc.stopped) {
        const out: CaptureItem[] = [];
        for (const r of doc.end()) take(r, out);
        if (out.length > 0) yield out;
      }
    }
    const out = gate.end();
    const rest = reader.finish();
    for (const reply of rest.replies) out.push({ kind: 'reply', reply });
    for (const error of rest.errors) out.push(errorItem(error));
    if (out.length > 0) yield out;
  } finally {
    await source.close();
  }
}

/**
 * A text format's file: every line to its reader, in batches (bad lines are their own problems,
 * as in JSON Lines), then what the reader still holds.
 */
async function* readTextLines(reader: TextFormatReader, lines: AsyncGenerator<Line[]>, file: string, maxLineBytes: number): AsyncGenerator<CaptureItem[]> {
  const emit = (o: RecordOutput, out: CaptureItem[]): void => {
    for (const reply of o.replies) out.push({ kind: 'reply', reply });
    for (const error of o.errors) out.push(errorItem(error));
  };
  for await (const batch of lines) {
    const out: CaptureItem[] = [];
    for (const l of batch) {
      const bad = badLineError(file, l, maxLineBytes);
      if (bad) out.push(errorItem(bad));
      else for (let i = 0; i < (l.blanks ?? 1); i++) emit(reader.line(l.text, l.line + i), out); // each blank line of a run: text formats keep them
    }
    if (out.length > 0) yield out;
  }
  const out: CaptureItem[] = [];
  emit(reader.finish(), out);
  if (out.length > 0) yield out;
}

/**
 * A binary AWS event stream (src/capture/eventstream.ts): each frame, decoded with its CRCs checked,
 * is read as the record SDKs yield for it (`{"<event-type>": payload}`), so the record formats of
 * Bedrock's streams read it. A binary file has no lines: problems carry line null and name the
 * frame and its byte offset; replies are placed at line 1.
 */
async function* readEventStream(file: string, input: AsyncIterable<Buffer>, options: ReadOptions, tally: Tally): AsyncGenerator<CaptureItem[]> {
  const reader = new RecordReader(file, options.inputFormat);
  const decoder = new EventStreamDecoder();
  const unknown = new CappedReports(file, 'UNKNOWN_FORMAT', 'event stream frames in no known capture format');
  const located = (e: CaptureError, frame: number | null, offset: number | null): CaptureError => {
    if (e.line === null) return e;
    const where = e.line === frame && offset !== null ? `frame ${frame} (byte offset ${offset})` : `frame ${e.line}`;
    return { ...e, line: null, message: `${where}: ${e.message}` };
  };
  const emit = (step: { replies: Reply[]; errors: CaptureError[] }, frame: number | null, offset: number | null, out: CaptureItem[]): void => {
    for (const reply of step.replies) out.push({ kind: 'reply', reply: { ...reply, source: { file, line: 1 } } });
    for (const e of step.errors) out.push(errorItem(located(e, frame, offset)));
  };
  const take = (items: EventStreamItem[], out: CaptureItem[]): void => {
    for (const item of items) {
      if (item.kind === 'event') {
        const step = reader.push(item.record, item.frame);
        if (step.format) tally.formats.add(step.format);
        emit(step, item.frame, item.offset, out);
        if (step.status === 'unknown') {
          const e = unknown.report(item.frame, `the event ${JSON.stringify(Object.keys(item.record)[0])} is in no known capture format; skipped`);
          if (e) out.push(errorItem(located(e, item.frame, item.offset)));
        }
      } else if (item.kind === 'failure') {
        out.push(errorItem(captureError(file, null, 'STREAM_ERROR', `frame ${item.frame} (byte offset ${item.offset}) is an error frame: ${item.message}`, 'warning')));
      } else out.push(errorItem(captureError(file, null, 'INVALID_RECORD', item.message)));
    }
  };
  for await (const chunk of input) {
    const out: CaptureItem[] = [];
    take(decoder.push(chunk), out);
    if (out.length > 0) yield out;
  }
  const out: CaptureItem[] = [];
  take(decoder.end(), out);
  emit(reader.finish(), null, null, out);
  const summary = unknown.summary();
  if (summary) out.push(errorItem({ ...summary, line: null, message: `from frame ${summary.line}: ${summary.message.replace(/ (on|between) lines? .*? \(/, ' (')}` }));
  if (out.length > 0) yield out;
}
