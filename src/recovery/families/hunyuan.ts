/**
 * Tencent Hunyuan: Hunyuan-A13B (and the dense Hunyuan models on its template) and Hunyuan V3 /
 * HY-V3 (Hy3).
 *
 * A13B: `<tool_calls>[{"name": NAME, "arguments": ARGS}, …]</tool_calls>`, often inside
 * `<answer>…</answer>` after a `<think>` block, the turn ended by `<|eos|>`. Source: the A13B chat
 * template, tencent/Hunyuan-A13B-Instruct tokenizer_config.json, as published in
 * https://github.com/Tencent-Hunyuan/Hunyuan-A13B/blob/2798f3c8b6a69e0ce93950b0d2417203cf950fa0/models/tokenizer_config.json
 * (`'<tool_calls>' + '[' + '{"name": "' + name + '", "arguments": ' + arguments|tojson + '}' … + ']' + '</tool_calls>'`);
 * Tencent's parser agent/hunyuan_tool_parser.py in the same repository confirms it. Arguments are
 * JSON (typed by the markup).
 *
 * HY-V3: `<tool_calls>\n<tool_call>NAME<tool_sep>\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n</tool_call>\n</tool_calls>`,
 * GLM's key/value pairs with a `<tool_sep>` after the name and an outer wrapper; the Hy3 checkpoints
 * add one token suffix to every tag (`<tool_calls:opensource>`, `<arg_key:opensource>`, …), the same
 * on every tag of a reply. Source: vLLM hy_v3_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/7a24fbb332c9a7db49473e678e1d0b9dddf39e8d/vllm/tool_parsers/hy_v3_tool_parser.py);
 * the suffix from the reports of vLLM PR #29920 (`resolve_hunyuan_tokens`); no HY-V3 chat template
 * was read. Values are raw text typed from the advertised schema (strings raw, everything else JSON,
 * as GLM's template writes them; no Hunyuan template was read to say otherwise), never trimmed.
 *
 * HY-V4: the same wrapper, calls and key/value pairs without the `<tool_sep>`: the name runs to the
 * first `<arg_key>` (or the call's closer, a call without arguments), a line break after it allowed;
 * label `hunyuan-v4`. Source: vLLM hy_v4_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/f1bf7bd07a112d72d905d355a8206b8d1e82cb5d/vllm/tool_parsers/hy_v4_tool_parser.py:
 * the name is the call's body before the first `<arg_key{suffix}>`, stripped; the suffix read from
 * the vocabulary); no HY-V4 chat template was read. A reply mixing the two layouts is `shape`.
 *
 * The `<tool_calls>[…]` JSON reading is the same grammar as Jamba's and Apriel's lists: a reply that
 * holds such a list and none of A13B's own tokens (`<answer>`, `<|eos|>`) is labelled by those
 * families (jamba.ts, apriel.ts), since nothing in the text tells them apart. HY-V3 calls
 * outside a `<tool_calls>` wrapper, a tag with another suffix than the wrapper's, or a value that
 * runs into another tag are `shape`.
 */

import { callFromParameters, callsFromJsonCallValue, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem, type ParseContext, type RawParameter } from '../family.js';
import { Scanner, skipWs } from '../scan.js';
import { insideBlock, optionalToken, tokenSpans, withTokens } from './call-lists.js';

const SUFFIX = /^(?::[A-Za-z0-9_-]{1,32})?>/;
const TOKENS = ['<answer>', '</answer>', '<|eos|>'];

/** The wrapper opener at `o` (`<tool_calls` + optional `:SUFFIX` + `>`): its suffix and end, or null. */
function wrapperAt(text: string, o: number): { sfx: string; end: number } | null {
  if (!text.startsWith('<tool_calls', o)) return null;
  const m = SUFFIX.exec(text.slice(o + 11, o + 11 + 40));
  if (m === null) return null;
  return { sfx: m[0].slice(0, -1), end: o + 11 + m[0].length };
}

/** True when the block at `o` is an unsuffixed `<tool_calls>` holding a JSON list or object: the
 * layout Apriel 1.5 and Jamba write too. Without A13B's own tokens (`<answer>`, `<|eos|>`) nothing
 * tells the three apart, and the block is left to jamba and apriel (their labels). */
function plainJsonList(text: string, o: number): boolean {
  if (!text.startsWith('<tool_calls>', o)) return false;
  let j = o + '<tool_calls>'.length;
  while (j < text.length && /\s/.test(text[j]!)) j++;
  return text[j] === '[' || text[j] === '{';
}

