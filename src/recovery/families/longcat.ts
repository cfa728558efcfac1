/**
 * Meituan LongCat-Flash: each call a Hermes-style JSON object in its own
 * `<longcat_tool_call>\n{"name": NAME, "arguments": ARGS}\n</longcat_tool_call>`, blocks placed back to
 * back, the turn ended by `</longcat_s>`. Source: the LongCat-Flash-Chat model card
 * (https://github.com/meituan-longcat/LongCat-Flash-Chat/blob/87d1b71a1b55ee2cce2ce99700aabc797e23d2ed/README.md,
 * "ToolCall"; the Hugging Face card meituan-longcat/LongCat-Flash-Chat mirrors it); vLLM's
 * longcat_tool_parser.py @ ec343f4c (a Hermes parser with these tags) confirms it. Arguments are
 * JSON (typed by the markup). Unlike vLLM, a final block without its closer is `truncated`.
 */

import type { Family } from '../family.js';
import { tokenSpans, withTokens } from './call-lists.js';
import { detectJsonBlock, parseJsonBlocks } from './json-blocks.js';

const OPENER = '<longcat_tool_call>';
const CLOSER = '</longcat_tool_call>';

export const longcat: Family = {
  id: 'longcat',
  source: 'LongCat-Flash-Chat model card (https://github.com/meituan-longcat/LongCat-Flash-Chat/blob/87d1b71a1b55ee2cce2ce99700aabc797e23d2ed/README.md); vLLM longcat_tool_parser.py @ ec343f4c',
  markers: [OPENER, CLOSER],
  detect: (text) => detectJsonBlock(text, OPENER),
  parse: (text, from) => withTokens(parseJsonBlocks(text, from, { family: 'longcat', opener: OPENER, closer: CLOSER }), tokenSpans(text, ['</longcat_s>'])),
};
