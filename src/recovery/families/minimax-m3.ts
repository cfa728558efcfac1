/**
 * MiniMax-M3: every structural tag is prefixed by the MiniMax namespace token `]<]minimax[>[` (NS),
 * one wrapper per reply holding one or more invokes, and each parameter is a tag named after it:
 * `NS<tool_call>\nNS<invoke name="N">NS<city>Nanjing NS</city>NS</invoke>\nNS</tool_call>`. A nested
 * object is written as child tags named after its properties, an array as repeated `<item>` tags.
 * Source: no MiniMax-M3 chat template could be read; the grammar and its inverse serializer are
 * vLLM's minimax_m3_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/c6088cb14ab5c540283078e14de4eed944164604/vllm/tool_parsers/minimax_m3_tool_parser.py)
 * and _llm_nom/m3_text.py @ be37de73 (its docstring). Reasoning is `<mm:think>…</mm:think>`.
 *
 * Values are raw text typed from the advertised schema (the serializer writes strings raw and
 * everything else `json.dumps`): a scalar as for MiniMax-M2 (../typing.ts), a nested value by the
 * schema of its property (an array only when the schema says array and every child is `<item>`;
 * object properties by their own schemas). A nested value the schema does not describe as an array
 * but whose children are repeated `<item>` tags, or a nested value under a scalar-typed property, is
 * `bad_arguments`: the markup alone cannot tell an array from an object. A scalar body that is JSON
 * is accepted for an object- or array-typed property. A second wrapper is `shape` (the serializer
 * writes one), as is a tag outside a wrapper, a value that runs into another tag, or mismatched tags.
 * A call inside `<mm:think>` is `shape`.
 */

import { ARGUMENTS_TOO_DEEP, MAX_ARGUMENT_DEPTH } from '../../base/json.js';
import type { JsonSchema } from '../../capture/types.js';
import { callFromParameters, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem, type ParseContext, type RawParameter } from '../family.js';
import { isObject, Scanner, skipWs } from '../scan.js';
import { typeParameter, typesOf } from '../typing.js';
import { insideBlock, tokenSpans, withTokens } from './call-lists.js';
import { readAttributes } from './xml.js';

