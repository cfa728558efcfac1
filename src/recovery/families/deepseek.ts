/**
 * DeepSeek V3 / V3-0324 / R1 / R1-0528 and V3.1 / V3.1-Terminus special-token markup.
 *
 * V3/R1: `<｜tool▁calls▁begin｜>` ( `<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\nARGS\n```<｜tool▁call▁end｜>` )+ `<｜tool▁calls▁end｜>`
 * V3.1:  `<｜tool▁calls▁begin｜>` ( `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>ARGS<｜tool▁call▁end｜>` )+ `<｜tool▁calls▁end｜>`
 * (｜ is U+FF5C, ▁ is U+2581.) Sources: sglang's deepseekv3_detector.py and deepseekv31_detector.py
 * (https://github.com/sgl-project/sglang/tree/main/python/sglang/srt/function_call) and llama.cpp's
 * common_chat_parse_deepseek_r1
 * (https://github.com/ggml-org/llama.cpp/blob/master/common/chat.cpp); docs/sources.md "Per-family
 * grammars". The ```json fence of V3 is part of the grammar, so the quotation check must not take
 * it for a Markdown fence (the engine ignores fences inside markup spans). Only the canonical
 * tokens are read; whitespace is allowed between blocks and around the JSON, nothing else.
 */

import { Scanner, skipWs } from '../scan.js';
import { callFromJsonText, shape, jsonAt, match, truncated, type Family, type FamilyCall, type FamilyMatch } from '../family.js';

const CALLS_BEGIN = '<｜tool▁calls▁begin｜>';
const CALLS_END = '<｜tool▁calls▁end｜>';
const CALL_BEGIN = '<｜tool▁call▁begin｜>';
const CALL_END = '<｜tool▁call▁end｜>';
const SEP = '<｜tool▁sep｜>';
const FENCE = '```';

/** Reads one call from just after `<｜tool▁call▁begin｜>`; returns the index after `<｜tool▁call▁end｜>`. */
function readCall(sc: Scanner, i: number): { call: FamilyCall; end: number; v3: boolean } | { problem: ReturnType<typeof truncated> } {
  const text = sc.text;
  const sep = sc.find(SEP, i);
  const callEnd = sc.find(CALL_END, i);
  if (callEnd >= 0 && (sep < 0 || callEnd < sep)) return { problem: shape('a call has no <｜tool▁sep｜>') };
  if (sep < 0) return { problem: truncated('the text ends before <｜tool▁sep｜>') };
  const head = text.slice(i, sep);
  const afterSep = skipWs(text, sep + SEP.length);
  let v3: boolean;
  let name: string;
  let jsonFrom: number;
  if (text[afterSep] === '{') {
    // V3.1: the name sits before the separator.
    v3 = false;
    name = head;
    jsonFrom = afterSep;
  } else {
    if (head !== 'function') return { problem: shape(`a call's type is "${head.slice(0, 40)}", not "function"`) };
    v3 = true;
    const nl = text.indexOf('\n', sep);
    if (nl < 0) return { problem: callEnd > sep ? shape('no newline and ```json after the tool name') : truncated('the text ends inside the tool name') };
    name = text.slice(sep + SEP.length, nl);
    const f = skipWs(text, nl);
    if (f >= text.length || text.length - f < FENCE.length + 4) return { problem: truncated('the text ends before ```json') };
    if (!text.startsWith('```json', f)) return { problem: shape('the arguments are not in a ```json fence') };
    jsonFrom = f + '```json'.length;
  }
  if (name === '' || name.includes('<') || name.includes('\n')) return { problem: shape('a call has no usable tool name') };
  const j = jsonAt(text, jsonFrom, 'arguments', { closer: v3 ? FENCE : CALL_END, opener: CALL_BEGIN });
  if (!j.ok) return { problem: j.problem };
  let k = skipWs(text, j.end);
  if (v3) {
    if (k >= text.length) return { problem: truncated('the text ends before the closing ```') };
    if (!text.startsWith(FENCE, k)) return { problem: shape('text after the arguments inside the fence') };
    k = skipWs(text, k + FENCE.length);
  }
  if (k >= text.length) return { problem: truncated('the text ends before <｜tool▁call▁end｜>') };
  if (!sc.at(k, CALL_END)) return { problem: shape('text after the arguments before <｜tool▁call▁end｜>') };
  return { call: callFromJsonText(name, text.slice(j.start, j.end)), end: k + CALL_END.length, v3 };
}

export const deepseek: Family = {
  id: 'deepseek',
  source: 'DeepSeek-V3 and V3.1 chat templates (https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/tokenizer_config.json, https://huggingface.co/deepseek-ai/DeepSeek-V3.1/blob/main/tokenizer_config.json); sglang deepseekv3_detector.py, deepseekv31_detector.py; llama.cpp common/chat.cpp common_chat_parse_deepseek_r1 (docs/sources.md "Per-family grammars")',
  markers: [CALLS_BEGIN, CALLS_END, CALL_BEGIN, CALL_END, SEP],
  detect: (text) => text.indexOf(CALLS_BEGIN),
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    let label = 'deepseek-v3';
    for (let o = sc.find(CALLS_BEGIN, from); o >= 0; o = sc.find(CALLS_BEGIN, spans[spans.length - 1]![1])) {
      let i = o + CALLS_BEGIN.length;
      const fail = (p: { reason: 'truncated' | 'shape'; detail: string }) => {
        spans.push([o, text.length]);
        return match(label, spans, calls, p);
      };
      let seen = 0;
      for (;;) {
        i = skipWs(text, i);
        if (i >= text.length) return fail(truncated('the text ends before <｜tool▁calls▁end｜>'));
        if (sc.at(i, CALLS_END)) break;
        if (sc.at(i, CALLS_BEGIN)) return fail(shape('<｜tool▁calls▁begin｜> repeated inside a call section'));
        if (!sc.at(i, CALL_BEGIN)) return fail(shape('text inside the call section outside any call'));
        const r = readCall(sc, i + CALL_BEGIN.length);
        if ('problem' in r) {
          // Name the dialect of the broken call too: V3.1 puts the JSON right after the separator.
          const sep = sc.find(SEP, i);
          if (sep >= 0 && text[skipWs(text, sep + SEP.length)] === '{') label = 'deepseek-v3.1';
          return fail(r.problem);
        }
        label = r.v3 ? 'deepseek-v3' : 'deepseek-v3.1';
        calls.push(r.call);
        seen++;
        i = r.end;
      }
      if (seen === 0) return fail(shape('an empty call section'));
      spans.push([o, i + CALLS_END.length]);
    }
    return match(label, spans, calls);
  },
};
