/**
 * The registry of capture formats: one spec per format says what it is, how a record of it is
 * recognised (the sniff), how a record is accepted when the user forces the format
 * (`--input-format`), and how a file of it is read. Record classification, `--input-format`
 * choices, the reader dispatch and `guard formats` all read this list, so a format nobody
 * registered is never read by another format's reader: a record no spec claims is reported
 * (UNKNOWN_FORMAT).
 *
 * Two kinds of spec:
 * - `record`: a JSON value per record (a JSONL line, an array element, a JSON document); the
 *   records of a file that belong together (a Claude Code message group, a Codex run, a stream of
 *   chunks) are read by one reader opened for them ({@link RecordFormatReader}).
 * - `sse`: a raw `text/event-stream` body, read by the SSE reader (./sse.ts) with the accumulator
 *   of its stream API (./streams/index.ts).
 *
 * The order of {@link CAPTURE_FORMAT_SPECS} is the sniffing order (guard's own; no producer defines
 * one: docs/sources.md "Sniffing order"): transcript envelopes first (they wrap API shapes), then
 * pair logs, bare API bodies, guard reply records, and stream event payloads. The compiler checks
 * that the registry names every {@link CaptureFormat} once.
 */

import { apiBodyFormat, isApiErrorBody, readApiBody } from './bodies/index.js';
import type { JsonObject, RecordContext, RecordOutput } from './bodies/common.js';
import { isObject } from './bodies/common.js';
import { isGuardReply, readGuardReply } from './bodies/guard-reply.js';
import { isPairLog, readPairLog } from './bodies/pair-log.js';
import { createStreamAccumulator, fitsStreamApi, sniffStreamPayload, STREAM_APIS, type StreamApi } from './streams/index.js';
import { ClaudeCodeReader, isClaudeCodeLine } from './transcripts/claude-code.js';
import { CodexReader, isCodexLine } from './transcripts/codex.js';
import type { CaptureFormat } from './types.js';

/** A reader of the records of one format in one file, opened when the first such record comes. */
export interface RecordFormatReader {
  /** Reads one record of the format (`matches` or, when forced, `accepts` held). */
  push(record: unknown, line: number): RecordOutput;
  /** End of the run of records (another format's record came, or the input ended): what is still open. */
  finish(): RecordOutput;
}

/** A format read as JSON records. */
export interface RecordFormatSpec<N extends CaptureFormat = CaptureFormat> {
  kind: 'record';
  name: N;
  /** One line for `guard formats`. */
  description: string;
  /** The sniff: true for a record of this format (tried in registry order; the first wins). */
  matches(v: unknown): boolean;
  /** Under `--input-format`: true when the record has what the reader needs (looser than `matches`). */
  accepts(v: unknown): boolean;
  /** Opens a reader for a run of this format's records in `file`. */
  open(file: string): RecordFormatReader;
  /** The stream API of a `-chunks` format (records are the API's stream events), else undefined. */
  api?: StreamApi;
}

/** A format read as a raw SSE body. */
export interface SseFormatSpec<N extends CaptureFormat = CaptureFormat> {
  kind: 'sse';
  name: N;
  description: string;
  api: StreamApi;
}

export type CaptureFormatSpec = RecordFormatSpec | SseFormatSpec;

/** A reader of records that need no state across records: each is read on its own. */
function stateless(read: (record: JsonObject, ctx: RecordContext) => RecordOutput, format: CaptureFormat): (file: string) => RecordFormatReader {
  return (file) => ({
    push: (record, line) => read(record as JsonObject, { file, line, format, advertised: null }),
    finish: () => ({ replies: [], errors: [] }),
  });
}

/** An API response body format (OpenAI Chat, Anthropic Messages, OpenAI Responses). */
function apiBody<const N extends 'openai-chat' | 'anthropic-messages' | 'openai-responses'>(name: N, description: string, accepts: (v: JsonObject) => boolean): RecordFormatSpec<N> {
  return {
    kind: 'record',
    name,
    description,
    matches: (v) => apiBodyFormat(v) === name,
    accepts: (v) => isObject(v) && accepts(v),
    open: stateless((record, ctx) => readApiBody(name, record, ctx), name),
  };
}