const NS = ']<]minimax[>[';
const OPEN = `${NS}<tool_call>`;
const CLOSE = `${NS}</tool_call>`;
const INVOKE = `${NS}<invoke`;
const END_INVOKE = `${NS}</invoke>`;
const THINK = ['<mm:think>', '</mm:think>'] as const;
const TAG = /^[^\s<>/"=]+$/;

/** A parameter's value as the markup writes it: raw text, or child tags. */
type Node = { text: string } | { children: Array<{ tag: string; node: Node }> };

/** Reads the value after `NS<tag>` at `i` up to and including its `NS</tag>`. Recursive, at most MAX_ARGUMENT_DEPTH deep. */
function readNode(sc: Scanner, i: number, tag: string, depth: number): { node: Node; end: number } | { problem: FamilyProblem } | { deep: true } {
  const text = sc.text;
  const closeTag = `${NS}</${tag}>`;
  const k = skipWs(text, i);
  if (sc.at(k, `${NS}<`) && !sc.at(k, `${NS}</`)) {
    if (depth >= MAX_ARGUMENT_DEPTH) return { deep: true };
    const children: Array<{ tag: string; node: Node }> = [];
    let j = k;
    for (;;) {
      j = skipWs(text, j);
      if (j >= text.length) return { problem: truncated(`the text ends before ${closeTag}`) };
      if (sc.at(j, closeTag)) return { node: { children }, end: j + closeTag.length };
      if (!sc.at(j, `${NS}<`) || sc.at(j, `${NS}</`)) return { problem: sc.at(j, NS) || NS.startsWith(text.slice(j)) ? (j + NS.length >= text.length ? truncated('the text ends inside a tag') : shape(`a closing tag that is not ${closeTag}`)) : shape('text between nested tags') };
      const gt = text.indexOf('>', j + NS.length + 1);
      if (gt < 0) return { problem: truncated('the text ends inside a tag') };
      const child = text.slice(j + NS.length + 1, gt);
      if (!TAG.test(child)) return { problem: shape('a malformed tag name') };
      const r = readNode(sc, gt + 1, child, depth + 1);
      if (!('node' in r)) return r;
      children.push({ tag: child, node: r.node });
      j = r.end;
    }
  }
  const e = sc.find(NS, i);
  if (e < 0) return { problem: truncated(`the text ends before ${closeTag}`) };
  if (!sc.at(e, closeTag)) return { problem: e + NS.length >= text.length || closeTag.startsWith(text.slice(e)) ? truncated(`the text ends inside ${closeTag}`) : shape(`the value of <${tag.slice(0, 40)}> runs into another tag before ${closeTag}`) };
  return { node: { text: text.slice(i, e) }, end: e + closeTag.length };
}

const propOf = (schema: unknown, key: string): unknown =>
  isObject(schema) && isObject(schema['properties']) && Object.prototype.hasOwnProperty.call(schema['properties'], key) ? schema['properties'][key] : undefined;

/** The JSON text of a nested value, typed by its property schema (module header), or an error. */
function jsonOfNode(node: Node, prop: unknown, key: string): { json: string } | { error: string } {
  if ('text' in node) {
    const t = typeParameter(node.text, prop === undefined ? undefined : ({ properties: { [key]: prop } } as JsonSchema), key);
    return t.ok ? { json: t.json } : { error: t.error };
  }
  const types = typesOf(prop);
  const allItems = node.children.length > 0 && node.children.every((c) => c.tag === 'item');
  if (types.has('array') && (allItems || node.children.length === 0)) {
    const items = isObject(prop) ? prop['items'] : undefined;
    const parts: string[] = [];
    for (const c of node.children) {
      const r = jsonOfNode(c.node, isObject(items) ? items : undefined, `${key}[]`);
      if ('error' in r) return r;
      parts.push(r.json);
    }
    return { json: `[${parts.join(',')}]` };
  }
  if (types.size > 0 && !types.has('object')) return { error: `parameter "${key}" is written as nested tags but its schema says ${[...types].join(' | ')}` };
  if (types.size === 0 && allItems && node.children.length > 1) return { error: `parameter "${key}" repeats <item>: an array or an object, which only a schema can say` };
  const seen = new Set<string>();
  const members: string[] = [];
  for (const c of node.children) {
    if (seen.has(c.tag)) return { error: `parameter "${key}" holds <${c.tag.slice(0, 40)}> twice` };
    seen.add(c.tag);
    const r = jsonOfNode(c.node, propOf(prop, c.tag), c.tag);
    if ('error' in r) return r;
    members.push(`${JSON.stringify(c.tag)}:${r.json}`);
  }
  return { json: `{${members.join(',')}}` };
}

function readInvoke(sc: Scanner, i: number, ctx: ParseContext): { call: FamilyCall; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  const a = readAttributes(text, i + INVOKE.length);
  if ('problem' in a) return a;
  const name = a.attrs.get('name');
  if (name === undefined || a.attrs.size !== 1 || a.selfClosing) return { problem: shape('an invoke without exactly one name attribute') };
  const schema = ctx.schemaOf(name);
  const params: RawParameter[] = [];
  let k = a.end;
  for (;;) {
    k = skipWs(text, k);
    if (k >= text.length) return { problem: truncated(`the text ends before ${END_INVOKE}`) };
    if (sc.at(k, END_INVOKE)) return { call: callFromParameters(name, params, ctx), end: k + END_INVOKE.length };
    if (!sc.at(k, `${NS}<`) || sc.at(k, `${NS}</`)) return { problem: NS.startsWith(text.slice(k)) || END_INVOKE.startsWith(text.slice(k)) ? truncated('the text ends inside a tag') : shape('text inside an invoke outside any parameter') };
    const gt = text.indexOf('>', k + NS.length + 1);
    if (gt < 0) return { problem: truncated('the text ends inside a parameter tag') };
    const key = text.slice(k + NS.length + 1, gt);
    if (!TAG.test(key)) return { problem: shape('a malformed parameter tag') };
    const r = readNode(sc, gt + 1, key, 1);
    if ('deep' in r) return { problem: shape(ARGUMENTS_TOO_DEEP) };
    if ('problem' in r) return r;
    if ('text' in r.node) params.push({ key, value: r.node.text, mode: 'schema' });
    else {
      const j = jsonOfNode(r.node, propOf(schema, key), key);
      params.push('error' in j ? { key, value: '', mode: 'json', error: j.error } : { key, value: j.json, mode: 'json' });
    }
    k = r.end;
  }
}

export const minimaxM3: Family = {
  id: 'minimax-m3',
  source: 'vLLM minimax_m3_tool_parser.py (https://github.com/vllm-project/vllm/blob/c6088cb14ab5c540283078e14de4eed944164604/vllm/tool_parsers/minimax_m3_tool_parser.py) and _llm_nom/m3_text.py @ be37de73 (no MiniMax-M3 chat template could be read)',
  markers: [NS],
  detect: (text) => text.indexOf(NS),
  parse(text, from, ctx): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const tokens = tokenSpans(text, THINK);
    const o = from;
    const fail = (p: FamilyProblem) => {
      spans.push([o, text.length]);
      return withTokens(match('minimax-m3', spans, calls, p), tokens);
    };
    if (!sc.at(o, OPEN)) return fail(OPEN.startsWith(text.slice(o)) ? truncated(`the text ends inside ${OPEN}`) : shape(`a MiniMax-M3 tag outside a ${OPEN} wrapper`));
    if (insideBlock(text, o, THINK[0], THINK[1])) return fail(shape('a call inside <mm:think> (reasoning is never recovered)'));
    let i = o + OPEN.length;
    for (;;) {
      i = skipWs(text, i);
      if (i >= text.length) return fail(truncated(`the text ends before ${CLOSE}`));
      if (sc.at(i, CLOSE)) break;
      if (!sc.at(i, INVOKE)) return fail(INVOKE.startsWith(text.slice(i)) || CLOSE.startsWith(text.slice(i)) ? truncated('the text ends inside a tag') : shape('text inside the wrapper outside any invoke'));
      const r = readInvoke(sc, i, ctx);
      if ('problem' in r) return fail(r.problem);
      calls.push(r.call);
      i = r.end;
    }
    if (calls.length === 0) return fail(shape('an empty wrapper'));
    const end = i + CLOSE.length;
    spans.push([o, end]);
    const again = sc.find(NS, end);
    if (again >= 0) {
      spans.push([again, text.length]);
      return withTokens(match('minimax-m3', spans, calls, shape('MiniMax-M3 markup after its one wrapper')), tokens);
    }
    return withTokens(match('minimax-m3', spans, calls), tokens);
  },
};
