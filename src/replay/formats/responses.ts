/**
 * OpenAI Responses stream adapter for replay. Wire format: the stream events of openai-node
 * `src/resources/responses/responses.ts` (docs/sources.md "API bodies and streams") (`event:` names
 * equal to `data.type`, a `sequence_number` on every event; text in `response.output_text.delta`;
 * `*.done` events and `response.output_item.done` carry final values; function calls as
 * `function_call` output items with `function_call_arguments.delta` / `.done`; `response.completed`
 * repeats the whole output; `error` events; no `[DONE]`).
 */

import { readResponsesItem } from '../../capture/streams/responses-items.js';
import type { CallUpdate, FormatAdapter, Framed, RecoveredTailInput } from '../types.js';
import { copy, isObject, made, nonEmpty, rewritten } from './common.js';

type Obj = Record<string, unknown>;

const typeOf = (p: unknown): string | undefined => (isObject(p) ? nonEmpty(p['type']) : undefined);

/** Item types whose arguments stream as deltas, and the delta event family of each. */
const ARG_EVENTS: Readonly<Record<string, string>> = {
  'response.function_call_arguments.delta': 'function',
  'response.mcp_call_arguments.delta': 'mcp_call',
  'response.custom_tool_call_input.delta': 'custom_tool_call',
};

/** Replaces the text of every `output_text` part of a message item with `text` (first part) / ''. */
function withMessageText(item: Obj, text: string): Obj {
  const out = copy(item);
  if (out['type'] !== 'message' || !Array.isArray(out['content'])) return out;
  let first = true;
  for (const part of out['content']) {
    if (isObject(part) && part['type'] === 'output_text') {
      part['text'] = first ? text : '';
      first = false;
    }
  }
  return out;
}

/** Creates the adapter for one Responses stream. */
export function createResponsesAdapter(): FormatAdapter {
  let lastSeq = -1;
  let maxOutput = -1;

  const ev = (payload: Obj): Framed => made(payload, payload['type'] as string);

  return {
    note(p) {
      if (!isObject(p)) return;
      if (typeof p['sequence_number'] === 'number') lastSeq = Math.max(lastSeq, p['sequence_number']);
      if (typeof p['output_index'] === 'number') maxOutput = Math.max(maxOutput, p['output_index']);
      if (p['type'] === 'response.created') maxOutput = -1;
    },
    textOf(p) {
      if (typeOf(p) !== 'response.output_text.delta') return null;
      const d = (p as Obj)['delta'];
      return typeof d === 'string' && d !== '' ? d : null;
    },
    withText(f, text) {
      const p = copy(f.payload) as Obj;
      p['delta'] = text;
      return rewritten(f, p);
    },
    textFrame(f, text) {
      // a made delta shares the sequence number of the delta it was split from (docs/replay.md)
      const p = copy(f.payload) as Obj;
      p['delta'] = text;
      return ev(p);
    },
    endsText(p) {
      const t = typeOf(p);
      return t !== undefined && t !== 'response.output_text.delta' && t !== 'response.in_progress';
    },
    recoveredTail({ held, prose, visibleText, calls }: RecoveredTailInput) {
      const template = held.find((h) => this.textOf(h.payload) !== null);
      const tail: Obj[] = [];
      if (prose !== '' && template) tail.push({ ...(copy(template.payload) as Obj), delta: prose });
      const items: Obj[] = calls.map((c) => ({ type: 'function_call', id: `fc_${c.id}`, call_id: c.id, name: c.name, arguments: c.argumentsRaw, status: 'completed' }));
      const callEvents = (): Obj[] =>
        items.flatMap((item, k) => {
          const output_index = maxOutput + 1 + k;
          const item_id = item['id'];
          return [
            { type: 'response.output_item.added', output_index, item: { ...item, arguments: '', status: 'in_progress' } },
            { type: 'response.function_call_arguments.delta', item_id, output_index, delta: item['arguments'] },
            { type: 'response.function_call_arguments.done', item_id, output_index, name: item['name'], arguments: item['arguments'] },
            { type: 'response.output_item.done', output_index, item },
          ];
        });
      let placed = false;
      for (const h of held) {
        if (this.textOf(h.payload) !== null || !isObject(h.payload)) continue;
        const p = copy(h.payload);
        const t = p['type'];
        if (t === 'response.output_text.done') p['text'] = visibleText;
        if (t === 'response.content_part.done' && isObject(p['part']) && p['part']['type'] === 'output_text') p['part']['text'] = visibleText;
        if (t === 'response.output_item.done' && isObject(p['item'])) p['item'] = withMessageText(p['item'], visibleText);
        if (t === 'response.completed' || t === 'response.incomplete' || t === 'response.failed') {
          if (!placed) tail.push(...callEvents());
          placed = true;
          const r = isObject(p['response']) ? p['response'] : null;
          if (r && Array.isArray(r['output'])) r['output'] = [...r['output'].map((it) => (isObject(it) ? withMessageText(it, visibleText) : it)), ...items];
        }
        tail.push(p);
      }
      if (!placed) tail.push(...callEvents());
      // every event of the rebuilt tail is numbered on from the first held one
      const firstHeld = held.map((h) => (isObject(h.payload) ? h.payload['sequence_number'] : undefined)).find((n) => typeof n === 'number');
      let seq = typeof firstHeld === 'number' ? firstHeld : lastSeq + 1;
      return tail.map((p) => {
        const out = ev({ ...p, sequence_number: seq++ });
        lastSeq = Math.max(lastSeq, seq - 1);
        return out;
      });
    },
    errorTail(code, message) {
      return [ev({ type: 'error', code, message, param: null, sequence_number: ++lastSeq })];
    },
    callUpdates(p) {
      const t = typeOf(p);
      if (!isObject(p) || t === undefined) return [];
      const key = String(typeof p['output_index'] === 'number' ? p['output_index'] : (nonEmpty(p['item_id']) ?? 0));
      if (t in ARG_EVENTS) return typeof p['delta'] === 'string' ? [{ key, delta: p['delta'] }] : [];
      if (t === 'response.function_call_arguments.done' || t === 'response.mcp_call_arguments.done') {
        return [{ key, ...(nonEmpty(p['name']) !== undefined ? { name: p['name'] as string } : {}), full: p['arguments'], end: true }];
      }
      if (t === 'response.custom_tool_call_input.done') return [{ key, full: p['input'], end: true }];
      const itemUpdate = (k: string, item: unknown, end: boolean): CallUpdate[] => {
        const call = readResponsesItem(item).toolCall;
        if (!call) return [];
        return [{ key: k, id: call.id ?? undefined, name: nonEmpty(call.name), kind: call.kind, ...(call.argumentsRaw !== '' ? { full: call.argumentsRaw } : {}), ...(end ? { end: true } : {}) }];
      };
      if (t === 'response.output_item.added') return itemUpdate(key, p['item'], false);
      if (t === 'response.output_item.done') return itemUpdate(key, p['item'], true);
      if (t === 'response.completed' || t === 'response.incomplete' || t === 'response.failed') {
        const r = isObject(p['response']) ? p['response'] : {};
        const output = Array.isArray(r['output']) ? r['output'] : [];
        return [...output.flatMap((item, i) => itemUpdate(String(i), item, true)), { endAll: true }];
      }
      if (t === 'error') return [{ endAll: true }];
      return [];
    },
    reset() {},
  };
}
