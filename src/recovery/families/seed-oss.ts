/**
 * ByteDance Seed-OSS (Seed-OSS-36B; the Doubao Seed models are not known to leak a different
 * form): `<seed:tool_call>\n<function=NAME>\n<parameter=K>V</parameter>\n…</function>\n</seed:tool_call>`,
 * repeated per call, the turn ended by `<seed:eos>`; reasoning in `<seed:think>…</seed:think>`.
 * The body has Qwen3-Coder's tags (./qwen3-coder.ts) but not its framing: the value sits right
 * after `<parameter=K>` and right before `</parameter>`, so nothing is trimmed.
 * Source: the Seed-OSS chat template (the model's chat_template, copied in llama.cpp
 * https://github.com/ggml-org/llama.cpp/blob/b1933d306f928b19e1601e640c4f1a2eb84b238a/models/templates/ByteDance-Seed-OSS.jinja;
 * HF revision not recorded): `"<parameter=" + arg_name + ">"`, then
 * `arg_value if arg_value is string else arg_value | string`, then `"</parameter>\n"`. vLLM's
 * seed_oss_tool_parser.py @ 3e47bf47 confirms the tags.
 *
 * Values, typed from the advertised schema exactly as that template renders them: Jinja's `|string`
 * is Python's `str()`, so a boolean is `True`/`False`, null is `None`, a list or dict is its Python
 * repr (`['a', 'b']`, `{'k': 1}`), a number its decimal form. A string-typed parameter keeps its text;
 * any other is read as that Python literal (./literals.ts readPythonLiteral), or as JSON (a model
 * may write `true` or `["a"]`); when both readings exist and differ, or the literal is Python outside
 * the subset `str()` writes, the value is refused (`bad_arguments`), never evaluated or guessed
 * (vLLM falls back to `ast.literal_eval`, or to the text).
 *
 * A call inside `<seed:think>` is `shape` (reasoning is never recovered); a value holding another
 * tag of the dialect is `shape`.
 */

import type { JsonSchema } from '../../capture/types.js';
import { callFromParameters, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem, type ParseContext, type RawParameter } from '../family.js';
import { isObject, parseJsonValue, Scanner, skipWs } from '../scan.js';
import { typesOf } from '../typing.js';
import { insideBlock, optionalToken, tokenSpans, withTokens } from './call-lists.js';
import { readPythonLiteral } from './literals.js';

const OPEN = '<seed:tool_call>';
const CLOSE = '</seed:tool_call>';
const FN = '<function=';
const END_FN = '</function>';
const PARAM = '<parameter=';
const END_PARAM = '</parameter>';
const THINK = ['<seed:think>', '</seed:think>'] as const;
const TOKENS = [...THINK, '<seed:eos>', '<seed:cot_budget_reflect>', '</seed:cot_budget_reflect>'];
const FORGED = [FN, END_FN, PARAM, OPEN, CLOSE];
const INT = /^-?(?:0|[1-9][0-9]*)$/;

/** The kind of a parsed JSON value, as a JSON Schema type name (`integer` for an integral text). */
function kindOf(value: unknown, json: string): string[] {
  if (value === null) return ['null'];
  if (typeof value === 'boolean') return ['boolean'];
  if (typeof value === 'number') return INT.test(json) && Number.isSafeInteger(value) ? ['integer', 'number'] : ['number'];
  if (typeof value === 'string') return ['string'];
  return Array.isArray(value) ? ['array'] : ['object'];
}

/** Types one value as the Seed-OSS template renders it (module header). */
export function typeSeedValue(raw: string, schema: JsonSchema | undefined, key: string): Pick<RawParameter, 'mode' | 'value' | 'error'> {
  const props = schema && isObject(schema['properties']) ? schema['properties'] : undefined;
  const prop = props && Object.prototype.hasOwnProperty.call(props, key) ? props[key] : undefined;
  const types = typesOf(prop);
  if (types.size === 0) return { mode: 'string', value: raw };
  if (types.has('string') && !(types.has('null') && raw === 'None')) return { mode: 'string', value: raw };
  const expected = `parameter "${key}" is not a valid ${[...types].join(' | ')}`;
  const py = readPythonLiteral(raw);
  if (!py.ok && py.kind === 'unsupported') return { mode: 'json', value: raw, error: `${expected}: ${py.error}` };
  const js = parseJsonValue(raw);
  if (py.ok && js.ok && JSON.stringify(py.value) !== JSON.stringify(js.value)) {
    return { mode: 'json', value: raw, error: `parameter "${key}" reads differently as a Python literal and as JSON` };
  }
  const reading = py.ok ? { json: py.json, value: py.value } : js.ok ? { json: raw, value: js.value } : null;
  if (reading === null || !kindOf(reading.value, reading.json).some((k) => types.has(k as never))) return { mode: 'json', value: raw, error: expected };
  return { mode: 'json', value: reading.json };
}

