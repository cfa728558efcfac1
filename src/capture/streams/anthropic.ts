/**
 * Accumulates Anthropic Messages stream events into one reply per message.
 *
 * Format and rules: the official SDK's message stream (anthropic-sdk-typescript
 * `src/lib/MessageStream.ts` and `src/resources/messages/messages.ts`,
 * https://github.com/anthropics/anthropic-sdk-typescript/blob/bfa9197f0182084941052be9752c948638421601/src/lib/MessageStream.ts):
 * content blocks keyed by `index`, `input_json_delta` buffered per block, an empty buffer meaning
 * `{}`, `message_stop` ending the message, `error` events mid-stream.
 */

import { makeToolCall } from '../toolcall.js';
import type { CaptureError, ToolCall, ToolCallKind } from '../types.js';
import { captureError, TextJoiner } from '../bodies/common.js';
import {
  appendText,
  buildReply,
  describeApiError,
  emptyOutput,
  isObject,
  nonEmpty,
  streamError,
  truncatedStream,
  type StreamAccumulator,
  type StreamContext,
  type StreamOutput,
} from './common.js';

/** Event types of the Messages stream (`RawMessageStreamEvent`, anthropic-sdk-typescript
 * `src/resources/messages/messages.ts`), for sniffing. */
export const ANTHROPIC_EVENT_TYPES: ReadonlySet<string> = new Set([
  'message_start',
  'message_delta',
  'message_stop',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'ping',
  'error',
]);

/**
 * The tool-call kind of an Anthropic content block type: `tool_use` (client tool) is
 * `function`; `server_tool_use` (code execution, web search, tool search, advisor...) and
 * `mcp_tool_use` keep their own kinds. Any other block type is not a tool call (null).
 */
export function anthropicToolKind(blockType: unknown): ToolCallKind | null {
  if (blockType === 'tool_use') return 'function';
  if (blockType === 'server_tool_use') return 'server_tool_use';
  if (blockType === 'mcp_tool_use') return 'mcp_tool_use';
  return null;
}

/**
 * What an Anthropic content block in an assistant message is to guard, by its type (anthropic-sdk-typescript
 * `src/resources/messages/messages.ts` at bfa9197f0182084941052be9752c948638421601: the response
 * union `ContentBlock` and the request union `ContentBlockParam`):
 * - `text`, `thinking`, `call` (`tool_use`, `server_tool_use`, `mcp_tool_use`): read;
 * - `inert`: response blocks that hold nothing the model wrote to judge: `redacted_thinking`
 *   (encrypted reasoning), the tool results (`tool_result`, `web_search_tool_result`,
 *   `code_execution_tool_result`, `mcp_tool_result`, …: a tool's output) and `container_upload`
 *   (a file id);
 * - `input`: `image`, `document` and `search_result` are `ContentBlockParam` only, never in a
 *   response's `ContentBlock`: an assistant message holding one was written by a harness, not the
 *   model, and what it holds (a document's or search result's text) is not judged. Reported as an
 *   INVALID_RECORD warning naming the type and index;
 * - `unknown`: any other type (one newer than this reader), or none: an INVALID_RECORD error
 *   naming the type and index (what it holds may be a call).
 */
export type AnthropicBlockClass = 'text' | 'thinking' | 'call' | 'inert' | 'input' | 'unknown';

const INERT_BLOCK = /(?:^|_)tool_result$|^(?:redacted_thinking|container_upload)$/;
const INPUT_BLOCKS: ReadonlySet<string> = new Set(['image', 'document', 'search_result']);

/** The class of a content block type (see {@link AnthropicBlockClass}). */
export function anthropicBlockClass(type: string | undefined): AnthropicBlockClass {
  if (type === 'text') return 'text';
  if (type === 'thinking') return 'thinking';
  if (anthropicToolKind(type) !== null) return 'call';
  if (type === undefined) return 'unknown';
  if (INERT_BLOCK.test(type)) return 'inert';
  if (INPUT_BLOCKS.has(type)) return 'input';
  return 'unknown';
}

/** True for a content block type guard does not read and must report ({@link anthropicBlockClass} `input` or `unknown`). */
export function isUnreadBlock(type: string | undefined): boolean {
  const c = anthropicBlockClass(type);
  return c === 'input' || c === 'unknown';
}

/**
 * The INVALID_RECORD problem of a content block guard does not read ({@link isUnreadBlock}): a
 * warning for an input block (`image`, `document`, `search_result`), an error for an unknown type.
 */
