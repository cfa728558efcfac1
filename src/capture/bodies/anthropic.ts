/**
 * Anthropic Messages response bodies (`Message`, non-streaming), and the content-block reading
 * shared with Claude Code session files.
 *
 * Schema: anthropic-sdk-typescript `src/resources/messages/messages.ts`
 * (https://github.com/anthropics/anthropic-sdk-typescript/blob/bfa9197f0182084941052be9752c948638421601/src/resources/messages/messages.ts).
 */

import { anthropicToolKind, isUnreadBlock, unreadBlockError } from '../streams/anthropic.js';
import { makeToolCall } from '../toolcall.js';
import type { Reply, ToolCall } from '../types.js';
import { captureError, listAt, isObject, str, TextJoiner, type JsonObject, type RecordContext, type RecordOutput } from './common.js';

/**
 * Separator put between consecutive text (and thinking) blocks of one message: none, as the SDKs'
 * final-text helpers do and as the Anthropic stream accumulator does, so a message reads the same
 * whether it was captured streamed or not.
 */
export const BLOCK_SEPARATOR = '';

/** Stop reasons that mean the model was cut off by a length limit. */
const TRUNCATING_STOP_REASONS = new Set(['max_tokens', 'model_context_window_exceeded']);

/** True for an Anthropic Messages response body: `type: "message"`, `role: "assistant"`, `content[]`. */
export function isAnthropicMessage(v: unknown): v is JsonObject {
  return isObject(v) && v['type'] === 'message' && v['role'] === 'assistant' && Array.isArray(v['content']);
}


/** The reply parts read from a list of content blocks. */
export interface BlockParts {
  texts: string[];
  reasoning: string[];
  toolCalls: ToolCall[];
}

/**
 * Reads one content block into `parts`: `text` → texts, `thinking` → reasoning, `tool_use` /
 * `server_tool_use` / `mcp_tool_use` → tool calls (`input` is an object). Result blocks,
 * `redacted_thinking` and `container_upload` are skipped; an input block (`image`, `document`,
 * `search_result`: never in a response) is an INVALID_RECORD warning, a block of any other type
 * (one newer than this reader), a block that is not an object and a tool block without a name are
 * INVALID_RECORD errors at `line`, each naming the block's `index` in its message
 * (../streams/anthropic.ts `anthropicBlockClass`).
 */
export function readContentBlock(block: unknown, parts: BlockParts, ctx: { file: string; line: number }, out: RecordOutput, index: number): void {
  if (!isObject(block)) {
    out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `a content block at index ${index} that is ${block === null ? 'null' : `a JSON ${Array.isArray(block) ? 'array' : typeof block}`}, not a block object, is not read by guard: what it holds is not judged`));
    return;
  }
  const type = str(block['type']);
  if (type === 'text') {
    const text = str(block['text']);
    if (text !== undefined) parts.texts.push(text);
    else out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `a text block whose text is ${block['text'] === undefined ? 'missing' : `not a string (${typeof block['text']})`} is not read by guard: what it holds is not judged`));
    return;
  }
  if (type === 'thinking') {
    const thinking = str(block['thinking']);
    if (thinking) parts.reasoning.push(thinking);
    return;
  }
  const kind = anthropicToolKind(type);
  if (kind === null) {
    if (isUnreadBlock(type)) out.errors.push(unreadBlockError(ctx, type, index));
    return;
  }
  const name = str(block['name']);
  if (!name) {
    out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `a ${type} block at index ${index} has no name; it was skipped`));
    return;
  }
  parts.toolCalls.push(makeToolCall(str(block['id']), name, kind, block['input'], { entry: block, read: ['input'] }));
}

/** Joins block parts into the text (with its block boundaries) / reasoning / toolCalls of a {@link Reply}. */
export function joinBlockParts(parts: BlockParts): Pick<Reply, 'text' | 'textBreaks' | 'reasoning' | 'toolCalls'> {
  const text = new TextJoiner();
  for (const t of parts.texts) text.add(t);
  return {
    text: text.text,
    ...text.breakField,
    reasoning: parts.reasoning.join(BLOCK_SEPARATOR),
    toolCalls: parts.toolCalls,
  };
}

/**
 * Reads an Anthropic Messages response body into one {@link Reply}: text blocks joined by
 * {@link BLOCK_SEPARATOR}, thinking into `reasoning`, tool blocks into tool calls;
 * `stop_reason: "max_tokens"` marks it truncated.
 *
 * @param body a value for which {@link isAnthropicMessage} holds.
 * @param ctx where the record starts, the format to stamp and the advertised tools.
 * @returns the reply and any INVALID_RECORD problems; never throws.
 */
export function readAnthropicMessage(body: JsonObject, ctx: RecordContext): RecordOutput {
  const out: RecordOutput = { replies: [], errors: [] };
  const parts: BlockParts = { texts: [], reasoning: [], toolCalls: [] };
  listAt(body, 'content', (m) => out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', m))).forEach((block, i) => readContentBlock(block, parts, ctx, out, i));
  const stopReason = str(body['stop_reason']);
  const reply: Reply = {
    source: { file: ctx.file, line: ctx.line },
    format: ctx.format,
    id: str(body['id']) ?? null,
    advertised: ctx.advertised,
    ...joinBlockParts(parts),
    truncated: stopReason !== undefined && TRUNCATING_STOP_REASONS.has(stopReason),
  };
  const model = str(body['model']);
  if (model) reply.model = model;
  if (stopReason) reply.finishReason = stopReason;
  out.replies.push(reply);
  return out;
}
