/**
 * Moonshot Kimi K3 "XTML": elements written with the special tokens `<|open|>`, `<|close|>` and
 * `<|sep|>`. A reply is a `response` channel, then a `tools` channel of calls:
 * `<|open|>tools<|sep|><|open|>call tool="N" index="1"<|sep|><|open|>argument key="K" type="string"<|sep|>V<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`,
 * or a call whose arguments are one `<|open|>json type="object"<|sep|>{…}<|close|>json<|sep|>` block.
 * The generation prompt opens `<|open|>message role="assistant"<|sep|><|open|>think<|sep|>`, so a raw
 * reply often begins inside the think channel and shows only its closing tags.
 * Source: the Kimi K3 chat template (the model's chat_template, copied in llama.cpp
 * https://github.com/ggml-org/llama.cpp/blob/181a4a8fb1af6142a7bf611dddd36fe34a3de3fe/models/templates/Kimi-K3.jinja;
 * HF revision not recorded): `open_tag(tag, attrs)` writes `'<|open|>' + tag` and each attribute as
 * ` name="value"` with `&` → `&amp;` and `"` → `&quot;`, then `'<|sep|>'`; `close_tag` writes
 * `'<|close|>' + tag + '<|sep|>'`; an argument's type is `xtml_type(value)` (boolean, null, number,
 * string, object, array) and its body the string itself or `tojson` of anything else. vLLM's
 * kimi_k3_tool_parser.py @ 2d956748 confirms it.
 *
 * The markup types every value with `type=`: a string keeps its text exactly, any other type must be
 * JSON of that type; nothing is re-typed from the schema. Stricter than vLLM: no whitespace inside a
 * tag (spaced tokens are a detokenizer artefact and pad the values), an argument without a type is
 * `bad_arguments` (vLLM reads it as a string), a string value holding a token of the dialect is
 * `shape`, a `tools` channel must be closed (vLLM reads an unclosed one to the end), a call inside
 * the think channel is `shape`. The other channels' tags (message, think, response) are markup whose
 * bodies are prose; a reply of only such tags holds no call (`shape`), as does one written with
 * spaced tokens (`<|open|> tools <|sep|>`).
 */

import { callFromJsonText, callFromParameters, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem, type ParseContext, type RawParameter } from '../family.js';
import { isObject, parseJsonValue, Scanner, skipWs } from '../scan.js';

const OPEN = '<|open|>';
const CLOSE = '<|close|>';
const SEP = '<|sep|>';
const EOM = '<|end_of_msg|>';
const CHANNELS = new Set(['message', 'think', 'response']);
const TYPES = new Set(['string', 'number', 'boolean', 'null', 'object', 'array']);
const NAME = /^[a-z]+$/;
const ATTR = /^ ([A-Za-z_][A-Za-z0-9_]*)="([^"]*)"/;

/** A tag `<|open|>NAME attrs<|sep|>` or `<|close|>NAME<|sep|>` at `i`. */
type Tag = { close: boolean; name: string; attrs: Map<string, string>; end: number };

function unescapeAttr(v: string): string | null {
  let out = '';
  for (let i = 0; i < v.length; i++) {
    if (v[i] !== '&') {
      out += v[i];
      continue;
    }
    if (v.startsWith('&amp;', i)) {
      out += '&';
      i += 4;
    } else if (v.startsWith('&quot;', i)) {
      out += '"';
      i += 5;
    } else return null;
  }
  return out;
}

function readTag(sc: Scanner, i: number): Tag | { problem: FamilyProblem } {
  const text = sc.text;
  const close = sc.at(i, CLOSE);
  const start = i + (close ? CLOSE.length : OPEN.length);
  const sep = sc.find(SEP, start);
  const nextTag = Math.min(...[sc.find(OPEN, start), sc.find(CLOSE, start)].map((x) => (x < 0 ? Infinity : x)));
  if (sep < 0 || sep > nextTag) {
    if (sep < 0 && nextTag === Infinity) return { problem: truncated('the text ends inside a tag') };
    return { problem: shape('a tag not closed by <|sep|>') };
  }
  const inner = text.slice(start, sep);
  let n = 0;
  while (n < inner.length && /[a-z]/.test(inner[n]!)) n++;
  const name = inner.slice(0, n);
  if (!NAME.test(name)) return { problem: shape('a tag without a name, or with spacing inside') };
  const attrs = new Map<string, string>();
  let rest = inner.slice(n);
  if (close && rest !== '') return { problem: shape(`a closing tag with more than its name (<|close|>${inner.slice(0, 40)})`) };
  while (rest !== '') {
    const m = ATTR.exec(rest);
    if (m === null) return { problem: shape(`a malformed attribute in <|open|>${name}`) };
    const v = unescapeAttr(m[2]!);
    if (v === null) return { problem: shape('an attribute holds "&" that is not &amp; or &quot;') };
    if (attrs.has(m[1]!)) return { problem: shape(`attribute "${m[1]}" repeated`) };
    attrs.set(m[1]!, v);
    rest = rest.slice(m[0].length);
  }
  return { close, name, attrs, end: sep + SEP.length };
}

