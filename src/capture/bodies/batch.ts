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

import type { NestedReaders } from '../nested.js';
import type { CaptureFormat } from '../types.js';
import { readAnthropicMessage, isAnthropicMessage } from './anthropic.js';
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

/** Stamps the batch format on the replies of a body read for one line. */
function stamp(out: RecordOutput, format: CaptureFormat): RecordOutput {
  for (const r of out.replies) r.format = format;
  return out;
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
      if (failed) {
        const why = rec['error'] ? errorText(rec['error']) : response && isObject(response['body']) ? errorText(response['body']) : 'no response';
        return { replies: [], errors: [captureError(file, line, 'STREAM_ERROR', `batch request ${JSON.stringify(id)} failed${status !== null ? ` (HTTP ${status})` : ''}: ${why}; it holds no reply`, 'warning')] };
      }
      const body = response!['body'];
      // an embeddings (or other list) body holds no reply
      if (isObject(body) && body['object'] === 'list') return { replies: [], errors: [] };
      const reader = nested();
      const step = reader.push(body, line);
      const rest = reader.finish();
      const out: RecordOutput = { replies: [...step.replies, ...rest.replies], errors: [...step.errors, ...rest.errors] };
      if (step.status === 'unknown') out.errors.push(captureError(file, line, 'UNKNOWN_FORMAT', `the response body of batch request ${JSON.stringify(id)} is in no known API format; not read`));
      return stamp(out, 'openai-batch');
    },
    finish: (): RecordOutput => ({ replies: [], errors: [] }),
  };
}

/** Reads Anthropic Message Batches result lines. */
export function anthropicBatchReader(file: string) {
  return {
    push(value: unknown, line: number): RecordOutput {
      const rec = value as JsonObject;
      const id = rec['custom_id'] as string;
      const result = rec['result'] as JsonObject;
      const type = result['type'];
      if (type === 'succeeded') {
        const message = result['message'];
        if (isAnthropicMessage(message)) return readAnthropicMessage(message, { file, line, format: 'anthropic-batch', advertised: null });
        return { replies: [], errors: [captureError(file, line, 'INVALID_RECORD', `batch request ${JSON.stringify(id)} succeeded but its result.message is not a Messages response; not read`)] };
      }
      const why = type === 'errored' ? `errored: ${errorText(result['error'])}` : `was ${String(type)}`;
      return { replies: [], errors: [captureError(file, line, 'STREAM_ERROR', `batch request ${JSON.stringify(id)} ${why}; it holds no reply`, 'warning')] };
    },
    finish: (): RecordOutput => ({ replies: [], errors: [] }),
  };
}
