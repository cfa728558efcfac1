/**
 * Amazon Bedrock Converse response bodies (`POST /model/{modelId}/converse`).
 *
 * Schema: https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 * (`output.message.content[]`, `stopReason`), content blocks
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ContentBlock.html and
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ReasoningContentBlock.html, as
 * typed by the AI SDK, vercel/ai `packages/amazon-bedrock/src/amazon-bedrock-api-types.ts` at
 * ed857f50f112e23930b0c2dd8d532cc8bebbc911. Each block has one key: `text`;
 * `reasoningContent.reasoningText.text` (or `redactedContent`) is reasoning; `toolUse {toolUseId,
 * name, input (object), type?}` is a tool call (`type: "server_tool_use"` for a tool Bedrock runs
 * itself, such as Nova's web grounding); `citationsContent.content[].text` is text with citations;
 * `toolResult` (a server tool's result), `cachePoint` and `image` (image output) hold no reply;
 * `document`, `video`, `audio`, `searchResult` and `guardContent` are input blocks, a warning in an
 * assistant message; any other member is an error. Problems name the block's index.
 */

import { makeToolCall } from '../toolcall.js';
import type { Reply, ToolCall, ToolCallKind } from '../types.js';
import { arr, captureError, listAt, isObject, str, TextJoiner, type JsonObject, type RecordContext, type RecordOutput } from './common.js';

/** True for a Converse body: `output.message` with a `content` array (and no other API's fields). */
export function isConverseBody(v: unknown): v is JsonObject {
  if (!isObject(v) || !isObject(v['output'])) return false;
  const message = v['output']['message'];
  return isObject(message) && Array.isArray(message['content']);
}

/** Stop reasons that mean the model was cut off. */
export const BEDROCK_TRUNCATING = new Set(['max_tokens', 'model_context_window_exceeded']);

/** The tool-call kind of a Bedrock `toolUse` block (its optional `type`). */
export function bedrockToolKind(type: unknown): ToolCallKind {
  return type === 'server_tool_use' ? 'server_tool_use' : 'function';
}

/**
 * Block members that hold nothing to judge in an assistant message: `toolResult` (a server tool's
 * result), `cachePoint` (a marker) and `image`: ContentBlock is one union for input and output
 * (AWS SDK for JavaScript v3 `clients/client-bedrock-runtime/src/models/models_0.ts` at
 * 3e92ce782ebab55e98768dcc65fb5bb509d17c5f, `ContentBlock`),
 * and image-generating models return images as output (ConverseStream `ContentBlockStart.image`,
 * `ContentBlockDelta.image`, in later versions of the same file): model output, but no text and no call.
 */
const NON_REPLY_BLOCKS: ReadonlySet<string> = new Set(['toolResult', 'cachePoint', 'image']);

/**
 * Block members that are inputs a request carries (`document`, `video`, `audio`, `searchResult`,
 * and `guardContent`, "content to assess with the guardrail"; API_runtime_ContentBlock.html): no
 * model writes them, and what they hold (a document's text, guarded text) is not judged. One in an
 * assistant message is an INVALID_RECORD warning naming it and its index.
 */
const INPUT_BLOCKS: ReadonlySet<string> = new Set(['document', 'video', 'audio', 'searchResult', 'guardContent']);

/** Reads a Converse body into one {@link Reply}. */
export function readConverse(body: JsonObject, ctx: RecordContext): RecordOutput {
  const out: RecordOutput = { replies: [], errors: [] };
  const message = (body['output'] as JsonObject)['message'] as JsonObject;
  const text = new TextJoiner();
  const reasoning: string[] = [];
  const calls: ToolCall[] = [];
  const skipped: string[] = [];
  const inputs: string[] = [];
  listAt(message, 'content', (m) => out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', m)), 'output.message.content').forEach((block, index) => {
    if (!isObject(block)) {
      skipped.push(`${block === null ? 'null' : `a JSON ${Array.isArray(block) ? 'array' : typeof block}`} at index ${index}`);
      return;
    }
    if (typeof block['text'] === 'string') text.add(block['text']);
    else if (isObject(block['reasoningContent'])) {
      const rt = block['reasoningContent']['reasoningText'];
      if (isObject(rt) && typeof rt['text'] === 'string') reasoning.push(rt['text']);
    } else if (isObject(block['toolUse'])) {
      const tu = block['toolUse'];
      const name = str(tu['name']);
      if (!name) out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `a toolUse block at index ${index} has no name; it was skipped`));
      else calls.push(makeToolCall(str(tu['toolUseId']), name, bedrockToolKind(tu['type']), tu['input'], { entry: tu, read: ['input'] }));
    } else if (isObject(block['citationsContent'])) {
      for (const c of arr(block['citationsContent']['content'])) if (isObject(c) && typeof c['text'] === 'string') text.add(c['text']);
    } else {
      for (const k of Object.keys(block)) {
        if (INPUT_BLOCKS.has(k)) inputs.push(`${JSON.stringify(k)} at index ${index}`);
        else if (!NON_REPLY_BLOCKS.has(k)) skipped.push(`${JSON.stringify(k.slice(0, 60))} at index ${index}`);
      }
    }
  });
  if (skipped.length > 0) {
    out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `content blocks ${skipped.join(', ')} were not read (not text or a tool use): what they hold (a call, its arguments) is not judged`));
  }
  if (inputs.length > 0) {
    out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `content blocks ${inputs.join(', ')} are input blocks (a request's documents, media or guarded content) in the assistant message: not model output, what they hold is not judged`, 'warning'));
  }
  const stop = str(body['stopReason']);
  const reply: Reply = {
    source: { file: ctx.file, line: ctx.line },
    format: ctx.format,
    id: null,
    advertised: ctx.advertised,
    text: text.text,
    ...text.breakField,
    reasoning: reasoning.join(''),
    toolCalls: calls,
    truncated: stop !== undefined && BEDROCK_TRUNCATING.has(stop),
  };
  if (stop) reply.finishReason = stop;
  out.replies.push(reply);
  return out;
}