/** The body of an element from `i` up to its `<|close|>NAME<|sep|>`: raw text that holds no token. */
function bodyUntilClose(sc: Scanner, i: number, name: string): { body: string; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  const c = sc.find(CLOSE, i);
  const o = sc.find(OPEN, i);
  const s = sc.find(SEP, i);
  const closer = `${CLOSE}${name}${SEP}`;
  const firstToken = Math.min(...[c, o, s].map((x) => (x < 0 ? Infinity : x)));
  if (firstToken === Infinity) return { problem: truncated(`the text ends before ${closer}`) };
  if (firstToken !== c) return { problem: shape(`the ${name} value holds another token of the dialect`) };
  if (!sc.at(c, closer)) return { problem: closer.startsWith(text.slice(c)) ? truncated(`the text ends inside ${closer}`) : shape(`the ${name} value is closed by another tag than ${closer}`) };
  return { body: text.slice(i, c), end: c + closer.length };
}

function typedArgument(key: string, type: string | undefined, body: string): RawParameter {
  if (type === undefined) return { key, value: body, mode: 'string', error: `argument "${key}" has no type` };
  if (!TYPES.has(type)) return { key, value: body, mode: 'string', error: `argument "${key}" has the unknown type "${type.slice(0, 20)}"` };
  if (type === 'string') return { key, value: body, mode: 'string' };
  const p = parseJsonValue(body);
  const fits =
    p.ok &&
    (type === 'number' ? typeof p.value === 'number' : type === 'boolean' ? typeof p.value === 'boolean' : type === 'null' ? p.value === null : type === 'array' ? Array.isArray(p.value) : isObject(p.value));
  return fits ? { key, value: body, mode: 'json' } : { key, value: body, mode: 'json', error: `argument "${key}" is not a JSON ${type}` };
}

function readCall(sc: Scanner, tag: Tag, ctx: ParseContext): { call: FamilyCall; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  const name = tag.attrs.get('tool');
  if (name === undefined || name === '') return { problem: shape('a call without a tool attribute') };
  for (const k of tag.attrs.keys()) if (k !== 'tool' && k !== 'index') return { problem: shape(`a call with the attribute "${k}"`) };
  const index = tag.attrs.get('index');
  if (index !== undefined && !/^[0-9]+$/.test(index)) return { problem: shape('a call index that is not a number') };
  const params: RawParameter[] = [];
  let jsonCall: FamilyCall | null = null;
  let i = tag.end;
  for (;;) {
    i = skipWs(text, i);
    if (i >= text.length) return { problem: truncated('the text ends before <|close|>call<|sep|>') };
    if (!sc.at(i, OPEN) && !sc.at(i, CLOSE)) return { problem: OPEN.startsWith(text.slice(i)) || CLOSE.startsWith(text.slice(i)) ? truncated('the text ends inside a tag') : shape('text inside a call outside any argument') };
    const t = readTag(sc, i);
    if ('problem' in t) return t;
    if (t.close) {
      if (t.name !== 'call') return { problem: shape(`<|close|>${t.name} where <|close|>call belongs`) };
      return { call: jsonCall ?? callFromParameters(name, params, ctx), end: t.end };
    }
    if (t.name === 'argument' && jsonCall === null) {
      const key = t.attrs.get('key');
      if (key === undefined) return { problem: shape('an argument without a key') };
      for (const k of t.attrs.keys()) if (k !== 'key' && k !== 'type') return { problem: shape(`an argument with the attribute "${k}"`) };
      const b = bodyUntilClose(sc, t.end, 'argument');
      if ('problem' in b) return b;
      params.push(typedArgument(key, t.attrs.get('type'), b.body));
      i = b.end;
    } else if (t.name === 'json' && params.length === 0 && jsonCall === null) {
      if (t.attrs.get('type') !== 'object' || t.attrs.size !== 1) return { problem: shape('a json block that is not type="object"') };
      const b = bodyUntilClose(sc, t.end, 'json');
      if ('problem' in b) return b;
      jsonCall = callFromJsonText(name, b.body);
      i = b.end;
    } else return { problem: shape(`<|open|>${t.name} inside a call`) };
  }
}

