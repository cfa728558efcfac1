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
import { acceptsForced, classifyRecord, type RecordKind } from './detect.js';
import { CHUNKS_FORMAT, createStreamAccumulator, type StreamAccumulator, type StreamApi } from './streams/index.js';
import { ClaudeCodeReader } from './transcripts/claude-code.js';
import { CodexReader } from './transcripts/codex.js';
import type { CaptureFormat } from './types.js';

/** What one record produced. */
export interface RecordStep extends RecordOutput {
  /** The format the record was read as; null when it is in no known format (or only skipped). */
  format: CaptureFormat | null;
  /** True when the record is in a known format (read, or a known non-reply record skipped). */
  recognised: boolean;
}

/** The stream API of a forced `-chunks` format, else null. */
function forcedChunksApi(format: CaptureFormat | undefined): StreamApi | null {
  for (const [api, f] of Object.entries(CHUNKS_FORMAT) as [StreamApi, CaptureFormat][]) if (f === format) return api;
  return null;
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
      const api = forcedChunksApi(format);
      return api ? { kind: 'stream-event', api } : classifyRecord(v);
    }
  }
}

/** Concatenates outputs in the given order (earlier closes first, then the record's own output). */
function ordered(parts: RecordOutput[]): RecordOutput {
  const out: RecordOutput = { replies: [], errors: [] };
  for (const p of parts) {
    out.replies.push(...p.replies);
    out.errors.push(...p.errors);
  }
  return out;
}

/**
 * Reads the JSON records of one file. Not thread-safe; one instance per file.
 */
export class RecordReader {
  private claude: ClaudeCodeReader | null = null;
  private codex: CodexReader | null = null;
  private stream: { api: StreamApi; acc: StreamAccumulator } | null = null;

  /**
   * @param file the path as given (or '-'), copied into replies and errors.
   * @param forced the `--input-format` the user forced, if any: records that do not fit it are
   *   INVALID_RECORD errors; for a `-chunks` format every record is a stream event of that API.
   */
  constructor(
    private readonly file: string,
    private readonly forced?: CaptureFormat,
  ) {}

  /**
   * Reads one parsed JSON value. An array is read element by element (all with `line`).
   *
   * @param value the parsed record.
   * @param line the 1-based line where it starts.
   * @returns the replies completed and the problems found, and whether the record was recognised.
   */
  push(value: unknown, line: number): RecordStep {
    if (Array.isArray(value)) {
      const steps = value.map((v) => this.pushOne(v, line));
      const out = ordered(steps);
      const format = steps.find((s) => s.format !== null)?.format ?? null;
      return { ...out, format, recognised: steps.some((s) => s.recognised) };
    }
    return this.pushOne(value, line);
  }

  /** End of input: replies still open (a Claude Code group, a Codex run, an unfinished stream). */
  finish(): RecordOutput {
    return ordered([this.closeClaude(), this.closeCodex(), this.closeStream()]);
  }

  private pushOne(value: unknown, line: number): RecordStep {
    let kind: RecordKind;
    if (this.forced) {
      if (!acceptsForced(this.forced, value)) {
        return {
          replies: [],
          errors: [captureError(this.file, line, 'INVALID_RECORD', `the record is not in the forced input format ${this.forced}`)],
          format: null,
          recognised: false,
        };
      }
      kind = forcedKind(this.forced, value);
    } else {
      kind = classifyRecord(value);
    }
    return this.dispatch(kind, value, line);
  }

  private dispatch(kind: RecordKind, value: unknown, line: number): RecordStep {
    const ctx = (format: CaptureFormat): RecordContext => ({ file: this.file, line, format, advertised: null });
    const step = (format: CaptureFormat | null, ...outs: RecordOutput[]): RecordStep => ({
      ...ordered(outs),
      format,
      recognised: true,
    });
    switch (kind.kind) {
      case 'codex-rollout': {
        const before = [this.closeClaude(), this.closeStream()];
        this.codex ??= new CodexReader(this.file);
        return step('codex-rollout', ...before, this.codex.push(value as JsonObject, line));
      }
      case 'claude-code': {
        const before = [this.closeCodex(), this.closeStream()];
        this.claude ??= new ClaudeCodeReader(this.file);
        return step('claude-code', ...before, this.claude.push(value as JsonObject, line));
      }
      case 'stream-event': {
        const before = [this.closeClaude(), this.closeCodex()];
        if (this.stream && this.stream.api !== kind.api) before.push(this.closeStream());
        const format = CHUNKS_FORMAT[kind.api];
        this.stream ??= { api: kind.api, acc: createStreamAccumulator(kind.api, { file: this.file, format, advertised: null }) };
        return step(format, ...before, this.stream.acc.push(value, undefined, line));
      }
      case 'api-error': {
        // an error payload inside a chunks file belongs to the open stream
        if (this.stream) return step(CHUNKS_FORMAT[this.stream.api], this.stream.acc.push(value, undefined, line));
        return step(null, apiErrorOutput(value as JsonObject, { file: this.file, line }));
      }
      case 'skip':
        return { replies: [], errors: [], format: null, recognised: true };
      case 'unknown':
        return { replies: [], errors: [], format: null, recognised: false };
      default: {
        const before = [this.closeClaude(), this.closeCodex(), this.closeStream()];
        const record = value as JsonObject;
        if (kind.kind === 'pair-log') return step('pair-log', ...before, readPairLog(record, ctx('pair-log')));
        if (kind.kind === 'guard-reply') return step('guard-reply', ...before, readGuardReply(record, ctx('guard-reply')));
        // with a forced API format the record may fail the strict sniffer; it is read by the forced shape
        return step(kind.format, ...before, readApiBody(kind.format, record, ctx(kind.format)));
      }
    }
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
