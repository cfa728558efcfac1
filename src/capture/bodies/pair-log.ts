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
 */

import { parseSseText } from '../sse.js';
import { advertisedFromRequest } from '../toolcall.js';
import type { AdvertisedTool } from '../types.js';
import { readAllowMarks } from './guard-reply.js';
import { apiBodyFormat, apiErrorOutput, isApiErrorBody, readApiBody } from './index.js';
import { captureError, emptyOutput, isObject, type JsonObject, type RecordContext, type RecordOutput } from './common.js';

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

/** The response payload of a pair: `body`, `body_raw`, `text`, `json`, or the response itself. */
function responsePayload(response: unknown): unknown {
  if (!isObject(response)) return response;
  if (apiBodyFormat(response) !== null) return response;
  for (const key of ['body', 'body_raw', 'text', 'json']) {
    const v = response[key];
    if (v !== undefined && v !== null && v !== '') return v;
  }
  return undefined;
}

/** True when `text` looks like an SSE stream: some line starts with `data:` or `event:`. */
function looksLikeSse(text: string): boolean {
  return /^(data|event):/m.test(text);
}

/**
 * Reads one pair-log record. Replies are stamped format `pair-log` (the context's) and carry the
 * request's advertised tools. A record with a null response (an orphaned request) yields nothing;
 * an API error body yields a STREAM_ERROR warning; a body that is neither a known API body, JSON
 * nor SSE yields INVALID_RECORD. Allow marks in a top-level `"guard": {"allow": [...]}` (harness
 * metadata, see readAllowMarks) are put on every reply of the record.
 *
 * @param record a value for which {@link isPairLog} holds.
 * @returns replies and problems; never throws.
 */
export function readPairLog(record: JsonObject, ctx: RecordContext): RecordOutput {
  const out = readPair(record, ctx);
  // allow marks sit beside request and response, in what the harness (not the model) wrote
  const allow = readAllowMarks(record['guard'], ctx, out);
  if (allow.length) for (const reply of out.replies) reply.allow = allow;
  return out;
}

function readPair(record: JsonObject, ctx: RecordContext): RecordOutput {
  const advertised = advertisedOf(requestBody(record['request'] as JsonObject));
  const inner: RecordContext = { ...ctx, advertised };
  const response = record['response'];
  if (response === null || response === undefined) return emptyOutput();
  let payload = responsePayload(response);
  if (payload === undefined) return emptyOutput();
  if (typeof payload === 'string') {
    const trimmed = payload.trimStart();
    if (trimmed.startsWith('{')) {
      try {
        payload = JSON.parse(trimmed);
      } catch (e) {
        return {
          replies: [],
          errors: [captureError(ctx.file, ctx.line, 'INVALID_RECORD', `the response body is not valid JSON: ${(e as Error).message}`)],
        };
      }
    } else if (looksLikeSse(payload)) {
      return parseSseText(payload, { file: ctx.file, line: ctx.line, advertised, format: ctx.format });
    } else {
      return { replies: [], errors: [captureError(ctx.file, ctx.line, 'INVALID_RECORD', 'the response body is neither JSON nor an SSE stream')] };
    }
  }
  const format = apiBodyFormat(payload);
  if (format !== null) return readApiBody(format, payload as JsonObject, inner);
  if (isApiErrorBody(payload)) return apiErrorOutput(payload as JsonObject, ctx);
  return { replies: [], errors: [captureError(ctx.file, ctx.line, 'INVALID_RECORD', 'the response body is in no known API format')] };
}
