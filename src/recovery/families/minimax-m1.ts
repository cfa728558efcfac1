/**
 * MiniMax-M1 (MiniMax-M1-40k / -80k, and MiniMax-Text-01 on the same template): one JSON call object
 * per line inside one `<tool_calls>` block,
 * `<tool_calls>\n{"name": NAME, "arguments": ARGS}\n{"name": …}\n</tool_calls>`, the turn ended by
 * `<end_of_sentence>`, reasoning in `<think>…</think>` before it.
 * Primary source: the chat template in MiniMax-AI/MiniMax-M1 tokenizer_config.json
 * (https://github.com/MiniMax-AI/MiniMax-M1/blob/a2328261e3faf6b1262a6dea55442bc1083b46da/tokenizer_config.json:
 * "respond with <tool_calls></tool_calls> XML tags … `<tool_calls>\n{"name": <tool-name-1>, "arguments":
 * <args-json-object-1>}\n...\n</tool_calls>`"), and the model output shown in its function-call guide
 * (https://github.com/MiniMax-AI/MiniMax-M1/blob/dd7e6d6e2995187e32434507909c8b88dd5851d8/docs/function_call_guide.md,
 * "Model Output Format"); vLLM's `minimax` parser (minimax_tool_parser.py @ 875ce2ad) reads the
 * same lines. A tool's answer is a `<beginning_of_sentence>tool name=tools` turn.
 *
 * The tags are Jamba's and Apriel's (jamba.ts, apriel.ts), which hold one JSON list: a block whose
 * body is a `[` list is theirs, a block whose body is call objects is this family's (a single
 * object would read in Apriel's reader too; this family comes first in the registry, so its label
 * wins). Stricter than vLLM, which skips lines that do not parse: two objects on one line, text
 * between the objects or before the closer are `shape`; an object whose JSON does not parse but
 * that the closer ends is `bad_arguments`; a missing closer is `truncated`. `<end_of_sentence>` is a
 * template token (a markup span). The `<think>` block is left to the engine's reasoning rules
 * (../structure.ts): a call inside it is never recovered (`quoted` or `in_reasoning`).
 */

import { callsFromJsonCallValue, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner, skipWs } from '../scan.js';
import { optionalToken, tokenSpans, withTokens } from './call-lists.js';
import { END_TOOL_CALLS, TOOL_CALLS } from './jamba.js';

const EOS = '<end_of_sentence>';

/** The first `<tool_calls>` whose body starts (after whitespace) with a call object `{`, or -1. */
function detectObjects(text: string, from = 0): number {
  for (let o = text.indexOf(TOOL_CALLS, from); o >= 0; o = text.indexOf(TOOL_CALLS, o + TOOL_CALLS.length)) {
    if (text[skipWs(text, o + TOOL_CALLS.length)] === '{') return o;
  }
  return -1;
}

/** True when `text[a, b)` is whitespace holding a line break (the template's separator). */
function lineBreakBetween(text: string, a: number, b: number): boolean {
  return text.slice(a, b).includes('\n');
}

/** Reads the objects of the block opened at `o` up to its closer. */
function readBlock(sc: Scanner, o: number): { calls: FamilyCall[]; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  const calls: FamilyCall[] = [];
  let i = o + TOOL_CALLS.length;
  for (;;) {
    const k = skipWs(text, i);
    if (k >= text.length) return { problem: truncated(`the text ends before ${END_TOOL_CALLS}`) };
    if (sc.at(k, END_TOOL_CALLS)) {
      if (calls.length === 0) return { problem: shape(`an empty ${TOOL_CALLS}`) };
      return { calls, end: k + END_TOOL_CALLS.length };
    }
    if (text[k] !== '{') {
      const rest = text.slice(k);
      if (END_TOOL_CALLS.startsWith(rest)) return { problem: truncated(`the text ends inside ${END_TOOL_CALLS}`) };
      return { problem: shape(calls.length === 0 ? `${TOOL_CALLS} holds no call object` : `text after a call object before ${END_TOOL_CALLS}`) };
    }
    if (calls.length > 0 && !lineBreakBetween(text, i, k)) return { problem: shape('two call objects on one line (the template writes one per line)') };
    const j = jsonAt(text, k, 'tool call JSON', { closer: END_TOOL_CALLS, opener: TOOL_CALLS });
    if (!j.ok) return { problem: j.problem };
    if (text[j.start] !== '{') return { problem: shape('a call entry is not a JSON object') };
    const got = callsFromJsonCallValue(text, j);
    if ('problem' in got) return { problem: got.problem };
    calls.push(...got.calls);
    i = j.end;
  }
}

export const minimaxM1: Family = {
  id: 'minimax-m1',
  source:
    'MiniMax-M1 chat template (https://github.com/MiniMax-AI/MiniMax-M1/blob/a2328261e3faf6b1262a6dea55442bc1083b46da/tokenizer_config.json); function-call guide (https://github.com/MiniMax-AI/MiniMax-M1/blob/dd7e6d6e2995187e32434507909c8b88dd5851d8/docs/function_call_guide.md); vLLM minimax_tool_parser.py @ 875ce2ad',
  markers: [TOOL_CALLS, END_TOOL_CALLS],
  // the template gives a tool's answer its own turn: <beginning_of_sentence>tool name=tools
  results: ['<beginning_of_sentence>tool'],
  detect: (text) => detectObjects(text),
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const tokens = tokenSpans(text, [EOS]);
    for (let o = detectObjects(text, from); o >= 0; o = detectObjects(text, spans[spans.length - 1]![1])) {
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return withTokens(match('minimax-m1', spans, calls, p), tokens);
      };
      const r = readBlock(sc, o);
      if ('problem' in r) return fail(r.problem);
      calls.push(...r.calls);
      spans.push([o, optionalToken(text, r.end, [EOS])]);
    }
    return withTokens(match('minimax-m1', spans, calls), tokens);
  },
};
