/**
 * Ai2 OLMo 3 / 3.1 Instruct: `[content]<function_calls>f(a=1)\ng(b="x")</function_calls>`, one call per
 * line between the two tags, keyword arguments whose values the template writes with `tojson` (so
 * JSON literals in Python call syntax: `true`, `null`, `{"k": 1}`; Python's own `True`/`None` are
 * read too). The system prompt says "Output any function calls within <function_calls></function_calls>
 * XML tags". The closer is required. Text after the block is prose.
 * Values: literals only (./python.ts).
 * Primary sources: the chat template of allenai/Olmo-3.1-32B-Instruct
 * (https://huggingface.co/allenai/Olmo-3.1-32B-Instruct, revision not recorded; read from a verbatim
 * LM Studio community copy) and Ollama's Go port of it (model/renderers/olmo3.go @ fb307609);
 * confirmed by vLLM `olmo3` (olmo3_tool_parser.py @ 055e47c2) and Ollama's `olmo3` parser
 * (model/parsers/olmo3.go @ fb307609).
 */

import { match, shape, truncated, type Family, type FamilyCall, type FamilyMatch } from '../family.js';
import { Scanner } from '../scan.js';
import { bodyTo, readPythonCalls } from './python.js';

const START = '<function_calls>';
const END = '</function_calls>';

export const olmo3: Family = {
  id: 'olmo3',
  source:
    'allenai/Olmo-3.1-32B-Instruct chat template (https://huggingface.co/allenai/Olmo-3.1-32B-Instruct, revision not recorded; LM Studio community copy); Ollama model/renderers/olmo3.go and model/parsers/olmo3.go @ fb307609; vLLM olmo3_tool_parser.py @ 055e47c2',
  markers: [START, END],
  detect: (text) => text.indexOf(START),
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    for (let o = sc.find(START, from); o >= 0; o = sc.find(START, spans[spans.length - 1]![1])) {
      const i = o + START.length;
      const body = bodyTo(text, i, END);
      const fail = (p: ReturnType<typeof shape>) => {
        spans.push([o, text.length]);
        return match('olmo3', spans, calls, p);
      };
      if ('problem' in body) return fail(text.slice(i).trim() === '' ? truncated(`the text ends after ${START}`) : body.problem);
      const next = sc.find(START, i);
      if (next >= 0 && next < body.end) return fail(shape(`a block has no ${END}: the next ${START} comes first`));
      const got = readPythonCalls(text.slice(i, body.end), 'lines');
      if ('problem' in got) return fail(got.problem);
      calls.push(...got.calls);
      spans.push([o, body.end + END.length]);
    }
    return match('olmo3', spans, calls);
  },
};
