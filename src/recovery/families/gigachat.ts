/**
 * Sber GigaChat 3 and GigaChat 3.5.
 *
 * GigaChat 3 writes a call as a message of its own, the pseudo-role `function call`:
 * `<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": NAME, "arguments": ARGS}<|message_sep|>`, one
 * call per turn (the template renders the first tool call only). Source: the GigaChat 3 chat
 * template (the model's chat_template, copied in llama.cpp
 * https://github.com/ggml-org/llama.cpp/blob/6f9ffbd9dba6b4b0311dba3c72ff1960f13edd74/models/templates/GigaChat3-10B-A1.8B.jinja;
 * HF revision not recorded): `render_role_message` writes `role + "<|role_sep|>\n" + content +
 * "<|message_sep|>\n\n"`, and `render_function_call` the content `{"name": "…", "arguments": …}`.
 *
 * GigaChat 3.5 writes GCML, DSML's shape under its own namespace:
 * `<｜GCML｜tool_calls>\n<｜GCML｜invoke name="N">\n<｜GCML｜parameter name="K" string="true">V</｜GCML｜parameter>\n</｜GCML｜invoke>\n</｜GCML｜tool_calls>`
 * (｜ is U+FF5C). Source: the GigaChat 3.5 chat template (llama.cpp
 * https://github.com/ggml-org/llama.cpp/blob/44cfbebb441feb06939b275fed91319995cdd4d8/models/templates/GigaChat3.5.jinja,
 * `render_gcml_parameter`: a string as `string="true"` and its text, anything else as
 * `string="false"` and `tojson`); vLLM gigachat35_tool_parser.py @ 053521db confirms it. The markup
 * types values: `string="true"` keeps the text, `string="false"` must be JSON; a parameter without
 * the attribute (the template never writes one) is typed from the schema, as DSML's.
 *
 * Other role headers (`assistant<|role_sep|>`) and message separators are markup whose bodies are
 * prose.
 */

import { callsFromJsonCallValue, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner } from '../scan.js';
import { readContainer, type InvokeGrammar } from './xml.js';

const ROLE_SEP = '<|role_sep|>';
const MESSAGE_SEP = '<|message_sep|>';
const GCML = '<｜GCML｜';
const CALL_ROLE = 'function call';
const ROLE = /^[a-z][a-z _]*$/;

const GCML_GRAMMAR: InvokeGrammar = {
  family: 'gigachat3.5',
  prefix: '｜GCML｜',
  containers: ['tool_calls'],
  jsonBody: false,
  mode(attrs) {
    const flag = attrs.get('string');
    if (flag === undefined) return { mode: 'schema' };
    if (flag === 'true') return { mode: 'string' };
    if (flag === 'false') return { mode: 'json' };
    return { mode: 'string', error: `parameter "${attrs.get('name')}" has string="${flag}", neither true nor false` };
  },
};

function next(sc: Scanner, from: number): number {
  let best = -1;
  for (const t of [ROLE_SEP, MESSAGE_SEP, `${GCML}tool_calls`]) {
    const at = sc.find(t, from);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}

/** Where the role header ending at the `<|role_sep|>` at `at` starts (its line), and the role. */
function roleBefore(text: string, at: number): { start: number; role: string } {
  // `function call` right before the token, not glued to a word before it
  const f = at - CALL_ROLE.length;
  if (f >= 0 && text.startsWith(CALL_ROLE, f) && (f === 0 || !/[\p{L}\p{N}_ ]/u.test(text[f - 1]!))) return { start: f, role: CALL_ROLE };
  let s = at;
  while (s > 0 && text[s - 1] !== '\n' && at - s < 40) s--;
  // a role glued after a message separator on the same line
  const sep = text.slice(s, at).lastIndexOf(MESSAGE_SEP);
  if (sep >= 0) s += sep + MESSAGE_SEP.length;
  return { start: s, role: text.slice(s, at) };
}

export const gigachat: Family = {
  id: 'gigachat',
  source: 'GigaChat 3 chat template (https://github.com/ggml-org/llama.cpp/blob/6f9ffbd9dba6b4b0311dba3c72ff1960f13edd74/models/templates/GigaChat3-10B-A1.8B.jinja) and GigaChat 3.5 chat template (https://github.com/ggml-org/llama.cpp/blob/44cfbebb441feb06939b275fed91319995cdd4d8/models/templates/GigaChat3.5.jinja); vLLM gigachat3_tool_parser.py, gigachat35_tool_parser.py @ 053521db',
  markers: [ROLE_SEP, MESSAGE_SEP, GCML, `</${GCML.slice(1)}`],
  detect(text) {
    const sc = new Scanner(text);
    const at = next(sc, 0);
    if (at < 0) return -1;
    return sc.at(at, ROLE_SEP) ? roleBefore(text, at).start : at;
  },
  parse(text, from, ctx): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const callSpans: Array<[number, number]> = [];
    let label: string | null = null;
    const done = (p: FamilyProblem | null = null): FamilyMatch => ({ ...match(label ?? (text.includes(GCML) ? 'gigachat3.5' : 'gigachat3'), spans, calls, p), callSpans });
    for (let at = next(sc, from); at >= 0; ) {
      if (sc.at(at, MESSAGE_SEP)) {
        spans.push([at, at + MESSAGE_SEP.length]);
        at = next(sc, at + MESSAGE_SEP.length);
        continue;
      }
      if (sc.at(at, GCML)) {
        const r = readContainer(sc, at, GCML_GRAMMAR, ctx);
        label ??= 'gigachat3.5';
        if ('problem' in r) {
          spans.push([at, text.length]);
          callSpans.push([at, text.length]);
          return done(r.problem);
        }
        calls.push(...r.calls);
        spans.push([at, r.end]);
        callSpans.push([at, r.end]);
        at = next(sc, r.end);
        continue;
      }
      // a role header
      const { start, role } = roleBefore(text, at);
      const headerEnd = at + ROLE_SEP.length;
      if (role !== CALL_ROLE) {
        spans.push([ROLE.test(role) ? start : at, headerEnd]);
        at = next(sc, headerEnd);
        continue;
      }
      label ??= 'gigachat3';
      if (calls.length > 0) {
        spans.push([start, text.length]);
        callSpans.push([start, text.length]);
        return done(shape('a second function call message in one turn (the template writes one call per turn)'));
      }
      const j = jsonAt(text, headerEnd, 'function call JSON', { closer: MESSAGE_SEP, opener: ROLE_SEP });
      const fail = (p: FamilyProblem) => {
        spans.push([start, text.length]);
        callSpans.push([start, text.length]);
        return done(p);
      };
      if (!j.ok) return fail(j.problem);
      if (text[j.start] === '[') return fail(shape('a function call message holds a list, not one call'));
      const got = callsFromJsonCallValue(text, j);
      if ('problem' in got) return fail(got.problem);
      let end = j.end;
      let k = end;
      while (k < text.length && (text[k] === ' ' || text[k] === '\n' || text[k] === '\r' || text[k] === '\t')) k++;
      if (k < text.length && !sc.at(k, MESSAGE_SEP)) {
        if (MESSAGE_SEP.startsWith(text.slice(k))) return fail(truncated(`the text ends inside ${MESSAGE_SEP}`));
        return fail(shape(`text after the function call before ${MESSAGE_SEP}`));
      }
      if (k < text.length) end = k + MESSAGE_SEP.length;
      calls.push(...got.calls);
      spans.push([start, end]);
      callSpans.push([start, end]);
      at = next(sc, end);
    }
    return done();
  },
};
