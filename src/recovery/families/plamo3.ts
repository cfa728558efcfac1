/**
 * PLaMo 3 (Preferred Networks): one block of tool requests, each request a name and a JSON object,
 *
 *   `<|plamo:begin_tool_requests:plamo|>`
 *     ( `<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>NAME<|plamo:end_tool_name:plamo|>`
 *       `<|plamo:begin_tool_arguments:plamo|>[<|plamo:constrain|>json][<|plamo:msg|>]{…}<|plamo:end_tool_arguments:plamo|>`
 *       `<|plamo:end_tool_request:plamo|>` )+
 *   `<|plamo:end_tool_requests:plamo|>` [`<|plamo:tag|>`]
 *
 * after optional reasoning in `<|plamo:begin_think:plamo|>…<|plamo:end_think:plamo|>`; `<|plamo:tag|>`
 * ends the turn. The tags are no added special tokens (each encodes as several ordinary tokens), so
 * they survive `skip_special_tokens` and reach the user whole when no parser reads them.
 *
 * Sources: no PLaMo 3 chat template that writes tool calls was found; the grammar is vLLM's
 * (https://github.com/vllm-project/vllm/blob/6e739ac51cc99802b0e7c194b0893c58404ed246/vllm/tool_parsers/plamo3_tool_parser.py,
 * whose docstring gives the bare `<|plamo:begin_tool_arguments:plamo|>{…}` form, and its tag table
 * vllm/reasoning/plamo3_reasoning_parser.py @ 3febd520, where the arguments open with
 * `<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>`). Both openings are read;
 * a `<|plamo:constrain|>` naming anything but `json` is `shape`.
 *
 * Whitespace between the tags is framing (vLLM's reader allows none; the model writes none); the name
 * is exact (no whitespace, no `<`/`>`), else `shape`. A request block inside the reasoning is `shape`
 * (reasoning is never recovered); a request outside a `begin_tool_requests` block is a stray token.
 */

import { callFromJsonText, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner, skipWs } from '../scan.js';
import { insideBlock, tokenSpans, withTokens } from './call-lists.js';

const REQUESTS = '<|plamo:begin_tool_requests:plamo|>';
const REQUESTS_END = '<|plamo:end_tool_requests:plamo|>';
const REQUEST = '<|plamo:begin_tool_request:plamo|>';
const REQUEST_END = '<|plamo:end_tool_request:plamo|>';
const NAME = '<|plamo:begin_tool_name:plamo|>';
const NAME_END = '<|plamo:end_tool_name:plamo|>';
const ARGS = '<|plamo:begin_tool_arguments:plamo|>';
const ARGS_END = '<|plamo:end_tool_arguments:plamo|>';
const CONSTRAIN = '<|plamo:constrain|>';
const MSG = '<|plamo:msg|>';
const EOT = '<|plamo:tag|>';
const THINK = ['<|plamo:begin_think:plamo|>', '<|plamo:end_think:plamo|>'] as const;
/** Tokens of the turn around the calls: markup, whose bodies (the reasoning) are prose. */
const TOKENS = [...THINK, EOT];
const TOOL_NAME = /^[^\s<>]+$/;

export const plamo3: Family = {
  id: 'plamo3',
  source: 'no PLaMo 3 template with tool calls found; vLLM plamo3_tool_parser.py (https://github.com/vllm-project/vllm/blob/6e739ac51cc99802b0e7c194b0893c58404ed246/vllm/tool_parsers/plamo3_tool_parser.py) and plamo3_reasoning_parser.py @ 3febd520',
  markers: [REQUESTS, REQUESTS_END, REQUEST, REQUEST_END, NAME, NAME_END, ARGS, ARGS_END],
  detect: (text) => text.indexOf(REQUESTS),
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const tokens = tokenSpans(text, TOKENS);
    let pos = from;
    for (let o = sc.find(REQUESTS, pos); o >= 0; o = sc.find(REQUESTS, pos)) {
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return withTokens(match('plamo3', spans, calls, p), tokens);
      };
      /** True when the text ends at `a` inside `token` (a strict, non-empty prefix of it is all that is left). */
      const cutIn = (a: number, token: string) => a < text.length && text.length - a < token.length && token.startsWith(text.slice(a));
      /** `token` at `i` (after whitespace): its end, or the failure (cut when the text ends first). */
      const expect = (i: number, token: string, what: string): number | FamilyProblem => {
        const k = skipWs(text, i);
        if (k >= text.length || cutIn(k, token)) return truncated(`the text ends before ${token}`);
        return sc.at(k, token) ? k + token.length : shape(`${what} where ${token} belongs`);
      };
      if (insideBlock(text, o, THINK[0], THINK[1])) return fail(shape('tool requests inside the reasoning (reasoning is never recovered)'));
      let i = o + REQUESTS.length;
      let end = -1;
      const before = calls.length;
      while (end < 0) {
        const k = skipWs(text, i);
        if (k >= text.length) return fail(truncated(`the text ends before ${REQUESTS_END}`));
        if (sc.at(k, REQUESTS_END)) {
          end = k + REQUESTS_END.length;
          break;
        }
        if (!sc.at(k, REQUEST)) return fail(cutIn(k, REQUEST) || cutIn(k, REQUESTS_END) ? truncated('the text ends inside a tag') : shape(`text inside the tool requests outside any ${REQUEST}`));
        const n = expect(k + REQUEST.length, NAME, 'text');
        if (typeof n !== 'number') return fail(n);
        const ne = sc.find(NAME_END, n);
        if (ne < 0) return fail(sc.find(ARGS, n) >= 0 ? shape(`a tool name without ${NAME_END}`) : truncated(`the text ends before ${NAME_END}`));
        const name = text.slice(n, ne);
        if (!TOOL_NAME.test(name)) return fail(shape('a tool name that is empty or holds whitespace or a tag'));
        let a = expect(ne + NAME_END.length, ARGS, 'text after the tool name');
        if (typeof a !== 'number') return fail(a);
        if (cutIn(a, CONSTRAIN)) return fail(truncated(`the text ends inside ${CONSTRAIN}`));
        if (sc.at(a, CONSTRAIN)) {
          a += CONSTRAIN.length;
          if (a >= text.length || cutIn(a, 'json')) return fail(truncated(`the text ends inside ${CONSTRAIN}json`));
          if (!text.startsWith('json', a) || /[\w-]/.test(text[a + 4] ?? '')) return fail(shape(`${CONSTRAIN} naming another format than json`));
          a += 4;
        }
        if (cutIn(a, MSG)) return fail(truncated(`the text ends inside ${MSG}`));
        if (sc.at(a, MSG)) a += MSG.length;
        const j = jsonAt(text, a, 'arguments', { closer: ARGS_END, opener: REQUEST });
        if (!j.ok) return fail(j.problem);
        const ae = expect(j.end, ARGS_END, 'text after the arguments');
        if (typeof ae !== 'number') return fail(ae);
        const re = expect(ae, REQUEST_END, 'text after the arguments block');
        if (typeof re !== 'number') return fail(re);
        calls.push(callFromJsonText(name, text.slice(j.start, j.end)));
        i = re;
      }
      if (calls.length === before) return fail(shape('an empty tool-requests block'));
      const t = skipWs(text, end);
      if (sc.at(t, EOT)) end = t + EOT.length;
      spans.push([o, end]);
      pos = end;
    }
    return withTokens(match('plamo3', spans, calls), tokens);
  },
};