/** A tag whose token is followed by a space: the detokenizer's `spaces_between_special_tokens`. */
const SPACED = /^<\|(?:open|close)\|> /;

/**
 * Markup with spaced tokens (`<|open|> tools <|sep|>`): a detokenizer artefact that also pads every
 * string value, so no call is read. Every tag region (a token to the next `<|sep|>`) is markup, so
 * the reply is a leak that holds no call (`shape`), never prose that narrates tokens.
 */
function spacedTags(sc: Scanner, from: number, spans: Array<[number, number]>): FamilyMatch {
  for (let i = from; i >= 0; ) {
    const sep = sc.find(SEP, i);
    const end = sep < 0 ? sc.text.length : sep + SEP.length;
    spans.push([i, end]);
    const next = [sc.find(OPEN, end), sc.find(CLOSE, end)].filter((x) => x >= 0);
    i = next.length === 0 ? -1 : Math.min(...next);
  }
  return { ...match('kimi-k3', spans, []), callSpans: [] };
}

export const kimiK3: Family = {
  id: 'kimi-k3',
  source: 'Kimi K3 chat template (https://github.com/ggml-org/llama.cpp/blob/181a4a8fb1af6142a7bf611dddd36fe34a3de3fe/models/templates/Kimi-K3.jinja, the model\'s chat_template; HF revision not recorded); vLLM kimi_k3_tool_parser.py @ 2d956748',
  markers: [OPEN, CLOSE, SEP, EOM],
  detect(text) {
    const a = text.indexOf(OPEN);
    const b = text.indexOf(CLOSE);
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  },
  parse(text, from, ctx): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const callSpans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    let thinking = false;
    let pos = from;
    const done = (p: FamilyProblem | null = null): FamilyMatch => ({ ...match('kimi-k3', spans, calls, p), callSpans });
    for (;;) {
      const candidates = [sc.find(OPEN, pos), sc.find(CLOSE, pos), sc.find(EOM, pos), sc.find(SEP, pos)].filter((x) => x >= 0);
      if (candidates.length === 0) return done();
      const i = Math.min(...candidates);
      const fail = (p: FamilyProblem) => {
        spans.push([i, text.length]);
        return done(p);
      };
      if (sc.at(i, EOM)) {
        spans.push([i, i + EOM.length]);
        pos = i + EOM.length;
        continue;
      }
      if (sc.at(i, SEP)) return fail(shape('a <|sep|> outside any tag'));
      if (calls.length === 0 && SPACED.test(text.slice(i, i + 12))) return spacedTags(sc, i, spans);
      const t = readTag(sc, i);
      if ('problem' in t) return fail(t.problem);
      if (CHANNELS.has(t.name)) {
        if (t.name === 'think') thinking = !t.close;
        spans.push([i, t.end]);
        pos = t.end;
        continue;
      }
      if (t.name !== 'tools' || t.close) return fail(shape(`<|${t.close ? 'close' : 'open'}|>${t.name} outside a tools channel`));
      if (thinking) return fail(shape('a tools channel inside the think channel (reasoning is never recovered)'));
      if (t.attrs.size > 0) return fail(shape('a tools channel with attributes'));
      let k = t.end;
      let n = 0;
      for (;;) {
        k = skipWs(text, k);
        if (k >= text.length) return fail(truncated('the text ends before <|close|>tools<|sep|>'));
        if (!sc.at(k, OPEN) && !sc.at(k, CLOSE)) return fail(OPEN.startsWith(text.slice(k)) || CLOSE.startsWith(text.slice(k)) ? truncated('the text ends inside a tag') : shape('text inside the tools channel outside any call'));
        const c = readTag(sc, k);
        if ('problem' in c) return fail(c.problem);
        if (c.close && c.name === 'tools') {
          k = c.end;
          break;
        }
        if (c.close || c.name !== 'call') return fail(shape(`<|${c.close ? 'close' : 'open'}|>${c.name} inside the tools channel`));
        const r = readCall(sc, c, ctx);
        if ('problem' in r) return fail(r.problem);
        calls.push(r.call);
        n++;
        k = r.end;
      }
      if (n === 0) return fail(shape('an empty tools channel'));
      spans.push([i, k]);
      callSpans.push([i, k]);
      pos = k;
    }
  },
};
