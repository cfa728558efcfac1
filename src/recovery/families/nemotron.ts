/**
 * NVIDIA Nemotron (Llama-3.3-Nemotron-Super-49B-v1.5, Nemotron Nano v2):
 * `[content]<TOOLCALL>[{"name": NAME, "arguments": ARGS}, …]</TOOLCALL>` (upper-case tags; Nano v2
 * puts `\n\n` after non-empty content), then the end of turn. ARGS is JSON (`tojson`, or a string
 * passed through: decoded once). The instruction shows the list with doubled braces
 * (`[{{"name": …}}]`, a Jinja string literal printed as is); a model that imitates it writes JSON
 * that does not parse, refused `bad_arguments`. The closer is required (vLLM reads only closed blocks).
 * Not this family: Nemotron-Mini-4B's `<toolcall>` (Ollama template only) and Nemotron 3 Nano
 * (Qwen3-Coder XML).
 * Primary sources: the model card and chat template of nvidia/Llama-3_3-Nemotron-Super-49B-v1_5
 * (https://huggingface.co/nvidia/Llama-3_3-Nemotron-Super-49B-v1_5, revision not recorded; copies:
 * llama.cpp models/templates/nvidia-Llama-3_3-Nemotron-Super-49B-v1_5.jinja @ 1035d607 and
 * NVIDIA-Nemotron-Nano-v2.jinja @ 5801ed35); confirmed by vLLM's NemotronJSONToolParser
 * (vllm/tool_parsers/nemotron_json_tool_parser.py @ 32367d45) and llama.cpp's `Nemotron V2` format.
 */

import type { Family } from '../family.js';
import { detectJsonBlock, parseJsonBlocks } from './json-blocks.js';

const OPENER = '<TOOLCALL>';
const CLOSER = '</TOOLCALL>';

export const nemotron: Family = {
  id: 'nemotron',
  source:
    'nvidia/Llama-3_3-Nemotron-Super-49B-v1_5 model card and chat template (https://huggingface.co/nvidia/Llama-3_3-Nemotron-Super-49B-v1_5, revision not recorded; copies: llama.cpp models/templates/nvidia-Llama-3_3-Nemotron-Super-49B-v1_5.jinja @ 1035d607, NVIDIA-Nemotron-Nano-v2.jinja @ 5801ed35); vLLM nemotron_json_tool_parser.py @ 32367d45',
  markers: [OPENER, CLOSER],
  detect: (text) => detectJsonBlock(text, OPENER),
  parse: (text, from) => parseJsonBlocks(text, from, { family: 'nemotron', opener: OPENER, closer: CLOSER }),
};
