/**
 * Cohere Command-R / Command-R+ (2024, the `tool_use` template):
 * `Action: ```json\n[{"tool_name": NAME, "parameters": ARGS}, …]\n```` (the closing fence often right
 * after the `]`), optionally after `Plan:` / `Reflection:` lines, the turn ended by
 * `<|END_OF_TURN_TOKEN|>`. The ```` ```json ```` fence is the family's own grammar, so it is part of the
 * block's span and never read as a Markdown quotation (as DeepSeek V3's fence). Source: the `tool_use`
 * chat template of CohereForAI/c4ai-command-r-plus and c4ai-command-r-v01
 * (https://huggingface.co/CohereForAI/c4ai-command-r-plus, tokenizer_config.json; HF revision not
 * recorded): "Write 'Action:' followed by a json-formatted list of actions … formatted as a list of
 * json objects" with "tool_name" and "parameters"; Ollama's port template/command-r.gotmpl @ 93a8daf2
 * renders history calls as `Action: ```json` + the list + ```` ``` ````. No server ships a parser for
 * it (llama.cpp reads it as Generic).
 *
 * `directly_answer` / `directly-answer` is the template's "no tool" pseudo-tool: like any name the
 * request did not advertise, it is refused `unadvertised`.
 */

import { jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner, skipWs } from '../scan.js';
import { callsFromList, optionalToken } from './call-lists.js';

const ACTION = 'Action:';
const FENCE = '```';
const MARKERS = ['Action: ```json', 'Action:\n```json'];

function firstAction(text: string, from: number): number {
  let best = -1;
  for (const m of MARKERS) {
    const at = text.indexOf(m, from);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}

export const commandR: Family = {
  id: 'command-r',
  source: 'Command-R / Command-R+ tool_use chat template (https://huggingface.co/CohereForAI/c4ai-command-r-plus, tokenizer_config.json; HF revision not recorded); Ollama template/command-r.gotmpl @ 93a8daf2',
  markers: MARKERS,
  detect: (text) => firstAction(text, 0),
  parse(text, from): FamilyMatch {
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const sc = new Scanner(text);
    let pos = from;
    for (let o = firstAction(text, pos); o >= 0; o = firstAction(text, pos)) {
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return match('command-r', spans, calls, p);
      };
      const f = skipWs(text, o + ACTION.length);
      const afterInfo = f + '```json'.length;
      if (afterInfo < text.length && text[afterInfo] !== '\n' && !(text[afterInfo] === '\r' && text[afterInfo + 1] === '\n') && text[afterInfo] !== '[') {
        return fail(shape('the ```json fence of the action list has more on its opening line'));
      }
      const j = jsonAt(text, afterInfo, 'action list', { closer: FENCE });
      if (!j.ok) return fail(j.problem);
      const got = callsFromList(text, j, { name: 'tool_name', args: 'parameters' });
      if ('problem' in got) return fail(got.problem);
      const e = skipWs(text, j.end);
      if (e >= text.length) return fail(truncated('the text ends before the closing ```'));
      if (!sc.at(e, FENCE)) return fail(shape('text between the action list and the closing ```'));
      if (text[e + FENCE.length] === '`') return fail(shape('the closing fence is longer than ```'));
      calls.push(...got.calls);
      pos = optionalToken(text, e + FENCE.length, ['<|END_OF_TURN_TOKEN|>']);
      spans.push([o, pos]);
    }
    return match('command-r', spans, calls);
  },
};
