/**
 * DeepSeek V3 / V3-0324 / R1 / R1-0528 and V3.1 / V3.1-Terminus special-token markup.
 *
 * V3/R1: `<｜tool▁calls▁begin｜>` ( `<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\nARGS\n```<｜tool▁call▁end｜>` )+ `<｜tool▁calls▁end｜>`
 * V3.1:  `<｜tool▁calls▁begin｜>` ( `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>ARGS<｜tool▁call▁end｜>` )+ `<｜tool▁calls▁end｜>`
 * (｜ is U+FF5C, ▁ is U+2581.) Sources: sglang's deepseekv3_detector.py and deepseekv31_detector.py
 * (https://github.com/sgl-project/sglang/tree/main/python/sglang/srt/function_call) and llama.cpp's
 * common_chat_parse_deepseek_r1
 * (https://github.com/ggml-org/llama.cpp/blob/master/common/chat.cpp); docs/sources.md "Per-family
 * grammars". The ```json fence of V3 is part of the grammar, so the quotation check must not take
 * it for a Markdown fence (the engine ignores fences inside markup spans). Whitespace is allowed
 * between blocks and around the JSON, nothing else.
 *
 * Spellings: besides the canonical tokens, the spellings found in the wild are read when one reply
 * uses one of them for every token: ASCII bars (`<|tool▁calls▁begin|>`, a conversion that replaced
 * U+FF5C), and U+2581 written as ASCII `_` (`<｜tool_calls_begin｜>`, accepted by llama.cpp's
 * DeepSeek R1 handler; also Step-3's spelling, ./step3.ts, whose `<steptml:invoke>` body decides) or
 * as a space (`<｜tool calls begin｜>`, a stored template that decoded `▁`), in each bar style. The
 * grammar inside is the same, so such a reply is recovered with the same label (`deepseek-v3`,
 * `deepseek-v3.1`); tokens of two spellings in one reply are `shape`. Not read: the escaped `\_`
 * (a Markdown rendering) and `<｜tool▁calls｜>`. The all-ASCII `<|tool_call_begin|>` and
 * `<|tool_call_end|>` are Kimi K2's tokens too, so for that spelling only the section tokens are
 * markers (./kimi-k2.ts keeps its own).
 */


import { Scanner, skipWs } from '../scan.js';
import { callFromJsonText, shape, jsonAt, match, truncated, type Family, type FamilyCall, type FamilyMatch } from '../family.js';

/** One spelling of the five tokens. */
interface Spelling {
  callsBegin: string;
  callsEnd: string;
  callBegin: string;
  callEnd: string;
  sep: string;
}
const spelling = (bar: string, space: string): Spelling => {
  const t = (words: string) => `<${bar}${words.split(' ').join(space)}${bar}>`;
  return { callsBegin: t('tool calls begin'), callsEnd: t('tool calls end'), callBegin: t('tool call begin'), callEnd: t('tool call end'), sep: t('tool sep') };
};
/** The canonical spelling first. */
const SPELLINGS: readonly Spelling[] = ['｜', '|'].flatMap((bar) => ['▁', '_', ' '].map((space) => spelling(bar, space)));
const CANONICAL = SPELLINGS[0]!;
const FENCE = '```';

/** The first section opener of any spelling from `from`, with its spelling. */
function firstOpener(text: string, from: number): { at: number; t: Spelling } | null {
  let best: { at: number; t: Spelling } | null = null;
  for (const t of SPELLINGS) {
    const at = text.indexOf(t.callsBegin, from);
    if (at >= 0 && (best === null || at < best.at)) best = { at, t };
  }
  return best;
}

