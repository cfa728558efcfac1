/**
 * Microsoft Phi-4-mini-instruct. Two shapes are in use:
 * - native: `<|tool_call|>[{"name": NAME, "arguments": ARGS}, …]<|/tool_call|>` (a JSON list, or one
 *   call object, then the closer with its `/` inside the bars). The HF chat template renders no
 *   calls (tools go into the system turn between `<|tool|>` and `<|/tool|>`); this is the shape the
 *   model writes, as llama.cpp's custom Phi-4-mini template and Ollama's `phi4-mini` template render
 *   history calls and as BFCL's PhiFCHandler reads them. Without its closer the text is Granite's
 *   grammar (`<|tool_call|>[…]`, granite.ts), which then reads it (label `granite`): the two cannot
 *   be told apart, so the closer is required here;
 * - vLLM-prompted: `functools[{"name": NAME, "arguments": ARGS}, …]` with no closer (vLLM's
 *   Phi-4-mini template copies Firefunction v2's instruction). When a space stands right before
 *   `functools[` (Firefunction's own rendering, ` functools[`), the label is `firefunction-v2`
 *   (firefunction-v2.ts); the grammar is the same.
 * Primary sources: the model card and chat template of microsoft/Phi-4-mini-instruct
 * (https://huggingface.co/microsoft/Phi-4-mini-instruct, tokenizer_config.json, revision not
 * recorded); llama.cpp models/templates/llama-cpp-microsoft-Phi-4-mini-instruct.jinja @ 6d7822c1;
 * gorilla BFCL `PhiFCHandler`; vLLM examples/tool_chat_template_phi4_mini.jinja @ 07b13497 and
 * `phi4_mini_json` (phi4mini_tool_parser.py @ 055e47c2, which reads only `functools[…]`).
 */

import { callsFromJsonCallValue, jsonAt, match, type Family, type FamilyCall, type FamilyMatch } from '../family.js';
import { Scanner } from '../scan.js';
import { detectJsonBlock, parseJsonBlocks } from './json-blocks.js';

const OPENER = '<|tool_call|>';
const CLOSER = '<|/tool_call|>';
export const FUNCTOOLS = 'functools[';

/** The first `functools[` whose preceding character is (`spaced`) or is not a space, or -1. */
export function detectFunctools(text: string, spaced: boolean): number {
  for (let i = text.indexOf(FUNCTOOLS); i >= 0; i = text.indexOf(FUNCTOOLS, i + FUNCTOOLS.length)) {
    if ((i > 0 && text[i - 1] === ' ') === spaced) return i;
  }
  return -1;
}

/**
 * Reads every `functools[…]` list from `from`: the JSON list starts at the `[` of the marker and
 * ends the block (no closer); text after it is prose. The text ending inside a list is `truncated`.
 */
export function parseFunctools(text: string, from: number, family: string): FamilyMatch {
  const sc = new Scanner(text);
  const spans: Array<[number, number]> = [];
  const calls: FamilyCall[] = [];
  for (let o = sc.find(FUNCTOOLS, from); o >= 0; o = sc.find(FUNCTOOLS, spans[spans.length - 1]![1])) {
    const j = jsonAt(text, o + FUNCTOOLS.length - 1, 'call list');
    if (!j.ok) {
      spans.push([o, text.length]);
      return match(family, spans, calls, j.problem);
    }
    const got = callsFromJsonCallValue(text, j);
    if ('problem' in got) {
      spans.push([o, text.length]);
      return match(family, spans, calls, got.problem);
    }
    calls.push(...got.calls);
    spans.push([o, j.end]);
  }
  return match(family, spans, calls);
}

/** The first native block whose JSON is followed (outside strings) by the closer somewhere, or -1. */
function detectNative(text: string): number {
  const at = detectJsonBlock(text, OPENER);
  return at >= 0 && text.includes(CLOSER, at) ? at : -1;
}

export const phi4Mini: Family = {
  id: 'phi4-mini',
  source:
    'microsoft/Phi-4-mini-instruct model card and chat template (https://huggingface.co/microsoft/Phi-4-mini-instruct, revision not recorded); llama.cpp models/templates/llama-cpp-microsoft-Phi-4-mini-instruct.jinja @ 6d7822c1; gorilla BFCL PhiFCHandler; vLLM examples/tool_chat_template_phi4_mini.jinja @ 07b13497, phi4mini_tool_parser.py @ 055e47c2',
  // `<|tool_call|>` is Granite's marker (granite.ts): a stray one is labelled granite
  markers: [CLOSER, FUNCTOOLS],
  detect(text) {
    const a = detectNative(text);
    const b = detectFunctools(text, false);
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  },
  parse(text, from): FamilyMatch {
    if (text.startsWith(FUNCTOOLS, from)) return parseFunctools(text, from, 'phi4-mini');
    return parseJsonBlocks(text, from, { family: 'phi4-mini', opener: OPENER, closer: CLOSER });
  },
};
