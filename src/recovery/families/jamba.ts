/**
 * AI21 Jamba 1.5–1.7: `[content]<tool_calls>[\n{"name": NAME, "arguments": ARGS},\n…\n]</tool_calls>`,
 * then `<|eom|>`. The template's `handle_tool_calls` macro writes `"[\n"` after the opener and
 * `"\n]"` before the closer; content is glued to the opener. ARGS is JSON (`tojson`, or a string
 * passed through: decoded once). ServiceNow Apriel 1.5 uses the same tags with the list written
 * `[{…}, {…}]` on one line (apriel.ts): a list opened by `[` and a line break is labelled `jamba`,
 * any other `apriel`. The closer is required (vLLM's jamba parser reads only closed blocks).
 * Primary source: the chat template of ai21labs/AI21-Jamba-Mini-1.7
 * (https://huggingface.co/ai21labs/AI21-Jamba-Mini-1.7, revision not recorded; text read from a copy
 * stated to be the real template, r-rojo/rampipe tests/fixtures/jamba_mini_1_7_chat_template.jinja
 * @ 3c7722e3); confirmed by vLLM `jamba` (jamba_tool_parser.py @ 055e47c2).
 */

import type { Family } from '../family.js';
import { isWs } from '../scan.js';
import { parseJsonBlocks } from './json-blocks.js';

export const TOOL_CALLS = '<tool_calls>';
export const END_TOOL_CALLS = '</tool_calls>';

/** True when the list after the opener at `o` starts `[` then a line break (Jamba's layout). */
function jambaLayout(text: string, o: number): boolean {
  let i = o + TOOL_CALLS.length;
  if (text[i] !== '[') return false;
  i++;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return text[i] === '\n' || text[i] === '\r';
}

/** The first `<tool_calls>` followed by a JSON list or object whose layout is (`jamba`) or is not Jamba's, or -1. */
export function detectToolCalls(text: string, jamba: boolean): number {
  for (let o = text.indexOf(TOOL_CALLS); o >= 0; o = text.indexOf(TOOL_CALLS, o + TOOL_CALLS.length)) {
    let j = o + TOOL_CALLS.length;
    while (isWs(text[j])) j++;
    if (text[j] !== '[' && text[j] !== '{') continue;
    if (jambaLayout(text, o) === jamba) return o;
  }
  return -1;
}

export const jamba: Family = {
  id: 'jamba',
  source:
    'ai21labs/AI21-Jamba-Mini-1.7 chat template (https://huggingface.co/ai21labs/AI21-Jamba-Mini-1.7, revision not recorded; copy: r-rojo/rampipe tests/fixtures/jamba_mini_1_7_chat_template.jinja @ 3c7722e3); vLLM jamba_tool_parser.py @ 055e47c2',
  markers: [TOOL_CALLS, END_TOOL_CALLS],
  detect: (text) => detectToolCalls(text, true),
  parse: (text, from) => parseJsonBlocks(text, from, { family: 'jamba', opener: TOOL_CALLS, closer: END_TOOL_CALLS }),
};
