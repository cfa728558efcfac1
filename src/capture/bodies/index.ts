/**
 * Dispatch over non-streaming API response bodies: OpenAI Chat Completions, Anthropic Messages,
 * OpenAI Responses (schemas of their official SDKs, docs/sources.md "API bodies and streams"), and
 * API error bodies.
 */

import type { AdvertisedTool, CaptureFormat } from '../types.js';
import { isAnthropicMessage, readAnthropicMessage } from './anthropic.js';
import { describeApiError, failedGenerationReply } from '../streams/common.js';
import { captureError, isObject, type RecordContext, type RecordOutput } from './common.js';
import { isChatCompletion, readChatCompletion } from './openai-chat.js';
import { isResponsesObject, readResponsesObject } from './openai-responses.js';

/** The API body formats, by the {@link CaptureFormat} a bare body of that kind is reported as. */
export type ApiBodyFormat = Extract<CaptureFormat, 'openai-chat' | 'anthropic-messages' | 'openai-responses'>;

/** Which API body `v` is, or null when it is none of them. */
export function apiBodyFormat(v: unknown): ApiBodyFormat | null {
  if (isChatCompletion(v)) return 'openai-chat';
  if (isAnthropicMessage(v)) return 'anthropic-messages';
  if (isResponsesObject(v)) return 'openai-responses';
  return null;
}

/**
 * True for an API error body: an object whose `error` is an object or string and that has no
 * reply content (`{"error":{...}}` from OpenAI-compatible servers, `{"type":"error","error":{...}}`
 * from Anthropic), and nothing but scalars beside the error (`request_id`, `status`, ...). A
 * record that also holds arrays or objects is no error body but a log of a run that ended in an
 * error (an OpenHands evaluation output `{instance_id, history: [...], error: "RuntimeError: …"}`
 * was taken for one, a warning, and its replies went unread with exit 0).
 */
export function isApiErrorBody(v: unknown): boolean {
  if (!isObject(v)) return false;
  const error = v['error'];
  if (!(isObject(error) || typeof error === 'string')) return false;
  if (Object.entries(v).some(([k, x]) => k !== 'error' && typeof x === 'object' && x !== null)) return false;
  return !('choices' in v) && !('content' in v) && !('output' in v) && (v['type'] === undefined || v['type'] === 'error');
}

/**
 * Reads a body of the given API format (see {@link apiBodyFormat}).
 *
 * @returns the replies and problems; never throws.
 */
export function readApiBody(format: ApiBodyFormat, body: Record<string, unknown>, ctx: RecordContext): RecordOutput {
  switch (format) {
    case 'openai-chat':
      return readChatCompletion(body, ctx);
    case 'anthropic-messages':
      return readAnthropicMessage(body, ctx);
    case 'openai-responses':
      return readResponsesObject(body, ctx);
  }
}

/**
 * The warning for an API error body: the capture records a failed call (STREAM_ERROR, severity
 * `warning`: guard read everything there was).
 */
export function apiErrorOutput(body: Record<string, unknown>, ctx: { file: string; line: number; format?: CaptureFormat; advertised?: AdvertisedTool[] | null }): RecordOutput {
  const err = isObject(body['error']) ? body['error'] : { message: String(body['error']) };
  // the generation a server failed to parse (Groq's failed_generation) is judged as a reply
  const failed = failedGenerationReply(err, { file: ctx.file, format: ctx.format ?? 'openai-chat', advertised: ctx.advertised ?? null }, ctx.line);
  return {
    replies: failed ? [failed] : [],
    errors: [captureError(ctx.file, ctx.line, 'STREAM_ERROR', describeApiError(err), 'warning')],
  };
}
