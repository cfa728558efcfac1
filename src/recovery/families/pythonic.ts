/**
 * Pythonic tool calls: `[func_name1(param1=value1, param2=value2), func_name2(...)]`, the whole
 * reply one Python list of calls with keyword arguments (Llama 3.2 and Llama 3.3 "zero shot function
 * calling", Llama 4's documented format, ToolACE, and any model given the same instruction, e.g.
 * Gemma 3), optionally followed by the end-of-turn token (`<|eot_id|>`, `<|eot|>`, `<|eom|>`). Llama 4
 * may wrap it in `<|python_start|>…<|python_end|>` (label `llama4-pythonic`; vLLM's
 * `llama4_pythonic` strips them); bare, the label is `pythonic`.
 * The bare list has no marker: it is read where a `[` opens `name(` (each `[` found with `indexOf`
 * and tested with one sticky regular expression, gated by the text holding both `[` and `(`), its
 * top level reads `name(…), name(…)` (a cheap scan), and the bracketed text parses as a list of calls
 * (./python.ts, the tree-sitter Python grammar); a list comprehension, a Markdown link or any other
 * bracket is not markup. Like bare JSON (./bare-json.ts), a list glued to other text is not read.
 * Values: Python literals only (./python.ts module header); keyword arguments only.
 * Primary sources: Meta's Llama 3.2 prompt format, "Zero shot function calling"
 * (https://github.com/meta-llama/llama-models/blob/57d9b434/models/llama3_2/text_prompt_format.md), the
 * Llama 4 prompt format (https://github.com/meta-llama/llama-models/blob/f3d16d73/models/llama4/prompt_format.md)
 * and Meta's reference parser models/llama3/tool_utils.py `is_valid_python_list` (llama-models @
 * a9c89c47: the whole message one list of calls, bare-name callees, keyword arguments,
 * `ast.literal_eval` values); confirmed by vLLM `pythonic` and `llama4_pythonic`
 * (pythonic_tool_parser.py, llama4_pythonic_tool_parser.py @ 055e47c2) and SGLang `pythonic`.
 */

import { match, shape, truncated, type Family, type FamilyCall, type FamilyMatch } from '../family.js';
import { skipWs } from '../scan.js';
import { bareEnd, bareStart } from './bare-json.js';
import { isPythonCallList, readPythonCalls, scanPython } from './python.js';

const START = '<|python_start|>';
const END = '<|python_end|>';
const TURN_END = ['<|eot_id|>', '<|eom_id|>', '<|eot|>', '<|eom|>'];

const isNameStart = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
const isNameChar = (c: number): boolean => isNameStart(c) || (c >= 0x30 && c <= 0x39);
const isBlank = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * Index just past the `(` when a name (dotted names allowed) and `(` follow from `i` (blanks
 * before the name, spaces or tabs before the parenthesis), else -1. Hand-written: it runs at every
 * `[` of every reply that holds one.
 */
