/**
 * Shared reader for the `invoke`/`parameter` element grammars: DeepSeek DSML
 * (`<｜DSML｜invoke name="N"><｜DSML｜parameter name="K" string="true">V</｜DSML｜parameter>`) and
 * MiniMax-M2 (`<invoke name="N"><parameter name="K">V</parameter>`). Not a family itself.
 *
 * Strictness (fail closed, after sglang's deepseekv4_detector.py and the review in
 * https://github.com/MetaFARS/codex-relay/issues/51; docs/sources.md "Fail-closed parsing"):
 * attributes need whitespace between them and ASCII double quotes; a value may not contain the
 * start of another tag of the same dialect (a forged or nested closer); only whitespace may sit
 * between elements; every element must be closed. Parameter scans stay inside their own invoke
 * (kittors/deepseek-web-api#11).
 */

import { Scanner, skipWs } from '../scan.js';
import {
  callFromJsonText,
  callFromParameters,
  shape,
  jsonAt,
  match,
  truncated,
  type FamilyCall,
  type FamilyMatch,
  type FamilyProblem,
  type ParseContext,
  type RawParameter,
} from '../family.js';

/** The attributes of an opening tag, and the index just past its `>`. */
export type Attributes = { attrs: Map<string, string>; end: number; selfClosing: boolean } | { problem: FamilyProblem };

const NAME_CHAR = /[A-Za-z0-9_:.-]/;

/**
 * Reads ` key="value"` pairs from `i` (just after the tag name) to the tag's `>`.
 * The text ending first is `truncated`; typographic quotes, missing whitespace, unquoted values or a
 * repeated attribute are `shape`.
 */
export function readAttributes(text: string, i: number): Attributes {
  const attrs = new Map<string, string>();
  for (;;) {
    if (i >= text.length) return { problem: truncated('the text ends inside a tag') };
    if (text[i] === '>') return { attrs, end: i + 1, selfClosing: false };
    if (text.startsWith('/>', i)) return { attrs, end: i + 2, selfClosing: true };
    const j = skipWs(text, i);
    if (j === i) return { problem: shape('a tag has no whitespace before an attribute, or junk in it') };
    if (j >= text.length) return { problem: truncated('the text ends inside a tag') };
    if (text[j] === '>' || text.startsWith('/>', j)) { i = j; continue; }
    let k = j;
    while (k < text.length && NAME_CHAR.test(text[k]!)) k++;
    const key = text.slice(j, k);
    if (k >= text.length) return { problem: truncated('the text ends inside a tag') };
    if (key === '' || text[k] !== '=') return { problem: shape('a malformed attribute') };
    const q = text[k + 1];
    if (q === undefined) return { problem: truncated('the text ends inside a tag') };
    if (q !== '"') return { problem: shape(q === '“' || q === '”' ? 'an attribute in typographic quotes' : 'an unquoted attribute') };
    const close = text.indexOf('"', k + 2);
    if (close < 0) return { problem: truncated('the text ends inside an attribute value') };
    if (attrs.has(key)) return { problem: shape(`attribute "${key}" repeated`) };
    attrs.set(key, text.slice(k + 2, close));
    i = close + 1;
  }
}

export interface InvokeGrammar {
  family: string;
  /** Put after `<` and `</` before every tag name (`｜DSML｜` for DSML, '' for MiniMax). */
  prefix: string;
  /** Container element names accepted (`function_calls`, `tool_calls`, `minimax:tool_call`). */
  containers: readonly string[];
  /** The value mode of one parameter from its attributes. */
  mode(attrs: Map<string, string>): Pick<RawParameter, 'mode' | 'error'>;
  /** Accept a JSON object as the whole invoke body (DSML extension accepted by sglang V3.2). */
  jsonBody: boolean;
}

/**
 * Reads containers from `from` (the index of a container opener `<PREFIXcontainer>`) until no more
 * follow. Stops at the first defect.
 */
export function parseInvokeContainers(text: string, from: number, g: InvokeGrammar, ctx: ParseContext): FamilyMatch {
  const sc = new Scanner(text);
  const spans: Array<[number, number]> = [];
  const calls: FamilyCall[] = [];
  const open = `<${g.prefix}`;
  let o = from;
  while (o >= 0) {
    const r = readContainer(sc, o, g, ctx);
    if ('problem' in r) {
      spans.push([o, text.length]);
      return match(g.family, spans, calls, r.problem);
    }
    calls.push(...r.calls);
    spans.push([o, r.end]);
    o = nextContainer(sc, r.end, open, g.containers);
  }
  return match(g.family, spans, calls);
}

