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
 * HAR entries and pair logs, batch outputs and observability exports (they wrap API bodies, read
 * through the `nested` readers the record reader hands them), bare API bodies, guard reply
 * records, and stream event payloads. The compiler checks that the registry names every
 * {@link CaptureFormat} once.
 */

import { apiBodyFormat, isApiErrorBody, readApiBody } from './bodies/index.js';
import type { JsonObject, RecordContext, RecordOutput } from './bodies/common.js';
import { isObject } from './bodies/common.js';
import { isGuardReply, readGuardReply } from './bodies/guard-reply.js';
import { isPairLog, readPairLog } from './bodies/pair-log.js';
import { createStreamAccumulator, fitsStreamApi, sniffCaptureStreamPayload, STREAM_APIS, type CaptureStreamApi } from './streams/index.js';
import { anthropicBatchReader, isAnthropicBatchLine, isOpenAIBatchLine, openAIBatchReader } from './bodies/batch.js';
import { isConverseBody, readConverse } from './bodies/bedrock.js';
import { isCohereChat, readCohereChat } from './bodies/cohere.js';
import { isOllamaResponse, OllamaReader } from './bodies/ollama.js';
import { HarReader, isHarDocument, isHarEntry } from './exports/har.js';
import { isLangfuseExport, isLangfuseObservation, LangfuseReader } from './exports/langfuse.js';
import { isLiteLLMLog, liteLLMReader } from './exports/litellm.js';
import { isOtlpTraces, isSpan, otelReader } from './exports/otel.js';
import type { NestedReaders } from './nested.js';
import { createConverseStreamAccumulator, createInvokeStreamAccumulator, isBedrockException, isConverseStreamEvent, isInvokeStreamEvent } from './streams/bedrock.js';
import { isGeminiResponse } from './streams/gemini.js';
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
  /**
   * Opens a reader for a run of this format's records in `file`. `nested` opens readers of values
   * nested in a record (a batch line's body, a HAR entry's response), classified by this registry.
   */
  open(file: string, nested: NestedReaders): RecordFormatReader;
  /** The stream API of a `-chunks` format (records are the API's stream events), else undefined. */
  api?: CaptureStreamApi;
}

