/**
 * The per-file record pipeline: every JSON record of a file (JSONL line, array element, JSON
 * document) goes through one {@link RecordReader}, which classifies it and hands it to the right
 * reader, keeping the state that spans records (Claude Code message groups, Codex runs, an open
 * stream accumulator for `*-chunks` files).
 */

import { apiErrorOutput } from './bodies/index.js';
import { captureError, isObject, shapeOf, type JsonObject, type RecordOutput } from './bodies/common.js';
import { CappedReports } from './capped.js';
import type { EnvelopePlace } from './json-values.js';
import { classifyRecord, type RecordKind } from './detect.js';
import { formatSpec, resemblingFormats, sniffRecordFormat, type RecordFormatReader, type RecordFormatSpec } from './formats.js';
import { STREAM_APIS } from './streams/index.js';
import { TurnLedger } from './request-history.js';
import type { CaptureFormat } from './types.js';

/**
 * What became of one record: `read` (in a known format: read, or a known non-reply record
 * skipped), `unknown` (in no known format; the caller reports it), or `failed` (it does not fit
 * the forced format, or reading it threw; the reader reported it in `errors` or counts it for the
 * summary that {@link RecordReader.finish} returns).
 */
export type RecordStatus = 'read' | 'unknown' | 'failed';

/** What one record produced. */
export interface RecordStep extends RecordOutput {
  /** The format the record was read as; null when it is in no known format (or only skipped). */
  format: CaptureFormat | null;
  status: RecordStatus;
}

/** The name of the format a record looks like, for messages (`openai-chat`, `anthropic-chunks`...), or null. */
function lookalike(v: unknown): string | null {
  return sniffRecordFormat(v)?.name ?? null;
}

/**
 * The record spec a forced format reads JSON records with: the forced format's own spec, or for a
 * forced SSE format (read as JSON records only when its layout is not SSE) the spec of its API's
 * chunks format; null for a text format (read.ts reads those files as text, never as records).
 */
function forcedSpec(format: CaptureFormat): RecordFormatSpec | null {
  const spec = formatSpec(format);
  if (spec.kind === 'record') return spec;
  if (spec.kind === 'sse') return formatSpec(STREAM_APIS[spec.api].chunksFormat) as RecordFormatSpec;
  return null;
}

/** Concatenates outputs in the given order (earlier closes first, then the record's own output). */
function ordered(parts: RecordOutput[]): RecordOutput {
  const out: RecordOutput = { replies: [], errors: [] };
  for (const p of parts) append(out, p);
  return out;
}

/** Appends the replies and the errors of `more` to those of `into`. */
function append(into: RecordOutput, more: RecordOutput): void {
  for (const reply of more.replies) into.replies.push(reply);
  for (const error of more.errors) into.errors.push(error);
}

/**
 * Reads the JSON records of one file. Not thread-safe; one instance per file.
 */
export class RecordReader {
  /** The reader of the run of records being read, and its format (one run open at a time). */
  private open: { spec: RecordFormatSpec; reader: RecordFormatReader } | null = null;
  /** Records that do not fit the forced format: listed up to a cap, then counted. */
  private readonly misfits: CappedReports | null;
  /** Array elements in no known format beside elements that were read: listed up to a cap, then counted. */
  private readonly unknownElements: CappedReports;
  /** The assistant turns this file has yielded (request histories repeat them: ./request-history.ts). */
  private readonly turns = new TurnLedger();

  /**
   * @param file the path as given (or '-'), copied into replies and errors.
   * @param forced the `--input-format` the user forced, if any: records that do not fit it are
   *   INVALID_RECORD errors; for a `-chunks` format every record is a stream event of that API.
   */
  constructor(
    private readonly file: string,
    private readonly forced?: CaptureFormat,
  ) {
    this.misfits = forced ? new CappedReports(file, 'INVALID_RECORD', `records not in the forced input format ${forced}`) : null;
    this.unknownElements = new CappedReports(file, 'UNKNOWN_FORMAT', 'array elements in no known capture format');
  }

  /**
   * Reads one parsed JSON value. An array is read element by element (all with `line`).
   *
   * @param value the parsed record.
   * @param line the 1-based line where it starts.
   * @param envelope where the record came from when the document splitter split an envelope
   *   document (./json-values.ts): it is read by the format that claimed the envelope, as an
   *   element of `envelope.key` (or, key null, as the envelope itself), never sniffed.
   * @returns the replies completed, the problems found, and what became of the record
   *   ({@link RecordStatus}; for an array: `read` if any element was read, else `failed` if any
   *   failed, else `unknown`). Never throws: an exception while reading one record becomes an
   *   INVALID_RECORD error at `line`, and the next record is read normally.
   */
  push(value: unknown, line: number, envelope?: EnvelopePlace): RecordStep {
    const step = this.pushValue(value, line, envelope);
    this.turns.note(step.replies);
    return step;
  }

