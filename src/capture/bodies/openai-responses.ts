/**
 * OpenAI Responses API response objects (`Response`, non-streaming).
 *
 * Schema: openai-node `src/resources/responses/responses.ts`
 * (https://github.com/openai/openai-node/blob/7b7d6ca71130d37ec09792c50056b47861f2eccf/src/resources/responses/responses.ts). The
 * output items are read by the reader shared with the Responses stream accumulator
 * (src/capture/streams/responses-items.ts).
 */

import { advertisedFromResponse, readResponsesItem, unreadItemError } from '../streams/responses-items.js';
import type { CaptureError, Reply, ToolCall } from '../types.js';
import { arr, isObject, str, TextJoiner, type JsonObject, type RecordContext, type RecordOutput } from './common.js';

/** True for a Responses object: `object: "response"` with an `output[]` array. */
export function isResponsesObject(v: unknown): v is JsonObject {
  return isObject(v) && v['object'] === 'response' && Array.isArray(v['output']);
}

/**
 * Reads a Responses object into one {@link Reply}: assistant `message` items → text, `reasoning`
 * items → reasoning, tool-call items (`function_call`, `custom_tool_call`, `shell_call`,
 * `local_shell_call`, `apply_patch_call`, `mcp_call`) → tool calls. Advertised tools are the
 * context's (from the request) or else the object's own echoed `tools[]`. `status: "incomplete"`
 * marks it truncated (finishReason = `incomplete_details.reason`, else the status).
 *
 * @param body a value for which {@link isResponsesObject} holds.
 * @returns the reply; never throws.
 */
export function readResponsesObject(body: JsonObject, ctx: RecordContext): RecordOutput {
  const text = new TextJoiner();
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  const errors: CaptureError[] = [];
  for (const item of arr(body['output'])) {
    const content = readResponsesItem(item);
    text.add(content.text, content.textBreaks);
    reasoning += content.reasoning;
    if (content.toolCall) toolCalls.push(content.toolCall);
    if (content.unread !== undefined) errors.push(unreadItemError(ctx, content.unread));
  }
  const status = str(body['status']);
  const incomplete = isObject(body['incomplete_details']) ? str(body['incomplete_details']['reason']) : undefined;
  const reply: Reply = {
    source: { file: ctx.file, line: ctx.line },
    format: ctx.format,
    id: str(body['id']) ?? null,
    advertised: ctx.advertised ?? advertisedFromResponse(body),
    text: text.text,
    ...text.breakField,
    reasoning,
    toolCalls,
    truncated: status === 'incomplete',
  };
  const model = str(body['model']);
  if (model) reply.model = model;
  const finish = incomplete ?? status;
  if (finish) reply.finishReason = finish;
  return { replies: [reply], errors };
}
