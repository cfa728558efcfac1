/**
 * HyperCLOVAX-SEED-Think-14B (NAVER): the calls are a message of their own, a role header naming
 * the call channel and a JSON list,
 *
 *   `<|im_start|>assistant -> tool/function_call\n[{"name": NAME, "arguments": ARGS}, …]<|im_end|><|stop|>`
 *
 * after an optional reasoning message `<|im_start|>assistant/think\n…<|im_end|>` and an optional text
 * message `<|im_start|>assistant\n…<|im_end|>`. The generation prompt ends with `<|im_start|>assistant`,
 * so a reply that calls at once starts with ` -> tool/function_call\n[`. The role header is the
 * opener; `<|im_end|>` closes the list when it is printed (a stop token: without it the list ends the
 * block). A tool's answer is a `<|im_start|>tool/function_call\n…` message: written after a call, it is
 * a result the model made up (`shape`).
 *
 * Sources: the 14B tool template as shipped by vLLM
 * (https://github.com/vllm-project/vllm/blob/9a525916e3dfc19c9b00febc373d0d0a556614f6/examples/tool_chat_template_hyperclovax_seed_think_14b.jinja;
 * the model's own tokenizer_config.json was not read) and vLLM's parser
 * hyperclovax_seed_think_14b_tool_parser.py @ 0676dfcb ("adapted from the HyperCLOVA X vLLM plugin").
 * The list is read as Hermes' JSON is (./json-blocks.ts): an entry holds `name` and `arguments` (or
 * `parameters`, which the parser also takes). HyperCLOVAX-SEED-Think (32B) writes GLM's blocks
 * instead, read by `glm`.
 */

import type { Family } from '../family.js';
import { shape, match } from '../family.js';
import { tokenSpans, withTokens, insideBlock } from './call-lists.js';
import { detectJsonBlock, parseJsonBlocks } from './json-blocks.js';

const OPENER = '-> tool/function_call';
const CLOSER = '<|im_end|>';
const THINK = '<|im_start|>assistant/think';
/** Chat tokens around the calls: markup whose bodies (reasoning, text) are prose. */
const TOKENS = [THINK, '<|im_start|>assistant', CLOSER, '<|stop|>', '<|endofturn|>'];
const RESULT = '<|im_start|>tool/function_call';
const ROLE = '<|im_start|>assistant';

export const hyperclovax: Family = {
  id: 'hyperclovax',
  source:
    'HyperCLOVAX-SEED-Think-14B tool template as shipped by vLLM (https://github.com/vllm-project/vllm/blob/9a525916e3dfc19c9b00febc373d0d0a556614f6/examples/tool_chat_template_hyperclovax_seed_think_14b.jinja); vLLM hyperclovax_seed_think_14b_tool_parser.py @ 0676dfcb',
  markers: [OPENER],
  results: [RESULT],
  detect: (text) => detectJsonBlock(text, OPENER),
  parse(text, from) {
    const o = text.indexOf(OPENER, from);
    if (o >= 0 && insideBlock(text, o, THINK, CLOSER)) {
      return withTokens(match('hyperclovax', [[o, text.length]], [], shape('a call inside the reasoning message (reasoning is never recovered)')), tokenSpans(text, TOKENS));
    }
    const m = parseJsonBlocks(text, from, { family: 'hyperclovax', opener: OPENER, closer: CLOSER, closerOptional: true });
    return withTokens({ ...m, spans: m.spans.map(([a, b]) => [headerStart(text, a), b]) }, tokenSpans(text, TOKENS));
  },
};

/** A block starts at its role header's `<|im_start|>assistant` when the text writes one before the opener. */
function headerStart(text: string, at: number): number {
  let k = at;
  while (k > 0 && text.charCodeAt(k - 1) === 0x20) k--;
  return text.endsWith(ROLE, k) ? k - ROLE.length : at;
}
