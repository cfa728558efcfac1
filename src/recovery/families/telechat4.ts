/**
 * TeleChat4 (China Telecom; TensorRT-LLM also ships the same grammar for Xing 4.0 and XingChen 4):
 * `<tool_call>NAME<param_key>K</param_key><param_value>V</param_value></tool_call>` per call,
 * blocks back to back; a block may instead hold the name followed by one JSON arguments object
 * (`<tool_call>NAME{"k": "v"}</tool_call>`) or one JSON call object (`{"name", "arguments"}`,
 * Hermes's body, which `hermes` reads first when the reply has no other TeleChat4 block).
 *
 * No primary source was read: no TeleChat4 chat template or model card was found (Tele-AI's
 * TeleChat2/TeleChat3 repositories document no tool-call format), so the grammar is the server
 * parsers':
 * https://github.com/NVIDIA/TensorRT-LLM/blob/bee322d6d36348b78ed23709f45a055150ae6a63/tensorrt_llm/serve/tool_parser/telechat4_parser.py
 * (`TOOL_CALL_REGEX`, `PARAM_REGEX`, `_split_payload`), and the same grammar in
 * `xing4_0_parser.py` @ 1b03b640 and `xingchen4_parser.py` @ ee771825 of the same directory.
 * What those parsers do leniently is not followed, it is refused:
 * * they strip every value and JSON-decode (or Python-`literal_eval`) a value whose schema type is
 *   not `string`; here values are typed from the tool's schema exactly as GLM's are (a string
 *   keeps its text, anything else must parse as its type, `bad_arguments` otherwise), nothing is
 *   trimmed, and without a schema a value stays a string;
 * * they find the name by matching the advertised names against the payload's start; here the
 *   name runs to the first `<`, `{` or whitespace, and whitespace inside it or text between it
 *   and its arguments is `shape`;
 * * they read the `arguments`/`parameters` member of a JSON object after the name as the
 *   arguments; here the object after the name is the arguments, as written.
 */

import { Scanner, skipWs } from '../scan.js';
import {
  callFromJsonText,
  callFromParameters,
  callsFromJsonCallValue,
  jsonAt,
  match,
  shape,
  taggedElement,
  truncated,
  type Family,
  type FamilyCall,
  type FamilyMatch,
  type FamilyProblem,
  type RawParameter,
} from '../family.js';

const OPENER = '<tool_call>';
const CLOSER = '</tool_call>';
const KEY = '<param_key>';
const END_KEY = '</param_key>';
const VAL = '<param_value>';
const END_VAL = '</param_value>';
const NAME_CHAR = /[\p{L}\p{N}_.-]/u;
const TAGS = [KEY, END_KEY, VAL, END_VAL, OPENER, CLOSER];

/** True when the block at `o` (its opener) starts as only TeleChat4 writes one: a name, then `{` or `<param_key>`. */
function isTelechatBlock(text: string, o: number): boolean {
  // an opener right after a `"` is inside a JSON string (`{"<tool_call>0{": …}` as a key of
  // another dialect's arguments: a property-test counterexample labelled telechat4)
  if (o > 0 && text[o - 1] === '"') return false;
  // whitespace before the name is not the grammar, but the block is still recognisably TeleChat4's (parse refuses it)
  let k = skipWs(text, o + OPENER.length);
  const name = k;
  // a name as tools are named (letters, digits, `_`, `-`, `.`): `<tool_call>` inside a JSON string
  // of another dialect's block (`{"<tool_call>":[{…}]}`) is no TeleChat4 block
  while (k < text.length && NAME_CHAR.test(text[k]!)) k++;
  if (k === name) return false;
  k = skipWs(text, k);
  return text[k] === '{' || text.startsWith(KEY, k);
}

