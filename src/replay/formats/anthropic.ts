/**
 * Anthropic Messages stream adapter for replay. Wire format: `RawMessageStreamEvent` of
 * anthropic-sdk-typescript `src/resources/messages/messages.ts` (docs/sources.md "API bodies and
 * streams") (`event:` names equal to `data.type`; text in `content_block_delta`/`text_delta`; tool
 * calls as `content_block_start` tool_use + `input_json_delta` + `content_block_stop`;
 * `message_delta` carries `stop_reason`; `message_stop` ends the message; `event: error`
 * mid-stream).
 */

import { anthropicToolKind } from '../../capture/streams/anthropic.js';
import type { CallUpdate, FormatAdapter, Framed, RecoveredTailInput } from '../types.js';
import { copy, isObject, made, nonEmpty, rewritten } from './common.js';

type Obj = Record<string, unknown>;

const typeOf = (p: unknown): string | undefined => (isObject(p) ? nonEmpty(p['type']) : undefined);

/** Creates the adapter for one Messages stream. */
export function createAnthropicAdapter(): FormatAdapter {
  /** Highest content block index seen in the current message. */
  let maxIndex = -1;

  const ev = (payload: Obj): Framed => made(payload, payload['type'] as string);

  return {
    note(p) {
      if (!isObject(p)) return;
      if (p['type'] === 'message_start') maxIndex = -1;
      if (typeof p['index'] === 'number') maxIndex = Math.max(maxIndex, p['index']);
    },
    textOf(p) {
      if (typeOf(p) !== 'content_block_delta') return null;
      const d = (p as Obj)['delta'];
      return isObject(d) && d['type'] === 'text_delta' && typeof d['text'] === 'string' && d['text'] !== '' ? d['text'] : null;
    },
    withText(f, text) {
      const p = copy(f.payload) as Obj;
      (p['delta'] as Obj)['text'] = text;
      return rewritten(f, p);
    },
    textFrame(f, text) {
      const index = isObject(f.payload) ? f.payload['index'] : 0;
      return ev({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    },
    endsText(p) {
      const t = typeOf(p);
      return t === 'content_block_start' || t === 'content_block_stop' || t === 'message_delta' || t === 'message_stop' || t === 'error' || t === 'message_start';
    },
    recoveredTail({ held, prose, calls }: RecoveredTailInput) {
      const out: Framed[] = [];
      const template = held.find((h) => this.textOf(h.payload) !== null);
      if (prose !== '' && template) out.push(this.textFrame(template, prose));
      const callFrames = (): Framed[] =>
        calls.flatMap((c, k) => {
          const index = maxIndex + 1 + k;
          return [
            ev({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } }),
            ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: c.argumentsRaw } }),
            ev({ type: 'content_block_stop', index }),
          ];
        });
      let placed = false;
      for (const h of held) {
        if (this.textOf(h.payload) !== null) continue;
        const t = typeOf(h.payload);
        if (!placed && (t === 'message_delta' || t === 'message_stop')) {
          out.push(...callFrames());
          placed = true;
        }
        if (t === 'message_delta') {
          const p = copy(h.payload) as Obj;
          p['delta'] = { ...(isObject(p['delta']) ? p['delta'] : {}), stop_reason: 'tool_use' };
          out.push(rewritten(h, p));
        } else out.push(h);
      }
      if (!placed) out.push(...callFrames());
      return out;
    },
    errorTail(code, message) {
      return [ev({ type: 'error', error: { type: code, message } })];
    },
    callUpdates(p) {
      const t = typeOf(p);
      if (!isObject(p) || t === undefined) return [];
      const key = String(typeof p['index'] === 'number' ? p['index'] : 0);
      switch (t) {
        case 'content_block_start': {
          const cb = isObject(p['content_block']) ? p['content_block'] : {};
          const kind = anthropicToolKind(cb['type']);
          if (!kind) return [];
          const input = cb['input'];
          const full = isObject(input) && Object.keys(input).length > 0 ? { full: input } : {};
          return [{ key, id: nonEmpty(cb['id']), name: nonEmpty(cb['name']), kind, ...full }];
        }
        case 'content_block_delta': {
          const d = isObject(p['delta']) ? p['delta'] : {};
          return d['type'] === 'input_json_delta' && typeof d['partial_json'] === 'string' ? [{ key, delta: d['partial_json'] }] : [];
        }
        case 'content_block_stop':
          return [{ key, end: true }];
        case 'message_delta':
        case 'message_stop':
        case 'error':
          return [{ endAll: true }];
        default:
          return [];
      }
    },
    reset() {},
  };
}
