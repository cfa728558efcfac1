/**
 * The per-file record pipeline: every JSON record of a file (JSONL line, array element, JSON
 * document) goes through one {@link RecordReader}, which classifies it and hands it to the right
 * reader, keeping the state that spans records (Claude Code message groups, Codex runs, an open
 * stream accumulator for `*-chunks` files).
 */

import { apiErrorOutput, readApiBody } from './bodies/index.js';
import { captureError, type JsonObject, type RecordContext, type RecordOutput } from './bodies/common.js';
import { readGuardReply } from './bodies/guard-reply.js';
import { readPairLog } from './bodies/pair-log.js';
import { CappedReports } from './capped.js';
import { acceptsForced, classifyRecord, type RecordKind } from './detect.js';
import { CHUNKS_FORMAT, createStreamAccumulator, streamFormatApi, type StreamAccumulator, type StreamApi } from './streams/index.js';
import { ClaudeCodeReader } from './transcripts/claude-code.js';
import { CodexReader } from './transcripts/codex.js';
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

/** The name of what a record looks like, for messages (`openai-chat`, `anthropic-chunks`...), or null. */
function lookalike(v: unknown): string | null {
  const kind = classifyRecord(v);
  switch (kind.kind) {
    case 'api-body':
      return kind.format;
    case 'stream-event':
      return CHUNKS_FORMAT[kind.api];
    case 'skip':
    case 'unknown':
    case 'api-error':
      return null;
    default:
      return kind.kind;
  }
}

