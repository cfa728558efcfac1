/**
 * IBM Granite 3.0: `<|tool_call|>[{"name": NAME, "arguments": ARGS}, …]`, a JSON array right after
 * the special token, ended by the end of the turn (no closer).
 * Source: vLLM's granite_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/400ffd7655ff746cbcd3b9b3f44d97c02f5f3503/vllm/tool_parsers/granite_tool_parser.py);
 * docs/sources.md "Per-family grammars".
 */

import type { Family } from '../family.js';
import { detectJsonBlock, parseJsonBlocks } from './json-blocks.js';

const OPENER = '<|tool_call|>';

export const granite: Family = {
  id: 'granite',
  source: 'Granite 3.0 chat template (https://huggingface.co/ibm-granite/granite-3.0-8b-instruct/blob/main/tokenizer_config.json); vLLM granite_tool_parser.py @ 400ffd76 (docs/sources.md "Per-family grammars")',
  markers: [OPENER],
  detect: (text) => detectJsonBlock(text, OPENER),
  parse: (text, from) => parseJsonBlocks(text, from, { family: 'granite', opener: OPENER, closer: null }),
};
