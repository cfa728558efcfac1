/**
 * The registry of capture formats: one spec per format says what it is, how a record of it is
 * recognised (the sniff), how a record is accepted when the user forces the format
 * (`--input-format`), and how a file of it is read. Record classification, `--input-format`
 * choices, the reader dispatch and `guard formats` all read this list, so a format nobody
 * registered is never read by another format's reader: a record no spec claims is reported
 * (UNKNOWN_FORMAT).
 *
 * Three kinds of spec:
 * - `record`: a JSON value per record (a JSONL line, an array element, a JSON document); the
 *   records of a file that belong together (a Claude Code message group, a Codex run, a stream of
 *   chunks) are read by one reader opened for them ({@link RecordFormatReader}). A format whose
 *   files are one JSON document holding its records in arrays (an agent session's `messages`, a
 *   trajectory's `history`, a HAR's `log.entries`, a Langfuse export's `observations`) declares an
 *   `envelope`: the document splitter then hands those arrays' elements to the reader one at a
 *   time (./json-values.ts), so a document of any size is read in bounded memory.
 * - `sse`: a raw `text/event-stream` body, read by the SSE reader (./sse.ts) with the accumulator
 *   of its stream API (./streams/index.ts).
 * - `text`: a text file of its own layout (Aider's Markdown history), recognised from its first
 *   line and its file name before the JSON / SSE layout sniff (./read.ts), and read line by line.
 *
 * Every spec says, for `guard formats` and the README, how a record of it is recognised and the
 * file names it is usually kept under (`fileNames`, basename patterns with `*`; directory walks
 * take these names too, ./files.ts).
 *
 * The order of {@link CAPTURE_FORMAT_SPECS} is the sniffing order (guard's own; no producer defines
 * one: docs/sources.md "Sniffing order"): transcript envelopes first (they wrap API shapes), then
 * agent files, HAR entries and pair logs, batch outputs and observability exports (they wrap API
 * bodies, read through the `nested` readers the record reader hands them), bare API bodies, guard
 * reply records, plain chat messages, and stream event payloads. The compiler checks that the
 * registry names every {@link CaptureFormat} once.
 */

import { apiBodyFormat, isApiErrorBody, readApiBody } from './bodies/index.js';
import type { JsonObject, RecordContext, RecordOutput } from './bodies/common.js';
import { isObject } from './bodies/common.js';
import { isGuardReply, readGuardReply } from './bodies/guard-reply.js';
import { isPairLog, pairLogReader } from './bodies/pair-log.js';
import { createStreamAccumulator, fitsStreamApi, sniffCaptureStreamPayload, STREAM_APIS, textCompletionDialect, type CaptureStreamApi } from './streams/index.js';
import { anthropicBatchReader, isAnthropicBatchLine, isOpenAIBatchLine, openAIBatchReader } from './bodies/batch.js';
import { isConverseBody, readConverse } from './bodies/bedrock.js';
import { isCohereChat, readCohereChat } from './bodies/cohere.js';
import { isOllamaResponse, OllamaReader } from './bodies/ollama.js';
import { HarReader, isHarDocument, isHarEntry } from './exports/har.js';
import { isLangfuseExport, isLangfuseObservation, LangfuseReader } from './exports/langfuse.js';
import { isLiteLLMLog, liteLLMReader } from './exports/litellm.js';
import { isOtlpLogs, isOtlpTraces, isSpan, otelReader } from './exports/otel.js';
import { isNockDefinition, NockReader } from './exports/nock.js';
import { claimsJsonCassette, isJsonCassette, JsonCassetteReader, sniffVcrCassette, VcrReader } from './exports/vcr.js';
import type { NestedReaders } from './nested.js';
import { historyContext, isRequestWithHistory, readRequestHistory, type TurnLedger } from './request-history.js';
import { createConverseStreamAccumulator, createInvokeStreamAccumulator, isBedrockException, isConverseStreamEvent, isInvokeStreamEvent } from './streams/bedrock.js';
import { isGeminiResponse } from './streams/gemini.js';
import { ClaudeCodeReader, isClaudeCodeLine } from './transcripts/claude-code.js';
import { CodexReader, isCodexLine } from './transcripts/codex.js';
import { AiderReader, sniffAider } from './agents/aider.js';
import { AiderLlmHistoryReader, sniffAiderLlmHistory } from './agents/aider-llm-history.js';
import { ChatMessagesReader, ClineUiReader, isAssistantChatMessage, isClineTaskMessage, isClineUiMessage } from './agents/cline.js';
import { isChatMessage } from './agents/common.js';
import { acceptsGeminiCli, claimsGeminiCli, GeminiCliReader, isGeminiCliRecord } from './agents/gemini-cli.js';
import { claimsGoose, GooseReader, isGooseRecord } from './agents/goose.js';
import { claimsOpenCode, isOpenCodeRecord, OpenCodeReader } from './agents/opencode.js';
import { acceptsOpenHands, isOpenHandsRecord, OpenHandsReader } from './agents/openhands.js';
import { claimsMiniSweAgent, claimsSweAgent, isMiniSweAgentTrajectory, isSweAgentTrajectory, MiniSweAgentReader, SweAgentReader } from './agents/swe-agent.js';
import type { EnvelopeSplit } from './json-values.js';
import type { CaptureFormat } from './types.js';

