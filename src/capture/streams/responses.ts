/**
 * Accumulates OpenAI Responses stream events (`response.*`) into one reply per response.
 *
 * Format and rules: the Responses stream events of openai-node
 * `src/resources/responses/responses.ts`
 * (https://github.com/openai/openai-node/blob/7b7d6ca71130d37ec09792c50056b47861f2eccf/src/resources/responses/responses.ts)
 * and the API reference's streaming events
 * (https://developers.openai.com/api/reference/resources/beta/subresources/responses/streaming-events):
 * items keyed by `output_index` (or `item_id`), `*.delta` events appended, `*.done` and
 * `response.output_item.done` authoritative, `response.completed.response.output` preferred over
 * everything; the stream ends with `response.completed`, `.incomplete` or `.failed` (no `[DONE]`).
 */

import { TextJoiner } from '../bodies/common.js';
import type { AdvertisedTool, ToolCall } from '../types.js';
import {
  appendText,
  buildReply,
  describeApiError,
  emptyOutput,
  invalidRecord,
  isObject,
  nonEmpty,
  streamError,
  truncatedStream,
  type StreamAccumulator,
  type StreamContext,
  type StreamOutput,
} from './common.js';
import { advertisedFromResponse, readResponsesItem, unreadItemError } from './responses-items.js';

/** Text being streamed into one slot (a content part, a summary part, a shell command...). */
interface Slot {
  parts: string[];
  /** The `*.done` value, authoritative when present. */
  done: string | undefined;
}

interface ItemState {
  index: number;
  /** The latest snapshot: from `output_item.added`, replaced by `output_item.done`. */
  item: Record<string, unknown>;
  done: boolean;
  /** `arguments` (function_call, mcp_call) or `input` (custom_tool_call) deltas. */
  args: Slot;
  content: Map<number, Slot>;
  summary: Map<number, Slot>;
  commands: Map<number, Slot>;
  diff: Slot;
}

interface ResponseState {
  line: number;
  id: string | undefined;
  model: string | undefined;
  advertised: AdvertisedTool[] | null;
  items: Map<number, ItemState>;
  byId: Map<string, ItemState>;
}

type CloseMode = 'completed' | 'incomplete' | 'failed' | 'error' | 'next' | 'end';

const newSlot = (): Slot => ({ parts: [], done: undefined });
const slotText = (s: Slot): string => s.done ?? s.parts.join('');
const slotAt = (m: Map<number, Slot>, i: number): Slot => {
  let s = m.get(i);
  if (!s) m.set(i, (s = newSlot()));
  return s;
};
const sortedSlots = (m: Map<number, Slot>): string[] =>
  [...m.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => slotText(s));

/** The item type an event implies when its `output_item.added` is missing from the capture. */
function impliedItemType(eventType: string): string {
  if (eventType.startsWith('response.reasoning')) return 'reasoning';
  if (eventType.startsWith('response.function_call_arguments')) return 'function_call';
  if (eventType.startsWith('response.custom_tool_call_input')) return 'custom_tool_call';
  if (eventType.startsWith('response.mcp_call_arguments')) return 'mcp_call';
  if (eventType.startsWith('response.shell_call_command')) return 'shell_call';
  if (eventType.startsWith('response.apply_patch_call')) return 'apply_patch_call';
  return 'message';
}

/** The item as it stands: the `output_item.done` snapshot, or the added snapshot plus deltas. */
function currentItem(s: ItemState): Record<string, unknown> {
  if (s.done) return s.item;
  const item: Record<string, unknown> = { ...s.item };
  const args = s.args.done !== undefined || s.args.parts.length > 0 ? slotText(s.args) : undefined;
  switch (item['type']) {
    case 'function_call':
    case 'mcp_call':
      if (args !== undefined) item['arguments'] = args;
      break;
    case 'custom_tool_call':
      if (args !== undefined) item['input'] = args;
      break;
    case 'message':
      if (s.content.size > 0) item['content'] = sortedSlots(s.content).map((text) => ({ type: 'output_text', text }));
      break;
    case 'reasoning':
      if (s.content.size > 0) item['content'] = sortedSlots(s.content).map((text) => ({ type: 'reasoning_text', text }));
      if (s.summary.size > 0) item['summary'] = sortedSlots(s.summary).map((text) => ({ type: 'summary_text', text }));
      break;
    case 'shell_call':
      if (s.commands.size > 0) {
        const action = isObject(item['action']) ? item['action'] : {};
        item['action'] = { ...action, commands: sortedSlots(s.commands) };
      }
      break;
    case 'apply_patch_call':
      if (s.diff.done !== undefined || s.diff.parts.length > 0) {
        const op = isObject(item['operation']) ? item['operation'] : {};
        item['operation'] = { ...op, diff: slotText(s.diff) };
      }
      break;
    default:
  }
  return item;
}

