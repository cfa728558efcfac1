/**
 * Accumulates Cohere v2 chat stream events into one reply per message.
 *
 * Events: https://docs.cohere.com/reference/chat-stream (`message-start`, `content-start`,
 * `content-delta`, `content-end`, `tool-plan-delta`, `tool-call-start`, `tool-call-delta`,
 * `tool-call-end`, `citation-start`, `citation-end`, `message-end`, `debug`), as the AI SDK reads
 * them, vercel/ai `packages/cohere/src/cohere-chat-language-model.ts` at
 * ed857f50f112e23930b0c2dd8d532cc8bebbc911. The stream is followed by `data: [DONE]`, which ends
 * nothing here (the reply ends at `message-end`). `tool_plan` deltas are visible text; `thinking`
 * content is reasoning.
 */

import { makeToolCall } from '../toolcall.js';
import type { ToolCall } from '../types.js';
import { TextJoiner } from '../bodies/common.js';
import { COHERE_TRUNCATING } from '../bodies/cohere.js';
import {
  appendText,
  buildReply,
  continueName,
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

/** The event types of a Cohere v2 chat stream. */
export const COHERE_EVENT_TYPES: ReadonlySet<string> = new Set([
  'message-start',
  'content-start',
  'content-delta',
  'content-end',
  'tool-plan-delta',
  'tool-call-start',
  'tool-call-delta',
  'tool-call-end',
  'citation-start',
  'citation-end',
  'message-end',
  'debug',
]);

interface Block {
  type: string;
  parts: string[];
}

interface Message {
  line: number;
  id: string | undefined;
  plan: string[];
  blocks: Map<number, Block>;
  calls: Map<number, { id: string | undefined; name: string | undefined; args: string[] }>;
}

/** `payload.delta.message`, or an empty object. */
function deltaMessage(payload: Record<string, unknown>): Record<string, unknown> {
  const delta = isObject(payload['delta']) ? payload['delta'] : {};
  return isObject(delta['message']) ? delta['message'] : {};
}

/**
 * Creates the Cohere accumulator: a message ends at `message-end` (`finish_reason: MAX_TOKENS`
 * marks it truncated; an `error` in it is a STREAM_ERROR warning); a message open at the end of
 * input, or at a new `message-start`, is yielded truncated with a TRUNCATED_STREAM error.
 */
export function createCohereAccumulator(ctx: StreamContext): StreamAccumulator {
  let msg: Message | null = null;

  const open = (line: number, id: string | undefined): Message => ({ line, id, plan: [], blocks: new Map(), calls: new Map() });

  /** Yields the open message; `cut`: it never reached message-end (reported unless `quiet`: an error event already says why). */
  const close = (finish: string | undefined, cut: boolean, quiet = false): StreamOutput => {
    const out = emptyOutput();
    const m = msg;
    msg = null;
    if (!m) return out;
    const text = new TextJoiner();
    const reasoning: string[] = [];
    text.add(m.plan.join(''));
    for (const [, b] of [...m.blocks.entries()].sort((a, b) => a[0] - b[0])) {
      if (b.type === 'thinking') reasoning.push(b.parts.join(''));
      else text.add(b.parts.join(''));
    }
    const toolCalls: ToolCall[] = [...m.calls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => makeToolCall(c.id, c.name ?? '', 'function', c.args.join('')));
    out.replies.push(
      buildReply(ctx, {
        line: m.line,
        id: m.id,
        model: undefined,
        text: text.text,
        ...text.breakField,
        reasoning: reasoning.join(''),
        toolCalls,
        truncated: cut || (finish !== undefined && COHERE_TRUNCATING.has(finish)),
        finishReason: finish,
      }),
    );
    if (cut && !quiet) out.errors.push(truncatedStream(ctx, m.line, 'message-end'));
    return out;
  };

  return {
    push(payload, eventName, line) {
      if (!isObject(payload)) return emptyOutput();
      const type = nonEmpty(payload['type']) ?? eventName;
      const index = typeof payload['index'] === 'number' ? payload['index'] : 0;
      switch (type) {
        case 'message-start': {
          const out = close(undefined, true);
          msg = open(line, nonEmpty(payload['id']));
          return out;
        }
        case 'content-start':
        case 'content-delta': {
          msg ??= open(line, undefined);
          const content = deltaMessage(payload)['content'];
          const c = isObject(content) ? content : {};
          let block = msg.blocks.get(index);
          if (!block) {
            block = { type: nonEmpty(c['type']) ?? (typeof c['thinking'] === 'string' ? 'thinking' : 'text'), parts: [] };
            msg.blocks.set(index, block);
          }
          appendText(block.parts, block.type === 'thinking' ? c['thinking'] : c['text']);
          return emptyOutput();
        }
        case 'tool-plan-delta':
          msg ??= open(line, undefined);
          appendText(msg.plan, deltaMessage(payload)['tool_plan']);
          return emptyOutput();
        case 'tool-call-start':
        case 'tool-call-delta': {
          msg ??= open(line, undefined);
          const tc = deltaMessage(payload)['tool_calls'];
          const entry = isObject(tc) ? tc : {};
          const fn = isObject(entry['function']) ? entry['function'] : {};
          let call = msg.calls.get(index);
          if (!call) {
            call = { id: undefined, name: undefined, args: [] };
            msg.calls.set(index, call);
          }
          call.id = nonEmpty(entry['id']) ?? call.id;
          call.name = continueName(call.name, fn['name']); // tool-call-start names it whole; a repeat in a delta is kept once
          appendText(call.args, fn['arguments']);
          return emptyOutput();
        }
        case 'message-end': {
          const delta = isObject(payload['delta']) ? payload['delta'] : {};
          const finish = nonEmpty(delta['finish_reason']);
          const out = msg ? close(finish, false) : emptyOutput();
          const err = delta['error'];
          if (err !== undefined && err !== null) out.errors.push(streamError(ctx, line, describeApiError(isObject(err) ? err : { message: String(err) })));
          return out;
        }
        default:
          if (isObject(payload['error']) || type === 'error') {
            const out = close(undefined, true, true);
            out.errors.push(streamError(ctx, line, describeApiError(isObject(payload['error']) ? payload['error'] : payload)));
            return out;
          }
          return emptyOutput(); // content-end, tool-call-end, citations, debug, [DONE]
      }
    },
    finish() {
      return close(undefined, true);
    },
  };
}
