/**
 * OpenBMB MiniCPM.
 *
 * MiniCPM3 / MiniCPM4 (label `minicpm4`): Python-style calls, one per line, in a ```` ```python ````
 * fence between special tokens, after an optional thought:
 * `<|thought_start|>\n…\n<|thought_end|>\n<|tool_call_start|>\n```python\nget_weather(city="Wuhan",days=3)\n```\n<|tool_call_end|>`,
 * text may follow. The fence is the family's own grammar (part of the block). Source: OpenBMB's
 * chat template with tools
 * (https://github.com/OpenBMB/MiniCPM/blob/de20166b6357abb3338ac6b5d1521dcf4edb14dd/demo/minicpm3/function_call/minicpm_chat_template_with_tool.jinja):
 * `tool_call.name + '('`, each argument `param_name + '=' + param_value|tojson` joined by `,`, then
 * `')\n'`. So every value is JSON (typed by the markup); a keyword value that is not JSON (a Python
 * `True`, a `'quoted'` string, a name or an expression) is `bad_arguments`, never evaluated; a
 * positional argument is `bad_arguments`. The MiniCPM4 MCP demo (demo/minicpm4/MCP/README_en.md @
 * 8255047e) shows the same output.
 *
 * MiniCPM5 (label `minicpm5`): `<function name="N"><param name="K">V</param>…</function>`. Source: no
 * MiniCPM5 chat template could be read; the grammar is OpenBMB's minicpm5xml_tool_parser.py
 * (tool_parsers/ in OpenBMB/MiniCPM @ e618b095, identical in vLLM:
 * https://github.com/vllm-project/vllm/blob/055e47c28003156421365af985d676fc921cb075/vllm/frontend/processing/tool_parsers/minicpm5xml_tool_parser.py).
 * Values are raw text typed from the schema (strings raw, everything else JSON), never trimmed; a
 * value that is one `<![CDATA[…]]>` section is its content. That parser reads values with an XML
 * parser first, so a value holding a tag or an entity reference (`&amp;`) reads differently there
 * (an entity: `bad_arguments`; a tag, as any other tag of the dialect: `shape`). Attributes must be
 * double-quoted. A call inside a thought is `shape`.
 *
 * MiniCPM-V (label `minicpmv`): Qwen3's Hermes blocks with the newlines left as the characters `\`
 * `n` by its tokenizer (`<tool_call>\n{…}\n</tool_call>`), always refused: ./minicpmv.ts. When a
 * text holds both, the dialect that starts first is read.
 */

import { callFromJsonText, callFromParameters, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem, type ParseContext, type RawParameter } from '../family.js';
import { Scanner, scanJson, skipWs } from '../scan.js';
import { insideBlock, tokenSpans, withTokens } from './call-lists.js';
import { detectUndecoded, parseUndecoded, UNDECODED_HEAD } from './minicpmv.js';
import { readAttributes } from './xml.js';

const START = '<|tool_call_start|>';
const END = '<|tool_call_end|>';
const FENCE_OPEN = '```python';
const MARKERS4 = [`${START}\n${FENCE_OPEN}`, `${START}${FENCE_OPEN}`];
const FN5 = '<function name=';
const THINK = ['<|thought_start|>', '<|thought_end|>'] as const;
const TOKENS = [...THINK, '<|im_end|>'];
const CALL_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const XML_TAG = /<[A-Za-z/!?]/;
const XML_ENTITY = /&(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);/;

