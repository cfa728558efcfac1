/**
 * Reading the chat messages agents store (Cline and Roo Code task files, plain message lists,
 * SWE-agent and mini-swe-agent histories, OpenHands model responses): one assistant message in
 * either of the two shapes the chat APIs define.
 *
 * - Anthropic message params (https://docs.anthropic.com/en/api/messages; anthropic-sdk-typescript
 *   `MessageParam`, as src/capture/bodies/anthropic.ts cites): `content` a string or an array of
 *   blocks `text`, `thinking`, `redacted_thinking`, `tool_use` / `server_tool_use` /
 *   `mcp_tool_use`, and the `*_tool_result` blocks.
 * - OpenAI Chat messages (openai-node `ChatCompletionAssistantMessageParam` and
 *   `ChatCompletionMessage`, as src/capture/bodies/openai-chat.ts cites): `content` a string or
 *   an array of parts (`text`, `refusal`, Mistral `thinking`), `tool_calls[]`, legacy
 *   `function_call`, and the `reasoning_content` / `reasoning` fields of compatible servers.
 *
 * Never silent: a block or part that holds neither text, reasoning nor a call (an image, an
 * unknown type) is named in one INVALID_RECORD warning for the message.
 */

import { anthropicToolKind } from '../streams/anthropic.js';
import { chatReasoning, chatToolCalls } from '../bodies/openai-chat.js';
import { arr, captureError, isObject, str, TextJoiner, type JsonObject, type RecordContext, type RecordOutput } from '../bodies/common.js';
import { makeToolCall } from '../toolcall.js';
import type { Reply, ToolCall } from '../types.js';

/** What one assistant message holds. */
export interface MessageParts {
  text: TextJoiner;
  reasoning: string[];
  toolCalls: ToolCall[];
}

/** Block types that hold no assistant output to judge (results of tools, opaque reasoning). */
const INERT_BLOCKS: ReadonlySet<string> = new Set(['redacted_thinking', 'tool_result']);

/** The text of a `thinking` part or block: a string, or (Mistral) an array of text parts. */
function thinkingText(t: unknown): string {
  if (typeof t === 'string') return t;
  return arr(t)
    .map((x) => (typeof x === 'string' ? x : isObject(x) ? (str(x['text']) ?? '') : ''))
    .join('');
}

/** New empty message parts. */
export function emptyParts(): MessageParts {
  return { text: new TextJoiner(), reasoning: [], toolCalls: [] };
}

/**
 * Reads the content, reasoning and tool calls of one assistant chat message (either shape, see
 * the module header) into `parts`. Tool blocks without a name and content of types that hold no
 * text are reported in `out` (INVALID_RECORD; the latter as a warning naming the types).
 */
export function readMessageInto(message: JsonObject, parts: MessageParts, ctx: RecordContext, out: RecordOutput): void {
  const content = message['content'];
  const skipped: string[] = [];
  if (typeof content === 'string') parts.text.add(content);
  else {
    for (const [index, block] of arr(content).entries()) {
      if (typeof block === 'string') {
        parts.text.add(block);
        continue;
      }
      if (!isObject(block)) continue;
      const type = str(block['type']);
      if (type === undefined || type === 'text' || type === 'output_text') {
        const text = str(block['text']);
        if (text !== undefined) parts.text.add(text);
        else skipped.push(`${JSON.stringify(type ?? '(no type)')} at index ${index}`);
      } else if (type === 'refusal') parts.text.add(str(block['refusal']) ?? '');
      else if (type === 'thinking' || type === 'reasoning') {
        const t = thinkingText(block['thinking'] ?? block['text']);
        if (t) parts.reasoning.push(t);
      } else if (anthropicToolKind(type) !== null) {
        const name = str(block['name']);
        if (!name) out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `a ${type} block has no name; it was skipped`));
        else parts.toolCalls.push(makeToolCall(str(block['id']), name, anthropicToolKind(type)!, block['input'], { entry: block, read: ['input'] }));
      } else if (INERT_BLOCKS.has(type) || type.endsWith('_tool_result')) continue;
      else skipped.push(`${JSON.stringify(type.slice(0, 60))} at index ${index}`);
    }
  }
  if (skipped.length > 0) {
    const shown = skipped.slice(0, 5).join(', ') + (skipped.length > 5 ? `, … ${skipped.length - 5} more` : '');
    const where = ctx.where ? ` of ${ctx.where}` : '';
    out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `content${where} of type ${shown} was not read (no text, reasoning or tool call guard knows)`, 'warning'));
  }
  const reasoning = chatReasoning(message);
  if (reasoning) parts.reasoning.push(reasoning);
  for (const call of chatToolCalls(message, ctx, out)) parts.toolCalls.push(call);
}

