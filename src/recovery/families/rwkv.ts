/**
 * RWKV-7 G1 (label `rwkv`): a bold label, then the call as one JSON object in a ```` ```json ````
 * fence, `**Tool Call:**\n```json\n{"name": NAME, "arguments": {…}}\n```` (the JSON pretty-printed or
 * on one line), after the reasoning's `</think>\n`; the harness then writes `### Tool Output` and the
 * result in another fence. The fence is the family's own grammar, part of the block (as Command-R's
 * `Action: ```json`), never a Markdown quotation: another fence around the block, a block quote,
 * inline code or prose above the ceiling still make it a quotation.
 *
 * Source: BlinkDL's trained templates, RWKV-7 G1-series (the model has no chat_template):
 * https://github.com/BlinkDL/RWKV-LM/blob/1671ab8d977a0ea0b067beda88639d9819d21178/RWKV-v7/RWKV7-G1x-templates.txt
 * ("Lots of function call formats were trained. Here are some samples": the `### Assistant` turns of
 * its tool-use sample write `</think>\n**Tool Call:**\n```json\n{\n  "name": …,\n  "arguments": {…}\n}\n```\n### Tool Output`).
 * Confirmed by vLLM's rwkv_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/04e47dbebc98b1069dbe78163aa7346e38a9e667/vllm/tool_parsers/rwkv_tool_parser.py:
 * `**Tool Call:**\s*```json … ```` blocks, `name` a string and `arguments` an object or a string
 * holding one). Stricter than vLLM: it falls back to Python literals (`ast.literal_eval`) and to a
 * bare ```` ```json ```` fence with no label, and rewrites some arguments (`filePath` to `path`);
 * guard reads JSON only (a Python-literal body is `bad_arguments`), never a fence without the label
 * (that stays a quotation), and the arguments exactly as written. The legacy `<tool_call>` line is
 * Hermes's (`hermes`).
 *
 * Readings: a body that is not one object with exactly `name` and `arguments` is `shape` (a list,
 * `parameters`, other keys); `### Tool Output` after a call is the model's made-up result (`shape`);
 * calls block after block, text between them `interleaved`.
 */

import { callsFromJsonCallValue, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner, skipWs } from '../scan.js';

const LABEL = '**Tool Call:**';
const FENCE = '```';
const OPEN_FENCE = '```json';

/** Where the JSON of the block whose label is at `at` starts, or -1 when no ```` ```json ```` line follows the label. */
function bodyAt(text: string, at: number): number {
  let i = at + LABEL.length;
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text[i] === '\r') i++;
  if (text[i] !== '\n') return -1;
  i++;
  if (!text.startsWith(OPEN_FENCE, i)) return -1;
  i += OPEN_FENCE.length;
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text[i] === '\r') i++;
  return text[i] === '\n' ? i + 1 : -1;
}

/** The block's opening as the template writes it, after the label. */
const OPENING = `\n${OPEN_FENCE}\n`;

/** True when the text ends within the opening after the label at `at` (a reply cut there). */
function cutInOpening(text: string, at: number): boolean {
  const rest = text.slice(at + LABEL.length);
  return rest.length < OPENING.length && OPENING.startsWith(rest);
}

/** The first label at or after `from` that opens a block (or ends the text inside its opening), or -1. Linear: one indexOf pass. */
function firstBlock(text: string, from: number): number {
  for (let at = text.indexOf(LABEL, from); at >= 0; at = text.indexOf(LABEL, at + LABEL.length)) if (bodyAt(text, at) >= 0 || cutInOpening(text, at)) return at;
  return -1;
}

/** Reads the block whose label is at `o`. */
function readBlock(sc: Scanner, o: number): { calls: FamilyCall[]; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  if (bodyAt(text, o) < 0) return { problem: truncated('the text ends inside the opening of the ```json fence') };
  const j = jsonAt(text, bodyAt(text, o), 'tool call JSON', { closer: FENCE });
  if (!j.ok) return { problem: j.problem };
  if (text[j.start] !== '{') return { problem: shape('the fence holds a JSON list, not one call object') };
  const got = callsFromJsonCallValue(text, j);
  if ('problem' in got) return { problem: got.problem };
  // JSON that parses must be one call object with exactly these keys (JSON that does not is `bad_arguments`)
  const keys = [...j.scan.members.keys()];
  if (!got.calls[0]?.nameUnread && (keys.length !== 2 || !keys.includes('name') || !keys.includes('arguments'))) {
    return { problem: shape('the call object must have exactly "name" and "arguments"') };
  }
  const e = skipWs(text, j.end);
  if (!sc.at(e, FENCE)) {
    if (e >= text.length || FENCE.startsWith(text.slice(e))) return { problem: truncated('the text ends before the closing ```') };
    return { problem: shape('text between the call JSON and the closing ```') };
  }
  if (text[e + FENCE.length] === '`') return { problem: shape('the closing fence is longer than ```') };
  return { calls: got.calls, end: e + FENCE.length };
}

export const rwkv: Family = {
  id: 'rwkv',
  source: 'RWKV-7 G1 trained templates (https://github.com/BlinkDL/RWKV-LM/blob/1671ab8d977a0ea0b067beda88639d9819d21178/RWKV-v7/RWKV7-G1x-templates.txt); vLLM rwkv_tool_parser.py @ 04e47dbe',
  // the label alone is common prose in documents and exports: a trigger, not a distinctive marker
  markers: [`${LABEL}\n${OPEN_FENCE}`],
  triggers: [LABEL],
  results: ['### Tool Output'],
  detect: (text) => firstBlock(text, 0),
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    for (let o = firstBlock(text, from); o >= 0; o = firstBlock(text, spans[spans.length - 1]![1])) {
      const r = readBlock(sc, o);
      if ('problem' in r) {
        spans.push([o, text.length]);
        // the label and the fence's opening line are the grammar's even when the call fails: no bold text, no Markdown fence
        return { ...match('rwkv', spans, calls, r.problem), grammarSpans: [[o, bodyAt(text, o) < 0 ? text.length : bodyAt(text, o)]] };
      }
      calls.push(...r.calls);
      spans.push([o, r.end]);
    }
    return match('rwkv', spans, calls);
  },
};
