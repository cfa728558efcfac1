/**
 * Llama 3.1–3.3 custom tools behind `<|python_tag|>` (`{"name": NAME, "parameters": ARGS}`, the turn
 * ends with an end-of-message token that may or may not be printed), and Llama 4's
 * `<|python_start|>{…}<|python_end|>`.
 * Source: tool-call-markup.md §B.6 (vLLM llama_tool_parser, llama.cpp common_chat_parse_llama_3_1).
 * Bare JSON without a marker is not read: it cannot be told from an answer that is JSON.
 */

import type { Family, FamilyMatch } from '../family.js';
import { detectJsonBlock, parseJsonBlocks } from './json-blocks.js';

const TAG = '<|python_tag|>';
const START = '<|python_start|>';

export const llama: Family = {
  id: 'llama',
  source: 'tool-call-markup.md §B.6 (vLLM llama_tool_parser; llama.cpp)',
  markers: [TAG, START, '<|python_end|>', '<|eom_id|>'],
  detect(text) {
    const a = detectJsonBlock(text, TAG);
    const b = detectJsonBlock(text, START);
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  },
  parse(text, from): FamilyMatch {
    if (text.startsWith(START, from)) {
      return parseJsonBlocks(text, from, { family: 'llama4', opener: START, closer: '<|python_end|>' });
    }
    return parseJsonBlocks(text, from, { family: 'llama', opener: TAG, closer: '<|eom_id|>', closerOptional: true });
  },
};
