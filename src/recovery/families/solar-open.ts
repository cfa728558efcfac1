/**
 * Upstage Solar Open (Solar-Open-100B):
 * `<|tool_calls|><|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{…}<|tool_call:end|>…`,
 * optionally ended by `<|calls|>`, after `<|content|>TEXT<|end|><|begin|>assistant` when the model
 * wrote text first; and Solar Open 2:
 * `<|tool_call:start|>NAME\n<|tool_arg:start|>KEY<|tool_arg:value|>VALUE<|tool_arg:end|>\n<|tool_call:end|>`.
 * Sources: no Upstage chat template could be read (llama.cpp's
 * models/templates/upstage-Solar-Open-100B.jinja is referenced by third parties but was not in the
 * store); the token set is the one third-party parsers and tests agree on, and Solar Open 2's grammar
 * is the docstring of vLLM's solar_open2_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/25e2befb82dadac10437047e20e4e26d2648b138/vllm/tool_parsers/solar_open2_tool_parser.py).
 *
 * Solar Open's arguments are JSON (typed by the markup). Solar Open 2's values are raw text, typed
 * from the advertised schema as for the other XML families (strings raw, everything else JSON; no
 * template was read to say otherwise); a value is never trimmed. Stricter than vLLM: a call ends
 * only at `<|tool_call:end|>` (vLLM also ends it at the next call's start), an unclosed argument or
 * call is `truncated` (vLLM drops it), a duplicated argument is `shape` (vLLM keeps the first).
 */

import { callFromJsonText, callFromParameters, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem, type ParseContext, type RawParameter } from '../family.js';
import { Scanner, skipWs } from '../scan.js';
import { optionalToken, tokenSpans, withTokens } from './call-lists.js';

const SECTION = '<|tool_calls|>';
const BEGIN = '<|tool_call:begin|>';
const NAME = '<|tool_call:name|>';
const ARGS = '<|tool_call:args|>';
const END = '<|tool_call:end|>';
const START2 = '<|tool_call:start|>';
const ARG_START = '<|tool_arg:start|>';
const ARG_VALUE = '<|tool_arg:value|>';
const ARG_END = '<|tool_arg:end|>';
const TOKENS = ['<|content|>', '<|end|>', '<|begin|>assistant', '<|think|>', '<|flush|>'];
const ID = /^[A-Za-z0-9_-]+$/;
const TOOL_NAME = /^[^\s<>]+$/;

