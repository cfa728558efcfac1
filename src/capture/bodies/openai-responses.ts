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
import { captureError, isObject, listAt, str, TextJoiner, type JsonObject, type RecordContext, type RecordOutput } from './common.js';

/** Output item types only a Responses object holds (a body logged without its `object` key is known by them). */
const CORE_ITEM_TYPES = new Set(['message', 'function_call', 'reasoning', 'custom_tool_call', 'shell_call', 'local_shell_call', 'apply_patch_call', 'mcp_call']);

/**
 * True for a Responses object: `object: "response"` with an `output[]` array, or (a body a
 * logger trimmed of `object`) no `object` key and a non-empty `output[]` of typed items, one of
 * them a core item type (message, function_call, reasoning, ...).
 */
export function isResponsesObject(v: unknown): v is JsonObject {
  if (!isObject(v) || !Array.isArray(v['output'])) return false;
  if (v['object'] === 'response') return true;
  if (v['object'] !== undefined || 'choices' in v) return false;
  const output = v['output'];
  return output.length > 0 && output.every((i) => isObject(i) && typeof i['type'] === 'string') && output.some((i) => CORE_ITEM_TYPES.has((i as JsonObject)['type'] as string));
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
  for (const item of listAt(body, 'output', (m) => errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', m)))) {
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
