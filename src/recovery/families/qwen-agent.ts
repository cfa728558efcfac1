/**
 * Qwen-Agent's function-calling prompt (`fncall_prompt_type='qwen'`, Qwen2 / Qwen2.5 / QwQ served
 * through Qwen-Agent or DashScope-style prompts): after optional text, each call is two lines,
 * `✿FUNCTION✿: NAME` and `✿ARGS✿: {…}`, parallel calls one pair after another:
 * `Checking both.\n✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Oslo"}\n✿FUNCTION✿: …`.
 * The tool's answer follows as `✿RESULT✿: …` and the reply to it as `✿RETURN✿: …`; both are stop
 * words, so a model that writes them after a call made up the result.
 *
 * Source: QwenLM/Qwen-Agent `qwen_agent/llm/fncall_prompts/qwen_fncall_prompt.py` @ 2f7415f5
 * (https://github.com/QwenLM/Qwen-Agent/blob/2f7415f519847b2243cbd990b468e566fcd8ce3b/qwen_agent/llm/fncall_prompts/qwen_fncall_prompt.py):
 * `FN_NAME`, `FN_ARGS`, `FN_RESULT`, `FN_EXIT`, `FN_STOP_WORDS`, and the assistant history it
 * renders, `f'{FN_NAME}: {f_name}'` + `f'\n{FN_ARGS}: {f_args}'` (that file is the prompt the model
 * is given; no chat template holds it). No inference server parses this dialect, so a reply in it
 * reaches the client as text whatever `--tool-call-parser` says.
 *
 * Read strictly, as the prompt renders it: `: ` after each token, the name alone on its line (no
 * whitespace in or around it), the arguments one JSON object, then only whitespace before the next
 * `✿FUNCTION✿` or the end. What Qwen-Agent's own reader accepts leniently is refused: arguments
 * that are a Markdown code block (its `code_interpreter` convention) are `bad_arguments` (never
 * wrapped into an invented key; the raw text stays a candidate for inspection), several `✿ARGS✿`
 * under one `✿FUNCTION✿` are `shape`, and text after the arguments other than another call (it
 * drops it, and a trailing comment) is prose the engine judges.
 */

import { callFromJsonText, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { skipWs } from '../scan.js';

const FN = '✿FUNCTION✿';
const ARGS = '✿ARGS✿';
const RESULT = '✿RESULT✿';
const EXIT = '✿RETURN✿';
const SEP = ': ';

/** Reads the call whose `✿FUNCTION✿` is at `o`: the call and where it ends, or the first defect. */
function readCall(text: string, o: number): { call: FamilyCall; end: number } | { problem: FamilyProblem } {
  let k = o + FN.length;
  if (k >= text.length) return { problem: truncated(`the text ends after ${FN}`) };
  if (!text.startsWith(SEP, k)) return text.length - k < SEP.length && SEP.startsWith(text.slice(k)) ? { problem: truncated(`the text ends after ${FN}`) } : { problem: shape(`${FN} is not followed by ": "`) };
  k += SEP.length;
  const nl = text.indexOf('\n', k);
  const name = text.slice(k, nl < 0 ? text.length : nl);
  // whitespace in the name line is no cut: the arguments written on it (Qwen-Agent#133) or padding
  if (/\s/.test(name) || (name === '' && nl >= 0)) return { problem: shape(`the tool name after ${FN} is empty or holds whitespace`) };
  if (nl < 0) return { problem: truncated(`the text ends before ${ARGS}`) };
  k = nl + 1;
  if (!text.startsWith(ARGS + SEP, k)) {
    // the text may end inside the `✿ARGS✿: ` token itself
    const rest = text.slice(k, k + ARGS.length + SEP.length);
    return (ARGS + SEP).startsWith(rest) && k + rest.length === text.length
      ? { problem: truncated(`the text ends before the arguments of ${name}`) }
      : { problem: shape(`${ARGS}: does not follow the ${FN} line`) };
  }
  k += ARGS.length + SEP.length;
  if (k >= text.length) return { problem: truncated(`the text ends before the arguments of ${name}`) };
  if (text[k] !== '{' && text[k] !== '[') {
    // a code block or free text (Qwen-Agent's code_interpreter): kept raw, never read as arguments
    const next = text.indexOf(`\n${FN}`, k);
    const end = next < 0 ? text.length : next;
    const raw = text.slice(k, end).trimEnd();
    return { call: { name, argumentsRaw: raw, arguments: null, argumentsError: 'the arguments are not a JSON object' }, end: k + raw.length };
  }
  const j = jsonAt(text, k, 'arguments JSON', { closer: `\n${FN}`, opener: `\n${FN}` });
  if (!j.ok) return j;
  return { call: callFromJsonText(name, text.slice(j.start, j.end)), end: j.end };
}

export const qwenAgent: Family = {
  id: 'qwen-agent',
  source:
    'QwenLM/Qwen-Agent qwen_agent/llm/fncall_prompts/qwen_fncall_prompt.py (https://github.com/QwenLM/Qwen-Agent/blob/2f7415f519847b2243cbd990b468e566fcd8ce3b/qwen_agent/llm/fncall_prompts/qwen_fncall_prompt.py)',
  // the result tokens are no markers: a reply that only writes `✿RETURN✿: …` (the answer) is no call
  markers: [FN, ARGS],
  results: [RESULT, EXIT],
  detect(text) {
    const f = text.indexOf(FN);
    const a = text.indexOf(ARGS);
    // an ✿ARGS✿ before any ✿FUNCTION✿ is markup too (refused by parse)
    return f < 0 ? a : a < 0 ? f : Math.min(f, a);
  },
  parse(text, from): FamilyMatch {
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    for (let o = from; ; ) {
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return match('qwen-agent', spans, calls, p);
      };
      if (!text.startsWith(FN, o)) return fail(shape(`${ARGS} without a ${FN} line before it`));
      const r = readCall(text, o);
      if ('problem' in r) return fail(r.problem);
      calls.push(r.call);
      spans.push([o, r.end]);
      const next = skipWs(text, r.end);
      if (text.startsWith(ARGS, next)) {
        o = next;
        return fail(shape(`several ${ARGS} under one ${FN}`));
      }
      const f = text.indexOf(FN, r.end);
      if (f < 0) break;
      o = f;
    }
    return match('qwen-agent', spans, calls);
  },
};
