/**
 * Batch API output files: one result per line.
 *
 * - OpenAI Batch output (https://platform.openai.com/docs/guides/batch, "output file";
 *   https://platform.openai.com/docs/api-reference/batch/request-output): `{id, custom_id,
 *   response: {status_code, request_id, body} | null, error: {code, message} | null}`; `body` is the
 *   batched endpoint's own response (Chat Completions, Responses, ...), read by the registry's
 *   readers.
 * - Anthropic Message Batches results
 *   (https://docs.anthropic.com/en/api/retrieving-message-batch-results): `{custom_id, result:
 *   {type: "succeeded", message} | {type: "errored", error} | {type: "canceled"} | {type:
 *   "expired"}}`; `message` is a Messages response body.
 *
 * A request that failed, was canceled or expired holds no reply: it is a STREAM_ERROR warning
 * naming its `custom_id` (the capture records the failure; guard read all there was).
 */

import { readNestedValues, type NestedReaders } from '../nested.js';
import { readAnthropicMessage, isAnthropicMessage } from './anthropic.js';
import { apiBodyFormat } from './index.js';
import { captureError, isObject, str, type JsonObject, type RecordOutput } from './common.js';

/** True for an OpenAI Batch output line: a string `custom_id` and a `response` (object or null). */
export function isOpenAIBatchLine(v: unknown): v is JsonObject {
  return isObject(v) && typeof v['custom_id'] === 'string' && 'response' in v && (v['response'] === null || isObject(v['response'])) && !('result' in v);
}

/** True for an Anthropic Message Batches result line: a string `custom_id` and a `result` object with a string `type`. */
export function isAnthropicBatchLine(v: unknown): v is JsonObject {
  return isObject(v) && typeof v['custom_id'] === 'string' && isObject(v['result']) && typeof v['result']['type'] === 'string';
}

/** The text of an error object (`{code, message}`, `{type, message}`, `{error: {…}}`). */
function errorText(e: unknown): string {
  if (!isObject(e)) return String(e);
  const inner = isObject(e['error']) ? e['error'] : e;
  const kind = str(inner['code']) ?? str(inner['type']);
  const message = str(inner['message']) ?? JSON.stringify(inner);
  return kind ? `${kind}: ${message}` : message;
}

/** Reads the body of one OpenAI Batch output line through the registry (UNKNOWN_FORMAT when no reader knows it). */
function openAIBatchBody(file: string, nested: NestedReaders, body: unknown, line: number, id: string): RecordOutput {
  const read = readNestedValues(nested, [body], line, 'openai-batch', null);
  if (!read.known) read.errors.push(captureError(file, line, 'UNKNOWN_FORMAT', `the response body of batch request ${JSON.stringify(id)} is in no known API format; not read`));
  return { replies: read.replies, errors: read.errors };
}

/** Reads OpenAI Batch output lines; each body is read with a fresh nested reader. */
export function openAIBatchReader(file: string, nested: NestedReaders) {
  return {
    push(value: unknown, line: number): RecordOutput {
      const rec = value as JsonObject;
      const id = rec['custom_id'] as string;
      const response = isObject(rec['response']) ? rec['response'] : null;
      const status = response && typeof response['status_code'] === 'number' ? response['status_code'] : null;
      const failed = (rec['error'] !== null && rec['error'] !== undefined) || response === null || (status !== null && status >= 400);
      const body = response?.['body'];
      // a failed status around a whole reply (a proxy's status, a retried request) still holds that reply
      if (failed && apiBodyFormat(body) !== null) {
        const out = openAIBatchBody(file, nested, body, line, id);
        out.errors.push(captureError(file, line, 'STREAM_ERROR', `batch request ${JSON.stringify(id)} is marked failed${status !== null ? ` (HTTP ${status})` : ''} but its body holds a reply: read`, 'warning'));
        return out;
      }
      if (failed) {
        const why = rec['error'] ? errorText(rec['error']) : response && isObject(response['body']) ? errorText(response['body']) : 'no response';
        return { replies: [], errors: [captureError(file, line, 'STREAM_ERROR', `batch request ${JSON.stringify(id)} failed${status !== null ? ` (HTTP ${status})` : ''}: ${why}; it holds no reply`, 'warning')] };
      }
      // an embeddings (or other list) body holds no reply
      if (isObject(body) && body['object'] === 'list') return { replies: [], errors: [] };
      return openAIBatchBody(file, nested, body, line, id);
    },
    finish: (): RecordOutput => ({ replies: [], errors: [] }),
  };
}

/** The result types of Message Batches (`MessageBatchResult`). */
const KNOWN_RESULTS: ReadonlySet<string> = new Set(['succeeded', 'errored', 'canceled', 'expired']);

/** Reads Anthropic Message Batches result lines. */
export function anthropicBatchReader(file: string) {
  return {
    push(value: unknown, line: number): RecordOutput {
      const rec = value as JsonObject;
      const id = rec['custom_id'] as string;
      const result = rec['result'] as JsonObject;
      const type = result['type'];
      const message = result['message'];
      const read = isAnthropicMessage(message) ? readAnthropicMessage(message, { file, line, format: 'anthropic-batch', advertised: null }) : null;
      if (type === 'succeeded') {
        return read ?? { replies: [], errors: [captureError(file, line, 'INVALID_RECORD', `batch request ${JSON.stringify(id)} succeeded but its result.message is not a Messages response; not read`)] };
      }
      const out: RecordOutput = read ?? { replies: [], errors: [] };
      if (!KNOWN_RESULTS.has(String(type))) {
        out.errors.push(captureError(file, line, 'INVALID_RECORD', `batch request ${JSON.stringify(id)} has a result of type ${JSON.stringify(String(type).slice(0, 40))}, which guard does not know${read ? '; its message was read' : message !== undefined ? '; its message is not a Messages response and was not read' : ''}`));
        return out;
      }
      const why = type === 'errored' ? `errored: ${errorText(result['error'])}` : `was ${String(type)}`;
      out.errors.push(captureError(file, line, 'STREAM_ERROR', `batch request ${JSON.stringify(id)} ${why}; ${read ? 'the message it holds was read' : 'it holds no reply'}`, 'warning'));
      return out;
    },
    finish: (): RecordOutput => ({ replies: [], errors: [] }),
  };
}
