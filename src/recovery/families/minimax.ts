/**
 * MiniMax-M2 / M2.5: `<minimax:tool_call>` holding `<invoke name="N">` elements with
 * `<parameter name="K">V</parameter>` children. Strings are written raw and everything else as JSON
 * by the template, so values are typed from the tool's schema (else kept as strings); nothing is
 * trimmed. Sources: the MiniMax-M2 chat template (https://huggingface.co/MiniMaxAI/MiniMax-M2; no
 * revision recorded), sglang's minimax_m2.py
 * (https://github.com/sgl-project/sglang/tree/main/python/sglang/srt/function_call) and llama.cpp's
 * common/chat-parser-xml-toolcall.h; docs/sources.md "Per-family grammars".
 */

import type { Family, FamilyMatch } from '../family.js';
import { parseInvokeContainers } from './xml.js';

const OPENER = '<minimax:tool_call>';

export const minimax: Family = {
  id: 'minimax',
  source: 'MiniMax-M2 chat template (https://huggingface.co/MiniMaxAI/MiniMax-M2); sglang minimax_m2.py (docs/sources.md "Per-family grammars")',
  markers: [OPENER, '</minimax:tool_call>'],
  detect: (text) => text.indexOf(OPENER),
  parse: (text, from, ctx): FamilyMatch =>
    parseInvokeContainers(text, from, {
      family: 'minimax',
      prefix: '',
      containers: ['minimax:tool_call'],
      jsonBody: false,
      mode: () => ({ mode: 'schema' }),
    }, ctx),
};
