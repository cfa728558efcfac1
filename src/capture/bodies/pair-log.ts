/**
 * Request/response pair logs written by proxies and fetch interceptors (claude-trace `RawPair`
 * and similar): one JSON object per line with the request and the response it got.
 *
 * Shape: badlogic/lemmy `apps/claude-trace/src/interceptor.ts`
 * (https://github.com/badlogic/lemmy/blob/0f1c5c7f088c0f97052c3fa573de8035ab982e3e/apps/claude-trace/src/interceptor.ts):
 * `request.body`, and `response.body` or `response.body_raw`. The other keys read here generalise
 * it to similar proxies (docs/sources.md "Pair logs"). Request body under `request.body`,
 * `request.json` or the request itself; response body under `response.body`, `response.body_raw`,
 * `response.text` or the response itself. A string body is sniffed: JSON, or an SSE stream handed
 * to the SSE reader.
 *
 * A request body carries the conversation so far (Chat / Anthropic `messages`, Responses `input`):
 * its assistant turns are what the model said and called before, read as the `request-history`
 * format reads them (../request-history.ts), each once per file. They are the earlier pairs'
 * responses when the log holds those (then known by their call ids or text and not read again),
 * and the only record of the turns whose pair the log lacks (an orphaned request, a log started
 * mid-conversation, a proxy that kept the request only).
 */

import { readBodyText } from '../body-text.js';
import { readNestedValues, type NestedReaders } from '../nested.js';
import { advertisedFromRequest } from '../toolcall.js';
import { hasHistoryTurns, readRequestHistory, type TurnLedger } from '../request-history.js';
import type { AdvertisedTool } from '../types.js';
import { readAllowMarks } from './guard-reply.js';
import { apiBodyFormat, apiErrorOutput, isApiErrorBody } from './index.js';
import { captureError, emptyOutput, isObject, shapeOf, type JsonObject, type RecordContext, type RecordOutput } from './common.js';

/** True for a pair-log record: an object with both `request` and `response` keys, `request` an object. */
export function isPairLog(v: unknown): v is JsonObject {
  return isObject(v) && isObject(v['request']) && 'response' in v;
}

/** Keys a request body of a known API has (Chat / Anthropic `messages`, Responses `input`). */
const REQUEST_BODY_KEYS = ['messages', 'input', 'prompt'];

/** Parses `v` when it is a string holding a JSON object, else returns it unchanged. */
function maybeJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trimStart();
  if (!t.startsWith('{')) return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** The request body of a pair: `request.body`, `request.json`, or the request itself. */
function requestBody(request: JsonObject): unknown {
  for (const key of ['body', 'json']) {
    if (request[key] !== undefined && request[key] !== null) return maybeJson(request[key]);
  }
  return request;
}

/**
 * The advertised tools of a request body: its `tools` / `functions`; an empty list when the body
 * is a known API request with neither (nothing was offered); null when the body is unknown.
 */
function advertisedOf(body: unknown): AdvertisedTool[] | null {
  const tools = advertisedFromRequest(body);
  if (tools !== null) return tools;
  return isObject(body) && REQUEST_BODY_KEYS.some((k) => k in body) ? [] : null;
}

/** Keys of HTTP response metadata that hold no body (status, headers, timing). */
const RESPONSE_META_KEYS = new Set(['status', 'status_code', 'statusCode', 'statusText', 'status_text', 'headers', 'timestamp', 'time', 'duration', 'duration_ms', 'url', 'ok']);

/**
 * The response payload of a pair: `body`, `body_raw`, `text`, `json`, or the response itself;
 * `null` for a response that holds only HTTP metadata (a status, headers) and no body.
 */
function responsePayload(response: unknown): unknown {
  if (!isObject(response)) return response;
  if (apiBodyFormat(response) !== null) return response;
  for (const key of ['body', 'body_raw', 'text', 'json']) {
    const v = response[key];
    if (v !== undefined && v !== null && v !== '') return v;
  }
  return Object.keys(response).every((k) => RESPONSE_META_KEYS.has(k)) ? null : response;
}

/**
 * Reads pair-log records; each response is read by the registry through a fresh nested reader,
 * each request's history against the file's `ledger` (so a turn is read once per file).
 */