/**
 * Reads one container at `o` (the index of its opener `<PREFIXcontainer>`): its invokes and where it
 * ends (after its closer), or the first defect.
 */
export function readContainer(sc: Scanner, o: number, g: InvokeGrammar, ctx: ParseContext): { calls: FamilyCall[]; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  const open = `<${g.prefix}`;
  const close = `</${g.prefix}`;
  const calls: FamilyCall[] = [];
  const container = g.containers.find((c) => sc.at(o + open.length, c));
  if (container === undefined) return { problem: shape(`a ${g.family} tag that is not a call container`) };
  let i = o + open.length + container.length;
  if (i >= text.length) return { problem: truncated('the text ends inside the container tag') };
  if (text[i] !== '>') return { problem: shape(`the ${container} opener is not closed by ">"`) };
  i++;
  const endTag = `${close}${container}>`;
  for (;;) {
    i = skipWs(text, i);
    if (i >= text.length) return { problem: truncated(`the text ends before ${endTag}`) };
    if (sc.at(i, endTag)) break;
    if (!sc.at(i, `${open}invoke`)) return { problem: shape(`text inside ${container} outside any invoke`) };
    const r = readInvoke(sc, i + open.length + 'invoke'.length, g, ctx);
    if ('problem' in r) return r;
    calls.push(r.call);
    i = r.end;
  }
  if (calls.length === 0) return { problem: shape(`an empty ${container}`) };
  return { calls, end: i + endTag.length };
}

/** The next `<PREFIX` followed by a container name, or -1. */
function nextContainer(sc: Scanner, from: number, open: string, containers: readonly string[]): number {
  for (let o = sc.find(open, from); o >= 0; o = sc.find(open, o + open.length)) {
    if (containers.some((c) => sc.at(o + open.length, c))) return o;
  }
  return -1;
}

export function readInvoke(sc: Scanner, i: number, g: InvokeGrammar, ctx: ParseContext): { call: FamilyCall; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  const open = `<${g.prefix}`;
  const endInvoke = `</${g.prefix}invoke>`;
  const a = readAttributes(text, i);
  if ('problem' in a) return a;
  const name = a.attrs.get('name');
  if (name === undefined || a.attrs.size !== 1) return { problem: shape('an invoke without exactly one name attribute') };
  if (a.selfClosing) return { problem: shape('a self-closing invoke') };
  let k = skipWs(text, a.end);
  if (g.jsonBody && text[k] === '{') {
    const j = jsonAt(text, k, 'invoke JSON body', { closer: endInvoke, opener: `${open}invoke` });
    if (!j.ok) return j;
    k = skipWs(text, j.end);
    if (k >= text.length) return { problem: truncated(`the text ends before ${endInvoke}`) };
    if (!sc.at(k, endInvoke)) return { problem: shape(`text after the invoke JSON body before ${endInvoke}`) };
    return { call: callFromJsonText(name, text.slice(j.start, j.end)), end: k + endInvoke.length };
  }
  const params: RawParameter[] = [];
  for (;;) {
    k = skipWs(text, k);
    if (k >= text.length) return { problem: truncated(`the text ends before ${endInvoke}`) };
    if (sc.at(k, endInvoke)) return { call: callFromParameters(name, params, ctx), end: k + endInvoke.length };
    if (!sc.at(k, `${open}parameter`)) return { problem: shape('text inside an invoke outside any parameter') };
    const p = readAttributes(text, k + open.length + 'parameter'.length);
    if ('problem' in p) return p;
    const key = p.attrs.get('name');
    if (key === undefined) return { problem: shape('a parameter without a name') };
    if (p.selfClosing) return { problem: shape('a self-closing parameter') };
    const endParam = `</${g.prefix}parameter>`;
    const e = sc.find(endParam, p.end);
    if (e < 0) return { problem: truncated(`the text ends before ${endParam}`) };
    // Values are raw text: the renderer writes them unpadded, so nothing is trimmed.
    const value = text.slice(p.end, e);
    // Without a trailing space, so a spaced prefix (DeepSeek V4.1 `｜DSML｜ `) refuses the unspaced tags too.
    const bare = g.prefix.trimEnd();
    const forged = g.prefix !== '' ? [`<${bare}`, `</${bare}`] : ['<parameter', '<invoke', '</invoke'];
    if (forged.some((f) => value.includes(f))) {
      return { problem: shape(`parameter "${key}" holds another ${g.family} tag (nested or forged closer)`) };
    }
    params.push({ key, value, ...g.mode(p.attrs) });
    k = e + endParam.length;
  }
}
