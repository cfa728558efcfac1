/**
 * Hermes 2 Pro / Hermes 3 / Qwen2.5 / Qwen3 (non-Coder) / Granite 3.1+ JSON in `<tool_call>`, also
 * written by models with no family of their own (test/recovery/mapped-families.test.ts): Granite 4.0,
 * ERNIE 4.5 (`</think>\n\n<tool_call>\n{…}\n</tool_call>`) and EXAONE 4.0
 * (`<tool_call>{…}</tool_call>` joined by `\n`, the turn ended by `[|endofturn|]`):
 * `<tool_call>\n{"name": NAME, "arguments": ARGS}\n</tool_call>`, repeated per call; the body may
 * also be a JSON array of call objects (Granite 3.1–3.3).
 * Sources: the Hermes 2 Pro model card's function-calling prompt
 * (https://huggingface.co/NousResearch/Hermes-2-Pro-Llama-3-8B), vLLM's hermes_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/becf329d2cb4494516f3672d291d4d7c06a57563/vllm/tool_parsers/hermes_tool_parser.py),
 * and for Granite's array vLLM's granite_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/400ffd7655ff746cbcd3b9b3f44d97c02f5f3503/vllm/tool_parsers/granite_tool_parser.py);
 * docs/sources.md "Per-family grammars".
 * Unlike vLLM, a final block without `</tool_call>` is `truncated`, not accepted.
 */

import type { Family } from '../family.js';
import { detectJsonBlock, parseJsonBlocks } from './json-blocks.js';

const OPENER = '<tool_call>';

export const hermes: Family = {
  id: 'hermes',
  source: 'Hermes 2 Pro model card (https://huggingface.co/NousResearch/Hermes-2-Pro-Llama-3-8B); vLLM hermes_tool_parser.py @ becf329d, granite_tool_parser.py @ 400ffd76 (docs/sources.md "Per-family grammars")',
  markers: ['<tool_call>', '</tool_call>'],
  // Qwen2.5/Hermes chat templates render a tool's answer as <tool_response>…</tool_response> (a user turn);
  // EXAONE 4.0's (Hermes blocks, no newlines inside) as a `[|tool|]` turn holding <tool_result>…</tool_result>
  results: ['<tool_response>', '<tool_result>', '[|tool|]'],
  detect: (text) => detectJsonBlock(text, OPENER),
  parse: (text, from) => parseJsonBlocks(text, from, { family: 'hermes', opener: OPENER, closer: '</tool_call>' }),
};