function first(sc: Scanner, from: number, tokens: readonly string[]): number {
  let best = -1;
  for (const t of tokens) {
    const at = sc.find(t, from);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}

/** The text from `i` to `token`, or a problem: the text ends first (`truncated`), or another tag of the dialect comes first (`shape`). */
function upTo(sc: Scanner, i: number, token: string, what: string): { value: string; end: number } | { problem: FamilyProblem } {
  const e = sc.find(token, i);
  const tag = first(sc, i, ['<|tool_call:', '<|tool_arg:', SECTION]);
  if (tag >= 0 && (e < 0 || tag < e)) return { problem: shape(`${what} runs into another tag before ${token}`) };
  if (e < 0) return { problem: truncated(`the text ends before ${token}`) };
  return { value: sc.text.slice(i, e), end: e + token.length };
}

function readCall1(sc: Scanner, b: number): { call: FamilyCall; end: number } | { problem: FamilyProblem } {
  const id = upTo(sc, b + BEGIN.length, NAME, 'the call id');
  if ('problem' in id) return id;
  if (!ID.test(id.value)) return { problem: shape('a malformed call id') };
  const name = upTo(sc, id.end, ARGS, 'the tool name');
  if ('problem' in name) return name;
  if (!TOOL_NAME.test(name.value)) return { problem: shape('a malformed tool name') };
  const j = jsonAt(sc.text, name.end, 'arguments', { closer: END, opener: BEGIN });
  if (!j.ok) return j;
  const k = skipWs(sc.text, j.end);
  if (k >= sc.text.length) return { problem: truncated(`the text ends before ${END}`) };
  if (!sc.at(k, END)) return { problem: shape(`text after the arguments before ${END}`) };
  return { call: callFromJsonText(name.value, sc.text.slice(j.start, j.end)), end: k + END.length };
}

function readCall2(sc: Scanner, s: number, ctx: ParseContext): { call: FamilyCall; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  const nl = text.indexOf('\n', s);
  const tag = first(sc, s + START2.length, ['<|tool_call:', '<|tool_arg:']);
  if (nl < 0 && tag < 0) return { problem: truncated('the text ends inside the tool name') };
  const nameEnd = nl >= 0 && (tag < 0 || nl < tag) ? nl : tag;
  const name = text.slice(s + START2.length, nameEnd);
  if (!TOOL_NAME.test(name)) return { problem: shape('a malformed tool name') };
  const params: RawParameter[] = [];
  let i = nameEnd;
  for (;;) {
    i = skipWs(text, i);
    if (i >= text.length) return { problem: truncated(`the text ends before ${END}`) };
    if (sc.at(i, END)) return { call: callFromParameters(name, params, ctx), end: i + END.length };
    if (!sc.at(i, ARG_START)) return { problem: shape('text inside a call outside any argument') };
    const key = upTo(sc, i + ARG_START.length, ARG_VALUE, 'an argument name');
    if ('problem' in key) return key;
    const value = upTo(sc, key.end, ARG_END, `argument "${key.value.slice(0, 40)}"`);
    if ('problem' in value) return value;
    params.push({ key: key.value, value: value.value, mode: 'schema' });
    i = value.end;
  }
}

export const solarOpen: Family = {
  id: 'solar-open',
  source: 'vLLM solar_open2_tool_parser.py (https://github.com/vllm-project/vllm/blob/25e2befb82dadac10437047e20e4e26d2648b138/vllm/tool_parsers/solar_open2_tool_parser.py); Solar Open token set from third-party parsers (no Upstage chat template could be read)',
  markers: [SECTION, BEGIN, NAME, ARGS, END, START2, ARG_START, ARG_VALUE, ARG_END],
  detect: (text) => first(new Scanner(text), 0, [SECTION, BEGIN, START2]),
  parse(text, from, ctx): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const tokens = tokenSpans(text, TOKENS);
    let label = sc.at(from, START2) ? 'solar-open2' : 'solar-open';
    let pos = from;
    for (let o = first(sc, pos, [SECTION, BEGIN, START2]); o >= 0; o = first(sc, pos, [SECTION, BEGIN, START2])) {
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return withTokens(match(label, spans, calls, p), tokens);
      };
      let i = sc.at(o, SECTION) ? skipWs(text, o + SECTION.length) : o;
      if (i >= text.length) return fail(truncated(`the text ends after ${SECTION}`));
      let n = 0;
      for (;;) {
        const r = sc.at(i, BEGIN) ? readCall1(sc, i) : sc.at(i, START2) ? readCall2(sc, i, ctx) : null;
        if (r === null) break;
        if (calls.length === 0 && n === 0) label = sc.at(i, START2) ? 'solar-open2' : 'solar-open';
        if ('problem' in r) return fail(r.problem);
        calls.push(r.call);
        n++;
        i = r.end;
        const k = skipWs(text, i);
        if (!sc.at(k, BEGIN) && !sc.at(k, START2)) break;
        i = k;
      }
      if (n === 0) {
        const rest = text.slice(i);
        return fail(BEGIN.startsWith(rest) || START2.startsWith(rest) ? truncated(`the text ends after ${SECTION}`) : shape(`${SECTION} is not followed by a call`));
      }
      pos = optionalToken(text, i, ['<|calls|>']);
      spans.push([o, pos]);
    }
    return withTokens(match(label, spans, calls), tokens);
  },
};
