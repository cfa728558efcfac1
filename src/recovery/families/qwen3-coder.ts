/**
 * Qwen3-Coder / Qwen3.5 XML: `<tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>\n</tool_call>`,
 * also written by Step-3.5 / Step-3.7 (StepFun's template, the same tags and framing) and Xiaomi
 * MiMo-V2-Flash (values inline), and the naked `<function=NAME>…</function>` seen without its
 * `<tool_call>` (jundot/omlx#844, an orphan `</tool_call>` may follow); and the Functionary v3.1 /
 * Llama 3.1 custom-tool form with a JSON body `<function=NAME>{…}</function>` (labelled
 * `functionary-v3.1`), optionally followed by Llama's `<|eom_id|>` / `<|eot_id|>`. Seed-OSS's
 * `<seed:tool_call>` wrapper has its own family (./seed-oss.ts).
 * Sources: the Qwen3-Coder chat template
 * (https://huggingface.co/Qwen/Qwen3-Coder-480B-A35B-Instruct; no revision recorded), StepFun's
 * Step-3.7-Flash template (llama.cpp models/templates/StepFun3.7-Flash.jinja @ ca13f4c0), sglang's
 * qwen3_coder_detector.py
 * (https://github.com/sgl-project/sglang/tree/main/python/sglang/srt/function_call); for
 * `<function=NAME>{…}</function>` MeetKai's Functionary v3.1 template
 * (https://github.com/MeetKai/functionary/blob/e240e8c54684718aa9357ccf9d59ff035a6ff351/functionary/prompt_template/jinja_templates/v3-llama3.1.txt:
 * `'<function=' + name + '>' + arguments + '</function>'`, then `<|eom_id|>`), the form of Meta's
 * Llama 3.1 prompt format for user-defined custom tools
 * (https://www.llama.com/docs/model-cards-and-prompt-formats/llama3_1/), and llama.cpp's
 * Functionary v3.1 / Hermes 2 Pro parsers
 * (https://github.com/ggml-org/llama.cpp/blob/master/common/chat.cpp); docs/sources.md "Per-family
 * grammars".
 *
 * Values: exactly one leading and one trailing "\n" are removed — the template's own framing, as
 * sglang's parser does — and nothing else; the value is then typed from the tool's schema (else a
 * string). A value runs to the first `</parameter>`; a value that contains `<parameter=`,
 * `<function=` or `</function>` lacks its closer (`truncated`: a missing closer, issue 3 point 3).
 */

import { Scanner, skipWs, isWs } from '../scan.js';
import { optionalToken } from './call-lists.js';
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

const SEED = '<seed:tool_call>';
/** Wrappers and their closers: Qwen3-Coder `<tool_call>`; Seed-OSS's `<seed:tool_call>` is recognised
 * only to leave it to its own family (./seed-oss.ts, another framing and typing): a function inside
 * it is not read here. */
const WRAPS: ReadonlyArray<readonly [string, string]> = [['<tool_call>', '</tool_call>'], [SEED, '</seed:tool_call>']];
/** Llama 3.1's end-of-message tokens, written after Functionary v3.1's calls. */
const LLAMA_ENDS = ['<|eom_id|>', '<|eot_id|>'];
/** The label of the JSON-body form. */
const FUNCTIONARY = 'functionary-v3.1';
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
  source: 'Qwen3-Coder chat template (https://huggingface.co/Qwen/Qwen3-Coder-480B-A35B-Instruct); StepFun3.7-Flash template (llama.cpp models/templates @ ca13f4c0); sglang qwen3_coder_detector.py; Functionary v3.1 template (https://github.com/MeetKai/functionary/blob/e240e8c54684718aa9357ccf9d59ff035a6ff351/functionary/prompt_template/jinja_templates/v3-llama3.1.txt); llama.cpp common/chat.cpp (Functionary / Llama 3.1 <function=…>) (docs/sources.md "Per-family grammars")',
  // Only the '=' forms are distinctive: `</parameter>` and `</function>` belong to other XML dialects too.
  markers: [FN, PARAM],
  // Qwen3-Coder's chat template renders a tool's answer as <tool_response>…</tool_response> (a user turn)
  results: ['<tool_response>'],
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
      if (w >= 0 && sc.at(w, SEED)) return fail(shape('a Seed-OSS <seed:tool_call> block (read by the seed-oss family)'));
      const r = readFunction(sc, f, ctx);
      if ('problem' in r) {
        // Name the dialect of the broken call too: a JSON body is the Llama 3.1 / Functionary form.
        const gt = sc.find('>', f);
        if (gt >= 0 && text[skipWs(text, gt + 1)] === '{') label = FUNCTIONARY;
        return fail(r.problem);
      }
      if (r.json) label = FUNCTIONARY;
      calls.push(r.call);
      let end = r.json ? optionalToken(text, r.end, LLAMA_ENDS) : r.end;
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