/** Reads the block whose opener is at `o`: its calls and where it ends, or the first defect. */
function readBlock(sc: Scanner, o: number, ctx: Parameters<Family['parse']>[2]): { calls: FamilyCall[]; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  const body = skipWs(text, o + OPENER.length);
  if (body >= text.length) return { problem: truncated(`the text ends before ${CLOSER}`) };
  if (text[body] === '{' || text[body] === '[') {
    const j = jsonAt(text, body, 'tool call JSON', { closer: CLOSER, opener: OPENER });
    if (!j.ok) return j;
    const got = callsFromJsonCallValue(text, j);
    if ('problem' in got) return got;
    return close(sc, j.end, got.calls);
  }
  let k = o + OPENER.length;
  if (k !== body) return { problem: shape('whitespace before the tool name') };
  while (k < text.length && !'<{ \t\r\n'.includes(text[k]!)) k++;
  if (k >= text.length) return { problem: truncated('the text ends inside the tool name') };
  const name = text.slice(o + OPENER.length, k);
  const next = skipWs(text, k);
  if (next >= text.length) return { problem: truncated(`the text ends before ${CLOSER}`) };
  if (text[next] === '{') {
    const j = jsonAt(text, next, 'arguments JSON', { closer: CLOSER, opener: OPENER });
    if (!j.ok) return j;
    return close(sc, j.end, [callFromJsonText(name, text.slice(j.start, j.end))]);
  }
  const params: RawParameter[] = [];
  for (k = next; ; ) {
    if (k >= text.length) return { problem: truncated(`the text ends before ${CLOSER}`) };
    if (sc.at(k, CLOSER)) break;
    const key = taggedElement(sc, k, KEY, END_KEY, TAGS, 'runs into another tag');
    if ('problem' in key) return key;
    const val = taggedElement(sc, skipWs(text, key.end), VAL, END_VAL, TAGS, 'runs into another tag');
    if ('problem' in val) return val;
    params.push({ key: key.value, value: val.value, mode: 'schema' });
    k = skipWs(text, val.end);
  }
  return { calls: [callFromParameters(name, params, ctx)], end: k + CLOSER.length };
}

/** The block's closer after its JSON (whitespace between): the block's end, or the defect. */
function close(sc: Scanner, after: number, calls: FamilyCall[]): { calls: FamilyCall[]; end: number } | { problem: FamilyProblem } {
  const k = skipWs(sc.text, after);
  if (k >= sc.text.length) return { problem: truncated(`the text ends before ${CLOSER}`) };
  if (!sc.at(k, CLOSER)) return { problem: shape(`text after the JSON before ${CLOSER}`) };
  return { calls, end: k + CLOSER.length };
}

export const telechat4: Family = {
  id: 'telechat4',
  source:
    'no template read; TensorRT-LLM telechat4_parser.py (https://github.com/NVIDIA/TensorRT-LLM/blob/bee322d6d36348b78ed23709f45a055150ae6a63/tensorrt_llm/serve/tool_parser/telechat4_parser.py), xing4_0_parser.py, xingchen4_parser.py',
  markers: [KEY, END_KEY, VAL, END_VAL],
  // `<tool_call>` opens Hermes, GLM, Step-Audio 2 and other blocks too: the text is TeleChat4's only
  // when some block has its shape (a name, then `{` or `<param_key>`), and then its markup starts at
  // the first opener, so a Hermes JSON block before it is read as one of its blocks
  detect(text) {
    for (let o = text.indexOf(OPENER); o >= 0; o = text.indexOf(OPENER, o + OPENER.length)) if (isTelechatBlock(text, o)) return text.indexOf(OPENER);
    return -1;
  },
  parse(text, from, ctx): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    // every block of the reply, with whatever stands between them (prose between calls is judged
    // by the engine: interleaved)
    for (let start = sc.find(OPENER, from); start >= 0; start = sc.find(OPENER, spans[spans.length - 1]![1])) {
      const r = readBlock(sc, start, ctx);
      if ('problem' in r) {
        spans.push([start, text.length]);
        return match('telechat4', spans, calls, r.problem);
      }
      calls.push(...r.calls);
      spans.push([start, r.end]);
    }
    if (spans.length === 0) return match('telechat4', [[from, text.length]], calls, shape('no readable TeleChat4 block'));
    return match('telechat4', spans, calls);
  },
};