export function pairLogReader(file: string, nested: NestedReaders, ledger: TurnLedger) {
  ledger.watch();
  return {
    push: (value: unknown, line: number): RecordOutput => readPairLog(value as JsonObject, { file, line, format: 'pair-log', advertised: null }, nested, ledger),
    finish: (): RecordOutput => emptyOutput(),
  };
}

/**
 * Reads one pair-log record: first the assistant turns of the request's history that `ledger` has
 * not seen (see the module header), then the response. Replies are stamped format `pair-log` and
 * carry the request's advertised tools. A record with a null response (an orphaned request) yields
 * only its history's new turns; a
 * response with a status and no body is an INVALID_RECORD warning; an API error body yields a
 * STREAM_ERROR warning; a body in no known API format (any the registry reads: Chat, Messages,
 * Responses, Ollama, Gemini, a nested pair, ...) is UNKNOWN_FORMAT; a string body that is
 * neither JSON nor SSE is INVALID_RECORD. Allow marks in a top-level `"guard": {"allow": [...]}`
 * (harness metadata, see readAllowMarks) are put on every reply of the record.
 *
 * @param record a value for which {@link isPairLog} holds.
 * @param nested the opener of nested readers the record reader handed the format's reader.
 * @param ledger the assistant turns the file has yielded so far; updated.
 * @returns replies and problems; never throws.
 */
export function readPairLog(record: JsonObject, ctx: RecordContext, nested: NestedReaders, ledger: TurnLedger): RecordOutput {
  const history = readHistory(record, ctx, ledger);
  const out = readPair(record, ctx, nested);
  out.replies.unshift(...history.replies);
  out.errors.unshift(...history.errors);
  // allow marks sit beside request and response, in what the harness (not the model) wrote
  const allow = readAllowMarks(record['guard'], ctx, out);
  if (allow.length) for (const reply of out.replies) reply.allow = allow;
  return out;
}

/** The new assistant turns of the request's history (`messages` / `input` of its body), stamped `pair-log`. */
function readHistory(record: JsonObject, ctx: RecordContext, ledger: TurnLedger): RecordOutput {
  const body = requestBody(record['request'] as JsonObject);
  if (!hasHistoryTurns(body)) return emptyOutput();
  const out = readRequestHistory(body, { ...ctx, format: 'pair-log' }, ledger);
  return out;
}

function readPair(record: JsonObject, ctx: RecordContext, nested: NestedReaders): RecordOutput {
  const advertised = advertisedOf(requestBody(record['request'] as JsonObject));
  const response = record['response'];
  if (response === null || response === undefined) return emptyOutput();
  const payload = responsePayload(response);
  const problem = (code: 'INVALID_RECORD' | 'UNKNOWN_FORMAT', message: string, severity: 'error' | 'warning' = 'error'): RecordOutput => ({
    replies: [],
    errors: [captureError(ctx.file, ctx.line, code, message, severity)],
  });
  if (payload === null) {
    const status = isObject(response) ? (response['status'] ?? response['status_code'] ?? response['statusCode']) : undefined;
    return problem('INVALID_RECORD', `the response holds no body${status !== undefined ? ` (HTTP status ${JSON.stringify(status)})` : ''}: the log did not keep it, nothing to judge`, 'warning');
  }
  const body = { file: ctx.file, line: ctx.line, format: ctx.format, advertised };
  if (typeof payload === 'string') {
    const read = readBodyText(payload, nested, body);
    if (read.layout === 'invalid-json') return problem('INVALID_RECORD', `the response body is not valid JSON: ${read.message}`);
    if (read.layout === 'other') return problem('INVALID_RECORD', 'the response body is neither JSON nor an SSE stream');
    if (read.layout === 'json' && !read.known) read.errors.push(captureError(ctx.file, ctx.line, 'UNKNOWN_FORMAT', 'the response body is in no known API format; not read'));
    return { replies: read.replies, errors: read.errors };
  }
  if (isApiErrorBody(payload)) return apiErrorOutput(payload as JsonObject, ctx);
  const read = readNestedValues(nested, [payload], ctx.line, ctx.format, advertised);
  if (!read.known) read.errors.push(captureError(ctx.file, ctx.line, 'UNKNOWN_FORMAT', `the response (${shapeOf(payload)}) is in no known API format; not read`));
  return { replies: read.replies, errors: read.errors };
}
