/**
 * StepFun Step-3: DeepSeek-like section tokens around StepTML invokes,
 * `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="N"><steptml:parameter name="K">V</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>`.
 * The bars are U+FF5C but, unlike DeepSeek, the words are joined by ASCII `_` (the same spelling as
 * one DeepSeek variant, ./deepseek.ts: the grammar inside decides, and this family claims a section
 * only when a `<steptml:` tag follows). The all-ASCII spelling (`<|tool_calls_begin|>`) is read too
 * when used for every token. Sources: no Step-3 chat template could be read (stepfun-ai/Step3 @
 * b0c05a81 ships none); the grammar is the docstring of sglang's step3_detector.py
 * (https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/function_call/step3_detector.py)
 * and vLLM's step3_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/fe3771baa0a0c2bb9c0738c702f10a2301e89366/vllm/tool_parsers/step3_tool_parser.py).
 *
 * Values are raw text, typed from the advertised schema (strings raw, everything else JSON, as the
 * parsers cast them; no template was read), never trimmed (vLLM strips them), and may hold `<`
 * (vLLM's old regex drops such a parameter). A call type other than `function` is `shape` (vLLM
 * skips it). Step-3.5 / 3.7 write Qwen3-Coder XML and are read by ./qwen3-coder.ts.
 */

import { match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner, skipWs } from '../scan.js';
import { readInvoke, type InvokeGrammar } from './xml.js';

interface Spelling {
  callsBegin: string;
  callsEnd: string;
  callBegin: string;
  callEnd: string;
  sep: string;
}
const spell = (bar: string): Spelling => ({
  callsBegin: `<${bar}tool_calls_begin${bar}>`,
  callsEnd: `<${bar}tool_calls_end${bar}>`,
  callBegin: `<${bar}tool_call_begin${bar}>`,
  callEnd: `<${bar}tool_call_end${bar}>`,
  sep: `<${bar}tool_sep${bar}>`,
});
const SPELLINGS = [spell('｜'), spell('|')];
const INVOKE = '<steptml:invoke';
const GRAMMAR: InvokeGrammar = { family: 'step3', prefix: 'steptml:', containers: [], jsonBody: false, mode: () => ({ mode: 'schema' }) };

/** The first section opener from `from` that a `<steptml:` tag follows, with its spelling; or a bare invoke. */
function firstSection(text: string, from: number): { at: number; s: Spelling | null } | null {
  const tag = text.indexOf('<steptml:', from);
  if (tag < 0) return null;
  let best: { at: number; s: Spelling | null } | null = null;
  for (const s of SPELLINGS) {
    const at = text.lastIndexOf(s.callsBegin, tag);
    if (at >= from && (best === null || at > best.at)) best = { at, s };
  }
  return best ?? { at: tag, s: null };
}

export const step3: Family = {
  id: 'step3',
  source: 'sglang step3_detector.py (https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/function_call/step3_detector.py); vLLM step3_tool_parser.py @ fe3771ba (no Step-3 chat template could be read)',
  markers: [SPELLINGS[0]!.callsBegin, SPELLINGS[0]!.callsEnd, SPELLINGS[0]!.callBegin, SPELLINGS[0]!.callEnd, SPELLINGS[0]!.sep, '<steptml:', '</steptml:'],
  detect: (text) => firstSection(text, 0)?.at ?? -1,
  parse(text, from, ctx): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    let pos = from;
    for (let found = firstSection(text, pos); found !== null; found = firstSection(text, pos)) {
      const o = found.at;
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return match('step3', spans, calls, p);
      };
      const s = found.s;
      if (s === null) return fail(shape('a <steptml:invoke> outside any tool-call section'));
      let i = o + s.callsBegin.length;
      let n = 0;
      for (;;) {
        i = skipWs(text, i);
        if (i >= text.length) return fail(truncated(`the text ends before ${s.callsEnd}`));
        if (sc.at(i, s.callsEnd)) break;
        if (!sc.at(i, s.callBegin)) return fail(shape('text inside the tool-call section outside any call'));
        const sep = sc.find(s.sep, i);
        const ce = sc.find(s.callEnd, i);
        if (sep < 0) return fail(truncated(`the text ends before ${s.sep}`));
        if (ce >= 0 && ce < sep) return fail(shape(`a call without ${s.sep}`));
        const type = text.slice(i + s.callBegin.length, sep);
        if (type !== 'function') return fail(shape(`a call's type is "${type.slice(0, 40)}", not "function"`));
        const k = sep + s.sep.length;
        if (!sc.at(k, INVOKE)) return fail(INVOKE.startsWith(text.slice(k)) ? truncated(`the text ends before ${INVOKE}`) : shape(`${s.sep} is not followed by ${INVOKE}`));
        const r = readInvoke(sc, k + INVOKE.length, GRAMMAR, ctx);
        if ('problem' in r) return fail(r.problem);
        const e = skipWs(text, r.end);
        if (e >= text.length) return fail(truncated(`the text ends before ${s.callEnd}`));
        if (!sc.at(e, s.callEnd)) return fail(shape(`text after </steptml:invoke> before ${s.callEnd}`));
        calls.push(r.call);
        n++;
        i = e + s.callEnd.length;
      }
      if (n === 0) return fail(shape('an empty tool-call section'));
      pos = i + s.callsEnd.length;
      spans.push([o, pos]);
    }
    return match('step3', spans, calls);
  },
};