/** A reader of the records of one format in one file, opened when the first such record comes. */
export interface RecordFormatReader {
  /** Reads one record of the format (`matches` or, when forced, `accepts` held). */
  push(record: unknown, line: number): RecordOutput;
  /**
   * Reads one element of the array at key path `key` of an envelope document (see
   * {@link RecordFormatSpec.envelope}; `index` 0-based, `line` where the element starts). With
   * `rest: record` the document itself comes last to {@link push}, with those arrays emptied.
   * Formats with an envelope implement it (without it, elements go to {@link push}).
   */
  element?(key: string, index: number, value: unknown, line: number): RecordOutput;
  /** End of the run of records (another format's record came, or the input ended): what is still open. */
  finish(): RecordOutput;
}

/** What every spec says about itself (for `guard formats`, the README and directory walks). */
interface SpecInfo<N extends CaptureFormat> {
  name: N;
  /** One line for `guard formats`. */
  description: string;
  /** How a file or record of the format is recognised, in a sentence. */
  recognition: string;
  /** The file names the format is usually kept under: basename patterns, `*` for any run of characters. */
  fileNames: readonly string[];
  /** False for a format `--input-format` may not name (default: it may). */
  forcible?: boolean;
  /** False when directory walks do not take `fileNames` (names most files under them are not of the format: YAML); default true. */
  walked?: boolean;
}

/** True when `--input-format` may force the format (every record that does not fit it is then INVALID_RECORD). */
export function isForcible(spec: CaptureFormatSpec): boolean {
  return spec.forcible !== false;
}

/** A format read as JSON records. */
export interface RecordFormatSpec<N extends CaptureFormat = CaptureFormat> extends SpecInfo<N> {
  kind: 'record';
  /** The sniff: true for a record of this format (tried in registry order; the first wins). */
  matches(v: unknown): boolean;
  /** Under `--input-format`: true when the record has what the reader needs (looser than `matches`). */
  accepts(v: unknown): boolean;
  /**
   * For a record no sniff claims: true when it looks like this format without the keys that prove
   * it (a bare `{model, messages, response}` beside LiteLLM's payload). Its UNKNOWN_FORMAT message
   * then names `--input-format` with this format ({@link resemblingFormats}); nothing is guessed.
   */
  resembles?(v: unknown): boolean;
  /**
   * Opens a reader for a run of this format's records in `file`. `nested` opens readers of values
   * nested in a record (a batch line's body, a HAR entry's response), classified by this registry.
   * `ledger` holds the assistant turns the file has yielded so far, whatever their format (for
   * request histories, which repeat them: ./request-history.ts).
   */
  open(file: string, nested: NestedReaders, ledger: TurnLedger): RecordFormatReader;
  /** The stream API of a `-chunks` format (records are the API's stream events), else undefined. */
  api?: CaptureStreamApi;
  /**
   * A document format that holds its records in array members of a top-level object
   * (./json-values.ts): `arrays` names them by key path (`messages`, `log.entries`: member
   * `entries` of member `log`; at most `MAX_ENVELOPE_DEPTH` keys, ./json-values.ts). `claims`, when given, says
   * from the members written before one of them (its path, and the object so far with that array
   * as `[]`) that the document is of this format; without it the path alone claims the array.
   * Claimed arrays are read element by element ({@link RecordFormatReader.element}). `rest`: what
   * becomes of the object around them: `record` (the default) gives it last to {@link
   * RecordFormatReader.push} with those arrays emptied; `skip` scans it without keeping it (the
   * reader needs only the elements).
   */
  envelope?: { arrays: readonly string[]; claims?(path: string, head: JsonObject): boolean; rest?: 'record' | 'skip' };
}

