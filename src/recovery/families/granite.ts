/**
 * IBM Granite 3.0: `<|tool_call|>[{"name": NAME, "arguments": ARGS}, …]`, a JSON array right after
 * the special token, ended by the end of the turn (no closer).
 * Source: tool-call-markup.md §B.13 (vLLM granite_tool_parser).
 */

import type { Family } from '../family.js';
import { detectJsonBlock, parseJsonBlocks } from './json-blocks.js';

const OPENER = '<|tool_call|>';

export const granite: Family = {
  id: 'granite',
  source: 'tool-call-markup.md §B.13 (vLLM granite_tool_parser)',
  markers: [OPENER],
  detect: (text) => detectJsonBlock(text, OPENER),
  parse: (text, from) => parseJsonBlocks(text, from, { family: 'granite', opener: OPENER, closer: null }),
};
