/**
 * Muse Glimmer's ATEM tool calls (vLLM `muse_glimmer`, SGLang `muse`, Ollama `glimmer`): each call
 * is an assistant message addressed to the tool,
 * `<|start|>assistant to=NAME<|message|><atem:function_calls>\n<atem:invoke name="NAME">\n<atem:parameter name="K">V</atem:parameter>\n</atem:invoke>\n</atem:function_calls>`
 * ended by `<|eom|>` (another message follows) or `<|eot|>`. The generation prompt is
 * `<|start|>assistant`, so a reply opens with ` to=NAME<|message|>…`; reasoning is a message
 * `to=self<|message|>…<|eom|>` before the calls, and a tool's answer a `<|start|>tool NAME` message.
 * Values: strings as is, booleans `true`/`false`, `null`, lists and objects `tojson`, numbers as
 * written: typed from the tool's schema (else kept as strings), nothing trimmed.
 * Source: the Muse Glimmer ATEM chat template as copied in ollama/ollama
 * https://github.com/ollama/ollama/blob/fb30760996871fa9460115c753afd2c60d4ab0f7/model/renderers/testdata/glimmer_chat_template.jinja
 * (`render_atem`, the assistant and tool branches); parsers: sglang muse_glimmer_detector.py
 * @ 3979a6c7 (channel header, recipient `self`/`user` as prose), Ollama model/parsers/glimmer.go.
 *
 * Refused where the parsers are lenient: an invoke whose name is not the message's recipient, a
 * message holding more than one invoke (the template writes one per message), a call inside the
 * reasoning message, a message to the user before or after the calls (`shape`); sglang's namespace
 * folding (`ns.ns` → `ns`) is not copied: names are read exactly.
 */

import { Scanner, skipWs } from '../scan.js';
import { match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem, type ParseContext } from '../family.js';
import { readContainer, type InvokeGrammar } from './xml.js';

const OPEN = '<atem:function_calls>';
const START = '<|start|>assistant';
const MESSAGE = '<|message|>';
const EOM = '<|eom|>';
const EOT = '<|eot|>';
const TO = 'to=';

const GRAMMAR: InvokeGrammar = {
  family: 'muse-glimmer',
  prefix: 'atem:',
  containers: ['function_calls'],
  jsonBody: false,
  mode: () => ({ mode: 'schema' }),
};

const isNameChar = (c: string | undefined) => c !== undefined && !/\s/.test(c) && c !== '<';

/** Start of a `[<|start|>assistant][ ]to=NAME[<|message|>]` header ending right at `end`, or -1. */
function headerBefore(text: string, end: number): number {
  let k = end;
  if (text.startsWith(MESSAGE, k - MESSAGE.length)) k -= MESSAGE.length;
  let n = k;
  while (n > 0 && isNameChar(text[n - 1]) && k - n <= 256) n--;
  if (n === k || !text.startsWith(TO, n) || n + TO.length === k) return -1;
  let s = n;
  if (text[s - 1] === ' ') s--;
  if (text.startsWith(START, s - START.length)) s -= START.length;
  return s;
}

export const museGlimmer: Family = {
  id: 'muse-glimmer',
  source: 'Muse Glimmer ATEM chat template (copy: https://github.com/ollama/ollama/blob/fb30760996871fa9460115c753afd2c60d4ab0f7/model/renderers/testdata/glimmer_chat_template.jinja); sglang muse_glimmer_detector.py',
  markers: [OPEN, '</atem:function_calls>', '<atem:invoke', '</atem:invoke>', '<atem:parameter', '</atem:parameter>'],
  results: ['<|start|>tool'],
  detect(text) {
    const o = text.indexOf(OPEN);
    if (o < 0) return -1;
    const h = headerBefore(text, o);
    const first = h < 0 ? o : h;
    const self = text.lastIndexOf(`${TO}self${MESSAGE}`, first);
    if (self < 0) return first;
    const selfStart = (): number => {
      const s = text[self - 1] === ' ' ? self - 1 : self;
      return text.startsWith(START, s - START.length) ? s - START.length : s;
    };
    const e = text.lastIndexOf(EOM, first);
    // the block sits inside an open reasoning message: parse from it, to refuse the call
    if (e < self) return selfStart();
    // a reasoning message right before: `[<|start|>assistant] to=self<|message|>…<|eom|>`
    if (h < 0 || skipWs(text, e + EOM.length) !== h || text.slice(self + `${TO}self${MESSAGE}`.length, e).includes('<|')) return first;
    return selfStart();
  },
  parse(text, from, ctx: ParseContext): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const callSpans: Array<[number, number]> = [];
    const fail = (at: number, p: FamilyProblem) => {
      spans.push([at, text.length]);
      return match('muse-glimmer', spans, calls, p);
    };
    let pos = from;
    let ended = true; // the previous message's end token was read (or there is none yet)
    for (;;) {
      const at = skipWs(text, pos);
      if (at >= text.length) break;
      let k = at;
      if (sc.at(k, START)) k += START.length;
      if (text[k] === ' ') k++;
      let recipient: string | null = null;
      if (sc.at(k, TO)) {
        let n = k + TO.length;
        while (n < text.length && isNameChar(text[n])) n++;
        if (n >= text.length) return fail(at, truncated('the text ends inside the message header'));
        recipient = text.slice(k + TO.length, n);
        k = n;
        if (sc.at(k, MESSAGE)) k += MESSAGE.length;
      } else if (k !== at || !sc.at(k, OPEN)) {
        if (k !== at) return fail(at, shape('an assistant message without a recipient'));
        break; // not markup of this family: the text goes on
      }
      if (!ended) return fail(at, shape(`a message follows the call without ${EOM}`));
      if (recipient === 'self') {
        if (calls.length > 0) return fail(at, shape('reasoning after the call'));
        const e = sc.find(EOM, k);
        if (e < 0) return fail(at, truncated(`the text ends before the reasoning's ${EOM}`));
        if (text.slice(k, e).includes('<atem:')) return fail(at, shape('a call inside the reasoning message'));
        // the reasoning is prose: only its header and end token are markup
        spans.push([at, k], [e, e + EOM.length]);
        pos = e + EOM.length;
        continue;
      }
      if (recipient === 'user') return fail(at, shape('a message to the user beside the calls: the call was made without its result'));
      if (!sc.at(k, OPEN)) return fail(at, k >= text.length ? truncated(`the text ends before ${OPEN}`) : shape(`no ${OPEN} in a message to a tool`));
      const r = readContainer(sc, k, GRAMMAR, ctx);
      if ('problem' in r) return fail(at, r.problem);
      if (r.calls.length !== 1) return fail(at, shape('a message holding more than one invoke (the template writes one per message)'));
      if (recipient !== null && r.calls[0]!.name !== recipient) return fail(at, shape(`an invoke of "${r.calls[0]!.name}" in a message to "${recipient}"`));
      calls.push(r.calls[0]!);
      let end = r.end;
      ended = false;
      if (sc.at(end, EOM) || sc.at(end, EOT)) {
        end += EOM.length;
        ended = true;
      } else if (recipient === null) ended = true; // bare blocks (tokens stripped) follow one another
      spans.push([at, end]);
      callSpans.push([at, end]);
      pos = end;
    }
    if (calls.length === 0) return fail(from, shape('no ATEM call: reasoning with no call after it'));
    // the reasoning message is prose around the calls (framing read there still refuses them)
    return { ...match('muse-glimmer', spans, calls), callSpans: callSpans };
  },
};