/** The record kind a forced format implies for a record it accepts. */
function forcedKind(format: CaptureFormat, v: unknown): RecordKind {
  switch (format) {
    case 'openai-chat':
    case 'anthropic-messages':
    case 'openai-responses':
      return { kind: 'api-body', format };
    case 'guard-reply':
    case 'pair-log':
    case 'claude-code':
    case 'codex-rollout':
      return { kind: format };
    default: {
      const stream = streamFormatApi(format);
      return stream?.framing === 'chunks' ? { kind: 'stream-event', api: stream.api } : classifyRecord(v);
    }
  }
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

/** What is open across records: the readers {@link RecordReader} closes when a record of another kind comes. */
type OpenReader = 'claude' | 'codex' | 'stream';

/**
 * Reads the JSON records of one file. Not thread-safe; one instance per file.
 */
export class RecordReader {
  private claude: ClaudeCodeReader | null = null;
  private codex: CodexReader | null = null;
  private stream: { api: StreamApi; acc: StreamAccumulator } | null = null;
  /** Records that do not fit the forced format: listed up to a cap, then counted. */
  private readonly misfits: CappedReports | null;

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
  }

  /**
   * Reads one parsed JSON value. An array is read element by element (all with `line`).
   *
   * @param value the parsed record.
   * @param line the 1-based line where it starts.
   * @returns the replies completed, the problems found, and what became of the record
   *   ({@link RecordStatus}; for an array: `read` if any element was read, else `failed` if any
   *   failed, else `unknown`). Never throws: an exception while reading one record becomes an
   *   INVALID_RECORD error at `line`, and the next record is read normally.
   */
  push(value: unknown, line: number): RecordStep {
    if (Array.isArray(value)) {
      const steps = value.map((v) => this.pushOne(v, line));
      const out = ordered(steps);
      const format = steps.find((s) => s.format !== null)?.format ?? null;
      const has = (status: RecordStatus): boolean => steps.some((s) => s.status === status);
      return { ...out, format, status: has('read') ? 'read' : has('failed') ? 'failed' : 'unknown' };
    }
    return this.pushOne(value, line);
  }

  /**
   * End of input: replies still open (a Claude Code group, a Codex run, an unfinished stream),
   * and the summary of the records past the cap that did not fit the forced format. Never throws.
   */
  finish(): RecordOutput {
    const closes = [() => this.closeClaude(), () => this.closeCodex(), () => this.closeStream()];
    const out = ordered(
      closes.map((close) => {
        try {
          return close();
        } catch (e) {
          return { replies: [], errors: [captureError(this.file, null, 'INVALID_RECORD', `the last record group could not be read: ${messageOf(e)}`)] };
        }
      }),
    );
    const summary = this.misfits?.summary();
    if (summary) out.errors.push(summary);
    return out;
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
      if (!acceptsForced(this.forced, value)) {
        const like = lookalike(value);
        const error = this.misfits!.report(line, `the record is not in the forced input format ${this.forced}${like ? ` (it looks like ${like})` : ''}`);
        return { replies: [], errors: error ? [error] : [], format: null, status: 'failed' };
      }
      kind = forcedKind(this.forced, value);
    } else {
      kind = classifyRecord(value);
    }
    return this.dispatch(kind, value, line);
  }

  private dispatch(kind: RecordKind, value: unknown, line: number): RecordStep {
    const ctx = (format: CaptureFormat): RecordContext => ({ file: this.file, line, format, advertised: null });
    switch (kind.kind) {
      case 'codex-rollout': {
        const before = this.closeOthers('codex');
        this.codex ??= new CodexReader(this.file);
        return readStep('codex-rollout', before, this.codex.push(value as JsonObject, line));
      }
      case 'claude-code': {
        const before = this.closeOthers('claude');
        this.claude ??= new ClaudeCodeReader(this.file);
        return readStep('claude-code', before, this.claude.push(value as JsonObject, line));
      }
      case 'stream-event': {
        let before = this.closeOthers('stream');
        if (this.stream && this.stream.api !== kind.api) append((before ??= { replies: [], errors: [] }), this.closeStream());
        const format = CHUNKS_FORMAT[kind.api];
        this.stream ??= { api: kind.api, acc: createStreamAccumulator(kind.api, { file: this.file, format, advertised: null }) };
        return readStep(format, before, this.stream.acc.push(value, undefined, line));
      }
      case 'api-error': {
        // an error payload inside a chunks file belongs to the open stream
        if (this.stream) return readStep(CHUNKS_FORMAT[this.stream.api], null, this.stream.acc.push(value, undefined, line));
        return readStep(null, null, apiErrorOutput(value as JsonObject, { file: this.file, line }));
      }
      case 'skip':
        return { replies: [], errors: [], format: null, status: 'read' };
      case 'unknown':
        return { replies: [], errors: [], format: null, status: 'unknown' };
      default: {
        const before = this.closeOthers(null);
        const record = value as JsonObject;
        if (kind.kind === 'pair-log') return readStep('pair-log', before, readPairLog(record, ctx('pair-log')));
        if (kind.kind === 'guard-reply') return readStep('guard-reply', before, readGuardReply(record, ctx('guard-reply')));
        // with a forced API format the record may fail the strict sniffer; it is read by the forced shape
        return readStep(kind.format, before, readApiBody(kind.format, record, ctx(kind.format)));
      }
    }
  }

  /**
   * Closes the open readers other than `keep` (Claude Code group, Codex run, stream, in that
   * order) and returns what they completed, or null when none was open.
   */
  private closeOthers(keep: OpenReader | null): RecordOutput | null {
    let out: RecordOutput | null = null;
    if (keep !== 'claude' && this.claude) append((out ??= { replies: [], errors: [] }), this.closeClaude());
    if (keep !== 'codex' && this.codex) append((out ??= { replies: [], errors: [] }), this.closeCodex());
    if (keep !== 'stream' && this.stream) append((out ??= { replies: [], errors: [] }), this.closeStream());
    return out;
  }

  private closeClaude(): RecordOutput {
    const out = this.claude?.finish() ?? { replies: [], errors: [] };
    this.claude = null;
    return out;
  }

  private closeCodex(): RecordOutput {
    const out = this.codex?.finish() ?? { replies: [], errors: [] };
    this.codex = null;
    return out;
  }

  private closeStream(): RecordOutput {
    const out = this.stream?.acc.finish() ?? { replies: [], errors: [] };
    this.stream = null;
    return out;
  }
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