/** A format read as a raw SSE body. */
export interface SseFormatSpec<N extends CaptureFormat = CaptureFormat> {
  kind: 'sse';
  name: N;
  description: string;
  api: CaptureStreamApi;
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
function chunks<const A extends CaptureStreamApi>(api: A): RecordFormatSpec<(typeof STREAM_APIS)[A]['chunksFormat']> {
  const name = STREAM_APIS[api].chunksFormat;
  return {
    kind: 'record',
    name,
    description: `${STREAM_APIS[api].title} stream events, one JSON payload per line`,
    api,
    // an error body is an API error (a warning), not a Chat chunk, unless a stream is open
    matches: (v) => sniffCaptureStreamPayload(v) === api && !(api === 'openai-chat' && isApiErrorBody(v)),
    accepts: (v) => isObject(v) && fitsStreamApi(api, v),
    open: (file) => createStreamAccumulatorReader(api, file),
  };
}

function createStreamAccumulatorReader(api: CaptureStreamApi, file: string): RecordFormatReader {
  const acc = createStreamAccumulator(api, { file, format: STREAM_APIS[api].chunksFormat, advertised: null });
  return { push: (record, line) => acc.push(record, undefined, line), finish: () => acc.finish() };
}

function sse<const A extends CaptureStreamApi>(api: A): SseFormatSpec<(typeof STREAM_APIS)[A]['sseFormat']> {
  return { kind: 'sse', name: STREAM_APIS[api].sseFormat, description: `${STREAM_APIS[api].title} raw text/event-stream body`, api };
}

/** A record format read by a stream accumulator of its own (events that are not an SSE API's). */
function accumulated(format: CaptureFormat, create: typeof createConverseStreamAccumulator): (file: string) => RecordFormatReader {
  return (file) => {
    const acc = create({ file, format, advertised: null });
    return { push: (record, line) => acc.push(record, undefined, line), finish: () => acc.finish() };
  };
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
    name: 'har',
    description: 'HTTP Archive files (browser DevTools, mitmproxy, Polly.JS): each entry\'s LLM API response (JSON, SSE, NDJSON or AWS event stream body), with the tools its request advertised',
    matches: (v) => isHarEntry(v) || isHarDocument(v),
    accepts: (v) => isHarEntry(v) || isHarDocument(v),
    open: (file, nested) => new HarReader(file, nested),
  }),
  record({
    kind: 'record',
    name: 'pair-log',
    description: 'proxy logs holding a request and its response (claude-trace and similar)',
    matches: isPairLog,
    accepts: isPairLog,
    open: stateless(readPairLog, 'pair-log'),
  }),
  record({
    kind: 'record',
    name: 'openai-batch',
    description: 'OpenAI Batch API output files ({custom_id, response: {status_code, body}}): each body read as its API',
    matches: isOpenAIBatchLine,
    accepts: isOpenAIBatchLine,
    open: (file, nested) => openAIBatchReader(file, nested),
  }),
  record({
    kind: 'record',
    name: 'anthropic-batch',
    description: 'Anthropic Message Batches results ({custom_id, result: {type, message}})',
    matches: isAnthropicBatchLine,
    accepts: isAnthropicBatchLine,
    open: (file) => anthropicBatchReader(file),
  }),
  record({
    kind: 'record',
    name: 'litellm',
    description: "LiteLLM's standard logging payloads and spend logs ({model, messages, response, ...}): the response read as its API",
    matches: isLiteLLMLog,
    accepts: (v) => isObject(v) && 'response' in v,
    open: (file, nested) => liteLLMReader(file, nested),
  }),
  record({
    kind: 'record',
    name: 'langfuse',
    description: 'Langfuse trace exports and observations: one reply per GENERATION (a wrapper repeating its call read once)',
    matches: (v) => isLangfuseExport(v) || isLangfuseObservation(v),
    accepts: (v) => isLangfuseExport(v) || isLangfuseObservation(v),
    open: (file) => new LangfuseReader(file),
  }),
  record({
    kind: 'record',
    name: 'otel-genai',
    description: 'OpenTelemetry spans of LLM calls (OTLP JSON or SDK span dumps): gen_ai.output.messages, gen_ai.completion.*, gen_ai.choice events, AI SDK ai.response.*',
    matches: (v) => isOtlpTraces(v) || isSpan(v),
    accepts: (v) => isOtlpTraces(v) || isSpan(v),
    open: (file) => otelReader(file),
  }),
  apiBody('openai-chat', 'OpenAI Chat Completions response bodies (and compatible servers)', (v) => Array.isArray(v['choices'])),
  apiBody('anthropic-messages', 'Anthropic Messages response bodies', (v) => Array.isArray(v['content'])),
  apiBody('openai-responses', 'OpenAI Responses API response bodies', (v) => Array.isArray(v['output'])),
  record({
    kind: 'record',
    name: 'ollama',
    description: "Ollama's native /api/chat and /api/generate responses and their NDJSON streams (a reply ends at done: true)",
    matches: isOllamaResponse,
    accepts: (v) => isObject(v) && typeof v['done'] === 'boolean',
    open: (file) => {
      const reader = new OllamaReader(file);
      return { push: (record, line) => reader.push(record as JsonObject, line), finish: () => reader.finish() };
    },
  }),
  record({
    kind: 'record',
    name: 'gemini',
    description: 'Google Gemini API and Vertex AI generateContent bodies and streamGenerateContent chunks (a JSON array, or one per line)',
    api: 'gemini',
    matches: isGeminiResponse,
    accepts: (v) => isGeminiResponse(v) || (isObject(v) && isObject(v['error'])),
    open: (file) => createStreamAccumulatorReader('gemini', file),
  }),
  record({
    kind: 'record',
    name: 'cohere-chat',
    description: 'Cohere v2 chat response bodies (message.content, tool_plan, tool_calls)',
    matches: isCohereChat,
    accepts: (v) => isObject(v) && isObject(v['message']),
    open: stateless(readCohereChat, 'cohere-chat'),
  }),
  record({
    kind: 'record',
    name: 'bedrock-converse',
    description: 'Amazon Bedrock Converse response bodies (output.message.content: text, reasoningContent, toolUse)',
    matches: isConverseBody,
    accepts: isConverseBody,
    open: stateless(readConverse, 'bedrock-converse'),
  }),
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
  chunks('cohere'),
  record({
    kind: 'record',
    name: 'bedrock-converse-stream',
    description: 'Amazon Bedrock ConverseStream events ({"<event-type>": payload} per line, or the raw binary application/vnd.amazon.eventstream body)',
    // an exception event ends the stream it interrupts (it is one of the stream's events)
    matches: (v) => isConverseStreamEvent(v) || isBedrockException(v),
    accepts: (v) => isConverseStreamEvent(v) || isBedrockException(v),
    open: accumulated('bedrock-converse-stream', createConverseStreamAccumulator),
  }),
  record({
    kind: 'record',
    name: 'bedrock-invoke-stream',
    description: "Amazon Bedrock InvokeModelWithResponseStream events ({\"chunk\": {\"bytes\": base64}}, decoded or the raw binary body): the provider's own stream events inside",
    matches: isInvokeStreamEvent,
    accepts: (v) => isInvokeStreamEvent(v) || isBedrockException(v),
    open: accumulated('bedrock-invoke-stream', createInvokeStreamAccumulator),
  }),
  sse('openai-chat'),
  sse('anthropic'),
  sse('openai-responses'),
  sse('gemini'),
  sse('cohere'),
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
