/**
 * Llama 4 (Scout, Maverick) JSON calls as the HF chat template renders them: the message content
 * inside `<|python_start|>…<|python_end|>` (empty when there is none), then the call objects
 * `{"name": NAME, "parameters": ARGS}` back to back with no separator, then `<|eot|>` (Meta's
 * encoder ends a tool-call message with `<|eom|>`): `<|python_start|>Let me look.<|python_end|>
 * {"name": …, "parameters": …}{"name": …}`. The content between the two tokens is prose (the
 * prose ratio and framing rules read it). `<|python_start|>{…}<|python_end|>` with the JSON inside is
 * the `llama4` label of llama.ts; with the tokens stripped, the objects are bare `llama3-json`.
 * Primary sources: the Llama 4 chat template of meta-llama/Llama-4-Scout-17B-16E-Instruct
 * (https://huggingface.co/meta-llama/Llama-4-Scout-17B-16E-Instruct, revision not recorded; verbatim
 * copy in huggingface/transformers models/llama4 `Llama4Processor` and in huggingface.js
 * chat-template-automap.ts @ 007948d5), Meta's models/llama4/prompt_format.md (llama-models @
 * f3d16d73); confirmed by vLLM `llama4_json` (llama_tool_parser.py @ 055e47c2).
 */

import { callsFromJsonCallValue, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch } from '../family.js';
import { Scanner, skipWs } from '../scan.js';

const START = '<|python_start|>';
const END = '<|python_end|>';
const TURN_END = ['<|eot|>', '<|eom|>'];

export const llama4Json: Family = {
  id: 'llama4-json',
  source:
    'meta-llama/Llama-4-Scout-17B-16E-Instruct chat template (https://huggingface.co/meta-llama/Llama-4-Scout-17B-16E-Instruct, revision not recorded; copies: transformers Llama4Processor, huggingface.js chat-template-automap.ts @ 007948d5); Meta llama-models models/llama4/prompt_format.md @ f3d16d73; vLLM llama_tool_parser.py @ 055e47c2',
  markers: [START, END],
  detect(text) {
    const sc = new Scanner(text);
    for (let o = sc.find(START, 0); o >= 0; o = sc.find(START, o + START.length)) {
      const e = sc.find(END, o + START.length);
      if (e < 0) return -1;
      const next = sc.find(START, o + START.length);
      if (next >= 0 && next < e) continue;
      if (text[skipWs(text, e + END.length)] === '{') return o;
    }
    return -1;
  },
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const e = sc.find(END, from + START.length);
    const spans: Array<[number, number]> = [[from, from + START.length]];
    const calls: FamilyCall[] = [];
    if (e < 0) return match('llama4-json', [[from, text.length]], calls, truncated(`the text ends before ${END}`));
    let i = skipWs(text, e + END.length);
    let end = e + END.length;
    while (text[i] === '{') {
      const j = jsonAt(text, i, 'call JSON');
      if (!j.ok) {
        spans.push([e, text.length]);
        return { ...match('llama4-json', spans, calls, j.problem), callSpans: [[e, text.length]] };
      }
      const got = callsFromJsonCallValue(text, j);
      if ('problem' in got) {
        spans.push([e, text.length]);
        return { ...match('llama4-json', spans, calls, got.problem), callSpans: [[e, text.length]] };
      }
      calls.push(...got.calls);
      end = j.end;
      i = skipWs(text, j.end);
    }
    if (calls.length === 0) return match('llama4-json', [[from, text.length]], calls, shape(`no call object after ${END}`));
    const t = TURN_END.find((x) => text.startsWith(x, i));
    if (t !== undefined) end = i + t.length;
    spans.push([e, end]);
    return { ...match('llama4-json', spans, calls), callSpans: [[e, end]] };
  },
};