/** A format read as a raw SSE body. */
export interface SseFormatSpec<N extends CaptureFormat = CaptureFormat> extends SpecInfo<N> {
  kind: 'sse';
  api: CaptureStreamApi;
}

/** A reader of a text format, fed every line of the file. */
export interface TextFormatReader {
  /** One line (its text without the line end, its 1-based number). */
  line(text: string, line: number): RecordOutput;
  /** End of input: what is still open. */
  finish(): RecordOutput;
}

/** A format with a text layout of its own, recognised from its first line and file name. */
export interface TextFormatSpec<N extends CaptureFormat = CaptureFormat> extends SpecInfo<N> {
  kind: 'text';
  /** True when a file whose first non-blank line is `first` and whose path is `file` is of this format. */
  sniff(first: string, file: string): boolean;
  /**
   * Opens a reader for `file`; `maxReplyBytes` caps the text held for one reply (or one document);
   * `nested` opens readers of values the text holds (a cassette's response bodies).
   */
  open(file: string, maxReplyBytes: number, nested: NestedReaders): TextFormatReader;
}

export type CaptureFormatSpec = RecordFormatSpec | SseFormatSpec | TextFormatSpec;

/** A reader of records that need no state across records: each is read on its own. */
function stateless(read: (record: JsonObject, ctx: RecordContext) => RecordOutput, format: CaptureFormat): (file: string) => RecordFormatReader {
  return (file) => ({
    push: (record, line) => read(record as JsonObject, { file, line, format, advertised: null }),
    finish: () => ({ replies: [], errors: [] }),
  });
}