function nameCallAt(text: string, i: number): number {
  while (i < text.length && isBlank(text.charCodeAt(i))) i++;
  for (;;) {
    if (!isNameStart(text.charCodeAt(i))) return -1;
    i++;
    while (isNameChar(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== 0x2e) break; // a dot joins names
    i++;
  }
  while (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09) i++;
  return text.charCodeAt(i) === 0x28 ? i + 1 : -1;
}

/** True when a pythonic list opens at `at` (`[name(`). */
export function opensList(text: string, at: number): boolean {
  return text.charCodeAt(at) === 0x5b && nameCallAt(text, at + 1) >= 0;
}

let memo: { text: string; found: number[]; from: number } | null = null;

/**
 * A cheap test before the parser: the complete list [at, end) reads `[name(…), name(…)]` at its top
 * level (each call's parentheses skipped with the Python-aware scan). A comprehension
 * (`[f(x) for x in xs]`), an index or any other list is turned away without parsing it.
 */
function looksLikeCalls(text: string, at: number, end: number): boolean {
  let i = at + 1;
  for (;;) {
    const open = nameCallAt(text, i);
    if (open < 0) return false;
    const call = scanPython(text, open - 1);
    if (!call.ok || call.end > end) return false;
    i = call.end;
    while (isBlank(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) === 0x5d) return i + 1 === end;
    if (text.charCodeAt(i) !== 0x2c) return false;
    i++;
  }
}

/**
 * The first bare pythonic list before `before`: a `[name(` that is not glued to other text, whose
 * bracket closes where a bare value may end and whose text parses as a list of calls, or that the
 * text ends inside (a cut list). Memoised for the last text.
 */
export function detectBareList(text: string, before: number): number {
  if (memo === null || memo.text !== text) {
    if (!text.includes('[') || !text.includes('(')) return -1; // the gate: `[name(`
    memo = { text, found: [], from: 0 };
  }
  const m = memo;
  const hit = m.found.find((at) => at < before);
  if (hit !== undefined) return hit;
  while (m.from < before) {
    const at = text.indexOf('[', m.from);
    if (at < 0) m.from = text.length;
    if (at < 0 || at >= before) return -1;
    m.from = at + 1;
    if (!opensList(text, at)) continue;
    if (!bareStart(text, at)) continue;
    const s = scanList(text, at);
    if (!s.ok) {
      if (s.cut) {
        m.found.push(at);
        m.from = text.length;
        return at;
      }
      continue;
    }
    m.from = s.end;
    if (!bareEnd(text, s.end) || !looksLikeCalls(text, at, s.end) || !isPythonCallList(text.slice(at, s.end))) continue;
    m.found.push(at);
    return at;
  }
  return -1;
}

let lastScan: { text: string; at: number; scan: ReturnType<typeof scanPython> } | null = null;

/** {@link scanPython} of the list at `at`, remembered for the last one (detection and parsing scan the same list). */
function scanList(text: string, at: number): ReturnType<typeof scanPython> {
  if (lastScan === null || lastScan.text !== text || lastScan.at !== at) lastScan = { text, at, scan: scanPython(text, at) };
  return lastScan.scan;
}

/** Reads the list at `at`: the calls, the list's end, or a problem. */
function readList(text: string, at: number): { calls: FamilyCall[]; end: number } | { problem: ReturnType<typeof shape> } {
  const s = scanList(text, at);
  if (!s.ok) return { problem: s.cut ? truncated('the text ends inside the call list') : shape('a bracket in the call list closes one of another kind') };
  const got = readPythonCalls(text.slice(at, s.end), 'list');
  if ('problem' in got) return got;
  return { calls: got.calls, end: s.end };
}

/** The end of an end-of-turn token right after `i` (whitespace allowed), or `i`. */
function turnEnd(text: string, i: number): number {
  const k = skipWs(text, i);
  const t = TURN_END.find((x) => text.startsWith(x, k));
  return t === undefined ? i : k + t.length;
}

export const pythonic: Family = {
  id: 'pythonic',
  source:
    'Meta Llama 3.2 prompt format, zero shot function calling (https://github.com/meta-llama/llama-models/blob/57d9b434/models/llama3_2/text_prompt_format.md); Llama 4 prompt format (https://github.com/meta-llama/llama-models/blob/f3d16d73/models/llama4/prompt_format.md); Meta tool_utils.py is_valid_python_list @ a9c89c47; vLLM pythonic_tool_parser.py, llama4_pythonic_tool_parser.py @ 055e47c2',
  markers: [START, END],
  detect(text) {
    for (let o = text.indexOf(START); o >= 0; o = text.indexOf(START, o + START.length)) {
      if (opensList(text, skipWs(text, o + START.length))) return o;
    }
    return -1;
  },
  detectBare: (text, before) => detectBareList(text, before),
  parse(text, from): FamilyMatch {
    if (text.startsWith(START, from)) {
      const at = skipWs(text, from + START.length);
      const got = readList(text, at);
      if ('problem' in got) return match('llama4-pythonic', [[from, text.length]], [], got.problem);
      const k = skipWs(text, got.end);
      if (!text.startsWith(END, k)) {
        const problem = k >= text.length ? truncated(`the text ends before ${END}`) : shape(`text between the call list and ${END}`);
        return match('llama4-pythonic', [[from, text.length]], got.calls, problem);
      }
      return match('llama4-pythonic', [[from, turnEnd(text, k + END.length)]], got.calls);
    }
    const got = readList(text, from);
    if ('problem' in got) return match('pythonic', [[from, text.length]], [], got.problem);
    return match('pythonic', [[from, turnEnd(text, got.end)]], got.calls);
  },
};
