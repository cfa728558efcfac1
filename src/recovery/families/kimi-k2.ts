/**
 * Kimi K2 / K2-Instruct-0905 / K2-Thinking:
 * `<|tool_calls_section_begin|>` ( `<|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>ARGS<|tool_call_end|>` )+ `<|tool_calls_section_end|>`
 * (vLLM also accepts the singular `tool_call_section`). The call id is `functions.NAME:IDX` or
 * `NAME:IDX`; the name is everything between the optional `functions.` and the last `:`, so names
 * with dots survive. Sources: sglang's kimik2_detector.py
 * (https://github.com/sgl-project/sglang/tree/main/python/sglang/srt/function_call) and vLLM's
 * kimi_k2_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/c853e15405fb9f281256a5ce916aa24e8962cab6/vllm/tool_parsers/kimi_k2_tool_parser.py);
 * docs/sources.md "Per-family grammars".
 * A call outside a section, or without `<|tool_call_argument_begin|>`, is `shape` (malformed).
 */

import { Scanner, skipWs, trimEnd } from '../scan.js';
import { callFromJsonText, shape, jsonAt, match, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';

const SECTION_BEGIN = ['<|tool_calls_section_begin|>', '<|tool_call_section_begin|>'];
const SECTION_END = ['<|tool_calls_section_end|>', '<|tool_call_section_end|>'];
const CALL_BEGIN = '<|tool_call_begin|>';
const ARG_BEGIN = '<|tool_call_argument_begin|>';
const CALL_END = '<|tool_call_end|>';
const CALL_ID = /^(?:functions\.)?([^\s:<>]+):([0-9]+)$/;

function firstSection(sc: Scanner, from: number): { at: number; len: number } | null {
  let best: { at: number; len: number } | null = null;
  for (const s of SECTION_BEGIN) {
    const at = sc.find(s, from);
    if (at >= 0 && (best === null || at < best.at)) best = { at, len: s.length };
  }
  return best;
}

export const kimi: Family = {
  id: 'kimi-k2',
  source: 'Kimi K2 tool-call guidance (https://huggingface.co/moonshotai/Kimi-K2-Instruct/blob/main/docs/tool_call_guidance.md); sglang kimik2_detector.py; vLLM kimi_k2_tool_parser.py @ c853e154 (docs/sources.md "Per-family grammars")',
  // Not `<|tool_call_end|>`: LFM2 ends its calls with the same token (`<|tool_call_start|>[…]<|tool_call_end|>`),
  // so claiming it labelled LFM2 markup `kimi-k2`; the parser still reads it inside a section.
  markers: [...SECTION_BEGIN, ...SECTION_END, CALL_BEGIN, ARG_BEGIN],
  detect: (text) => firstSection(new Scanner(text), 0)?.at ?? -1,
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    for (let s = firstSection(sc, from); s !== null; s = firstSection(sc, spans[spans.length - 1]![1])) {
      const o = s.at;
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return match('kimi-k2', spans, calls, p);
      };
      let i = o + s.len;
      let end = -1;
      while (end < 0) {
        i = skipWs(text, i);
        if (i >= text.length) return fail(truncated('the text ends before the section end'));
        const closer = SECTION_END.find((c) => sc.at(i, c));
        if (closer) {
          end = i + closer.length;
          break;
        }
        if (!sc.at(i, CALL_BEGIN)) return fail(shape('text inside the tool-call section outside any call'));
        const a = sc.find(ARG_BEGIN, i);
        const ce = sc.find(CALL_END, i);
        if (a < 0) return fail(ce < 0 ? truncated(`the text ends before ${ARG_BEGIN}`) : shape(`a call without ${ARG_BEGIN}`));
        if (ce >= 0 && ce < a) return fail(shape(`a call without ${ARG_BEGIN}`));
        // Whitespace around the call id is framing (sglang allows it); the id itself is exact.
        const idStart = skipWs(text, i + CALL_BEGIN.length);
        const id = CALL_ID.exec(text.slice(idStart, trimEnd(text, idStart, a)));
        if (!id) return fail(shape('a call id that is not [functions.]NAME:INDEX'));
        const j = jsonAt(text, a + ARG_BEGIN.length, 'arguments', { closer: CALL_END, opener: CALL_BEGIN });
        if (!j.ok) return fail(j.problem);
        const k = skipWs(text, j.end);
        if (k >= text.length) return fail(truncated(`the text ends before ${CALL_END}`));
        if (!sc.at(k, CALL_END)) return fail(shape(`text after the arguments before ${CALL_END}`));
        calls.push(callFromJsonText(id[1]!, text.slice(j.start, j.end)));
        i = k + CALL_END.length;
      }
      if (calls.length === 0) return fail(shape('an empty tool-call section'));
      spans.push([o, end]);
    }
    return match('kimi-k2', spans, calls);
  },
};
