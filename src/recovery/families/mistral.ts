/**
 * Mistral: v0.3/v7 `[TOOL_CALLS] [{"name": N, "arguments": A, "id": "…"}, …]`, v11
 * `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}` and v13+ `[TOOL_CALLS]NAME[ARGS]{…}`, `[TOOL_CALLS]` repeated
 * per call. The turn ends with `</s>`, usually not printed, so a block is complete when its JSON
 * closes. Sources: sglang's mistral_detector.py
 * (https://github.com/sgl-project/sglang/blob/a343daaf647ea0c8c4a05cd2b5cfa0afc9e303f8/python/sglang/srt/function_call/mistral_detector.py)
 * and third-party notes on Mistral's tokenizer versions; docs/sources.md "Per-family grammars".
 * `[TOOL_CALLS]` not followed by a call grammar is `shape` with a span of the token alone, so a
 * sentence that merely names the token reads as prose.
 */

import { Scanner, skipWs, isWs } from '../scan.js';
import {
  callFromJsonText,
  callsFromJsonCallValue,
  shape,
  jsonAt,
  match,
  truncated,
  type Family,
  type FamilyCall,
  type FamilyMatch,
  type FamilyProblem,
} from '../family.js';

const TOKEN = '[TOOL_CALLS]';
const ARGS = '[ARGS]';
const CALL_ID = '[CALL_ID]';
const EOS = '</s>';

export const mistral: Family = {
  id: 'mistral',
  source: 'Mistral tokenization guide (https://docs.mistral.ai/guides/tokenization/) and mistral-common (https://github.com/mistralai/mistral-common); sglang mistral_detector.py @ a343daaf (docs/sources.md "Per-family grammars")',
  markers: [TOKEN, ARGS, CALL_ID],
  // Mistral's tokenizer (v3+) wraps a tool's answer in [TOOL_RESULTS]…[/TOOL_RESULTS]
  results: ['[TOOL_RESULTS]'],
  detect: (text) => text.indexOf(TOKEN),
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    let pos = from;
    for (let o = sc.find(TOKEN, pos); o >= 0; o = sc.find(TOKEN, pos)) {
      const fail = (p: FamilyProblem, whole = true) => {
        spans.push([o, whole ? text.length : o + TOKEN.length]);
        return match('mistral', spans, calls, p);
      };
      const k = skipWs(text, o + TOKEN.length);
      if (k >= text.length) return fail(truncated(`the text ends after ${TOKEN}`));
      let end: number;
      if (text[k] === '[') {
        const j = jsonAt(text, k, 'call list');
        if (!j.ok) return fail(j.problem);
        const got = callsFromJsonCallValue(text, j);
        if ('problem' in got) return fail(got.problem);
        calls.push(...got.calls);
        end = j.end;
      } else {
        let n = k;
        while (n < text.length && text[n] !== '[' && !isWs(text[n])) n++;
        if (n >= text.length) return fail(truncated('the text ends inside the tool name'));
        if (text[n] !== '[') return fail(shape(`${TOKEN} is not followed by NAME[ARGS]`), false);
        const name = text.slice(k, n);
        let a = n;
        if (sc.at(a, CALL_ID)) {
          a = sc.find(ARGS, a);
          if (a < 0) return fail(truncated(`the text ends before ${ARGS}`));
          if (/[\s[]/.test(text.slice(n + CALL_ID.length, a))) return fail(shape('a malformed [CALL_ID]'));
        }
        if (!sc.at(a, ARGS)) {
          return ARGS.startsWith(text.slice(a)) ? fail(truncated(`the text ends inside ${ARGS}`)) : fail(shape(`${TOKEN} is not followed by NAME[ARGS]`), false);
        }
        const j = jsonAt(text, a + ARGS.length, 'arguments');
        if (!j.ok) return fail(j.problem);
        calls.push(callFromJsonText(name, text.slice(j.start, j.end)));
        end = j.end;
      }
      const e = skipWs(text, end);
      if (sc.at(e, EOS)) end = e + EOS.length;
      spans.push([o, end]);
      pos = end;
    }
    return match('mistral', spans, calls);
  },
};
