/**
 * Cohere v2 chat response bodies (`POST /v2/chat`, non-streaming).
 *
 * Schema: https://docs.cohere.com/reference/chat (response `{id, message: {role, content[],
 * tool_plan, tool_calls[], citations[]}, finish_reason, usage}`), and the AI SDK's response schema,
 * vercel/ai `packages/cohere/src/cohere-chat-language-model.ts` at ed857f50f112e23930b0c2dd8d532cc8bebbc911,
 * https://github.com/vercel/ai/blob/ed857f50f112e23930b0c2dd8d532cc8bebbc911/packages/cohere/src/cohere-chat-language-model.ts.
 * `content[]` holds `{type: "text", text}` (visible) and `{type: "thinking", thinking}`
 * (reasoning); `tool_plan` is the model's visible plan before its tool calls (shown to users, so
 * it is visible text, not reasoning); `tool_calls[]` are OpenAI-style (`function.arguments` a JSON
 * string).
 *
 * The v1 body (`POST /v1/chat`, `NonStreamedChatResponse` of https://docs.cohere.com/v1/reference/chat:
 * `{text, generation_id, response_id, finish_reason, tool_calls[{name, parameters}], citations,
 * chat_history, meta}`), still in older captures, is read too: `text` is the visible text, each
 * `tool_calls` entry a call with `parameters` (an object) as its arguments.
 */

import { makeToolCall } from '../toolcall.js';
import type { Reply, ToolCall } from '../types.js';
import { captureError, isObject, listAt, shapeOf, str, textAt, TextJoiner, type JsonObject, type RecordContext, type RecordOutput } from './common.js';

/** True for a Cohere v1 chat body: a string `text`, Cohere's `generation_id` or `response_id`, a `finish_reason` in capitals, no `message`. */
function isCohereV1Chat(v: JsonObject): boolean {
  const finish = v['finish_reason'];
  return typeof v['text'] === 'string' && (typeof v['generation_id'] === 'string' || typeof v['response_id'] === 'string') && typeof finish === 'string' && /^[A-Z_]+$/.test(finish) && !('message' in v) && !('choices' in v);
}

/** True for a Cohere chat body: v2 (an assistant `message` object and a string `finish_reason`, upper case) or v1 ({@link isCohereV1Chat}). */
export function isCohereChat(v: unknown): v is JsonObject {
  if (isObject(v) && isCohereV1Chat(v)) return true;
  if (!isObject(v) || !isObject(v['message']) || typeof v['finish_reason'] !== 'string') return false;
  const role = v['message']['role'];
  return (role === undefined || role === 'assistant') && !('choices' in v) && !('done' in v) && /^[A-Z_]+$/.test(v['finish_reason']);
}

/** Cohere finish reasons that mean the model was cut off. */
export const COHERE_TRUNCATING = new Set(['MAX_TOKENS']);

/** Reads a Cohere v2 chat body into one {@link Reply}: tool plan, then text content; thinking content as reasoning; tool calls. */
export function readCohereChat(body: JsonObject, ctx: RecordContext): RecordOutput {
  if (!isObject(body['message']) && isCohereV1Chat(body)) return readCohereV1Chat(body, ctx);
  const out: RecordOutput = { replies: [], errors: [] };
  const message = body['message'] as JsonObject;
  const text = new TextJoiner();
  const reasoning: string[] = [];
  const report = (m: string) => out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', m));
  text.add(textAt(message, 'tool_plan', report, 'message.tool_plan') ?? '');
  const content = message['content'];
  if (typeof content === 'string') text.add(content);
  const skipped = new Set<string>();
  for (const part of typeof content === 'string' ? [] : listAt(message, 'content', report, 'message.content')) {
    if (!isObject(part)) {
      skipped.add(shapeOf(part));
      continue;
    }
    if (part['type'] === 'text') text.add(str(part['text']) ?? '');
    else if (part['type'] === 'thinking') reasoning.push(str(part['thinking']) ?? '');
    else skipped.add(String(part['type']));
  }
  if (skipped.size > 0) {
    out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `content items of type ${[...skipped].map((t) => JSON.stringify(t)).join(', ')} were not read (not text): what they hold (a call, its arguments) is not judged`));
  }
  const calls: ToolCall[] = [];
  for (const entry of listAt(message, 'tool_calls', report, 'message.tool_calls')) {
    const fn = isObject(entry) && isObject(entry['function']) ? entry['function'] : null;
    const name = fn ? str(fn['name']) : undefined;
    if (!fn || !name) {
      out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', 'a tool call has no function name; it was skipped'));
      continue;
    }
    calls.push(makeToolCall(isObject(entry) ? str(entry['id']) : undefined, name, 'function', fn['arguments'], { entry: fn, read: ['arguments'] }));
  }
  const finish = str(body['finish_reason']);
  const reply: Reply = {
    source: { file: ctx.file, line: ctx.line },
    format: ctx.format,
    id: str(body['id']) ?? null,
    advertised: ctx.advertised,
    text: text.text,
    ...text.breakField,
    reasoning: reasoning.join(''),
    toolCalls: calls,
    truncated: finish !== undefined && COHERE_TRUNCATING.has(finish),
  };
  if (finish) reply.finishReason = finish;
  out.replies.push(reply);
  return out;
}

/** Reads a Cohere v1 chat body (see the module header) into one {@link Reply}. */
function readCohereV1Chat(body: JsonObject, ctx: RecordContext): RecordOutput {
  const out: RecordOutput = { replies: [], errors: [] };
  const calls: ToolCall[] = [];
  for (const entry of listAt(body, 'tool_calls', (m) => out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', m)))) {
    const name = isObject(entry) ? str(entry['name']) : undefined;
    if (!isObject(entry) || !name) {
      out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', 'a tool call has no name; it was skipped'));
      continue;
    }
    calls.push(makeToolCall(null, name, 'function', entry['parameters'], { entry, read: ['name', 'parameters'] }));
  }
  const finish = str(body['finish_reason']);
  const reply: Reply = {
    source: { file: ctx.file, line: ctx.line },
    format: ctx.format,
    id: str(body['generation_id']) ?? str(body['response_id']) ?? null,
    advertised: ctx.advertised,
    text: str(body['text']) ?? '',
    reasoning: '',
    toolCalls: calls,
    truncated: finish !== undefined && COHERE_TRUNCATING.has(finish),
  };
  if (finish) reply.finishReason = finish;
  out.replies.push(reply);
  return out;
}
