/**
 * LangChain's JSON-blob agents (the structured-chat agent and the chat ReAct JSON agent): the model
 * writes `Action:` and a fenced JSON blob `{"action": TOOL, "action_input": INPUT}`, one action
 * per blob, then stops for the agent's `Observation:`. The agent's output parser finds the blob
 * between ```` ``` ```` (optionally ```` ```json ````) and dispatches `action` with `action_input`; the
 * action `Final Answer` ends the run with `action_input` as the answer. The fence is the agent's
 * own grammar (as Command-R's), part of the block's span, never a Markdown quotation. A model told
 * to write this for one harness and read by another (Langchain-Chatchat's ChatGLM3 agent expects
 * ChatGLM's own calls) leaks it as text.
 *
 * Sources: langchain-ai/langchain `libs/langchain/langchain/agents/structured_chat/prompt.py`
 * (`FORMAT_INSTRUCTIONS`: "Use a json blob to specify a tool by providing an action key (tool name)
 * and an action_input key (tool input) … Action:\n```\n$JSON_BLOB\n```\nObservation: action
 * result") and `structured_chat/output_parser.py` (`StructuredChatOutputParser`, pattern
 * ```` ```(?:json\s+)?(\W.*?)``` ````), `agents/output_parsers/json.py` (`JSONAgentOutputParser`),
 * https://github.com/langchain-ai/langchain/tree/master/libs/langchain/langchain/agents (revision
 * not recorded). No model server ships a parser for it: it is an agent protocol.
 *
 * Readings: `action_input` an object → the call's arguments; a string (the agents allow one) or
 * another value → `bad_arguments` (guard recovers only JSON-object arguments); `Final Answer` and
 * any name the request did not advertise → `unadvertised`; an `Observation:` the model wrote after
 * the blob → the call is continued (`shape`: it made up the result); a blob with other keys, or
 * two blobs, → `shape` (the agents take one action per blob).
 */

import { jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner, skipWs } from '../scan.js';
import { callsFromList } from './call-lists.js';

const FENCE = '```';
const MARKERS = ['Action:\n```', 'Action: ```', 'Action:\r\n```'];

/** Where the content of the fence after the `Action:` at `at` starts: after ```` ``` ```` and an optional `json`. */
function fenceBody(text: string, at: number): number {
  const p = text.indexOf(FENCE, at) + FENCE.length;
  return text.startsWith('json', p) ? p + 4 : p;
}

/** True when the fence after the `Action:` at `at` opens a JSON object (a blob; Command-R writes a list there). */
function opensBlob(text: string, at: number): boolean {
  return text[skipWs(text, fenceBody(text, at))] === '{';
}

function firstAction(text: string, from: number): number {
  let best = -1;
  for (const m of MARKERS) {
    for (let at = text.indexOf(m, from); at >= 0; at = text.indexOf(m, at + m.length)) {
      if (best >= 0 && at >= best) break;
      if (opensBlob(text, at)) {
        best = at;
        break;
      }
    }
  }
  return best;
}

export const langchainJsonBlob: Family = {
  id: 'langchain-json-blob',
  source: 'LangChain structured-chat and chat ReAct JSON agents: https://github.com/langchain-ai/langchain/blob/master/libs/langchain/langchain/agents/structured_chat/prompt.py (FORMAT_INSTRUCTIONS), structured_chat/output_parser.py, agents/output_parsers/json.py (revision not recorded)',
  markers: MARKERS,
  results: ['\nObservation:'],
  detect: (text) => firstAction(text, 0),
  parse(text, from): FamilyMatch {
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const sc = new Scanner(text);
    const o = firstAction(text, from);
    const fail = (p: FamilyProblem) => {
      spans.push([o, text.length]);
      return match('langchain-json-blob', spans, calls, p);
    };
    // detect found a fence whose content opens an object (`json` may name its language)
    const j = jsonAt(text, fenceBody(text, o), 'action blob', { closer: FENCE });
    if (!j.ok) return fail(j.problem);
    const got = callsFromList(text, j, { name: 'action', args: 'action_input' }, 'array-or-object');
    if ('problem' in got) return fail(got.problem);
    const e = skipWs(text, j.end);
    if (e >= text.length) return fail(truncated('the text ends before the closing ```'));
    if (!sc.at(e, FENCE)) return fail(shape('text between the action blob and the closing ```'));
    if (text[e + FENCE.length] === '`') return fail(shape('the closing fence is longer than ```'));
    calls.push(...got.calls);
    const end = e + FENCE.length;
    spans.push([o, end]);
    // a second blob: the agents read one action per reply
    const next = firstAction(text, end);
    if (next >= 0) {
      spans.push([next, text.length]);
      return match('langchain-json-blob', spans, calls, shape('a second Action blob; the agents take one action per reply'));
    }
    return match('langchain-json-blob', spans, calls);
  },
};
