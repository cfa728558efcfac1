/**
 * LiteLLM's logs: the standard logging payload its callbacks receive (and export to GCS, S3,
 * Datadog, Langfuse, ...) and the proxy's spend logs.
 *
 * Schema: BerriAI/litellm `litellm/types/utils.py` `class StandardLoggingPayload`
 * (https://github.com/BerriAI/litellm/blob/main/litellm/types/utils.py; documented at
 * https://docs.litellm.ai/docs/proxy/logging_spec): `{id, call_type, model, messages, response,
 * model_parameters, status, error_str, error_information, ...}`; spend logs: `schema.prisma` model
 * `LiteLLM_SpendLogs` (`request_id, call_type, model, messages, response, proxy_server_request,
 * status, ...`; `messages` and `response` are `{}` unless `store_prompts_in_spend_logs` is on).
 * `response` is the OpenAI-format response LiteLLM returned (a Chat Completion, a Responses
 * object, ...; possibly a JSON string), read by the registry's readers. A bare
 * `{"model", "messages", "response"}` record carries none of LiteLLM's own keys: many proxies log
 * that shape, so it is not claimed (an UNKNOWN_FORMAT error that names `--input-format litellm`).
 */

import { readNestedValues, type NestedReaders } from '../nested.js';
import { advertisedFromRequest } from '../toolcall.js';
import { captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';
import { maybeJson } from './messages.js';

/**
 * Keys of `StandardLoggingPayload` and `LiteLLM_SpendLogs` that other loggers do not write
 * (`call_type` is required in both; the others stand in when a payload was trimmed).
 */
const LITELLM_KEYS = ['call_type', 'response_cost', 'hidden_params', 'model_parameters', 'litellm_call_id', 'custom_llm_provider', 'model_map_information', 'spend'];

/**
 * True for a LiteLLM logging payload or spend log: a `response` beside a string `call_type` (or
 * another of LiteLLM's own keys, {@link LITELLM_KEYS}); no `request` object (a pair log) and no
 * `custom_id` (a batch output line). A bare `{model, messages, response}` is not enough. Also the
 * callback `kwargs` LiteLLM hands custom loggers (and that some write out whole): a record with a
 * `standard_logging_object` and no `response` of its own, read through that payload.
 */
export function isLiteLLMLog(v: unknown): v is JsonObject {
  if (isObject(v) && !('response' in v) && isObject(v['standard_logging_object'])) return true;
  if (!isObject(v) || !('response' in v) || isObject(v['request']) || 'custom_id' in v) return false;
  if (typeof v['call_type'] === 'string') return true;
  return LITELLM_KEYS.some((k) => k in v);
}

/** Call types that produce no assistant reply. */
const NON_REPLY_CALLS = /embedding|moderation|image|transcription|speech|rerank|file|batch/i;

/** Reads LiteLLM log records; each response is read with a fresh nested reader. */
export function liteLLMReader(file: string, nested: NestedReaders) {
  return {
    push(value: unknown, line: number): RecordOutput {
      // callback kwargs: the payload is their standard_logging_object
      const rec = (!('response' in (value as JsonObject)) && isObject((value as JsonObject)['standard_logging_object']) ? (value as JsonObject)['standard_logging_object'] : value) as JsonObject;
      const out: RecordOutput = { replies: [], errors: [] };
      const id = str(rec['id']) ?? str(rec['request_id']);
      const name = id ? `call ${JSON.stringify(id)}` : 'the call';
      if (rec['status'] === 'failure') {
        const info = isObject(rec['error_information']) ? rec['error_information'] : {};
        const why = str(info['error_message']) ?? str(rec['error_str']) ?? 'no error message';
        out.errors.push(captureError(file, line, 'STREAM_ERROR', `LiteLLM logged ${name} as failed: ${why}; it holds no reply`, 'warning'));
        return out;
      }
      const callType = str(rec['call_type']) ?? '';
      const response = maybeJson(rec['response']);
      if (NON_REPLY_CALLS.test(callType)) return out;
      if (response === null || response === undefined || (isObject(response) && Object.keys(response).length === 0) || response === '') {
        out.errors.push(captureError(file, line, 'INVALID_RECORD', `LiteLLM's log of ${name} holds no response (spend logs keep it only with store_prompts_in_spend_logs); nothing to judge`, 'warning'));
        return out;
      }
      const request = maybeJson(rec['proxy_server_request']);
      const params = isObject(rec['model_parameters']) ? rec['model_parameters'] : null;
      const advertised = advertisedFromRequest(params) ?? advertisedFromRequest(request) ?? advertisedFromRequest(rec) ?? (Array.isArray(maybeJson(rec['messages'])) ? [] : null);
      if (typeof response === 'string') {
        // a text completion LiteLLM logged as its text
        out.replies.push({ source: { file, line }, format: 'litellm', id: id ?? null, advertised, text: response, reasoning: '', toolCalls: [], truncated: false });
        return out;
      }
      const read = readNestedValues(nested, [response], line, 'litellm', advertised);
      if (!read.known) read.errors.push(captureError(file, line, 'UNKNOWN_FORMAT', `the response of ${name} in LiteLLM's log is in no known API format; not read`));
      return { replies: read.replies, errors: read.errors };
    },
    finish: (): RecordOutput => ({ replies: [], errors: [] }),
  };
}
