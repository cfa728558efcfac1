/**
 * IBM granite-20b-functioncalling: `<function_call> {"name": NAME, "arguments": ARGS}` per call,
 * back to back with no closer, the turn ending with `<|endoftext|>` (part of the envelope when
 * printed). The model's "no call" sentinel `<function_call> {"name": "no_function", "arguments": {}}`
 * names a tool nobody advertises, so it is refused `unadvertised` like any other name. Text between
 * or after the calls is prose (counted by the prose ratio and the framing rules).
 * Primary sources: the model card of ibm-granite/granite-20b-functioncalling
 * (https://huggingface.co/ibm-granite/granite-20b-functioncalling); no chat template of the model's
 * own was found: the one read is vLLM's examples/tool_chat_template_granite_20b_fc.jinja @ 1a7f9e3b,
 * written for its `granite-20b-fc` parser (granite_20b_fc_tool_parser.py @ 055e47c2).
 */

import type { Family, FamilyMatch } from '../family.js';
import { skipWs } from '../scan.js';
import { detectJsonBlock, parseJsonBlocks } from './json-blocks.js';

const OPENER = '<function_call>';
const EOT = '<|endoftext|>';

export const granite20bFc: Family = {
  id: 'granite-20b-fc',
  source:
    'ibm-granite/granite-20b-functioncalling model card (https://huggingface.co/ibm-granite/granite-20b-functioncalling); vLLM examples/tool_chat_template_granite_20b_fc.jinja @ 1a7f9e3b and granite_20b_fc_tool_parser.py @ 055e47c2',
  markers: [OPENER],
  detect: (text) => detectJsonBlock(text, OPENER),
  parse(text, from): FamilyMatch {
    const m = parseJsonBlocks(text, from, { family: 'granite-20b-fc', opener: OPENER, closer: null });
    const last = m.spans[m.spans.length - 1];
    if (m.problem === null && last !== undefined) {
      const k = skipWs(text, last[1]);
      if (text.startsWith(EOT, k)) last[1] = k + EOT.length;
    }
    return m;
  },
};