/** An API response body format (OpenAI Chat, Anthropic Messages, OpenAI Responses). */
function apiBody<const N extends 'openai-chat' | 'anthropic-messages' | 'openai-responses'>(
  name: N,
  description: string,
  recognition: string,
  accepts: (v: JsonObject) => boolean,
): RecordFormatSpec<N> {
  return {
    kind: 'record',
    name,
    description,
    recognition,
    fileNames: ['*.json', '*.jsonl', '*.ndjson'],
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
    recognition: `each record is an event payload of the ${STREAM_APIS[api].title} stream (its event types and fields)`,
    fileNames: ['*.jsonl', '*.ndjson', '*.chunks.jsonl'],
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
  return {
    kind: 'sse',
    name: STREAM_APIS[api].sseFormat,
    description: `${STREAM_APIS[api].title} raw text/event-stream body`,
    recognition: `the file starts with an SSE field (data:, event:, id:, retry:) or comment, and its events are ${STREAM_APIS[api].title} events`,
    fileNames: ['*.sse', '*.txt', '*.log'],
    api,
  };
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

/** A text format spec with its literal name. */
function text<const N extends CaptureFormat>(spec: TextFormatSpec<N>): TextFormatSpec<N> {
  return spec;
}

/** Every capture format, record formats in sniffing order, then the SSE formats. */
export const CAPTURE_FORMAT_SPECS = [
  record({
    kind: 'record',
    name: 'codex-rollout',
    description: 'Codex CLI rollout (session) files: one event per line',
    recognition: 'a line {timestamp, type, payload} whose type is a rollout item (session_meta, turn_context, response_item, event_msg, …)',
    fileNames: ['rollout-*.jsonl'],
    matches: isCodexLine,
    accepts: isCodexLine,
    open: (file) => new CodexReader(file),
  }),
  record({
    kind: 'record',
    name: 'claude-code',
    description: 'Claude Code session files (~/.claude/projects/**/*.jsonl)',
    recognition: 'a line with a string type and a session key (sessionId, uuid, parentUuid, leafUuid, session_id), or a bookkeeping type (summary, file-history-snapshot, …)',
    fileNames: ['*.jsonl'],
    matches: isClaudeCodeLine,
    accepts: (v) => isObject(v) && typeof v['type'] === 'string',
    open: (file) => new ClaudeCodeReader(file),
  }),
  record({
    kind: 'record',
    name: 'gemini-cli',
    description: 'Gemini CLI chat recordings (~/.gemini/tmp/<project>/chats/session-*.json and .jsonl)',
    recognition: 'a session {sessionId, projectHash, …, messages[]}, or its JSONL lines: metadata, messages {id, timestamp, type: user|gemini|info|error|warning}, {$set}, {$rewindTo}',
    fileNames: ['session-*.json', 'session-*.jsonl'],
    matches: isGeminiCliRecord,
    accepts: acceptsGeminiCli,
    open: (file) => new GeminiCliReader(file),
    envelope: { arrays: ['messages'], claims: (_key, head) => claimsGeminiCli(head) },
  }),
  record({
    kind: 'record',
    name: 'openhands',
    description: 'OpenHands (v0) event trajectories: a JSON array or JSON Lines of events, and evaluation output.jsonl lines',
    recognition: 'an event {id, timestamp, source: agent|user|environment, action | observation, …}, or an evaluation output line {instance_id, instruction, history[] of events, …}',
    fileNames: ['*.json', '*.jsonl', 'trajectory*.json', 'output.jsonl'],
    matches: isOpenHandsRecord,
    accepts: acceptsOpenHands,
    open: (file) => new OpenHandsReader(file),
  }),
  record({
    kind: 'record',
    name: 'swe-agent',
    description: 'SWE-agent trajectories (*.traj)',
    recognition: 'a document {trajectory[], history[], info, …} (or {attempts[], info}) whose history items are chat messages, or a demonstration {history[]} of SWE-agent messages (agent, message_type)',
    fileNames: ['*.traj'],
    matches: isSweAgentTrajectory,
    accepts: (v) => isObject(v) && (Array.isArray(v['history']) || Array.isArray(v['trajectory']) || Array.isArray(v['attempts'])),
    open: (file) => new SweAgentReader(file),
    envelope: { arrays: ['trajectory', 'history', 'attempts'], claims: claimsSweAgent },
  }),
  record({
    kind: 'record',
    name: 'mini-swe-agent',
    description: 'mini-swe-agent trajectories (*.traj.json)',
    recognition: 'a document {info{mini_version | config, …}, messages[], trajectory_format: "mini-swe-agent-…"}',
    fileNames: ['*.traj.json', 'last_mini_run.traj.json'],
    matches: isMiniSweAgentTrajectory,
    accepts: (v) => isObject(v) && Array.isArray(v['messages']),
    open: (file) => new MiniSweAgentReader(file),
    envelope: { arrays: ['messages'], claims: claimsMiniSweAgent },
  }),
  record({
    kind: 'record',
    name: 'opencode',
    description: 'OpenCode sessions: messages with parts (server API, SDK results, opencode export, storage files, run --format json)',
    recognition: 'a message {info{id: msg_…, role, sessionID}, parts[]}, an export {info{id: ses_…}, messages[]}, a part {id: prt_…, messageID, type}, or a run event {type, sessionID, part}',
    fileNames: ['*.json', '*.jsonl', 'msg_*.json', 'prt_*.json'],
    matches: isOpenCodeRecord,
    accepts: (v) => isOpenCodeRecord(v) || (isObject(v) && ('info' in v || 'part' in v || 'parts' in v || 'messageID' in v || 'data' in v)),
    open: (file) => new OpenCodeReader(file),
    envelope: { arrays: ['messages'], claims: claimsOpenCode },
  }),
  record({
    kind: 'record',
    name: 'goose',
    description: 'Goose sessions (legacy ~/.local/share/goose/sessions/*.jsonl, goose session export --format json) and goose run stream-json output',
    recognition: 'a message {role, created (a number), content[] of text / toolRequest / thinking …}, the session metadata {working_dir, description, message_count, …}, an exported session {id, working_dir, …, conversation[] of messages}, or a stream-json line {type: message | notification | complete}',
    fileNames: ['*.jsonl', '*.json'],
    matches: isGooseRecord,
    accepts: (v) => isGooseRecord(v) || (isObject(v) && (Array.isArray(v['content']) || 'message' in v || 'working_dir' in v)),
    open: (file) => new GooseReader(file),
    envelope: { arrays: ['conversation'], claims: claimsGoose },
  }),
  record({
    kind: 'record',
    name: 'cline-ui',
    description: "Cline and Roo Code task UI messages (tasks/<id>/ui_messages.json)",
    recognition: 'a message {ts (a number), type: say | ask, say | ask: <kind>, text, …}',
    fileNames: ['ui_messages.json'],
    matches: isClineUiMessage,
    accepts: (v) => isObject(v) && (v['type'] === 'say' || v['type'] === 'ask'),
    open: (file) => new ClineUiReader(file),
  }),
  record({
    kind: 'record',
    name: 'cline-task',
    description: 'Cline and Roo Code task API histories (tasks/<id>/api_conversation_history.json)',
    recognition: 'an Anthropic message param {role, content} with the keys Cline or Roo Code add (modelInfo, metrics, ts, isSummary, condenseId, …), or a Roo Code reasoning item',
    fileNames: ['api_conversation_history.json'],
    matches: isClineTaskMessage,
    accepts: (v) => isClineTaskMessage(v) || isChatMessage(v),
    open: (file) => new ChatMessagesReader(file, 'cline-task'),
  }),
  record({
    kind: 'record',
    name: 'har',
    description: 'HTTP Archive files (browser DevTools, mitmproxy, Polly.JS): each entry\'s LLM API response (JSON, SSE, NDJSON or AWS event stream body), with the tools its request advertised',
    recognition: 'a document {log: {entries[]}} (read one entry at a time), or an entry {request{method, url}, response{status, content}}',
    fileNames: ['*.har'],
    matches: (v) => isHarEntry(v) || isHarDocument(v),
    accepts: (v) => isHarEntry(v) || isHarDocument(v),
    open: (file, nested) => new HarReader(file, nested),
    envelope: { arrays: ['log.entries'], rest: 'skip' },
  }),
  record({
    kind: 'record',
    name: 'nock',
    description: "nock recordings (nock back fixtures, nock.recorder output objects): each definition's LLM API response (JSON, SSE, NDJSON, hex or gzip-compressed chunks), with the tools its request advertised",
    recognition: 'a JSON array (or JSON Lines) of definitions {scope: http(s)://…, method, path, body, status, response, rawHeaders}',
    fileNames: ['*.json'],
    matches: isNockDefinition,
    accepts: isNockDefinition,
    open: (file, nested) => new NockReader(file, nested),
  }),
  record({
    kind: 'record',
    name: 'vcr-json',
    description: "JSON HTTP cassettes: vcrpy's json serializer ({interactions, version}) and Betamax ({http_interactions, recorded_with}), each exchange read as a HAR entry",
    recognition: 'a document {interactions[] | http_interactions[] of {request, response}, version? | recorded_with?} (read one interaction at a time)',
    fileNames: ['*.json'],
    matches: isJsonCassette,
    accepts: isJsonCassette,
    open: (file, nested) => new JsonCassetteReader(file, nested),
    envelope: { arrays: ['interactions', 'http_interactions'], claims: claimsJsonCassette, rest: 'skip' },
  }),
  record({
    kind: 'record',
    name: 'pair-log',
    description: 'proxy logs holding a request and its response (claude-trace and similar)',
    recognition: 'a record {request, response} whose response is an API body or SSE text',
    fileNames: ['*.jsonl', '*.json'],
    matches: isPairLog,
    accepts: isPairLog,
    open: (file, nested, ledger) => pairLogReader(file, nested, ledger),
  }),
  record({
    kind: 'record',
    name: 'request-history',
    description: 'request bodies logged without their responses (OpenAI Chat, Anthropic Messages, OpenAI Responses): the assistant turns of their history, each once per file',
    recognition: 'a bare request body (model plus messages or input, only request fields) whose history holds an assistant message or a model output item',
    fileNames: ['*.jsonl', '*.json'],
    matches: isRequestWithHistory,
    accepts: isRequestWithHistory,
    open: (file, _nested, ledger) => ({
      push: (record, line) => readRequestHistory(record as JsonObject, historyContext(file, line), ledger),
      finish: () => ({ replies: [], errors: [] }),
    }),
  }),
  record({
    kind: 'record',
    name: 'openai-batch',
    description: 'OpenAI Batch API output files ({custom_id, response: {status_code, body}}): each body read as its API',
    recognition: 'a line {custom_id, response: {status_code, body} | null, error?}',
    fileNames: ['*.jsonl'],
    matches: isOpenAIBatchLine,
    accepts: isOpenAIBatchLine,
    open: (file, nested) => openAIBatchReader(file, nested),
  }),
  record({
    kind: 'record',
    name: 'anthropic-batch',
    description: 'Anthropic Message Batches results ({custom_id, result: {type, message}})',
    recognition: 'a line {custom_id, result: {type: succeeded | errored | canceled | expired, message?}}',
    fileNames: ['*.jsonl'],
    matches: isAnthropicBatchLine,
    accepts: isAnthropicBatchLine,
    open: (file) => anthropicBatchReader(file),
  }),
  record({
    kind: 'record',
    name: 'litellm',
    description: "LiteLLM's standard logging payloads and spend logs ({model, messages, response, ...}): the response read as its API",
    recognition: 'a record with a response and a call_type (or another of LiteLLM\'s own keys: response_cost, hidden_params, model_parameters, spend, ...), without a request object or custom_id; a bare {model, messages, response} only with --input-format litellm',
    fileNames: ['*.json', '*.jsonl'],
    matches: isLiteLLMLog,
    accepts: (v) => isObject(v) && 'response' in v,
    resembles: (v) => isObject(v) && 'response' in v && ('messages' in v || 'model' in v),
    open: (file, nested) => liteLLMReader(file, nested),
  }),
  record({
    kind: 'record',
    name: 'langfuse',
    description: 'Langfuse trace exports and observations: one reply per GENERATION (a wrapper repeating its call read once); a TOOL observation whose call no generation of its trace holds is a reply of its own',
    recognition: 'a trace export {trace, observations[]} (read one observation at a time), a list {data: [observations], meta}, or an observation {id, traceId, type: GENERATION | SPAN | …}',
    fileNames: ['*.json', '*.jsonl'],
    matches: (v) => isLangfuseExport(v) || isLangfuseObservation(v),
    accepts: (v) => isLangfuseExport(v) || isLangfuseObservation(v),
    open: (file) => new LangfuseReader(file),
    envelope: { arrays: ['observations'], rest: 'skip' },
  }),
  record({
    kind: 'record',
    name: 'otel-genai',
    description: 'OpenTelemetry spans of LLM calls (OTLP JSON or SDK span dumps): gen_ai.output.messages, gen_ai.completion.*, gen_ai.choice events, AI SDK ai.response.*, Langfuse SDK langfuse.observation.output of generation spans; an execute_tool span whose call no chat span of its trace holds is a reply of its own; OTLP logs of GenAI events (gen_ai.client.inference.operation.details, gen_ai.choice)',
    recognition: 'an OTLP JSON export {resourceSpans[]} or {resourceLogs[]}, or a span {name, attributes, spanId | spanContext | context}',
    fileNames: ['*.json', '*.jsonl'],
    matches: (v) => isOtlpTraces(v) || isOtlpLogs(v) || isSpan(v),
    accepts: (v) => isOtlpTraces(v) || isOtlpLogs(v) || isSpan(v),
    open: (file) => otelReader(file),
  }),
  apiBody('openai-chat', 'OpenAI Chat Completions response bodies (and compatible servers)', 'object "chat.completion", or choices[] whose entries hold a message', (v) => Array.isArray(v['choices'])),
  apiBody('anthropic-messages', 'Anthropic Messages response bodies', 'type "message", role "assistant" and content[]', (v) => Array.isArray(v['content'])),
  apiBody('openai-responses', 'OpenAI Responses API response bodies', 'object "response" with output[]', (v) => Array.isArray(v['output'])),
  record({
    kind: 'record',
    name: 'ollama',
    description: "Ollama's native /api/chat and /api/generate responses and their NDJSON streams (a reply ends at done: true)",
    recognition: 'a response {model, done (a boolean), message (an assistant message) | response | created_at}; a stream is one per line, or pretty-printed objects back to back',
    fileNames: ['*.json', '*.ndjson', '*.jsonl'],
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
    recognition: 'a GenerateContentResponse {candidates[] | promptFeedback | usageMetadata with modelVersion or responseId}; a stream is a JSON array of them or one per line',
    fileNames: ['*.json', '*.jsonl', '*.ndjson'],
    api: 'gemini',
    matches: isGeminiResponse,
    accepts: (v) => isGeminiResponse(v) || (isObject(v) && isObject(v['error'])),
    open: (file) => createStreamAccumulatorReader('gemini', file),
  }),
  record({
    kind: 'record',
    name: 'text-completion',
    description: 'text completions, where markup is the text: OpenAI legacy /v1/completions bodies and chunks (vLLM, SGLang, llama.cpp, TGI, LM Studio), TGI /generate and /generate_stream, SGLang /generate',
    recognition: 'a body or chunk {object: "text_completion" | choices[] of {text} without message or delta}, {generated_text} or {token, generated_text} (TGI), {text, meta_info} (SGLang)',
    fileNames: ['*.json', '*.jsonl', '*.ndjson'],
    api: 'text-completion',
    matches: (v) => textCompletionDialect(v) !== null,
    accepts: (v) => textCompletionDialect(v) !== null || (isObject(v) && v['error'] !== undefined),
    open: (file) => createStreamAccumulatorReader('text-completion', file),
  }),
  record({
    kind: 'record',
    name: 'cohere-chat',
    description: 'Cohere v2 chat response bodies (message.content, tool_plan, tool_calls), and v1 bodies (text, tool_calls with parameters)',
    recognition: 'a body {message (an assistant message), finish_reason in capitals (COMPLETE, TOOL_CALL, MAX_TOKENS, …)} without choices or done; v1: {text, generation_id | response_id, finish_reason in capitals}',
    fileNames: ['*.json', '*.jsonl'],
    matches: isCohereChat,
    accepts: (v) => isObject(v) && (isObject(v['message']) || isCohereChat(v)),
    open: stateless(readCohereChat, 'cohere-chat'),
  }),
  record({
    kind: 'record',
    name: 'bedrock-converse',
    description: 'Amazon Bedrock Converse response bodies (output.message.content: text, reasoningContent, toolUse)',
    recognition: 'a body {output: {message: {content[]}}, stopReason?}',
    fileNames: ['*.json', '*.jsonl'],
    matches: isConverseBody,
    accepts: isConverseBody,
    open: stateless(readConverse, 'bedrock-converse'),
  }),
  record({
    kind: 'record',
    name: 'guard-reply',
    description: "guard's own reply records ({id, tools, text, tool_calls})",
    recognition: 'a record with a string text and only guard reply keys (id, tools, text, reasoning, tool_calls, label, guard)',
    fileNames: ['*.jsonl'],
    matches: isGuardReply,
    accepts: (v) => isObject(v) && typeof v['text'] === 'string',
    open: stateless(readGuardReply, 'guard-reply'),
  }),
  record({
    kind: 'record',
    name: 'chat-messages',
    description: 'plain lists of chat messages (a JSON array or JSON Lines of {role, content, tool_calls?}); advertised tools unknown',
    recognition: 'an assistant message {role: "assistant", content: a string or blocks / parts, tool_calls?} in the Anthropic or the OpenAI shape',
    fileNames: ['*.json', '*.jsonl'],
    matches: isAssistantChatMessage,
    accepts: isChatMessage,
    open: (file) => new ChatMessagesReader(file, 'chat-messages'),
  }),
  chunks('openai-chat'),
  chunks('anthropic'),
  chunks('openai-responses'),
  chunks('cohere'),
  record({
    kind: 'record',
    name: 'bedrock-converse-stream',
    description: 'Amazon Bedrock ConverseStream events ({"<event-type>": payload} per line, or the raw binary application/vnd.amazon.eventstream body)',
    recognition: 'an event {"<event type>": payload} of ConverseStream (messageStart, contentBlockStart, contentBlockDelta, contentBlockStop, messageStop, metadata) or a stream exception; a binary body by its first frame\'s prelude and CRCs',
    fileNames: ['*.jsonl', '*.eventstream'],
    // an exception event ends the stream it interrupts (it is one of the stream's events)
    matches: (v) => isConverseStreamEvent(v) || isBedrockException(v),
    accepts: (v) => isConverseStreamEvent(v) || isBedrockException(v),
    open: accumulated('bedrock-converse-stream', createConverseStreamAccumulator),
  }),
  record({
    kind: 'record',
    name: 'bedrock-invoke-stream',
    description: "Amazon Bedrock InvokeModelWithResponseStream events ({\"chunk\": {\"bytes\": base64}}, decoded or the raw binary body): the provider's own stream events inside",
    recognition: 'an event {chunk: {bytes: base64}} (or a stream exception); a binary body by its first frame\'s prelude and CRCs',
    fileNames: ['*.jsonl', '*.eventstream'],
    matches: isInvokeStreamEvent,
    accepts: (v) => isInvokeStreamEvent(v) || isBedrockException(v),
    open: accumulated('bedrock-invoke-stream', createInvokeStreamAccumulator),
  }),
  sse('openai-chat'),
  sse('anthropic'),
  sse('openai-responses'),
  sse('gemini'),
  sse('cohere'),
  sse('text-completion'),
  text({
    kind: 'text',
    name: 'aider',
    description: 'Aider chat histories (.aider.chat.history.md), Markdown',
    recognition: 'a Markdown file that starts with "# aider chat started at", or any text file named .aider.chat.history.md',
    fileNames: ['.aider.chat.history.md', '*.aider.chat.history.md'],
    sniff: sniffAider,
    open: (file, maxReplyBytes) => new AiderReader(file, maxReplyBytes),
  }),
  text({
    kind: 'text',
    name: 'aider-llm-history',
    description: "Aider LLM histories (.aider.llm.history, --llm-history-file): every request and response, each line prefixed with its role",
    recognition: 'a text file whose first line is "TO LLM <ISO time>" or "LLM RESPONSE <ISO time>", or any text file named .aider.llm.history',
    fileNames: ['.aider.llm.history', '*.aider.llm.history'],
    sniff: sniffAiderLlmHistory,
    open: (file, maxReplyBytes) => new AiderLlmHistoryReader(file, maxReplyBytes),
  }),
  text({
    kind: 'text',
    name: 'vcr',
    description: 'VCR cassettes (YAML): vcrpy / pytest-recording interactions (also pydantic-ai parsed_body) and Ruby VCR http_interactions, each exchange read as a HAR entry',
    recognition: 'a YAML file whose first line is "interactions:" or "http_interactions:" (or "---" in a .yaml / .yml file); directory walks skip YAML: name the cassettes',
    fileNames: ['*.yaml', '*.yml'],
    walked: false,
    sniff: sniffVcrCassette,
    open: (file, maxDocumentBytes, nested) => new VcrReader(file, maxDocumentBytes, nested),
  }),
] as const;

// The registry names every CaptureFormat (a compile-time check: a format missing here fails to build).
type Registered = (typeof CAPTURE_FORMAT_SPECS)[number]['name'];
const everyFormatRegistered: [Exclude<CaptureFormat, Registered>] extends [never] ? true : false = true;
void everyFormatRegistered;

/** Every format name, in registry order (`--input-format` choices). */
export const CAPTURE_FORMATS: readonly CaptureFormat[] = CAPTURE_FORMAT_SPECS.map((s) => s.name);

/** The record formats in sniffing order. */
export const RECORD_FORMAT_SPECS: readonly RecordFormatSpec[] = (CAPTURE_FORMAT_SPECS as readonly CaptureFormatSpec[]).filter((s): s is RecordFormatSpec => s.kind === 'record');

/** The text formats, tried before the JSON / SSE layout sniff. */
export const TEXT_FORMAT_SPECS: readonly TextFormatSpec[] = (CAPTURE_FORMAT_SPECS as readonly CaptureFormatSpec[]).filter((s): s is TextFormatSpec => s.kind === 'text');

/** Every file-name pattern of the registry, once each, in registry order: the names directory walks take (not those of a format marked `walked: false`). */
export const CAPTURE_FILE_NAMES: readonly string[] = [...new Set((CAPTURE_FORMAT_SPECS as readonly CaptureFormatSpec[]).filter((s) => s.walked !== false).flatMap((s) => s.fileNames))];

/**
 * The text format of a file whose first non-blank line is `first`: the forced format when it is a
 * text format, else the first text format whose sniff claims the file; null for JSON and SSE
 * files (and when another format is forced).
 */
export function textFormatFor(forced: CaptureFormat | undefined, first: string, file: string): TextFormatSpec | null {
  if (forced !== undefined) {
    const spec = formatSpec(forced);
    return spec.kind === 'text' ? spec : null;
  }
  return TEXT_FORMAT_SPECS.find((s) => s.sniff(first, file)) ?? null;
}

/**
 * The envelope claim the document splitter asks about each array of a top-level object
 * (./json-values.ts, by its key path): the first record format whose `envelope` names the path
 * and claims the members before it (or claims it by the path alone), with what becomes of the
 * object around it; under `--input-format`, the forced format whenever its envelope names the
 * path.
 */
export function envelopeSplit(forced?: CaptureFormat): EnvelopeSplit {
  const specs = forced !== undefined ? RECORD_FORMAT_SPECS.filter((s) => s.name === forced) : RECORD_FORMAT_SPECS;
  const withEnvelope = specs.filter((s) => s.envelope !== undefined);
  return (path, head) => {
    for (const spec of withEnvelope) {
      const envelope = spec.envelope!;
      if (!envelope.arrays.includes(path)) continue;
      if (forced === undefined && envelope.claims) {
        const h = head();
        if (h === null || !envelope.claims(path, h)) continue;
      }
      return { tag: spec.name, rest: envelope.rest ?? 'record' };
    }
    return null;
  };
}

/** The spec of a format. */
export function formatSpec(name: CaptureFormat): CaptureFormatSpec {
  const spec = (CAPTURE_FORMAT_SPECS as readonly CaptureFormatSpec[]).find((s) => s.name === name);
  if (!spec) throw new Error(`no capture format ${name} is registered`);
  return spec;
}

/** The record formats that a record no sniff claims resembles (`resembles`), in registry order. */
export function resemblingFormats(v: unknown): CaptureFormat[] {
  return RECORD_FORMAT_SPECS.filter((s) => s.resembles?.(v) === true).map((s) => s.name);
}

/** The first record format whose sniff claims `v`, or null. */
export function sniffRecordFormat(v: unknown): RecordFormatSpec | null {
  for (const spec of RECORD_FORMAT_SPECS) if (spec.matches(v)) return spec;
  return null;
}