/** A JSONL-of-payloads stream format: each record is one event of `api`'s stream. */
function chunks<const A extends StreamApi>(api: A): RecordFormatSpec<(typeof STREAM_APIS)[A]['chunksFormat']> {
  const name = STREAM_APIS[api].chunksFormat;
  return {
    kind: 'record',
    name,
    description: `${STREAM_APIS[api].title} stream events, one JSON payload per line`,
    api,
    // an error body is an API error (a warning), not a Chat chunk, unless a stream is open
    matches: (v) => sniffStreamPayload(v) === api && !(api === 'openai-chat' && isApiErrorBody(v)),
    accepts: (v) => isObject(v) && fitsStreamApi(api, v),
    open: (file) => createStreamAccumulatorReader(api, file),
  };
}

function createStreamAccumulatorReader(api: StreamApi, file: string): RecordFormatReader {
  const acc = createStreamAccumulator(api, { file, format: STREAM_APIS[api].chunksFormat, advertised: null });
  return { push: (record, line) => acc.push(record, undefined, line), finish: () => acc.finish() };
}

function sse<const A extends StreamApi>(api: A): SseFormatSpec<(typeof STREAM_APIS)[A]['sseFormat']> {
  return { kind: 'sse', name: STREAM_APIS[api].sseFormat, description: `${STREAM_APIS[api].title} raw text/event-stream body`, api };
}

/** A record format spec with its literal name (so the registry's names are checked). */
function record<const N extends CaptureFormat>(spec: RecordFormatSpec<N>): RecordFormatSpec<N> {
  return spec;
}

/** Every capture format, record formats in sniffing order, then the SSE formats. */
export const CAPTURE_FORMAT_SPECS = [
  record({
    kind: 'record',
    name: 'codex-rollout',
    description: 'Codex CLI rollout (session) files: one event per line',
    matches: isCodexLine,
    accepts: isCodexLine,
    open: (file) => new CodexReader(file),
  }),
  record({
    kind: 'record',
    name: 'claude-code',
    description: 'Claude Code session files (~/.claude/projects/**/*.jsonl)',
    matches: isClaudeCodeLine,
    accepts: (v) => isObject(v) && typeof v['type'] === 'string',
    open: (file) => new ClaudeCodeReader(file),
  }),
  record({
    kind: 'record',
    name: 'pair-log',
    description: 'proxy logs holding a request and its response (claude-trace and similar)',
    matches: isPairLog,
    accepts: isPairLog,
    open: stateless(readPairLog, 'pair-log'),
  }),
  apiBody('openai-chat', 'OpenAI Chat Completions response bodies (and compatible servers)', (v) => Array.isArray(v['choices'])),
  apiBody('anthropic-messages', 'Anthropic Messages response bodies', (v) => Array.isArray(v['content'])),
  apiBody('openai-responses', 'OpenAI Responses API response bodies', (v) => Array.isArray(v['output'])),
  record({
    kind: 'record',
    name: 'guard-reply',
    description: "guard's own reply records ({id, tools, text, tool_calls})",
    matches: isGuardReply,
    accepts: (v) => isObject(v) && typeof v['text'] === 'string',
    open: stateless(readGuardReply, 'guard-reply'),
  }),
  chunks('openai-chat'),
  chunks('anthropic'),
  chunks('openai-responses'),
  sse('openai-chat'),
  sse('anthropic'),
  sse('openai-responses'),
] as const;

// The registry names every CaptureFormat (a compile-time check: a format missing here fails to build).
type Registered = (typeof CAPTURE_FORMAT_SPECS)[number]['name'];
const everyFormatRegistered: [Exclude<CaptureFormat, Registered>] extends [never] ? true : false = true;
void everyFormatRegistered;

/** Every format name, in registry order (`--input-format` choices). */
export const CAPTURE_FORMATS: readonly CaptureFormat[] = CAPTURE_FORMAT_SPECS.map((s) => s.name);

/** The record formats in sniffing order. */
export const RECORD_FORMAT_SPECS: readonly RecordFormatSpec[] = (CAPTURE_FORMAT_SPECS as readonly CaptureFormatSpec[]).filter((s): s is RecordFormatSpec => s.kind === 'record');

/** The spec of a format. */
export function formatSpec(name: CaptureFormat): CaptureFormatSpec {
  const spec = (CAPTURE_FORMAT_SPECS as readonly CaptureFormatSpec[]).find((s) => s.name === name);
  if (!spec) throw new Error(`no capture format ${name} is registered`);
  return spec;
}

/** The first record format whose sniff claims `v`, or null. */
export function sniffRecordFormat(v: unknown): RecordFormatSpec | null {
  for (const spec of RECORD_FORMAT_SPECS) if (spec.matches(v)) return spec;
  return null;
}