function readCall(sc: Scanner, f: number, ctx: ParseContext): { call: FamilyCall; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  const gt = sc.find('>', f + FN.length);
  if (gt < 0) return { problem: truncated('the text ends inside the function name') };
  const name = text.slice(f + FN.length, gt);
  if (name === '' || name.includes('<') || name.includes('\n')) return { problem: shape('a malformed function name') };
  if (text[skipWs(text, gt + 1)] === '{') return { problem: shape('a JSON body where Seed-OSS writes parameters') };
  const schema = ctx.schemaOf(name);
  const params: RawParameter[] = [];
  let k = gt + 1;
  for (;;) {
    k = skipWs(text, k);
    if (k >= text.length) return { problem: truncated(`the text ends before ${END_FN}`) };
    if (sc.at(k, END_FN)) return { call: callFromParameters(name, params, ctx), end: k + END_FN.length };
    if (!sc.at(k, PARAM)) return { problem: PARAM.startsWith(text.slice(k)) || END_FN.startsWith(text.slice(k)) ? truncated('the text ends inside a tag') : shape('text inside a function outside any parameter') };
    const kg = sc.find('>', k + PARAM.length);
    if (kg < 0) return { problem: truncated('the text ends inside a parameter name') };
    const key = text.slice(k + PARAM.length, kg);
    if (key === '' || key.includes('<') || key.includes('\n')) return { problem: shape('a malformed parameter name') };
    const e = sc.find(END_PARAM, kg + 1);
    const value = text.slice(kg + 1, e < 0 ? text.length : e);
    if (FORGED.some((t) => value.includes(t))) return { problem: shape(`${END_PARAM} of parameter "${key.slice(0, 40)}" is missing: its value runs into another tag`) };
    if (e < 0) return { problem: truncated(`the text ends before ${END_PARAM}`) };
    params.push({ key, ...typeSeedValue(value, schema, key) } as RawParameter);
    k = e + END_PARAM.length;
  }
}

export const seedOss: Family = {
  id: 'seed-oss',
  source: 'Seed-OSS chat template (https://github.com/ggml-org/llama.cpp/blob/b1933d306f928b19e1601e640c4f1a2eb84b238a/models/templates/ByteDance-Seed-OSS.jinja, the model\'s chat_template; HF revision not recorded); vLLM seed_oss_tool_parser.py @ 3e47bf47',
  markers: [OPEN, CLOSE],
  detect: (text) => text.indexOf(OPEN),
  parse(text, from, ctx): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const tokens = tokenSpans(text, TOKENS);
    let pos = from;
    for (let o = sc.find(OPEN, pos); o >= 0; o = sc.find(OPEN, pos)) {
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return withTokens(match('seed-oss', spans, calls, p), tokens);
      };
      if (insideBlock(text, o, THINK[0], THINK[1])) return fail(shape('a call inside <seed:think> (reasoning is never recovered)'));
      const f = skipWs(text, o + OPEN.length);
      if (!sc.at(f, FN)) return fail(FN.startsWith(text.slice(f)) ? truncated(`the text ends before ${FN}`) : shape(`${OPEN} is not followed by ${FN}`));
      const r = readCall(sc, f, ctx);
      if ('problem' in r) return fail(r.problem);
      const e = skipWs(text, r.end);
      if (e >= text.length) return fail(truncated(`the text ends before ${CLOSE}`));
      if (!sc.at(e, CLOSE)) return fail(CLOSE.startsWith(text.slice(e)) ? truncated(`the text ends inside ${CLOSE}`) : shape(`text after ${END_FN} before ${CLOSE}`));
      calls.push(r.call);
      pos = optionalToken(text, e + CLOSE.length, ['<seed:eos>']);
      spans.push([o, pos]);
    }
    return withTokens(match('seed-oss', spans, calls), tokens);
  },
};
