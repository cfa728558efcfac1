/**
 * MiniMax-M2 / M2.5: `<minimax:tool_call>` holding `<invoke name="N">` elements with
 * `<parameter name="K">V</parameter>` children. Strings are written raw and everything else as JSON
 * by the template, so values are typed from the tool's schema (else kept as strings); nothing is
 * trimmed. Source: tool-call-markup.md §B.11 (MiniMax-M2 chat template; sglang minimax_m2; llama.cpp).
 */

import type { Family, FamilyMatch } from '../family.js';
import { parseInvokeContainers } from './xml.js';

const OPENER = '<minimax:tool_call>';

export const minimax: Family = {
  id: 'minimax',
  source: 'tool-call-markup.md §B.11 (MiniMax-M2 template; sglang minimax_m2)',
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
