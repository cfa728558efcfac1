/**
 * Hermes 2 Pro / Hermes 3 / Qwen2.5 / Qwen3 (non-Coder) / Granite 3.1+ JSON in `<tool_call>`:
 * `<tool_call>\n{"name": NAME, "arguments": ARGS}\n</tool_call>`, repeated per call; the body may
 * also be a JSON array of call objects (Granite 3.1–3.3).
 * Source: tool-call-markup.md §B.8 (Hermes 2 Pro prompt, vLLM hermes_tool_parser) and §B.13.
 * Unlike vLLM, a final block without `</tool_call>` is `truncated`, not accepted.
 */

import type { Family } from '../family.js';
import { detectJsonBlock, parseJsonBlocks } from './json-blocks.js';

const OPENER = '<tool_call>';

export const hermes: Family = {
  id: 'hermes',
  source: 'tool-call-markup.md §B.8, §B.13 (Hermes 2 Pro template; vLLM hermes_tool_parser)',
  markers: ['<tool_call>', '</tool_call>'],
  detect: (text) => detectJsonBlock(text, OPENER),
  parse: (text, from) => parseJsonBlocks(text, from, { family: 'hermes', opener: OPENER, closer: '</tool_call>' }),
};