function first(text: string, from: number, tokens: readonly string[]): number {
  let best = -1;
  for (const t of tokens) {
    const at = text.indexOf(t, from);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}

/** The index of the closing quote of the JSON string opened at `q`, or -1 when it does not close before `limit`. */
function stringEnd(text: string, q: number, limit: number): number {
  for (let k = q + 1; k < limit; k++) {
    if (text[k] === '\\') k++;
    else if (text[k] === '"') return k;
  }
  return -1;
}

/** The end of the argument value at `j` (JSON extent, or a bare word up to `,`/`)`), or a problem. */
function valueEnd(text: string, j: number, lineEnd: number): number | FamilyProblem {
  const c = text[j];
  if (c === '{' || c === '[') {
    const s = scanJson(text, j);
    if (s.end < 0) return truncated('the text ends inside an argument');
    return s.end > lineEnd ? shape('an argument runs past its line') : s.end;
  }
  if (c === '"') {
    const q = stringEnd(text, j, lineEnd);
    if (q < 0) return lineEnd >= text.length ? truncated('the text ends inside a string') : shape('a string runs past its line');
    return q + 1;
  }
  let e = j;
  let depth = 0;
  for (; e < lineEnd; e++) {
    const ch = text[e];
    if (ch === '"') {
      const q = stringEnd(text, e, lineEnd);
      if (q < 0) return lineEnd >= text.length ? truncated('the text ends inside a string') : shape('a string runs past its line');
      e = q;
    } else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if ((ch === ')' || ch === ']' || ch === '}') && depth > 0) depth--;
    else if ((ch === ',' || ch === ')') && depth === 0) break;
  }
  while (e > j && text[e - 1] === ' ') e--;
  return e;
}

/** One `name(k=JSON,…)` line; `i` at its first character, `lineEnd` its end. */
function readPyCall(text: string, i: number, lineEnd: number): { call: FamilyCall } | { problem: FamilyProblem } {
  const paren = text.indexOf('(', i);
  if (paren < 0 || paren >= lineEnd) return { problem: lineEnd >= text.length ? truncated('the text ends inside the call') : shape('a line of the call block that is not NAME(…)') };
  const name = text.slice(i, paren);
  if (!CALL_NAME.test(name)) return { problem: shape('a call without a usable tool name') };
  const members: string[] = [];
  let error: string | null = null;
  const cut = (what: string): { problem: FamilyProblem } => ({ problem: lineEnd >= text.length ? truncated(`the text ends ${what}`) : shape(`a call not closed by ")" on its line`) });
  let j = paren + 1;
  while (text[j] === ' ') j++;
  if (j >= lineEnd) return cut('inside the call');
  if (text[j] !== ')') {
    for (;;) {
      const key = KEYWORD.exec(text.slice(j, Math.min(lineEnd, j + 200)));
      const from = key === null ? j : j + key[0].length;
      const e = valueEnd(text, from, lineEnd);
      if (typeof e !== 'number') return { problem: e };
      const raw = text.slice(from, e);
      if (key === null) error ??= 'a positional argument (the template writes every argument as NAME=VALUE)';
      else if (isJson(raw)) members.push(`${JSON.stringify(key[1])}:${raw}`);
      else error ??= `the value of "${key[1]}" is not JSON (the template writes every value with |tojson)`;
      j = e;
      while (text[j] === ' ') j++;
      if (j >= lineEnd) return cut('inside the call');
      if (text[j] === ')') break;
      if (text[j] !== ',') return { problem: shape('arguments not separated by ","') };
      j++;
      while (text[j] === ' ') j++;
    }
  }
  if (text.slice(j + 1, lineEnd).trim() !== '') return { problem: shape('text after a call on its line') };
  if (error !== null) return { call: { name, argumentsRaw: text.slice(paren + 1, j), arguments: null, argumentsError: error } };
  return { call: callFromJsonText(name, `{${members.join(',')}}`) };
}

const KEYWORD = /^([A-Za-z_][A-Za-z0-9_]*)=/;

function isJson(raw: string): boolean {
  if (raw === '') return false;
  try {
    JSON.parse(raw);
    return true;
  } catch {
    return false;
  }
}

function readBlock4(sc: Scanner, o: number): { calls: FamilyCall[]; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  let i = skipWs(text, o + START.length);
  i += FENCE_OPEN.length;
  if (text[i] === '\r') i++;
  if (i >= text.length) return { problem: truncated('the text ends after ```python') };
  if (text[i] !== '\n') return { problem: shape('more on the ```python line') };
  i++;
  const calls: FamilyCall[] = [];
  for (;;) {
    if (i >= text.length) return { problem: truncated('the text ends before the closing ```') };
    let nl = text.indexOf('\n', i);
    if (nl < 0) nl = text.length;
    const line = text.slice(i, nl);
    if (line.startsWith('```')) {
      if (line.trim() !== '```') return { problem: shape('a malformed closing fence') };
      break;
    }
    if (line.trim() !== '') {
      if (nl >= text.length && '```'.startsWith(line)) return { problem: truncated('the text ends inside the closing ```') };
      const r = readPyCall(text, i, nl);
      if ('problem' in r) return r;
      calls.push(r.call);
    }
    i = nl + 1;
  }
  const fenceEnd = i + 3;
  const k = skipWs(text, fenceEnd);
  if (k >= text.length) return { problem: truncated(`the text ends before ${END}`) };
  if (!sc.at(k, END)) return { problem: END.startsWith(text.slice(k)) ? truncated(`the text ends inside ${END}`) : shape(`text after the closing fence before ${END}`) };
  if (calls.length === 0) return { problem: shape('an empty call block') };
  return { calls, end: k + END.length };
}

function readFunction5(sc: Scanner, o: number, ctx: ParseContext): { call: FamilyCall; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  const a = readAttributes(text, o + '<function'.length);
  if ('problem' in a) return a;
  const name = a.attrs.get('name');
  if (name === undefined || a.attrs.size !== 1 || a.selfClosing) return { problem: shape('a function without exactly one name attribute') };
  const params: RawParameter[] = [];
  let k = a.end;
  for (;;) {
    k = skipWs(text, k);
    if (k >= text.length) return { problem: truncated('the text ends before </function>') };
    if (sc.at(k, '</function>')) return { call: callFromParameters(name, params, ctx), end: k + '</function>'.length };
    if (text[k] === '{') return { problem: shape('a JSON body where MiniCPM 5 writes <param> elements') };
    if (!sc.at(k, '<param')) return { problem: '<param'.startsWith(text.slice(k)) || '</function>'.startsWith(text.slice(k)) ? truncated('the text ends inside a tag') : shape('text inside a function outside any param') };
    const p = readAttributes(text, k + '<param'.length);
    if ('problem' in p) return p;
    const key = p.attrs.get('name');
    if (key === undefined || p.attrs.size !== 1 || p.selfClosing) return { problem: shape('a param without exactly one name attribute') };
    const e = sc.find('</param>', p.end);
    const raw = text.slice(p.end, e < 0 ? text.length : e);
    const cdata = raw.startsWith('<![CDATA[') && raw.endsWith(']]>') && raw.indexOf(']]>') === raw.length - 3;
    const value = cdata ? raw.slice(9, -3) : raw;
    if (!cdata && ['<param', '</param', '<function', '</function'].some((t) => raw.includes(t))) return { problem: shape(`param "${key.slice(0, 40)}" holds another tag of the dialect (nested or forged closer)`) };
    if (e < 0) return { problem: truncated('the text ends before </param>') };
    if (!cdata && XML_TAG.test(raw)) return { problem: shape(`param "${key.slice(0, 40)}" holds a tag, which an XML reader takes for an element`) };
    params.push(!cdata && XML_ENTITY.test(raw) ? { key, value, mode: 'schema', error: `param "${key}" holds an entity reference, which an XML reader decodes` } : { key, value, mode: 'schema' });
    k = e + '</param>'.length;
  }
}

export const minicpm: Family = {
  id: 'minicpm',
  source: 'MiniCPM3/4 chat template with tools (https://github.com/OpenBMB/MiniCPM/blob/de20166b6357abb3338ac6b5d1521dcf4edb14dd/demo/minicpm3/function_call/minicpm_chat_template_with_tool.jinja); MiniCPM5: minicpm5xml_tool_parser.py (https://github.com/vllm-project/vllm/blob/055e47c28003156421365af985d676fc921cb075/vllm/frontend/processing/tool_parsers/minicpm5xml_tool_parser.py, also OpenBMB/MiniCPM tool_parsers/ @ e618b095); MiniCPM-V undecoded newlines: vLLM vllm/parser/minicpmv.py @ 030dd7a6',
  // `<|tool_call_start|>` is LFM2's opener too: a marker here (a stray one is MiniCPM's when no
  // family reads the text), while `detect` claims it only before a ```python fence.
  markers: [START, FN5, UNDECODED_HEAD],
  detect(text) {
    const a = first(text, 0, [...MARKERS4, FN5]);
    const v = text.includes(UNDECODED_HEAD) ? detectUndecoded(text) : -1;
    return a < 0 ? v : v < 0 ? a : Math.min(a, v);
  },
  parse(text, from, ctx): FamilyMatch {
    if (text.startsWith(UNDECODED_HEAD, from)) return parseUndecoded(text, from);
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const tokens = tokenSpans(text, TOKENS);
    let label = sc.at(from, FN5) ? 'minicpm5' : 'minicpm4';
    let pos = from;
    for (let o = first(text, pos, [...MARKERS4, FN5]); o >= 0; o = first(text, pos, [...MARKERS4, FN5])) {
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return withTokens(match(label, spans, calls, p), tokens);
      };
      if (calls.length === 0) label = sc.at(o, FN5) ? 'minicpm5' : 'minicpm4';
      if (insideBlock(text, o, THINK[0], THINK[1])) return fail(shape('a call inside the thought (reasoning is never recovered)'));
      const r = sc.at(o, FN5) ? readFunction5(sc, o, ctx) : readBlock4(sc, o);
      if ('problem' in r) return fail(r.problem);
      if ('call' in r) calls.push(r.call);
      else calls.push(...r.calls);
      pos = r.end;
      spans.push([o, pos]);
    }
    return withTokens(match(label, spans, calls), tokens);
  },
};
