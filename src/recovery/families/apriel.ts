/**
 * ServiceNow Apriel 1.5 (15B Thinker): `[content]\n<tool_calls>[{"name": NAME, "arguments": ARGS[,
 * "id": ID]}, …]</tool_calls>\n<|end|>`. The template joins the calls with `, ` on one line and
 * writes `arguments|string`: a JSON string passes through (decoded once here), while a dict would
 * print as a Python repr (`{'city': 'Paris'}`), which is not JSON and is refused `bad_arguments`.
 * The tags are Jamba's (jamba.ts): a list opened by `[` and a line break is labelled `jamba`, any
 * other `apriel`. The closer is required.
 * Primary source: the model card of ServiceNow-AI/Apriel-1.5-15b-Thinker
 * (https://huggingface.co/ServiceNow-AI/Apriel-1.5-15b-Thinker); its official chat template was not
 * found, the one read is Unsloth's fixed copy in llama.cpp models/templates/unsloth-Apriel-1.5.jinja
 * @ 0374c5b6; confirmed by llama.cpp's `Apriel 1.5` format (common/chat.cpp @ 85c9a504).
 */

import type { Family } from '../family.js';
import { parseJsonBlocks } from './json-blocks.js';
import { detectToolCalls, END_TOOL_CALLS, TOOL_CALLS } from './jamba.js';

export const apriel: Family = {
  id: 'apriel',
  source:
    'ServiceNow-AI/Apriel-1.5-15b-Thinker model card (https://huggingface.co/ServiceNow-AI/Apriel-1.5-15b-Thinker); chat template as fixed by Unsloth, llama.cpp models/templates/unsloth-Apriel-1.5.jinja @ 0374c5b6 (official template not found); llama.cpp common/chat.cpp Apriel 1.5 @ 85c9a504',
  markers: [TOOL_CALLS, END_TOOL_CALLS],
  detect: (text) => detectToolCalls(text, false),
  parse: (text, from) => parseJsonBlocks(text, from, { family: 'apriel', opener: TOOL_CALLS, closer: END_TOOL_CALLS }),
};