/** The first wrapper opener from `from`, or a bare HY-V3 call (`<tool_call…>NAME<tool_sep…>`) before it. */
function firstBlock(text: string, from: number): number {
  let w = -1;
  for (let o = text.indexOf('<tool_calls', from); o >= 0; o = text.indexOf('<tool_calls', o + 11)) {
    if (wrapperAt(text, o) !== null) {
      w = o;
      break;
    }
  }
  const sep = text.indexOf('<tool_sep', from);
  if (sep >= 0 && (w < 0 || sep < w)) {
    const lo = Math.max(from, sep - 256);
    const back = text.slice(lo, sep).lastIndexOf('<tool_call');
    const c = back < 0 ? -1 : lo + back;
    if (c >= 0 && !text.startsWith('<tool_calls', c) && !text.slice(c, sep).includes('\n')) return c;
  }
  return w;
}

/** True when the first call at `k` (`<tool_call…>NAME`) is not followed by `<tool_sep` (nor by a cut
 * inside it): HY-V4's layout, so a broken call is labelled by the layout it started. */
function v4Layout(text: string, k: number): boolean {
  const lt = text.indexOf('<', k + 1);
  if (lt < 0) return false;
  const head = text.slice(lt, lt + 9);
  return !(head === '<tool_sep' || (lt + 9 > text.length && '<tool_sep'.startsWith(head)));
}

function readV3(sc: Scanner, i: number, sfx: string, ctx: ParseContext): { calls: FamilyCall[]; end: number; v4: boolean } | { problem: FamilyProblem } {
  const text = sc.text;
  const t = (name: string) => `<${name}${sfx}>`;
  const CALL = t('tool_call');
  const END_CALL = t('/tool_call');
  const SEP = t('tool_sep');
  const KEY = t('arg_key');
  const END_KEY = t('/arg_key');
  const VAL = t('arg_value');
  const END_VAL = t('/arg_value');
  const END_WRAP = t('/tool_calls');
  const FORGED = ['<arg_key', '<arg_value', '</arg_key', '<tool_call', '</tool_call', '<tool_sep'];
  const calls: FamilyCall[] = [];
  // HY-V3 writes `<tool_sep>` after the name, HY-V4 goes straight to the first `<arg_key>` (or the
  // call's closer): one reply keeps one of the two layouts
  let v4: boolean | null = null;
  for (;;) {
    i = skipWs(text, i);
    if (i >= text.length) return { problem: truncated(`the text ends before ${END_WRAP}`) };
    if (sc.at(i, END_WRAP)) return calls.length === 0 ? { problem: shape(`an empty ${t('tool_calls')}`) } : { calls, end: i + END_WRAP.length, v4: v4 === true };
    if (!sc.at(i, CALL)) return { problem: shape(`text inside ${t('tool_calls')} outside any ${CALL}`) };
    const lt = text.indexOf('<', i + CALL.length);
    if (lt < 0) return { problem: truncated(`the text ends before ${SEP}, ${KEY} or ${END_CALL}`) };
    const tail = text.slice(lt, lt + 40);
    const here = sc.at(lt, SEP) ? 'v3' : sc.at(lt, KEY) || sc.at(lt, END_CALL) ? 'v4' : null;
    if (here === null) {
      const cut = lt + 40 > text.length && [SEP, KEY, END_CALL].some((tag) => tag.startsWith(tail));
      return { problem: cut ? truncated(`the text ends inside ${tail}`) : shape(`a call without ${SEP} or ${KEY} after its name`) };
    }
    if (v4 !== null && v4 !== (here === 'v4')) return { problem: shape(`calls with and without ${SEP} in one ${t('tool_calls')} (HY-V3 and HY-V4 layouts mixed)`) };
    v4 = here === 'v4';
    const raw = text.slice(i + CALL.length, lt);
    // HY-V4's parser strips the name; only whitespace after it (a line break before <arg_key>) is framing
    const name = v4 ? raw.replace(/\s+$/u, '') : raw;
    if (name === '' || /\s/.test(name)) return { problem: shape('a call without a usable tool name') };
    const params: RawParameter[] = [];
    let k = v4 ? lt : lt + SEP.length;
    for (;;) {
      k = skipWs(text, k);
      if (k >= text.length) return { problem: truncated(`the text ends before ${END_CALL}`) };
      if (sc.at(k, END_CALL)) break;
      const read = (open: string, close: string, what: string): { value: string; end: number } | { problem: FamilyProblem } => {
        if (k >= text.length) return { problem: truncated(`the text ends before ${open}`) };
        if (!sc.at(k, open)) return { problem: open.startsWith(text.slice(k)) ? truncated(`the text ends inside ${open}`) : shape(`expected ${open}`) };
        const e = sc.find(close, k + open.length);
        const body = text.slice(k + open.length, e < 0 ? text.length : e);
        if (FORGED.some((f) => body.includes(f))) return { problem: shape(`${close} is missing: the ${what} runs into another tag`) };
        if (e < 0) return { problem: truncated(`the text ends before ${close}`) };
        return { value: body, end: e + close.length };
      };
      const key = read(KEY, END_KEY, 'key');
      if ('problem' in key) return key;
      k = skipWs(text, key.end);
      const val = read(VAL, END_VAL, `value of "${key.value.slice(0, 40)}"`);
      if ('problem' in val) return val;
      params.push({ key: key.value, value: val.value, mode: 'schema' });
      k = val.end;
    }
    calls.push(callFromParameters(name, params, ctx));
    i = k + END_CALL.length;
  }
}

