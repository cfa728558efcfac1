/**
 * InternLM2 / InternLM2.5 / InternLM3 and Intern-S1:
 * `<|action_start|><|plugin|>\n{"name": NAME, "parameters": ARGS}<|action_end|>`, one call per action
 * block (Intern-S1 writes several blocks), text before it normal, the turn ended by `<|im_end|>`.
 * Source: InternLM's chat format (https://github.com/InternLM/InternLM/blob/fe4c2eb273c61886d335524d4895a55331bb171b/chat/chat_format.md):
 * "the model will output `<|action_start|><|plugin|>` … the calling parameters in json format and
 * end it with `<|action_end|>`"; parsers that confirm it: vLLM internlm2_tool_parser.py @ a448ca86
 * and intern_s1_tool_parser.py @ b8c8d670, sglang internlm_detector.py. `arguments` is accepted for
 * `parameters` (both parsers do). Whitespace between `<|action_start|>` and `<|plugin|>` is allowed
 * (sglang writes a space). A `<|interpreter|>` action is code for the code interpreter, not a function
 * call: `shape`, never recovered.
 */

import { callsFromJsonCallValue, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner, skipWs } from '../scan.js';
import { tokenSpans, withTokens } from './call-lists.js';

const START = '<|action_start|>';
const END = '<|action_end|>';
const PLUGIN = '<|plugin|>';
const INTERPRETER = '<|interpreter|>';

export const internlm: Family = {
  id: 'internlm',
  source: 'InternLM chat format (https://github.com/InternLM/InternLM/blob/fe4c2eb273c61886d335524d4895a55331bb171b/chat/chat_format.md); vLLM internlm2_tool_parser.py @ a448ca86, intern_s1_tool_parser.py @ b8c8d670; sglang internlm_detector.py',
  markers: [START, END, PLUGIN, INTERPRETER],
  detect: (text) => text.indexOf(START),
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const tokens = tokenSpans(text, ['<|im_end|>']);
    let pos = from;
    for (let o = sc.find(START, pos); o >= 0; o = sc.find(START, pos)) {
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return withTokens(match('internlm', spans, calls, p), tokens);
      };
      const k = skipWs(text, o + START.length);
      if (sc.at(k, INTERPRETER)) return fail(shape('a code-interpreter action (code to run, not a function call)'));
      if (!sc.at(k, PLUGIN)) return fail(PLUGIN.startsWith(text.slice(k)) ? truncated(`the text ends before ${PLUGIN}`) : shape(`${START} is not followed by ${PLUGIN}`));
      const j = jsonAt(text, k + PLUGIN.length, 'tool call JSON', { closer: END, opener: START });
      if (!j.ok) return fail(j.problem);
      const got = callsFromJsonCallValue(text, j);
      if ('problem' in got) return fail(got.problem);
      const e = skipWs(text, j.end);
      if (e >= text.length) return fail(truncated(`the text ends before ${END}`));
      if (!sc.at(e, END)) return fail(sc.at(e, START) ? shape(`a block has no ${END}: the next ${START} follows its JSON`) : shape(`text between the call JSON and ${END}`));
      calls.push(...got.calls);
      pos = e + END.length;
      spans.push([o, pos]);
    }
    return withTokens(match('internlm', spans, calls), tokens);
  },
};