export function unreadBlockError(ctx: { file: string; line: number }, type: string | undefined, index: number): CaptureError {
  const name = JSON.stringify((type ?? '(no type)').slice(0, 60));
  if (anthropicBlockClass(type) === 'input') {
    return captureError(ctx.file, ctx.line, 'INVALID_RECORD', `a content block of type ${name} at index ${index} is an input block (never in a Messages response) in an assistant message: not model output, what it holds is not judged`, 'warning');
  }
  return captureError(ctx.file, ctx.line, 'INVALID_RECORD', `a content block of type ${name} at index ${index} is not read by guard: what it holds (a call, its input) is not judged`);
}

interface Block {
  index: number;
  /** Order of the block's start (a second block started at a taken index sorts after the first). */
  seq: number;
  type: string;
  start: Record<string, unknown>;
  text: string[];
  json: string[];
}

interface Message {
  line: number;
  id: string | undefined;
  model: string | undefined;
  stopReason: string | undefined;
  /** Blocks by their stream index (a block moved aside by a second start at its index keeps its `index`, under a negative key). */
  blocks: Map<number, Block>;
  /** Problems met while the message streamed (an unread block or delta), reported when it closes. */
  problems: CaptureError[];
  seq: number;
}

/** How a message ended: `message_stop`, a new `message_start`, an error event, end of input. */
type CloseMode = 'stop' | 'next' | 'error' | 'end';

/** The block type implied by a delta whose block never had a `content_block_start`. */
function impliedBlockType(deltaType: unknown): string {
  if (deltaType === 'thinking_delta' || deltaType === 'signature_delta') return 'thinking';
  if (deltaType === 'input_json_delta') return 'tool_use';
  return 'text';
}

function toolCallOf(block: Block, kind: ToolCallKind): ToolCall {
  const buffered = block.json.join('');
  const startInput = block.start['input'];
  // the SDK parses the buffer when non-empty and otherwise keeps `{}`; a start block that already
  // carries a non-empty input (replayed captures) keeps it
  let args: unknown = buffered !== '' ? buffered : '{}';
  if (buffered === '' && isObject(startInput) && Object.keys(startInput).length > 0) args = startInput;
  return makeToolCall(nonEmpty(block.start['id']), nonEmpty(block.start['name']) ?? '', kind, args);
}

/**
 * Creates the Anthropic Messages accumulator. A message ends at `message_stop`; a message whose
 * stream stops earlier (end of input, or a new `message_start`) is yielded truncated with a
 * TRUNCATED_STREAM error; an `error` event closes the open message (truncated) and is reported
 * as a STREAM_ERROR warning. `stop_reason:"max_tokens"` marks a reply truncated. `ping` and
 * unknown events are ignored; a block of a type guard does not read, a delta of an unknown type
 * or into a block of the other kind is INVALID_RECORD; blocks a `message_start` already holds are
 * read; a second start at a taken index keeps both blocks (a warning). Text blocks are concatenated without a separator (as the SDKs'
 * final-text helpers do); thinking blocks go to `reasoning`.
 */