/**
 * A reply from message parts: `format`, `advertised` and the location from `ctx`; `extra` sets
 * the id, model, finish reason and truncation.
 */
export function partsReply(
  parts: MessageParts,
  ctx: RecordContext,
  extra: { id?: string | null; model?: string | undefined; finishReason?: string | undefined; truncated?: boolean } = {},
): Reply {
  const reply: Reply = {
    source: { file: ctx.file, line: ctx.line },
    format: ctx.format,
    id: extra.id ?? null,
    advertised: ctx.advertised,
    text: parts.text.text,
    ...parts.text.breakField,
    reasoning: parts.reasoning.join('\n'),
    toolCalls: parts.toolCalls,
    truncated: extra.truncated ?? false,
  };
  if (extra.model) reply.model = extra.model;
  if (extra.finishReason) reply.finishReason = extra.finishReason;
  return reply;
}

/** Reads one assistant chat message into one reply (see {@link readMessageInto}). */
export function readAssistantMessage(message: JsonObject, ctx: RecordContext, extra: Parameters<typeof partsReply>[2] = {}): RecordOutput {
  const out: RecordOutput = { replies: [], errors: [] };
  const parts = emptyParts();
  readMessageInto(message, parts, ctx, out);
  out.replies.push(partsReply(parts, ctx, extra));
  return out;
}

/**
 * True for a chat message object: a string `role` and a `content` that is a string, an array or
 * null (or, for an assistant, `tool_calls` instead of content).
 */
export function isChatMessage(v: unknown): v is JsonObject {
  if (!isObject(v) || typeof v['role'] !== 'string') return false;
  const c = v['content'];
  return typeof c === 'string' || Array.isArray(c) || c === null || (v['role'] === 'assistant' && Array.isArray(v['tool_calls']));
}

/** The record context for a record of `format` read at `line` with no advertised tools. */
export function contextAt(file: string, line: number, format: RecordContext['format']): RecordContext {
  return { file, line, format, advertised: null };
}

/** Keys of an object that say it may be a message or a tool call (a role, calls, a call's parts). */
const MESSAGE_LIKE_KEYS = ['role', 'tool_calls', 'toolCalls', 'function_call', 'functionCall', 'toolCall', 'tool_use'];
/** `type` values of content items that are tool calls in the formats guard reads. */
const CALL_TYPES: ReadonlySet<string> = new Set(['tool_use', 'toolRequest', 'frontendToolRequest', 'function_call', 'tool', 'tool-call', 'tool_call']);

/**
 * True when `v` holds, within `depth` levels (at most `budget.n` values looked at), an object
 * that may be a message or a tool call: one with a `role`, call keys (`tool_calls`, `toolCalls`,
 * `functionCall`, …) or a call `type` (`tool_use`, `toolRequest`, …). Input: any parsed JSON
 * value. No errors.
 */
export function mayHoldMessages(v: unknown, depth = 4, budget = { n: 5000 }): boolean {
  if (depth < 0 || budget.n <= 0 || v === null || typeof v !== 'object') return false;
  budget.n--;
  if (Array.isArray(v)) return v.some((x) => mayHoldMessages(x, depth - 1, budget));
  const o = v as JsonObject;
  if (MESSAGE_LIKE_KEYS.some((k) => k in o) || (typeof o['type'] === 'string' && CALL_TYPES.has(o['type']))) return true;
  return Object.values(o).some((x) => mayHoldMessages(x, depth - 1, budget));
}

/**
 * Never silent about a session's metadata record: each member of `record` not in `known` whose
 * value may hold messages or tool calls ({@link mayHoldMessages}; a newer version of the agent
 * keeping its messages under another key, or a member guard does not read) is an INVALID_RECORD
 * error in `out`, at `line`, naming the member (`what` names the record: "the session record").
 * Inputs: the record, the members the reader reads or knows to hold no model output. Output:
 * errors appended to `out`.
 */
export function reportUnreadMembers(file: string, line: number, record: JsonObject, known: ReadonlySet<string>, what: string, out: RecordOutput): void {
  for (const [key, value] of Object.entries(record)) {
    if (known.has(key) || !mayHoldMessages(value)) continue;
    out.errors.push(captureError(file, line, 'INVALID_RECORD', `member ${JSON.stringify(key)} of ${what} was not read: it holds what may be messages or tool calls (objects with a role or a call), and they are not judged`));
  }
}
