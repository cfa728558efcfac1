/**
 * Llama 3.1–3.3 custom tools behind `<|python_tag|>` (`{"name": NAME, "parameters": ARGS}`, the turn
 * ends with an end-of-message token that may or may not be printed), and Llama 4's
 * `<|python_start|>{…}<|python_end|>`.
 * Sources: vLLM's llama_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/13e48c2bd449aafc4b60d0783d30e072f3201805/vllm/tool_parsers/llama_tool_parser.py)
 * and llama.cpp's common_chat_parse_llama_3_1
 * (https://github.com/ggml-org/llama.cpp/blob/master/common/chat.cpp); no source was recorded for
 * Llama 4's `<|python_start|>` wrapper (docs/sources.md "Per-family grammars").
 * Bare JSON without a marker is not read: it cannot be told from an answer that is JSON.
 */

import type { Family, FamilyMatch } from '../family.js';
import { detectJsonBlock, parseJsonBlocks } from './json-blocks.js';

const TAG = '<|python_tag|>';
const START = '<|python_start|>';

export const llama: Family = {
  id: 'llama',
  source: 'Llama 3.1 prompt format (https://www.llama.com/docs/model-cards-and-prompt-formats/llama3_1/) and Llama 4 (https://www.llama.com/docs/model-cards-and-prompt-formats/llama4/); vLLM llama_tool_parser.py @ 13e48c2b; llama.cpp common/chat.cpp common_chat_parse_llama_3_1 (docs/sources.md "Per-family grammars")',
  markers: [TAG, START, '<|python_end|>', '<|eom_id|>'],
  // Llama 3.1's chat template gives a tool's answer the ipython role
  results: ['<|start_header_id|>ipython<|end_header_id|>'],
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