/**
 * Creates the OpenAI Responses accumulator. A response is yielded at `response.completed`
 * (not truncated), `response.incomplete` (truncated; finishReason = `incomplete_details.reason`)
 * or `response.failed` (truncated, plus a STREAM_ERROR warning with `response.error`). An
 * `error` event closes the open response (truncated) with a STREAM_ERROR warning; end of input
 * or a new `response.created` before the end yields it truncated with a TRUNCATED_STREAM
 * error. When the context has no advertised tools, `response.tools` is used. A `*.done` value
 * that differs from the concatenated deltas is reported as an INVALID_RECORD warning (the done
 * value wins).
 */
export function createResponsesAccumulator(ctx: StreamContext): StreamAccumulator {
  let cur: ResponseState | null = null;

  const open = (line: number): ResponseState => ({
    line,
    id: undefined,
    model: undefined,
    advertised: null,
    items: new Map(),
    byId: new Map(),
  });

  const absorbResponse = (r: ResponseState, resp: Record<string, unknown>): void => {
    r.id = nonEmpty(resp['id']) ?? r.id;
    r.model = nonEmpty(resp['model']) ?? r.model;
    r.advertised = advertisedFromResponse(resp) ?? r.advertised;
  };

  const close = (mode: CloseMode, resp: Record<string, unknown> | null): StreamOutput => {
    const out = emptyOutput();
    const r = cur;
    cur = null;
    if (!r) return out;
    if (resp) absorbResponse(r, resp);
    const finalOutput = resp && Array.isArray(resp['output']) && resp['output'].length > 0 ? resp['output'] : null;
    const items = finalOutput ?? [...r.items.values()].sort((a, b) => a.index - b.index).map(currentItem);
    const text = new TextJoiner();
    let reasoning = '';
    const toolCalls: ToolCall[] = [];
    for (const item of items) {
      const c = readResponsesItem(item);
      text.add(c.text, c.textBreaks);
      reasoning += c.reasoning;
      if (c.toolCall) toolCalls.push(c.toolCall);
      if (c.unread !== undefined) out.errors.push(unreadItemError({ file: ctx.file, line: r.line }, c.unread));
    }
    let finishReason: string | undefined;
    if (mode === 'completed' || mode === 'failed') finishReason = mode;
    if (mode === 'incomplete') {
      const details = resp && isObject(resp['incomplete_details']) ? resp['incomplete_details'] : {};
      finishReason = nonEmpty(details['reason']) ?? 'incomplete';
    }
    out.replies.push(
      buildReply(ctx, {
        line: r.line,
        id: r.id,
        model: r.model,
        text: text.text,
        textBreaks: text.breaks,
        reasoning,
        toolCalls,
        truncated: mode !== 'completed',
        finishReason,
        advertised: ctx.advertised ?? r.advertised,
      }),
    );
    if (mode === 'end' || mode === 'next') out.errors.push(truncatedStream(ctx, r.line, 'response.completed'));
    return out;
  };

  const itemFor = (payload: Record<string, unknown>, type: string): ItemState => {
    const r = cur!;
    const itemId = nonEmpty(payload['item_id']);
    const index = typeof payload['output_index'] === 'number' ? payload['output_index'] : undefined;
    let s = index !== undefined ? r.items.get(index) : itemId !== undefined ? r.byId.get(itemId) : undefined;
    if (!s) {
      const i = index ?? (r.items.size === 0 ? 0 : Math.max(...r.items.keys()) + 1);
      const item: Record<string, unknown> = { type: impliedItemType(type) };
      if (itemId !== undefined) item['id'] = itemId;
      s = { index: i, item, done: false, args: newSlot(), content: new Map(), summary: new Map(), commands: new Map(), diff: newSlot() };
      r.items.set(i, s);
      if (itemId !== undefined) r.byId.set(itemId, s);
    }
    return s;
  };

  /** Records a `*.done` value, reporting a mismatch with the deltas already seen. */
  const settle = (slot: Slot, value: unknown, line: number, what: string, out: StreamOutput): void => {
    if (typeof value !== 'string') return;
    const joined = slot.parts.join('');
    if (slot.parts.length > 0 && joined !== value) {
      out.errors.push(invalidRecord(ctx, line, `${what}: the .done value differs from the concatenated deltas; using the .done value`, 'warning'));
    }
    slot.done = value;
  };

  const onItemEvent = (type: string, p: Record<string, unknown>, line: number): StreamOutput => {
    const out = emptyOutput();
    if (type === 'response.output_item.added' || type === 'response.output_item.done') {
      const item = isObject(p['item']) ? p['item'] : {};
      const s = itemFor({ ...p, item_id: p['item_id'] ?? item['id'] }, type);
      s.item = { ...s.item, ...item };
      if (type === 'response.output_item.done') s.done = true;
      const id = nonEmpty(item['id']);
      if (id !== undefined) cur!.byId.set(id, s);
      return out;
    }
    const s = itemFor(p, type);
    const ci = typeof p['content_index'] === 'number' ? p['content_index'] : 0;
    switch (type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
      case 'response.reasoning_text.delta':
        appendText(slotAt(s.content, ci).parts, p['delta']);
        break;
      case 'response.output_text.done':
      case 'response.reasoning_text.done':
        settle(slotAt(s.content, ci), p['text'], line, type, out);
        break;
      case 'response.refusal.done':
        settle(slotAt(s.content, ci), p['refusal'], line, type, out);
        break;
      case 'response.content_part.done': {
        const part = isObject(p['part']) ? p['part'] : {};
        settle(slotAt(s.content, ci), part['type'] === 'refusal' ? part['refusal'] : part['text'], line, type, out);
        break;
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_summary_text.done': {
        const si = typeof p['summary_index'] === 'number' ? p['summary_index'] : 0;
        if (type.endsWith('.delta')) appendText(slotAt(s.summary, si).parts, p['delta']);
        else settle(slotAt(s.summary, si), p['text'], line, type, out);
        break;
      }
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta':
      case 'response.mcp_call_arguments.delta':
        appendText(s.args.parts, p['delta']);
        break;
      case 'response.function_call_arguments.done':
      case 'response.mcp_call_arguments.done':
        settle(s.args, p['arguments'], line, type, out);
        if (nonEmpty(p['name']) !== undefined && nonEmpty(s.item['name']) === undefined) s.item['name'] = p['name'];
        break;
      case 'response.custom_tool_call_input.done':
        settle(s.args, p['input'], line, type, out);
        break;
      case 'response.shell_call_command.added':
      case 'response.shell_call_command.delta':
      case 'response.shell_call_command.done': {
        const slot = slotAt(s.commands, typeof p['command_index'] === 'number' ? p['command_index'] : 0);
        if (type.endsWith('.delta')) appendText(slot.parts, p['delta']);
        else if (type.endsWith('.done')) settle(slot, p['command'], line, type, out);
        else appendText(slot.parts, p['command']);
        break;
      }
      case 'response.apply_patch_call_operation_diff.delta':
        appendText(s.diff.parts, p['delta']);
        break;
      case 'response.apply_patch_call_operation_diff.done':
        settle(s.diff, p['diff'], line, type, out);
        break;
      default:
    }
    return out;
  };

  return {
    push(payload, eventName, line) {
      if (!isObject(payload)) return emptyOutput(); // includes a stray '[DONE]'
      const type = nonEmpty(payload['type']) ?? eventName ?? '';
      const resp = isObject(payload['response']) ? payload['response'] : null;
      switch (type) {
        case 'response.created':
        case 'response.queued':
        case 'response.in_progress': {
          let out = emptyOutput();
          const id = resp ? nonEmpty(resp['id']) : undefined;
          if (cur && id !== undefined && cur.id !== undefined && id !== cur.id) out = close('next', null);
          cur ??= open(line);
          if (resp) absorbResponse(cur, resp);
          return out;
        }
        case 'response.completed':
        case 'response.incomplete':
        case 'response.failed': {
          cur ??= open(line);
          const mode = type.slice('response.'.length) as 'completed' | 'incomplete' | 'failed';
          const out = close(mode, resp);
          if (mode === 'failed') {
            const err = resp && isObject(resp['error']) ? resp['error'] : { message: 'response.failed' };
            out.errors.push(streamError(ctx, line, describeApiError(err)));
          }
          return out;
        }
        case 'error': {
          const out = close('error', null);
          const err = isObject(payload['error']) ? payload['error'] : payload;
          out.errors.push(streamError(ctx, line, describeApiError(err)));
          return out;
        }
        default:
          if (!type.startsWith('response.') || (!('item_id' in payload) && !('output_index' in payload))) {
            return emptyOutput();
          }
          cur ??= open(line);
          return onItemEvent(type, payload, line);
      }
    },
    finish() {
      return close('end', null);
    },
  };
}
