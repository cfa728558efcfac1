/**
 * Salesforce xLAM-2 "fc-r": the whole reply is one JSON list of calls,
 * `[{"name": NAME, "arguments": ARGS}, …]` (the template renders `"[" + calls joined by ", " + "]"`,
 * and its instruction says "make calls in a single JSON array"). The same bare list is what Granite
 * 3.x writes when its `<|tool_call|>` special token is stripped, what Mistral writes when
 * `[TOOL_CALLS]` is, and what vLLM's `tool_choice="required"` decodes (with `"parameters"`): all read
 * here, labelled `xlam`. Entries are call objects only (./bare-json.ts); an entry that is not one
 * refuses the list (`shape`). A Markdown fence around the list is not read as the family's own (it
 * is a quotation, as for every family; vLLM's xlam parser reads fenced lists too).
 * Primary sources: the model card and chat template of Salesforce/Llama-xLAM-2-8b-fc-r
 * (https://huggingface.co/Salesforce/Llama-xLAM-2-8b-fc-r, revision not recorded), as copied in vLLM's
 * examples/tool_chat_template_xlam_llama.jinja @ 466716c2; confirmed by vLLM `xlam`
 * (xlam_tool_parser.py @ 761f1975).
 */

import type { Family } from '../family.js';
import { detectBareJson, parseBareJson } from './bare-json.js';

export const xlam: Family = {
  id: 'xlam',
  source:
    'Salesforce/Llama-xLAM-2-8b-fc-r model card and chat template (https://huggingface.co/Salesforce/Llama-xLAM-2-8b-fc-r, revision not recorded; copy: vLLM examples/tool_chat_template_xlam_llama.jinja @ 466716c2); vLLM xlam_tool_parser.py @ 761f1975',
  markers: [],
  detect: () => -1,
  detectBare: (text, before) => detectBareJson(text, ['list'], before),
  parse: (text, from) => parseBareJson(text, from),
};
