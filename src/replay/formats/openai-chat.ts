/**
 * OpenAI Chat Completions stream adapter for replay. Wire format: openai-node `ChatCompletionChunk`
 * and its stream reader (docs/sources.md "API bodies and streams") (`data: {chunk}` frames without
 * `event:`, `choices[].delta.content` text, `delta.tool_calls[]` keyed by `index` with
 * `function.arguments` appended, `finish_reason`, `data: [DONE]` terminator, `{"error":{...}}`
 * error payloads). Only choice 0's text is held back and recovered (streams with `n > 1` pass their
 * other choices through).
 */

import type { CallUpdate, FormatAdapter, Framed, RecoveredTailInput } from '../types.js';
import { copy, isObject, made, nonEmpty, rewritten } from './common.js';

type Obj = Record<string, unknown>;

/** Choice 0 of a chunk (by `index`, else the first entry), or null. */
function choice0(p: unknown): Obj | null {
  if (!isObject(p) || !Array.isArray(p['choices'])) return null;
  const choices = p['choices'];
  const c = choices.find((x) => isObject(x) && x['index'] === 0) ?? (choices.length === 1 && isObject(choices[0]) && !('index' in choices[0]) ? choices[0] : undefined);
  return isObject(c) ? c : null;
}

/** Creates the adapter for one Chat stream. */
export function createChatAdapter(): FormatAdapter {
  /** Envelope fields copied into made chunks. */
  let envelope: Obj = { object: 'chat.completion.chunk' };

  const chunk = (delta: Obj, finish: string | null, extra: Obj = {}): Framed =>
    made({ ...envelope, choices: [{ index: 0, delta, finish_reason: finish }], ...extra });

  return {
    note(p) {
      if (!isObject(p) || nonEmpty(p['id']) === undefined) return;
      const e: Obj = {};
      for (const k of ['id', 'object', 'created', 'model', 'system_fingerprint']) if (p[k] !== undefined && p[k] !== null) e[k] = p[k];
      envelope = e;
    },
    textOf(p) {
      const c = choice0(p);
      const d = c && isObject(c['delta']) ? c['delta'] : null;
      return d && typeof d['content'] === 'string' && d['content'] !== '' ? d['content'] : null;
    },
    withText(f, text) {
      const p = copy(f.payload) as Obj;
      (choice0(p)!['delta'] as Obj)['content'] = text;
      return rewritten(f, p);
    },
    textFrame(_f, text) {
      return chunk({ content: text }, null);
    },
    endsText(p) {
      if (p === '[DONE]') return true;
      if (!isObject(p)) return false;
      if (isObject(p['error'])) return true;
      const c = choice0(p);
      if (!c) return false;
      const d = isObject(c['delta']) ? c['delta'] : {};
      return nonEmpty(c['finish_reason']) !== undefined || Array.isArray(d['tool_calls']) || isObject(d['function_call']);
    },
    recoveredTail({ held, prose, calls }: RecoveredTailInput) {
      const out: Framed[] = [];
      if (prose !== '') out.push(chunk({ content: prose }, null));
      calls.forEach((c, k) =>
        out.push(chunk({ tool_calls: [{ index: k, id: c.id, type: 'function', function: { name: c.name, arguments: c.argumentsRaw } }] }, null)),
      );
      const finish = held.find((h) => nonEmpty(choice0(h.payload)?.['finish_reason']) !== undefined);
      const usage = finish && isObject(finish.payload) && isObject(finish.payload['usage']) ? { usage: finish.payload['usage'] } : {};
      out.push(chunk({}, 'tool_calls', usage));
      // the held text and finish chunks are replaced; the rest (usage-only chunks, reasoning, [DONE]) is kept
      for (const h of held) {
        const c = choice0(h.payload);
        if (c && (this.textOf(h.payload) !== null || nonEmpty(c['finish_reason']) !== undefined)) continue;
        out.push(h);
      }
      return out;
    },
    errorTail(code, message) {
      return [made({ error: { message, type: 'guard_error', code } }), made('[DONE]')];
    },
    callUpdates(p) {
      if (p === '[DONE]') return [{ endAll: true }];
      if (!isObject(p)) return [];
      if (isObject(p['error'])) return [{ endAll: true }];
      const out: CallUpdate[] = [];
      const choices = Array.isArray(p['choices']) ? p['choices'] : [];
      choices.forEach((c, pos) => {
        if (!isObject(c)) return;
        const ci = typeof c['index'] === 'number' ? c['index'] : pos;
        const d = isObject(c['delta']) ? c['delta'] : {};
        const entries = Array.isArray(d['tool_calls']) ? d['tool_calls'] : [];
        entries.forEach((e, i) => {
          if (!isObject(e)) return;
          const fn = isObject(e['function']) ? e['function'] : isObject(e['custom']) ? e['custom'] : {};
          const custom = e['type'] === 'custom' || isObject(e['custom']);
          const delta = custom ? fn['input'] : fn['arguments'];
          out.push({
            key: `${ci}:${typeof e['index'] === 'number' ? e['index'] : i}`,
            id: nonEmpty(e['id']),
            name: nonEmpty(fn['name']),
            kind: custom ? 'custom' : 'function',
            ...(typeof delta === 'string' ? { delta } : {}),
          });
        });
        if (isObject(d['function_call'])) {
          const fc = d['function_call'];
          out.push({ key: `${ci}:legacy`, name: nonEmpty(fc['name']), kind: 'function', ...(typeof fc['arguments'] === 'string' ? { delta: fc['arguments'] } : {}) });
        }
        if (nonEmpty(c['finish_reason']) !== undefined) out.push({ endAll: true, choice: ci });
      });
      return out;
    },
    reset() {},
  };
}