export const hunyuan: Family = {
  id: 'hunyuan',
  source: 'Hunyuan-A13B chat template (https://github.com/Tencent-Hunyuan/Hunyuan-A13B/blob/2798f3c8b6a69e0ce93950b0d2417203cf950fa0/models/tokenizer_config.json) and agent/hunyuan_tool_parser.py; vLLM hy_v3_tool_parser.py (https://github.com/vllm-project/vllm/blob/7a24fbb332c9a7db49473e678e1d0b9dddf39e8d/vllm/tool_parsers/hy_v3_tool_parser.py), hunyuan_a13b_tool_parser.py, hy_v4_tool_parser.py @ f1bf7bd0; vLLM PR #29920 (token suffix)',
  markers: ['<tool_calls>', '</tool_calls>', '<tool_calls:', '</tool_calls:', '<tool_sep>', '<tool_sep:'],
  detect: (text) => {
    const o = firstBlock(text, 0);
    return o >= 0 && plainJsonList(text, o) && !TOKENS.some((t) => text.includes(t)) ? -1 : o;
  },
  parse(text, from, ctx): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const tokens = tokenSpans(text, TOKENS);
    let label = 'hunyuan';
    let pos = from;
    for (let o = firstBlock(text, pos); o >= 0; o = firstBlock(text, pos)) {
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return withTokens(match(label, spans, calls, p), tokens);
      };
      const w = wrapperAt(text, o);
      if (w === null) {
        label = 'hunyuan-v3';
        return fail(shape('an HY-V3 call outside any <tool_calls> wrapper'));
      }
      const think = w.sfx === '' ? null : [`<think${w.sfx}>`, `</think${w.sfx}>`];
      if (think !== null && insideBlock(text, o, think[0]!, think[1]!)) return fail(shape('a call inside the think block (reasoning is never recovered)'));
      const k = skipWs(text, w.end);
      const endWrap = `</tool_calls${w.sfx}>`;
      if (k >= text.length) return fail(truncated(`the text ends before ${endWrap}`));
      if (text[k] === '[') {
        const j = jsonAt(text, k, 'call list', { closer: endWrap, opener: '<tool_calls' });
        if (!j.ok) return fail(j.problem);
        const got = callsFromJsonCallValue(text, j);
        if ('problem' in got) return fail(got.problem);
        const e = skipWs(text, j.end);
        if (e >= text.length) return fail(truncated(`the text ends before ${endWrap}`));
        if (!sc.at(e, endWrap)) return fail(shape(`text between the call list and ${endWrap}`));
        calls.push(...got.calls);
        pos = e + endWrap.length;
      } else if (text.startsWith('<tool_call', k)) {
        label = v4Layout(text, k) ? 'hunyuan-v4' : 'hunyuan-v3';
        const r = readV3(sc, k, w.sfx, ctx);
        if ('problem' in r) return fail(r.problem);
        label = r.v4 ? 'hunyuan-v4' : 'hunyuan-v3';
        calls.push(...r.calls);
        pos = r.end;
      } else return fail(shape(`${text.slice(o, w.end)} holds neither a JSON call list nor <tool_call> elements`));
      pos = optionalToken(text, pos, ['<|eos|>']);
      spans.push([o, pos]);
    }
    return withTokens(match(label, spans, calls), tokens);
  },
};
