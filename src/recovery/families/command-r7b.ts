/**
 * Cohere Command-R7B, Command A and the Command 3/4 ("cmd3"/"cmd4") models:
 * `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": NAME, "parameters": ARGS}, …]<|END_ACTION|>`,
 * after an optional plan in `<|START_THINKING|>…<|END_THINKING|>`; text replies are written in
 * `<|START_RESPONSE|>…<|END_RESPONSE|>` (cmd3) or `<|START_TEXT|>…<|END_TEXT|>` (cmd4), the turn ended
 * by `<|END_OF_TURN_TOKEN|>`. Sources: the Command-R7B `tool_use` chat template (the model's
 * chat_template, copied in llama.cpp
 * https://github.com/ggml-org/llama.cpp/blob/041462bd55ae7be3ddfbd7a7356f01715740c50d/models/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja;
 * HF revision not recorded) and its system prompt ("write <|START_ACTION|> followed by a list of
 * JSON-formatted tool calls, with each one containing "tool_name" and "parameters" fields … close it
 * out with <|END_ACTION|>"); Cohere's own templates for Command 4, cohere-ai/melody @ 333ae6a5
 * (src/templating/templates/cmd4-v1.tmpl, parsing options cmd3()/cmd4()). Parsers that confirm it:
 * vLLM cohere_command_tool_parser.py @ ddb8929b (melody), Ollama model/parsers/cohere.go.
 *
 * The list is JSON (typed by the markup); an entry holds `tool_name`, `parameters` and optionally
 * `tool_call_id` (a string), nothing else. The template delimiters are markup whose bodies are prose;
 * a call inside the thinking block is `shape` (reasoning is never recovered).
 */

import { jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner, skipWs } from '../scan.js';
import { callsFromList, insideBlock, tokenSpans, withTokens } from './call-lists.js';

const START = '<|START_ACTION|>';
const END = '<|END_ACTION|>';
const THINK = ['<|START_THINKING|>', '<|END_THINKING|>'] as const;
const TOKENS = [...THINK, '<|START_RESPONSE|>', '<|END_RESPONSE|>', '<|START_TEXT|>', '<|END_TEXT|>', '<|END_OF_TURN_TOKEN|>'];

export const commandR7b: Family = {
  id: 'command-r7b',
  source: 'Command-R7B tool_use chat template (https://github.com/ggml-org/llama.cpp/blob/041462bd55ae7be3ddfbd7a7356f01715740c50d/models/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja); cohere-ai/melody @ 333ae6a5 cmd4-v1.tmpl; vLLM cohere_command_tool_parser.py @ ddb8929b; Ollama model/parsers/cohere.go',
  markers: [START, END],
  detect: (text) => text.indexOf(START),
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const tokens = tokenSpans(text, TOKENS);
    let pos = from;
    for (let o = sc.find(START, pos); o >= 0; o = sc.find(START, pos)) {
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return withTokens(match('command-r7b', spans, calls, p), tokens);
      };
      if (insideBlock(text, o, THINK[0], THINK[1])) return fail(shape('an action inside the thinking block (reasoning is never recovered)'));
      const j = jsonAt(text, o + START.length, 'action list', { closer: END, opener: START });
      if (!j.ok) return fail(j.problem);
      const got = callsFromList(text, j, { name: 'tool_name', args: 'parameters', extra: { tool_call_id: (v) => typeof v === 'string' } });
      if ('problem' in got) return fail(got.problem);
      const e = skipWs(text, j.end);
      if (e >= text.length) return fail(truncated(`the text ends before ${END}`));
      if (!sc.at(e, END)) return fail(shape(`text between the action list and ${END}`));
      calls.push(...got.calls);
      pos = e + END.length;
      spans.push([o, pos]);
    }
    return withTokens(match('command-r7b', spans, calls), tokens);
  },
};
