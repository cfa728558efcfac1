/**
 * Llama 3.1 / 3.2 / 3.3 JSON tool calls written with no marker: the whole reply is
 * `{"name": NAME, "parameters": ARGS}` (the HF chat template renders a call so, and its tool
 * instruction asks "Respond in the format {"name": function name, "parameters": dictionary of
 * argument name and its value}"), or Meta's `{"type": "function", "name": NAME, "parameters": ARGS}`;
 * several objects back to back or separated by `;` (the servers' convention; the template allows one).
 * With `<|python_tag|>` before it the call is the `llama` family (llama.ts).
 * Primary sources: Meta's Llama 3.1 prompt format, "JSON based tool calling"
 * (https://github.com/meta-llama/llama-models/blob/8d29d93fa5700a60532e0061a02ffa89d0acd3fc/models/llama3_1/prompt_format.md),
 * the chat template of meta-llama/Llama-3.1-8B-Instruct
 * (https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/blob/main/tokenizer_config.json, revision
 * not recorded) and Meta's reference parser models/llama3/tool_utils.py `maybe_extract_custom_tool_call`
 * (llama-models @ a9c89c47); confirmed by vLLM `llama3_json` (llama_tool_parser.py @ 055e47c2) and
 * SGLang `llama3` (llama32_detector.py @ 01c3e438).
 * Shapes and cost: ./bare-json.ts. Arguments are JSON, never re-typed.
 */

import type { Family } from '../family.js';
import { detectBareJson, parseBareJson } from './bare-json.js';

export const llama3Json: Family = {
  id: 'llama3-json',
  source:
    'Meta Llama 3.1 prompt format, JSON based tool calling (https://github.com/meta-llama/llama-models/blob/8d29d93fa5700a60532e0061a02ffa89d0acd3fc/models/llama3_1/prompt_format.md); meta-llama/Llama-3.1-8B-Instruct chat template (https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/blob/main/tokenizer_config.json, revision not recorded); Meta tool_utils.py @ a9c89c47; vLLM llama_tool_parser.py @ 055e47c2; SGLang llama32_detector.py @ 01c3e438',
  markers: [],
  detect: () => -1,
  detectBare: (text, before) => detectBareJson(text, ['parameters'], before),
  parse: (text, from) => parseBareJson(text, from),
};
