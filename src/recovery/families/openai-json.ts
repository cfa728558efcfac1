/**
 * OpenAI-style call objects written as bare JSON: `{"name": NAME, "arguments": ARGS}` (the inner
 * object of Hermes, Granite, Jamba, Nemotron, xLAM and others, left when a server drops the tags or
 * the model omits them), the OpenAI Chat Completions tool-call object
 * `{"type": "function", "function": {"name": NAME, "arguments": ARGS}}` (optionally with `"id"`),
 * and llama.cpp's Generic format `{"tool_call": {…}}` / `{"tool_calls": [{…, "id": …}, …]}`
 * (label `llamacpp-generic`). ARGS is an object, or a JSON string holding one (decoded once, as
 * vLLM does for Hermes). Several objects may follow each other (whitespace or `;` between).
 * Primary sources: the OpenAI Chat Completions tool-call object
 * (https://platform.openai.com/docs/api-reference/chat/object, `tool_calls[].function`), the
 * llama.cpp Generic format (https://github.com/ggml-org/llama.cpp/blob/85c9a504/common/chat.cpp,
 * `common_chat_params_init_generic`: `{"tool_call": …}`, `{"tool_calls": [{"name", "arguments", "id"}]}`);
 * confirmed by Ollama's generic tool parser (tools/tools.go @ fb307609) and vLLM `llama3_json`
 * (llama_tool_parser.py @ 055e47c2), which read `arguments` or `parameters`.
 * Shapes and cost: ./bare-json.ts. Arguments are JSON, never re-typed.
 */

import type { Family } from '../family.js';
import { detectBareJson, parseBareJson } from './bare-json.js';

export const openaiJson: Family = {
  id: 'openai-json',
  source:
    'OpenAI Chat Completions tool-call object (https://platform.openai.com/docs/api-reference/chat/object); llama.cpp Generic format, common/chat.cpp common_chat_params_init_generic (https://github.com/ggml-org/llama.cpp/blob/85c9a504/common/chat.cpp); Ollama tools/tools.go @ fb307609; vLLM llama_tool_parser.py @ 055e47c2',
  markers: [],
  detect: () => -1,
  detectBare: (text, before) => detectBareJson(text, ['arguments', 'function', 'wrapper'], before),
  parse: (text, from) => parseBareJson(text, from),
};