export function createAnthropicAccumulator(ctx: StreamContext): StreamAccumulator {
  let msg: Message | null = null;

  const open = (line: number, m: Record<string, unknown> | null): Message => ({
    line,
    id: m ? nonEmpty(m['id']) : undefined,
    model: m ? nonEmpty(m['model']) : undefined,
    stopReason: m ? nonEmpty(m['stop_reason']) : undefined,
    blocks: new Map(),
    problems: [],
    seq: 0,
  });

  const close = (mode: CloseMode): StreamOutput => {
    const out = emptyOutput();
    const m = msg;
    msg = null;
    if (!m) return out;
    const text = new TextJoiner();
    const reasoning: string[] = [];
    const toolCalls: ToolCall[] = [];
    for (const block of [...m.blocks.values()].sort((a, b) => a.index - b.index || a.seq - b.seq)) {
      const kind = anthropicToolKind(block.type);
      if (kind) toolCalls.push(toolCallOf(block, kind));
      // joined per block: spreading a block's deltas into push() overflows the stack past ~150k deltas
      else if (block.type === 'text') text.add(block.text.join(''));
      else if (block.type === 'thinking') reasoning.push(block.text.join(''));
    }
    out.errors.push(...m.problems);
    const cut = mode !== 'stop';
    out.replies.push(
      buildReply(ctx, {
        line: m.line,
        id: m.id,
        model: m.model,
        text: text.text,
        ...text.breakField,
        reasoning: reasoning.join(''),
        toolCalls,
        truncated: cut || m.stopReason === 'max_tokens',
        finishReason: m.stopReason,
      }),
    );
    if (mode === 'end' || mode === 'next') out.errors.push(truncatedStream(ctx, m.line, 'message_stop'));
    return out;
  };

  const blockAt = (index: number, type: string, start: Record<string, unknown>): Block => {
    let block = msg!.blocks.get(index);
    if (!block) {
      block = { index, type, start, seq: msg!.seq++, text: [], json: [] };
      msg!.blocks.set(index, block);
    }
    return block;
  };

  /** A block started at `index`: a second start at a taken index moves the first aside (both are read). */
  const startBlock = (index: number, type: string, start: Record<string, unknown>, line: number): Block => {
    const m = msg!;
    const taken = m.blocks.get(index);
    if (taken !== undefined && Object.keys(taken.start).length > 0) {
      m.blocks.set(-1 - m.seq, taken);
      m.blocks.delete(index);
      m.problems.push(captureError(ctx.file, line, 'INVALID_RECORD', `a second content_block_start at index ${index}, where a block already started: both blocks are read, the deltas after it go to the second`, 'warning'));
    }
    if (isUnreadBlock(type)) m.problems.push(unreadBlockError({ file: ctx.file, line }, type, index));
    return blockAt(index, type, start);
  };

  const applyDelta = (payload: Record<string, unknown>, line: number): void => {
    const delta = isObject(payload['delta']) ? payload['delta'] : {};
    const index = typeof payload['index'] === 'number' ? payload['index'] : 0;
    const block = blockAt(index, impliedBlockType(delta['type']), {});
    const into = (want: 'text' | 'json'): boolean => {
      const cls = anthropicBlockClass(block.type);
      // an unknown block was reported at its start; text into an inert or input block would be dropped: reported
      if (cls === 'unknown' || (want === 'json' ? cls === 'call' : cls === 'text' || cls === 'thinking')) return true;
      msg!.problems.push(captureError(ctx.file, line, 'INVALID_RECORD', `a ${String(delta['type'])} into the ${block.type} block at index ${index} is not read by guard: what it holds is not judged`));
      return false;
    };
    switch (delta['type']) {
      case 'text_delta':
        if (into('text')) appendText(block.text, delta['text']);
        break;
      case 'thinking_delta':
        if (into('text')) appendText(block.text, delta['thinking']);
        break;
      case 'input_json_delta':
        if (into('json')) appendText(block.json, delta['partial_json']);
        break;
      case 'signature_delta':
      case 'citations_delta':
        break; // nothing guard reads
      default:
        msg!.problems.push(captureError(ctx.file, line, 'INVALID_RECORD', `a content_block_delta of type ${JSON.stringify(String(delta['type'] ?? '(no type)').slice(0, 60))} is not read by guard: what it adds to the ${block.type} block is not judged`));
    }
  };

  return {
    push(payload, eventName, line) {
      if (!isObject(payload)) return emptyOutput();
      const type = nonEmpty(payload['type']) ?? eventName;
      switch (type) {
        case 'message_start': {
          const out = close('next');
          const message = isObject(payload['message']) ? payload['message'] : null;
          msg = open(line, message);
          // blocks the message already holds (a replayed or proxied stream) are read as started blocks
          const content = message !== null && Array.isArray(message['content']) ? message['content'] : [];
          content.forEach((cb, i) => {
            if (!isObject(cb)) return;
            const block = startBlock(i, nonEmpty(cb['type']) ?? 'unknown', cb, line);
            appendText(block.text, block.type === 'thinking' ? cb['thinking'] : cb['text']);
          });
          return out;
        }
        case 'content_block_start': {
          msg ??= open(line, null);
          const cb = isObject(payload['content_block']) ? payload['content_block'] : {};
          const index = typeof payload['index'] === 'number' ? payload['index'] : msg.blocks.size;
          const block = startBlock(index, nonEmpty(cb['type']) ?? 'unknown', cb, line);
          appendText(block.text, block.type === 'thinking' ? cb['thinking'] : cb['text']);
          return emptyOutput();
        }
        case 'content_block_delta':
          msg ??= open(line, null);
          applyDelta(payload, line);
          return emptyOutput();
        case 'message_delta': {
          const delta = isObject(payload['delta']) ? payload['delta'] : {};
          if (msg) msg.stopReason = nonEmpty(delta['stop_reason']) ?? msg.stopReason;
          return emptyOutput();
        }
        case 'message_stop':
          return close('stop');
        case 'error': {
          const out = close('error');
          const err = isObject(payload['error']) ? payload['error'] : payload;
          out.errors.push(streamError(ctx, line, describeApiError(err)));
          return out;
        }
        default: // ping, content_block_stop, legacy `completion`, managed-agent events
          return emptyOutput();
      }
    },
    finish() {
      return close('end');
    },
  };
}
