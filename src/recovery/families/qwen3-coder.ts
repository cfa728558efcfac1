/**
 * Qwen3-Coder / Qwen3.5 XML: `<tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>\n</tool_call>`,
 * Seed-OSS's `<seed:tool_call>` wrapper around the same body (vLLM seed_oss_tool_parser.py), also the naked `<function=NAME>…</function>` seen without its `<tool_call>` (jundot/omlx#844, an
 * orphan `</tool_call>` may follow), and the Llama 3.1 / Functionary form with a JSON body
 * `<function=NAME>{…}</function>` (labelled `llama3-function`).
 * Sources: the Qwen3-Coder chat template
 * (https://huggingface.co/Qwen/Qwen3-Coder-480B-A35B-Instruct; no revision recorded), sglang's
 * qwen3_coder_detector.py
 * (https://github.com/sgl-project/sglang/tree/main/python/sglang/srt/function_call), vLLM's
 * seed_oss_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/3e47bf473f0a9e6bfa17bd3b4b167d753f3bf61e/vllm/tool_parsers/seed_oss_tool_parser.py),
 * and llama.cpp's Functionary v3.1 / Hermes 2 Pro parsers for `<function=NAME>{…}</function>`
 * (https://github.com/ggml-org/llama.cpp/blob/master/common/chat.cpp); docs/sources.md "Per-family
 * grammars".
 *
 * Values: exactly one leading and one trailing "\n" are removed — the template's own framing, as
 * sglang's parser does — and nothing else; the value is then typed from the tool's schema (else a
 * string). A value runs to the first `</parameter>`; a value that contains `<parameter=`,
 * `<function=` or `</function>` lacks its closer (`truncated`: a missing closer, issue 3 point 3).
 */

import { Scanner, skipWs, isWs } from '../scan.js';
import {
  callFromJsonText,
  callFromParameters,
  shape,
  jsonAt,
  match,
  truncated,
  type Family,
  type FamilyCall,
  type FamilyMatch,
  type FamilyProblem,
  type ParseContext,
  type RawParameter,
} from '../family.js';

/** Wrappers and their closers: Qwen3-Coder `<tool_call>`, Seed-OSS `<seed:tool_call>` (same body
 * grammar: vLLM's seed_oss_tool_parser.py is adapted from the Qwen3-Coder parser). */
const WRAPS: ReadonlyArray<readonly [string, string]> = [['<tool_call>', '</tool_call>'], ['<seed:tool_call>', '</seed:tool_call>']];
const UNWRAP = '</tool_call>';
const FN = '<function=';
const END_FN = '</function>';
const PARAM = '<parameter=';
const END_PARAM = '</parameter>';

/** A wrapper that precedes `f` with only whitespace between: its index and closer, or at -1. */
function wrapperBefore(text: string, f: number, floor: number): { at: number; closer: string } {
  let i = f;
  while (i > floor && isWs(text[i - 1])) i--;
  for (const [open, closer] of WRAPS) {
    const w = i - open.length;
    if (w >= floor && text.startsWith(open, w)) return { at: w, closer };
  }
  return { at: -1, closer: UNWRAP };
}

/** Reads `NAME>` from i; the name may not hold `<` or a newline. */
function tagValue(sc: Scanner, i: number, what: string): { value: string; end: number } | { problem: FamilyProblem } {
  const gt = sc.find('>', i);
  if (gt < 0) return { problem: truncated(`the text ends inside the ${what}`) };
  const value = sc.text.slice(i, gt);
  if (value === '' || value.includes('<') || value.includes('\n')) return { problem: shape(`a malformed ${what}`) };
  return { value, end: gt + 1 };
}

function stripFraming(v: string): string {
  const a = v.startsWith('\n') ? 1 : 0;
  const b = v.length > a && v.endsWith('\n') ? v.length - 1 : v.length;
  return v.slice(a, b);
}

