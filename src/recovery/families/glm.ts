/**
 * GLM-4.5 / 4.6 (`<tool_call>NAME\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n</tool_call>`)
 * and GLM-4.7 / 5 (the same without newlines). The template writes strings raw and everything else
 * as JSON, so values are typed from the tool's schema (else kept as strings); nothing is trimmed.
 * Sources: the GLM chat templates (https://huggingface.co/zai-org/GLM-4.5,
 * https://huggingface.co/zai-org/GLM-4.7; no revision recorded) and sglang's glm4_moe_detector.py
 * (https://github.com/sgl-project/sglang/tree/main/python/sglang/srt/function_call);
 * docs/sources.md "Per-family grammars".
 */

import { Scanner, skipWs } from '../scan.js';
import {
  callFromParameters,
  shape,
  taggedElement,
  match,
  truncated,
  type Family,
  type FamilyCall,
  type FamilyMatch,
  type FamilyProblem,
  type RawParameter,
} from '../family.js';

const OPENER = '<tool_call>';
const CLOSER = '</tool_call>';
const KEY = '<arg_key>';
const END_KEY = '</arg_key>';
const VAL = '<arg_value>';
const END_VAL = '</arg_value>';
/** Tags a GLM value never holds: one inside means the value ran into the next element. */
const GLM_TAGS = [KEY, VAL];

/** A GLM block: the opener is directly followed by a name character. */
function isGlmStart(text: string, o: number): boolean {
  const c = text[o + OPENER.length];
  return c !== undefined && !' \t\r\n<{['.includes(c);
}

export const glm: Family = {
  id: 'glm',
  source: 'GLM-4.5/4.7 chat templates (https://huggingface.co/zai-org/GLM-4.5, https://huggingface.co/zai-org/GLM-4.7); sglang glm4_moe_detector.py (docs/sources.md "Per-family grammars")',
  markers: [KEY, END_KEY, VAL, END_VAL],
  // GLM-4.5's chat template opens a tool's answer with <|observation|> (then <tool_response>); Poolside
  // Laguna's templates (same call grammar) give it as <tool_response>…</tool_response> alone
  // (Ollama model/renderers/testdata/laguna_v2_chat_template.jinja2 @ fb307609)
  results: ['<|observation|>', '<tool_response>'],
  detect(text) {
    for (let o = text.indexOf(OPENER); o >= 0; o = text.indexOf(OPENER, o + OPENER.length)) if (isGlmStart(text, o)) return o;
    return -1;
  },
  parse(text, from, ctx): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    let pos = from;
    for (let o = sc.find(OPENER, pos); o >= 0; o = sc.find(OPENER, pos)) {
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return match('glm', spans, calls, p);
      };
      if (!isGlmStart(text, o)) return fail(shape('a <tool_call> block of another dialect'));
      let k = o + OPENER.length;
      while (k < text.length && text[k] !== '\n' && text[k] !== '<') k++;
      if (k >= text.length) return fail(truncated('the text ends inside the tool name'));
      const name = text.slice(o + OPENER.length, k);
      // TeleChat4 writes `<tool_call>NAME{…}`: no GLM name holds a JSON object
      if (name.includes('{')) return fail(shape('a JSON object after the tool name: not GLM\'s grammar'));
      const params: RawParameter[] = [];
      for (;;) {
        k = skipWs(text, k);
        if (k >= text.length) return fail(truncated(`the text ends before ${CLOSER}`));
        if (sc.at(k, CLOSER)) break;
        const key = taggedElement(sc, k, KEY, END_KEY, GLM_TAGS, 'runs into the next element');
        if ('problem' in key) return fail(key.problem);
        const val = taggedElement(sc, skipWs(text, key.end), VAL, END_VAL, GLM_TAGS, 'runs into the next element');
        if ('problem' in val) return fail(val.problem);
        params.push({ key: key.value, value: val.value, mode: 'schema' });
        k = val.end;
      }
      calls.push(callFromParameters(name, params, ctx));
      pos = k + CLOSER.length;
      spans.push([o, pos]);
    }
    return match('glm', spans, calls);
  },
};
