/**
 * Fireworks FireFunction v2 (llama-3-firefunction-v2): `[content] functools[{"name": NAME,
 * "arguments": ARGS}, …]`, one JSON list prefixed by the word `functools` with one space before it
 * ("prefix function calls with functools marker (no closing marker required)"), right after the
 * content or, with none, at the start of the turn (so a call-only reply starts with ` functools[`).
 * ARGS is the history's arguments string passed through, so a JSON object (a string holding one is
 * decoded once). The grammar is read by phi4-mini.ts (`functools[` not preceded by a space is
 * labelled `phi4-mini`); text after the list is prose.
 * Primary source: the chat template of fireworks-ai/llama-3-firefunction-v2
 * (https://huggingface.co/fireworks-ai/llama-3-firefunction-v2, revision not recorded; verbatim GGUF
 * copy in huggingface.js packages/ollama-utils/src/chat-template-automap.ts @ 007948d5, entry
 * `library/firefunction-v2:70b`); confirmed by llama.cpp's `FireFunction v2` format
 * (common/chat.cpp @ 85c9a504) and Ollama's `functools[` tag (tools/template_test.go @ fb307609).
 */

import type { Family } from '../family.js';
import { detectFunctools, FUNCTOOLS, parseFunctools } from './phi4-mini.js';

export const firefunctionV2: Family = {
  id: 'firefunction-v2',
  source:
    'fireworks-ai/llama-3-firefunction-v2 chat template (https://huggingface.co/fireworks-ai/llama-3-firefunction-v2, revision not recorded; GGUF copy: huggingface.js chat-template-automap.ts @ 007948d5); llama.cpp common/chat.cpp FireFunction v2 @ 85c9a504; Ollama tools/template_test.go @ fb307609',
  markers: [FUNCTOOLS],
  detect: (text) => detectFunctools(text, true),
  parse: (text, from) => parseFunctools(text, from, 'firefunction-v2'),
};
