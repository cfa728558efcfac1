/**
 * K2 Horizon (K2-v3, the "IFM" format; SGLang `k2_horizon`):
 * `<ifm|tool_calls>\n<ifm|tool_call>NAME\n<ifm|arg_key>K</ifm|arg_key>\n<ifm|arg_value>V</ifm|arg_value>\n</ifm|tool_call>\n</ifm|tool_calls>`,
 * GLM's key/value grammar with `ifm|` in every tag and one wrapper around the calls; a block may
 * also hold one JSON call object (`{"name", "arguments"}`) or a list of them.
 *
 * No primary source was read: the model's chat template (`tool_call_format` json / xml /
 * xml_typed) was not found, so the grammar is SGLang's parser's,
 * https://github.com/sgl-project/sglang/blob/8d9f80f674ddd2074950dfb608d31324561e5653/python/sglang/srt/function_call/k2_v3_detector.py
 * ("the canonical K2 Horizon (K2-v3) IFM format": wrapper, blocks, `_ARG_PATTERN`, JSON blocks,
 * `<ifm|think…>` reasoning). What is not settled without the template is refused, never guessed:
 * * a value written in double quotes (`<ifm|arg_value>"x y"</ifm|arg_value>`, seen in one
 *   third-party renderer) could be raw text or a JSON string: `bad_arguments`;
 * * the typed XML form (`<ifm|arg_type>T</ifm|arg_type>` between key and value) is `shape`;
 * * a call inside an `<ifm|think>` / `<ifm|think_fast>` / `<ifm|think_faster>` block (reasoning) is `shape`.
 * Other values are typed from the tool's schema as GLM's are (else kept as strings); nothing is
 * trimmed. Before this family the XML form passed as no markup at all.
 */

import { Scanner, skipWs } from '../scan.js';
import {
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

const GROUP = '<ifm|tool_calls>';
const END_GROUP = '</ifm|tool_calls>';
const OPENER = '<ifm|tool_call>';
const CLOSER = '</ifm|tool_call>';
const KEY = '<ifm|arg_key>';
const END_KEY = '</ifm|arg_key>';
const TYPE = '<ifm|arg_type>';
const VAL = '<ifm|arg_value>';
const END_VAL = '</ifm|arg_value>';
const THINK = '<ifm|think';
const END_THINK = '</ifm|think';
/** The prefixes of every IFM tag: a value holding one ran into another tag. */
const IFM_TAGS = ['<ifm|', '</ifm|'];

/** Reads one block at `o` (its opener): the calls and where it ends, or the first defect. */
function readBlock(sc: Scanner, o: number, ctx: Parameters<Family['parse']>[2]): { calls: FamilyCall[]; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  let k = o + OPENER.length;
  const body = skipWs(text, k);
  if (text[body] === '{' || text[body] === '[') {
    const j = jsonAt(text, body, 'tool call JSON', { closer: CLOSER, opener: OPENER });
    if (!j.ok) return j;
    const got = callsFromJsonCallValue(text, j);
    if ('problem' in got) return got;
    k = skipWs(text, j.end);
    if (k >= text.length) return { problem: truncated(`the text ends before ${CLOSER}`) };
    if (!sc.at(k, CLOSER)) return { problem: shape(`text after the tool call JSON before ${CLOSER}`) };
    return { calls: got.calls, end: k + CLOSER.length };
  }
  while (k < text.length && text[k] !== '\n' && text[k] !== '<') k++;
  if (k >= text.length) return { problem: truncated('the text ends inside the tool name') };
  const name = text.slice(o + OPENER.length, k);
  if (name.trim() === '') return { problem: shape('a tool call without a name') };
  const params: RawParameter[] = [];
  for (;;) {
    k = skipWs(text, k);
    if (k >= text.length) return { problem: truncated(`the text ends before ${CLOSER}`) };
    if (sc.at(k, CLOSER)) break;
    const key = taggedElement(sc, k, KEY, END_KEY, IFM_TAGS, 'holds another IFM tag');
    if ('problem' in key) return key;
    const v = skipWs(text, key.end);
    if (sc.at(v, TYPE)) return { problem: shape('the typed form (<ifm|arg_type>) is not read: no template says how its values are written') };
    const val = taggedElement(sc, v, VAL, END_VAL, IFM_TAGS, 'holds another IFM tag');
    if ('problem' in val) return val;
    const quoted = val.value.length >= 2 && val.value.startsWith('"') && val.value.endsWith('"');
    params.push({
      key: key.value,
      value: val.value,
      mode: 'schema',
      ...(quoted ? { error: `the value of "${key.value}" is in double quotes: raw text or a JSON string, no template says which` } : {}),
    });
    k = val.end;
  }
  return { calls: [callFromParameters(name, params, ctx)], end: k + CLOSER.length };
}

export const k2Horizon: Family = {
  id: 'k2-horizon',
  source: 'no template read; sglang k2_v3_detector.py (https://github.com/sgl-project/sglang/blob/8d9f80f674ddd2074950dfb608d31324561e5653/python/sglang/srt/function_call/k2_v3_detector.py)',
  markers: [GROUP, END_GROUP, OPENER, CLOSER, KEY, END_KEY, VAL, END_VAL, TYPE],
  // the template gives a tool's answer as a `tool` message
  results: ['<|ifm|im_start|>tool'],
  detect(text) {
    const g = text.indexOf(GROUP);
    const o = text.indexOf(OPENER);
    return g < 0 ? o : o < 0 ? g : Math.min(g, o);
  },
  parse(text, from, ctx): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const fail = (at: number, p: FamilyProblem) => {
      spans.push([at, text.length]);
      return match('k2-horizon', spans, calls, p);
    };
    // reasoning: a block opened before the markup and not closed there holds it
    if (text.lastIndexOf(THINK, from) > text.lastIndexOf(END_THINK, from)) return fail(from, shape('a call inside an <ifm|think> block (reasoning)'));
    let pos = from;
    for (;;) {
      const start = skipWs(text, pos);
      if (start >= text.length || (!sc.at(start, GROUP) && !sc.at(start, OPENER))) break;
      if (sc.at(start, GROUP)) {
        let k = start + GROUP.length;
        const before = calls.length;
        for (;;) {
          k = skipWs(text, k);
          if (k >= text.length) return fail(start, truncated(`the text ends before ${END_GROUP}`));
          if (sc.at(k, END_GROUP)) break;
          if (!sc.at(k, OPENER)) return fail(start, shape(`text inside ${GROUP} outside any ${OPENER}`));
          const r = readBlock(sc, k, ctx);
          if ('problem' in r) return fail(start, r.problem);
          calls.push(...r.calls);
          k = r.end;
        }
        if (calls.length === before) return fail(start, shape(`an empty ${GROUP}`));
        pos = k + END_GROUP.length;
      } else {
        const r = readBlock(sc, start, ctx);
        if ('problem' in r) return fail(start, r.problem);
        calls.push(...r.calls);
        pos = r.end;
      }
      spans.push([start, pos]);
    }
    if (spans.length === 0) return fail(from, shape('no readable K2 Horizon block'));
    return match('k2-horizon', spans, calls);
  },
};