/** Reads one call from just after the call opener; returns the index after the call closer. */
function readCall(sc: Scanner, i: number, t: Spelling): { call: FamilyCall; end: number; v3: boolean } | { problem: ReturnType<typeof truncated> } {
  const text = sc.text;
  const sep = sc.find(t.sep, i);
  const callEnd = sc.find(t.callEnd, i);
  if (callEnd >= 0 && (sep < 0 || callEnd < sep)) return { problem: shape(`a call has no ${t.sep}`) };
  if (sep < 0) return { problem: truncated(`the text ends before ${t.sep}`) };
  const head = text.slice(i, sep);
  const afterSep = skipWs(text, sep + t.sep.length);
  let v3: boolean;
  let name: string;
  let jsonFrom: number;
  if (text[afterSep] === '{') {
    // V3.1: the name sits before the separator.
    v3 = false;
    name = head;
    jsonFrom = afterSep;
  } else {
    if (head !== 'function') return { problem: shape(`a call's type is "${head.slice(0, 40)}", not "function"`) };
    v3 = true;
    const nl = text.indexOf('\n', sep);
    if (nl < 0) return { problem: callEnd > sep ? shape('no newline and ```json after the tool name') : truncated('the text ends inside the tool name') };
    name = text.slice(sep + t.sep.length, nl);
    const f = skipWs(text, nl);
    if (f >= text.length || text.length - f < FENCE.length + 4) return { problem: truncated('the text ends before ```json') };
    if (!text.startsWith('```json', f)) return { problem: shape('the arguments are not in a ```json fence') };
    jsonFrom = f + '```json'.length;
  }
  if (name === '' || name.includes('<') || name.includes('\n')) return { problem: shape('a call has no usable tool name') };
  const j = jsonAt(text, jsonFrom, 'arguments', { closer: v3 ? FENCE : t.callEnd, opener: t.callBegin });
  if (!j.ok) return { problem: j.problem };
  let k = skipWs(text, j.end);
  if (v3) {
    if (k >= text.length) return { problem: truncated('the text ends before the closing ```') };
    if (!text.startsWith(FENCE, k)) return { problem: shape('text after the arguments inside the fence') };
    k = skipWs(text, k + FENCE.length);
  }
  if (k >= text.length) return { problem: truncated(`the text ends before ${t.callEnd}`) };
  if (!sc.at(k, t.callEnd)) return { problem: shape(`text after the arguments before ${t.callEnd}`) };
  return { call: callFromJsonText(name, text.slice(j.start, j.end)), end: k + t.callEnd.length, v3 };
}

/** The all-ASCII spelling's call tokens are Kimi K2's too: not markers of this family. */
const KIMI_TOKENS = new Set(['<|tool_call_begin|>', '<|tool_call_end|>']);

export const deepseek: Family = {
  id: 'deepseek',
  source: 'DeepSeek-V3 and V3.1 chat templates (https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/tokenizer_config.json, https://huggingface.co/deepseek-ai/DeepSeek-V3.1/blob/main/tokenizer_config.json); sglang deepseekv3_detector.py, deepseekv31_detector.py; llama.cpp common/chat.cpp common_chat_parse_deepseek_r1 (its token spellings) (docs/sources.md "Per-family grammars")',
  markers: [...new Set(SPELLINGS.flatMap((t) => [t.callsBegin, t.callsEnd, t.callBegin, t.callEnd, t.sep]).filter((m) => !KIMI_TOKENS.has(m)))],
  // DeepSeek-V3's chat template wraps tool answers in <｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>…
  results: ['<｜tool▁outputs▁begin｜>', '<｜tool▁output▁begin｜>', '<|tool▁outputs▁begin|>', '<|tool▁output▁begin|>'],
  detect: (text) => firstOpener(text, 0)?.at ?? -1,
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    let label = 'deepseek-v3';
    const t = SPELLINGS.find((s) => text.startsWith(s.callsBegin, from)) ?? CANONICAL;
    for (let o = sc.find(t.callsBegin, from); o >= 0; o = sc.find(t.callsBegin, spans[spans.length - 1]![1])) {
      let i = o + t.callsBegin.length;
      const fail = (p: { reason: 'truncated' | 'shape'; detail: string }) => {
        spans.push([o, text.length]);
        return match(label, spans, calls, p);
      };
      let seen = 0;
      for (;;) {
        i = skipWs(text, i);
        if (i >= text.length) return fail(truncated(`the text ends before ${t.callsEnd}`));
        if (sc.at(i, t.callsEnd)) break;
        if (sc.at(i, t.callsBegin)) return fail(shape(`${t.callsBegin} repeated inside a call section`));
        if (!sc.at(i, t.callBegin)) return fail(shape('text inside the call section outside any call'));
        const r = readCall(sc, i + t.callBegin.length, t);
        if ('problem' in r) {
          // Name the dialect of the broken call too: V3.1 puts the JSON right after the separator.
          const sep = sc.find(t.sep, i);
          if (sep >= 0 && text[skipWs(text, sep + t.sep.length)] === '{') label = 'deepseek-v3.1';
          return fail(r.problem);
        }
        label = r.v3 ? 'deepseek-v3' : 'deepseek-v3.1';
        calls.push(r.call);
        seen++;
        i = r.end;
      }
      if (seen === 0) return fail(shape('an empty call section'));
      spans.push([o, i + t.callsEnd.length]);
    }
    return match(label, spans, calls);
  },
};