function readFunction(sc: Scanner, f: number, ctx: ParseContext): { call: FamilyCall; end: number; json: boolean } | { problem: FamilyProblem } {
  const text = sc.text;
  const n = tagValue(sc, f + FN.length, 'function name');
  if ('problem' in n) return n;
  let k = skipWs(text, n.end);
  if (text[k] === '{') {
    const j = jsonAt(text, k, 'arguments', { closer: END_FN, opener: FN });
    if (!j.ok) return j;
    k = skipWs(text, j.end);
    if (k >= text.length) return { problem: truncated(`the text ends before ${END_FN}`) };
    if (!sc.at(k, END_FN)) return { problem: shape(`text after the arguments before ${END_FN}`) };
    return { call: callFromJsonText(n.value, text.slice(j.start, j.end)), end: k + END_FN.length, json: true };
  }
  const params: RawParameter[] = [];
  for (;;) {
    k = skipWs(text, k);
    if (k >= text.length) return { problem: truncated(`the text ends before ${END_FN}`) };
    if (sc.at(k, END_FN)) return { call: callFromParameters(n.value, params, ctx), end: k + END_FN.length, json: false };
    if (!sc.at(k, PARAM)) return { problem: shape('text inside a function outside any parameter') };
    const key = tagValue(sc, k + PARAM.length, 'parameter name');
    if ('problem' in key) return key;
    const e = sc.find(END_PARAM, key.end);
    if (e < 0) return { problem: truncated(`the text ends before ${END_PARAM}`) };
    const raw = text.slice(key.end, e);
    if (raw.includes(PARAM) || raw.includes(FN) || raw.includes(END_FN)) {
      return { problem: shape(`${END_PARAM} of parameter "${key.value}" is missing: its value runs into another tag`) };
    }
    params.push({ key: key.value, value: stripFraming(raw), mode: 'schema' });
    k = e + END_PARAM.length;
  }
}

export const qwen3Coder: Family = {
  id: 'qwen3-coder',
  source: 'Qwen3-Coder chat template (https://huggingface.co/Qwen/Qwen3-Coder-480B-A35B-Instruct); sglang qwen3_coder_detector.py; vLLM seed_oss_tool_parser.py @ 3e47bf47; llama.cpp common/chat.cpp (Functionary / Llama 3.1 <function=…>) (docs/sources.md "Per-family grammars")',
  // Only the '=' forms are distinctive: `</parameter>` and `</function>` belong to other XML dialects too.
  markers: [FN, PARAM],
  detect(text) {
    const f = text.indexOf(FN);
    if (f < 0) return -1;
    const w = wrapperBefore(text, f, 0).at;
    return w >= 0 ? w : f;
  },
  parse(text, from, ctx): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    let label = 'qwen3-coder';
    let pos = from;
    for (let f = sc.find(FN, pos); f >= 0; f = sc.find(FN, pos)) {
      const wrap = wrapperBefore(text, f, pos);
      const w = wrap.at;
      const start = w >= 0 ? w : f;
      const fail = (p: FamilyProblem) => {
        spans.push([start, text.length]);
        return match(label, spans, calls, p);
      };
      const r = readFunction(sc, f, ctx);
      if ('problem' in r) {
        // Name the dialect of the broken call too: a JSON body is the Llama 3.1 / Functionary form.
        const gt = sc.find('>', f);
        if (gt >= 0 && text[skipWs(text, gt + 1)] === '{') label = 'llama3-function';
        return fail(r.problem);
      }
      if (r.json) label = 'llama3-function';
      calls.push(r.call);
      let end = r.end;
      const k = skipWs(text, end);
      if (w >= 0) {
        if (k >= text.length) return fail(truncated(`the text ends before ${wrap.closer}`));
        if (!sc.at(k, wrap.closer)) return fail(shape(`text after ${END_FN} before ${wrap.closer}`));
        end = k + wrap.closer.length;
      } else if (sc.at(k, UNWRAP)) {
        end = k + UNWRAP.length; // the orphan closer of a naked function (jundot/omlx#844)
      }
      spans.push([start, end]);
      pos = end;
    }
    return match(label, spans, calls);
  },
};
