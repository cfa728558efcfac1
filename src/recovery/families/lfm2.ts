/**
 * Liquid AI LFM2 / LFM2.5: `[content]<|tool_call_start|>[f(a="x"), g(b=1)]<|tool_call_end|>[content]`,
 * a Python list of calls between two special tokens ("LFM2 writes Pythonic function calls (a Python
 * list between <|tool_call_start|> and <|tool_call_end|> special tokens), as the assistant answer").
 * Text may come before and after the block (the model card's dialog writes a sentence after it);
 * blocks may follow each other. With "Output function calls as JSON" in the system prompt the body is
 * a JSON list of `{"name", "arguments"}` objects instead (read as JSON). A single call without the
 * brackets is read too (SGLang and Ollama accept it). The end token is required: without it the
 * text ends inside the block (`truncated`) or goes on (`shape`); vLLM would take the rest of the text.
 * LFM2.5's template writes strings as `'…'` without escaping, so a value holding `'` is not Python
 * and is refused (`bad_arguments`), never repaired as vLLM's rewrite ladder does.
 * Values: Python literals only (./python.ts).
 * Primary sources: Liquid AI's tool-use documentation (https://docs.liquid.ai/lfm/key-concepts/tool-use),
 * the model card of LiquidAI/LFM2-1.2B-Tool (https://huggingface.co/LiquidAI/LFM2-1.2B-Tool, revision
 * not recorded), the LFM2.5 chat template (llama.cpp models/templates/LFM2.5-8B-A1B.jinja @ 6f4e9f58);
 * confirmed by vLLM `lfm2` (lfm2_tool_parser.py @ 055e47c2), SGLang `lfm2` (lfm2_detector.py @
 * 02caf64a), llama.cpp's LFM2 handler and Ollama's `lfm2` parser (model/parsers/lfm2.go @ fb307609).
 */

import { callsFromJsonCallValue, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch } from '../family.js';
import { Scanner, skipWs } from '../scan.js';
import { bodyTo, readPythonCalls, scanPython } from './python.js';

const START = '<|tool_call_start|>';
const END = '<|tool_call_end|>';

/** True when the body from `i` is a JSON call list or object (JSON mode). */
function jsonBody(text: string, i: number): boolean {
  if (text[i] === '{') return true;
  return text[i] === '[' && text[skipWs(text, i + 1)] === '{';
}

export const lfm2: Family = {
  id: 'lfm2',
  source:
    'Liquid AI tool use documentation (https://docs.liquid.ai/lfm/key-concepts/tool-use); LiquidAI/LFM2-1.2B-Tool model card (https://huggingface.co/LiquidAI/LFM2-1.2B-Tool, revision not recorded); LFM2.5 chat template, llama.cpp models/templates/LFM2.5-8B-A1B.jinja @ 6f4e9f58; vLLM lfm2_tool_parser.py @ 055e47c2; SGLang lfm2_detector.py @ 02caf64a; Ollama model/parsers/lfm2.go @ fb307609',
  markers: [START, END],
  detect: (text) => text.indexOf(START),
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    for (let o = sc.find(START, from); o >= 0; o = sc.find(START, spans[spans.length - 1]![1])) {
      const fail = (p: ReturnType<typeof shape>) => {
        spans.push([o, text.length]);
        return match('lfm2', spans, calls, p);
      };
      const i = skipWs(text, o + START.length);
      if (i >= text.length) return fail(truncated(`the text ends after ${START}`));
      let end: number;
      if (jsonBody(text, i)) {
        const j = jsonAt(text, i, 'call JSON', { closer: END, opener: START });
        if (!j.ok) return fail(j.problem);
        const got = callsFromJsonCallValue(text, j);
        if ('problem' in got) return fail(got.problem);
        calls.push(...got.calls);
        const k = skipWs(text, j.end);
        if (!text.startsWith(END, k)) return fail(k >= text.length ? truncated(`the text ends before ${END}`) : shape(`text between the call JSON and ${END}`));
        end = k + END.length;
      } else {
        const body = bodyTo(text, i, END);
        if ('problem' in body) {
          // a complete list followed by text where the end token belongs: not cut, malformed
          const list = text[i] === '[' ? scanPython(text, i) : null;
          if (list?.ok === true && skipWs(text, list.end) < text.length) return fail(shape(`text after the call list where ${END} belongs`));
          return fail(body.problem);
        }
        const next = sc.find(START, i);
        if (next >= 0 && next < body.end) return fail(shape(`a block has no ${END}: the next ${START} comes first`));
        const got = readPythonCalls(text.slice(i, body.end), 'either');
        if ('problem' in got) return fail(got.problem);
        calls.push(...got.calls);
        end = body.end + END.length;
      }
      spans.push([o, end]);
    }
    return match('lfm2', spans, calls);
  },
};
