/**
 * Inkling (vLLM `inkling`, SGLang `inkling`): a reply is a run of model messages, each
 * `<|message_model|>HEADER<|content_KIND|>BODY<|end_message|>`; a call is
 * `<|message_model|>NAME<|content_invoke_tool_json|>{"name": "NAME", "args": {…}}<|end_message|>`,
 * reasoning `<|message_model|><|content_thinking|>…<|end_message|>` and visible text
 * `<|message_model|><|content_text|>…<|end_message|>`; sampling may end with
 * `<|content_model_end_sampling|>`, and a tool's answer is a `<|message_tool|>` message.
 *
 * No primary source was read: the model's chat template was not found, so the grammar is the
 * parsers': sglang
 * https://github.com/sgl-project/sglang/blob/067d5d0cc0337d066063e6fd614736b97cfa4457/python/sglang/srt/function_call/inkling_detector.py
 * (docstring format, the header name that must equal the payload's, `args` an object) and its
 * reasoning parser's block list (thinking, text, invoke, end sampling). Refused where it is
 * lenient or the grammar is unsettled: a payload with keys other than `name` and `args`, a header
 * naming another tool, a call inside a thinking or text message, a text message after the calls (the
 * call was made without its result), any other content kind (`shape`).
 */

import { Scanner, skipWs, parseJsonValue, isObject } from '../scan.js';
import { callFromJsonText, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';

const MSG = '<|message_model|>';
const INVOKE = '<|content_invoke_tool_json|>';
const THINK = '<|content_thinking|>';
const TEXT = '<|content_text|>';
const END = '<|end_message|>';
const END_SAMPLING = '<|content_model_end_sampling|>';

export const inkling: Family = {
  id: 'inkling',
  source: 'no template read; sglang inkling_detector.py (https://github.com/sgl-project/sglang/blob/067d5d0cc0337d066063e6fd614736b97cfa4457/python/sglang/srt/function_call/inkling_detector.py)',
  markers: [MSG, INVOKE, THINK, TEXT, END, END_SAMPLING],
  results: ['<|message_tool|>'],
  detect(text) {
    const v = text.indexOf(INVOKE);
    if (v < 0) return -1;
    const m = text.indexOf(MSG);
    return m >= 0 && m < v ? m : v;
  },
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const callSpans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const fail = (at: number, p: FamilyProblem) => {
      spans.push([at, text.length]);
      return match('inkling', spans, calls, p);
    };
    let pos = from;
    for (;;) {
      const at = skipWs(text, pos);
      if (at >= text.length) break;
      if (sc.at(at, END_SAMPLING)) {
        spans.push([at, at + END_SAMPLING.length]);
        pos = at + END_SAMPLING.length;
        continue;
      }
      let k = at;
      let header: string | null = null;
      if (sc.at(k, MSG)) {
        k += MSG.length;
        const c = text.indexOf('<|', k);
        if (c < 0) return fail(at, truncated('the text ends inside the message header'));
        header = text.slice(k, c);
        if (header.includes('\n') || header.length > 256) return fail(at, shape('a message header that runs on'));
        k = c;
      } else if (!sc.at(k, INVOKE)) break; // not this family's markup: the text goes on
      if (sc.at(k, THINK) || sc.at(k, TEXT)) {
        const kind = sc.at(k, THINK) ? THINK : TEXT;
        if (header !== '') return fail(at, shape(`a ${kind} message with a header`));
        if (calls.length > 0) return fail(at, shape(kind === TEXT ? 'a text message after the call: the call was made without its result' : 'reasoning after the call'));
        const bodyStart = k + kind.length;
        const e = sc.find(END, bodyStart);
        if (e < 0) return fail(at, truncated(`the text ends before ${END}`));
        const body = text.slice(bodyStart, e);
        if (body.includes(INVOKE) || body.includes(MSG)) return fail(at, shape(`a call inside a ${kind} message`));
        // the message's words are prose around the calls: only its tokens are markup
        spans.push([at, bodyStart], [e, e + END.length]);
        pos = e + END.length;
        continue;
      }
      if (!sc.at(k, INVOKE)) return fail(at, k >= text.length - 1 ? truncated('the text ends inside a content token') : shape('a message of a content kind that is not read'));
      const j = jsonAt(text, k + INVOKE.length, 'tool call JSON', { closer: END, opener: MSG });
      if (!j.ok) return fail(at, j.problem);
      const raw = text.slice(j.start, j.end);
      const parsed = parseJsonValue(raw);
      let call: FamilyCall;
      if (!parsed.ok) call = { name: '', argumentsRaw: raw, arguments: null, argumentsError: `the call JSON is ${parsed.error}`, nameUnread: true };
      else {
        const v = parsed.value;
        if (!isObject(v) || typeof v['name'] !== 'string' || Object.keys(v).some((key) => key !== 'name' && key !== 'args')) {
          return fail(at, shape('the payload is not {"name", "args"}'));
        }
        const name = v['name'];
        if (header !== null && header.trim() !== '' && header.trim() !== name) return fail(at, shape(`a payload naming "${name}" in a message headed "${header.trim()}"`));
        const span = j.scan.members.get('args');
        if (span === undefined) call = { name, argumentsRaw: '', arguments: null, argumentsError: 'the payload has no "args"' };
        else if (!isObject(v['args'])) call = { name, argumentsRaw: text.slice(span[0], span[1]), arguments: null, argumentsError: '"args" is not a JSON object' };
        else call = callFromJsonText(name, text.slice(span[0], span[1]));
      }
      calls.push(call);
      let e = skipWs(text, j.end);
      if (e >= text.length) return fail(at, truncated(`the text ends before ${END}`));
      if (!sc.at(e, END)) return fail(at, shape(`text after the tool call JSON before ${END}`));
      e += END.length;
      spans.push([at, e]);
      callSpans.push([at, e]);
      pos = e;
    }
    if (calls.length === 0) return fail(from, shape('no Inkling call'));
    return { ...match('inkling', spans, calls), callSpans };
  },
};
