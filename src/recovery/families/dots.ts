/**
 * rednote-hilab dots: `<dots_function_call>` blocks holding MiniMax-style
 * `<invoke name="N"><parameter name="K">V</parameter></invoke>` elements, or one JSON call object
 * `{"name": N, "arguments": A}`; several blocks and several invokes per block. Source: no rednote
 * chat template or format document could be read (rednote-hilab/dots.llm1 @ a1788e78 holds none);
 * the grammar is the docstring of vLLM's dots_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/5bf22363eca53c886609e8ef982d957c38218464/vllm/tool_parsers/dots_tool_parser.py)
 * and sglang's dots_detector.py. XML values are raw text, typed from the advertised schema as for
 * MiniMax (no template says otherwise), never trimmed (vLLM strips them); attribute values must be
 * double-quoted (vLLM also takes unquoted names). JSON bodies are typed by the markup.
 */

import { callsFromJsonCallValue, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner, skipWs } from '../scan.js';
import { readContainer, type InvokeGrammar } from './xml.js';

const OPENER = '<dots_function_call>';
const CLOSER = '</dots_function_call>';

const GRAMMAR: InvokeGrammar = { family: 'dots', prefix: '', containers: ['dots_function_call'], jsonBody: false, mode: () => ({ mode: 'schema' }) };

export const dots: Family = {
  id: 'dots',
  source: 'vLLM dots_tool_parser.py (https://github.com/vllm-project/vllm/blob/5bf22363eca53c886609e8ef982d957c38218464/vllm/tool_parsers/dots_tool_parser.py; no rednote chat template could be read); sglang dots_detector.py',
  markers: [OPENER, CLOSER],
  detect: (text) => text.indexOf(OPENER),
  parse(text, from, ctx): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    let pos = from;
    for (let o = sc.find(OPENER, pos); o >= 0; o = sc.find(OPENER, pos)) {
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return match('dots', spans, calls, p);
      };
      const k = skipWs(text, o + OPENER.length);
      if (text[k] === '{') {
        const j = jsonAt(text, k, 'tool call JSON', { closer: CLOSER, opener: OPENER });
        if (!j.ok) return fail(j.problem);
        const got = callsFromJsonCallValue(text, j);
        if ('problem' in got) return fail(got.problem);
        if (text[j.start] === '[') return fail(shape('a list where one JSON call object belongs'));
        const e = skipWs(text, j.end);
        if (e >= text.length) return fail(truncated(`the text ends before ${CLOSER}`));
        if (!sc.at(e, CLOSER)) return fail(shape(`text between the call JSON and ${CLOSER}`));
        calls.push(...got.calls);
        pos = e + CLOSER.length;
      } else {
        const r = readContainer(sc, o, GRAMMAR, ctx);
        if ('problem' in r) return fail(r.problem);
        calls.push(...r.calls);
        pos = r.end;
      }
      spans.push([o, pos]);
    }
    return match('dots', spans, calls);
  },
};