  private pushValue(value: unknown, line: number, envelope?: EnvelopePlace): RecordStep {
    if (envelope) return this.pushEnvelope(value, line, envelope);
    if (Array.isArray(value)) {
      const steps = value.map((v) => this.pushOne(v, line));
      const out = ordered(steps);
      const format = steps.find((s) => s.format !== null)?.format ?? null;
      const has = (status: RecordStatus): boolean => steps.some((s) => s.status === status);
      const status: RecordStatus = has('read') ? 'read' : has('failed') ? 'failed' : 'unknown';
      // beside elements that were read, an element in no known format is reported with its index
      if (status !== 'unknown') {
        steps.forEach((s, i) => {
          if (s.status !== 'unknown') return;
          const error = this.unknownElements.report(line, `element ${i} of the JSON array starting here is in no known capture format (${describeShape(value[i])})`);
          if (error) out.errors.push(error);
        });
      }
      return { ...out, format, status };
    }
    return this.pushOne(value, line);
  }

  /**
   * End of input: replies still open (a Claude Code group, a Codex run, an unfinished stream),
   * and the summary of the records past the cap that did not fit the forced format. Never throws.
   */
  finish(): RecordOutput {
    let out: RecordOutput;
    try {
      out = this.close();
    } catch (e) {
      out = { replies: [], errors: [captureError(this.file, null, 'INVALID_RECORD', `the last record group could not be read: ${messageOf(e)}`)] };
    }
    for (const summary of [this.misfits?.summary(), this.unknownElements.summary()]) if (summary) out.errors.push(summary);
    this.turns.note(out.replies);
    return out;
  }

  /** A record of a split envelope document: read by the format that claimed it. */
  private pushEnvelope(value: unknown, line: number, place: EnvelopePlace): RecordStep {
    try {
      const spec = formatSpec(place.tag as CaptureFormat);
      if (spec.kind !== 'record') throw new Error(`the envelope claim ${place.tag} is not a record format`);
      const before = this.openFor(spec);
      const reader = this.open!.reader;
      const own = place.key !== null && reader.element ? reader.element(place.key, place.index, value, line) : reader.push(value, line);
      return readStep(spec.name, before, own);
    } catch (e) {
      const error = captureError(this.file, line, 'INVALID_RECORD', `the record could not be read: ${messageOf(e)}`);
      return { replies: [], errors: [error], format: null, status: 'failed' };
    }
  }

  private pushOne(value: unknown, line: number): RecordStep {
    try {
      return this.readOne(value, line);
    } catch (e) {
      const error = captureError(this.file, line, 'INVALID_RECORD', `the record could not be read: ${messageOf(e)}`);
      return { replies: [], errors: [error], format: null, status: 'failed' };
    }
  }

  private readOne(value: unknown, line: number): RecordStep {
    let kind: RecordKind;
    if (this.forced) {
      const spec = forcedSpec(this.forced);
      if (spec === null || !spec.accepts(value)) {
        const like = lookalike(value);
        const error = this.misfits!.report(line, `the record is not in the forced input format ${this.forced}${like ? ` (it looks like ${like})` : ''}`);
        return { replies: [], errors: error ? [error] : [], format: null, status: 'failed' };
      }
      kind = { kind: 'format', spec };
    } else {
      kind = classifyRecord(value);
    }
    return this.dispatch(kind, value, line);
  }

  private dispatch(kind: RecordKind, value: unknown, line: number): RecordStep {
    switch (kind.kind) {
      case 'format': {
        const before = this.openFor(kind.spec);
        return readStep(kind.spec.name, before, this.open!.reader.push(value, line));
      }
      case 'api-error': {
        // an error payload inside a chunks file belongs to the open stream
        if (this.open?.spec.api !== undefined) return readStep(this.open.spec.name, null, this.open.reader.push(value, line));
        return readStep(null, null, apiErrorOutput(value as JsonObject, { file: this.file, line }));
      }
      case 'skip':
        return { replies: [], errors: [], format: null, status: 'read' };
      case 'unknown':
        return { replies: [], errors: [], format: null, status: 'unknown' };
    }
  }

  /**
   * Makes a reader of `spec` the open one: the run of another format is closed first (what it
   * still held is returned, else null). Nested values (a batch line's body, a HAR entry's
   * response) are read by a record reader of their own.
   */
  private openFor(spec: RecordFormatSpec): RecordOutput | null {
    let before: RecordOutput | null = null;
    if (this.open !== null && this.open.spec !== spec) before = this.close();
    this.open ??= { spec, reader: spec.open(this.file, () => new RecordReader(this.file), this.turns) };
    return before;
  }

  /** Ends the open run of records: what its reader still held. */
  private close(): RecordOutput {
    const open = this.open;
    this.open = null;
    return open?.reader.finish() ?? { replies: [], errors: [] };
  }
}

/**
 * A short description of a record's shape for UNKNOWN_FORMAT messages ({@link shapeOf}), naming
 * the `--input-format` that would read a record resembling a format without its proof keys.
 */
export function describeShape(value: unknown): string {
  const like = isObject(value) ? resemblingFormats(value) : [];
  return like.length === 0 ? shapeOf(value) : `${shapeOf(value)}; if it is ${like.join(' or ')}, --input-format ${like[0]} reads it`;
}

/** The step of a record read as `format`: what closing others gave (`before`, if any), then the record's own output. */
function readStep(format: CaptureFormat | null, before: RecordOutput | null, own: RecordOutput): RecordStep {
  if (before === null) return { replies: own.replies, errors: own.errors, format, status: 'read' };
  append(before, own);
  return { replies: before.replies, errors: before.errors, format, status: 'read' };
}

/** The message of a thrown value (a stack overflow is a RangeError with a message). */
function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
