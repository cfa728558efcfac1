/**
 * Shared reader for calls written as bare JSON, with no marker of their own: the Llama 3.x JSON
 * object (`{"name", "parameters"}`, optionally `"type": "function"`), the OpenAI-style object
 * (`{"name", "arguments"}`), the OpenAI tool-call object (`{"type": "function", "function": {…}}`),
 * llama.cpp's Generic wrapper (`{"tool_call": {…}}`, `{"tool_calls": [{…}, …]}`) and call lists
 * (`[{…}, …]`, xLAM, Granite with its token stripped). Not a family itself; llama3-json.ts,
 * openai-json.ts and xlam.ts declare which shapes they claim.
 *
 * JSON is markup here only when it has the shape of a call: an object whose keys are `name` (a
 * string), `arguments` or `parameters` (an object, or a string holding one), and at most `type`
 * (the string `"function"`) and `id`; or one of the wrappers around such objects. Any other key
 * (`description`: a tool definition, not a call), arguments that read as a JSON schema
 * (`{"type": "object", "properties": …}`), or any other JSON value is not call-shaped, is never
 * markup, and is skipped whole (a call object nested inside other JSON is data, not a call).
 * Whether such a call is the reply or is mentioned in prose is the engine's decision (prose ratio,
 * sentences, quotation regions, framing), as for every family.
 *
 * Cost: nothing runs unless the text holds `"name"` (one substring search); then each `{`/`[` is
 * looked at once and every JSON value that is read is skipped whole, so the pass is linear. The
 * candidates are memoised for the last text, so the three families reading bare JSON share one pass.
 */

import { callsFromJsonCallValue, jsonAt, match, shape, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { isSpaceCode } from '../prose.js';
import { isObject, parseJsonValue, scanJson, skipWs, type JsonScan } from '../scan.js';

/** What a call-shaped JSON value is. */
export type BareKind =
  /** `{"name", "parameters"}` (Llama 3.x), optionally with `"type": "function"`. */
  | 'parameters'
  /** `{"name", "arguments"}` (OpenAI-style). */
  | 'arguments'
  /** `{"type": "function", "function": {"name", "arguments"}}` (the OpenAI tool-call object). */
  | 'function'
  /** `{"tool_call": {…}}` or `{"tool_calls": [{…}, …]}` (llama.cpp Generic). */
  | 'wrapper'
  /** `[{…}, …]` (a call list: xLAM, Granite without its token, vLLM `tool_choice=required`). */
  | 'list';

/** A call-shaped JSON value in a text. */
export interface BareCandidate {
  at: number;
  kind: BareKind;
}

/** One member of an object read so far: its key and value extent (`end` -1: the text ends inside). */
interface Member {
  key: string;
  start: number;
  end: number;
}

/** The members of an object up to where it ends, stops being JSON, or the text ends. */
interface Head {
  members: Member[];
  /** Index past the closing `}`, or -1 when the object did not close. */
  end: number;
  /** Index where the text stops being a JSON object, or -1. */
  broken: number;
}

/** Index past the JSON string that opens at `i`, or -1 when the text ends inside it. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
  return j < text.length ? j + 1 : -1;
}

const LITERAL = /[A-Za-z0-9.+-]/;

/** Index past the JSON value at `i`: -1 when the text ends inside it, -2 when it is not JSON. */
function valueEnd(text: string, i: number): number {
  const ch = text[i];
  if (ch === '{' || ch === '[') {
    const s = scanJson(text, i);
    if (s.error !== null) return -2;
    return s.end;
  }
  if (ch === '"') return stringEnd(text, i);
  let j = i;
  while (j < text.length && LITERAL.test(text[j]!)) j++;
  if (j === i) return -2;
  return j >= text.length ? -1 : j;
}

/** Reads the top-level members of the object at `at` (module header: only as far as needed). */
function readHead(text: string, at: number): Head {
  const members: Member[] = [];
  const cut = (): Head => ({ members, end: -1, broken: -1 });
  const broken = (i: number): Head => ({ members, end: -1, broken: i });
  let i = skipWs(text, at + 1);
  if (i >= text.length) return cut();
  if (text[i] === '}') return { members, end: i + 1, broken: -1 };
  for (;;) {
    if (i >= text.length) return cut();
    if (text[i] !== '"') return broken(i);
    const ke = stringEnd(text, i);
    if (ke < 0) return cut();
    let key: string;
    try {
      key = JSON.parse(text.slice(i, ke)) as string;
    } catch {
      return broken(i);
    }
    i = skipWs(text, ke);
    if (i >= text.length) return cut();
    if (text[i] !== ':') return broken(i);
    i = skipWs(text, i + 1);
    if (i >= text.length) return cut();
    const start = i;
    const end = valueEnd(text, start);
    if (end === -2) return broken(start);
    members.push({ key, start, end });
    if (end === -1) return cut();
    i = skipWs(text, end);
    if (i >= text.length) return cut();
    if (text[i] === ',') {
      i = skipWs(text, i + 1);
      continue;
    }
    if (text[i] === '}') return { members, end: i + 1, broken: -1 };
    return broken(i);
  }
}

const member = (h: Head, key: string): Member | undefined => h.members.find((m) => m.key === key);
const onlyKeys = (h: Head, allowed: readonly string[]): boolean => h.members.every((m) => allowed.includes(m.key));
/** The complete string value of a member, or null. */
function stringValue(text: string, m: Member | undefined): string | null {
  if (m === undefined || m.end < 0 || text[m.start] !== '"') return null;
  try {
    return JSON.parse(text.slice(m.start, m.end)) as string;
  } catch {
    return null;
  }
}

/** True when complete arguments read as a JSON schema (a tool definition's `parameters`). */
function schemaLike(text: string, m: Member): boolean {
  if (m.end < 0 || text[m.start] !== '{') return false;
  const v = parseJsonValue(text.slice(m.start, m.end));
  return v.ok && isObject(v.value) && v.value['type'] === 'object' && Object.prototype.hasOwnProperty.call(v.value, 'properties');
}

/** The kind of a call entry object (`parameters` / `arguments` / `function`), or null. */
function entryKind(text: string, h: Head, nested = false): BareKind | null {
  const fn = member(h, 'function');
  if (fn !== undefined && !nested) {
    if (!onlyKeys(h, ['type', 'function', 'id']) || text[fn.start] !== '{') return null;
    const type = member(h, 'type');
    if (type !== undefined && type.end >= 0 && stringValue(text, type) !== 'function') return null;
    const inner = readHead(text, fn.start);
    return entryKind(text, inner, true) !== null ? 'function' : null;
  }
  if (!onlyKeys(h, nested ? ['name', 'arguments', 'parameters'] : ['name', 'arguments', 'parameters', 'type', 'id'])) return null;
  if (stringValue(text, member(h, 'name')) === null) return null;
  const type = member(h, 'type');
  if (type !== undefined && type.end >= 0 && stringValue(text, type) !== 'function') return null;
  const args = member(h, 'arguments');
  const params = member(h, 'parameters');
  const a = args ?? params;
  // The text ends inside the object after its name: a call cut short (`{"name": "x", "argu`), so the
  // cut reads as a cut, never as prose or an unknown dialect.
  const cut = h.end < 0 && h.broken < 0;
  // (an object that breaks after its name and arguments is a call whose JSON is bad: `bad_arguments`)
  if (a === undefined) return cut ? 'arguments' : null;
  const objectLike = text[a.start] === '{' || (text[a.start] === '"' && (text[a.start + 1] === '{' || a.end < 0));
  if (!objectLike || schemaLike(text, a)) return null;
  // both keys (refused when parsed): the first one written names the shape
  return args !== undefined && (params === undefined || args.start < params.start) ? 'arguments' : 'parameters';
}

/** The first element of the array at `at` when it is a call entry, else null. */
function listKind(text: string, at: number): boolean {
  const j = skipWs(text, at + 1);
  return text[j] === '{' && entryKind(text, readHead(text, j)) !== null;
}

/** What the value at `at` is: a call shape, or where to look next. */
function classify(text: string, at: number): { kind: BareKind; end: number } | { skip: number } {
  if (text[at] === '[') {
    const j = skipWs(text, at + 1);
    if (text[j] !== '{') return { skip: at + 1 };
    if (listKind(text, at)) return { kind: 'list', end: scanJson(text, at).end };
    const s = scanJson(text, at);
    return { skip: s.end < 0 ? text.length : Math.max(at + 1, s.end) };
  }
  const h = readHead(text, at);
  const kind = entryKind(text, h);
  if (h.broken >= 0) {
    // Not JSON past its name and arguments: still a call (its JSON fails to parse), when it closes.
    const s = kind === null ? null : scanJson(text, at);
    if (kind !== null && kind !== 'function' && s !== null && s.end >= 0) return { kind, end: s.end };
    return { skip: Math.max(at + 1, h.broken) };
  }
  if (kind !== null) return { kind, end: h.end };
  if (h.members.length === 1) {
    const [w] = h.members;
    if (w!.key === 'tool_calls' && text[w!.start] === '[' && listKind(text, w!.start)) return { kind: 'wrapper', end: h.end };
    if (w!.key === 'tool_call' && text[w!.start] === '{' && entryKind(text, readHead(text, w!.start)) !== null) return { kind: 'wrapper', end: h.end };
  }
  return { skip: h.end < 0 ? text.length : h.end };
}

/** End-of-turn tokens a template prints after a call (stop tokens, often not shown): part of the envelope when present. */
const END_TOKENS = ['<|eom_id|>', '<|eot_id|>', '<|eom|>', '<|eot|>'];

/** Characters a bare call may touch on its left: sentence punctuation (`Let me look that up.{"name": …}`)
 * and the openers of quotation constructs (inline code, quotation marks, emphasis, strike-through,
 * math, a parenthesis), which the engine's quotation rules then read. */
const BEFORE = '.,:;!?。，：；！？`"\'“‘«„「『(*_~$';
/** Characters a bare call may touch on its right: punctuation and the closers of those constructs. */
const AFTER = '.,:;!?。，：；！？`"\'”’»“」』)*_~$';

/** HTML elements a bare call may touch (`<code>{…}</code>`): the engine's quotation rules read them. */
const HTML_ELEMENTS = new Set(
  ('a abbr article aside b bdi bdo big blockquote body br center cite code dd del details dfn div dl dt em figcaption figure font footer ' +
    'h1 h2 h3 h4 h5 h6 header html i iframe ins kbd label li main mark nav nobr noscript object ol p pre q rp rt ruby s samp script section ' +
    'small span strike strong style sub summary sup table tbody td template textarea tfoot th thead tr tt u ul var xmp').split(' '),
);

/** True when the text before `at` ends with an HTML tag (`<code>`, `<PRE class="x">`, `</b>`) of a known element. */
function htmlTagBefore(text: string, at: number): boolean {
  if (text[at - 1] !== '>') return false;
  const lt = text.lastIndexOf('<', at - 1);
  if (lt < 0 || at - lt > 200) return false;
  const m = /^<\/?([A-Za-z][A-Za-z0-9]*)(?:[\s/][^<>]*)?>$/.exec(text.slice(lt, at));
  return m !== null && HTML_ELEMENTS.has(m[1]!.toLowerCase());
}

/** True when an HTML tag of a known element starts at `at`. */
function htmlTagAt(text: string, at: number): boolean {
  if (text[at] !== '<') return false;
  const m = /^<\/?([A-Za-z][A-Za-z0-9]*)[\s/>]/.exec(text.slice(at, at + 40));
  return m !== null && HTML_ELEMENTS.has(m[1]!.toLowerCase());
}

/**
 * True when a bare value may start at `at`: at the start of the text, after whitespace, sentence
 * punctuation, the opener of a quotation construct or an HTML tag. A value glued to other text
 * (`[TOOL_REQUEST]{…}`, `<my_tag>{…}`, `call{…}`) belongs to that text's own dialect: it is not
 * read bare (the engine's shape fallback still sees an advertised name in it, `unknown_family`).
 */
export function bareStart(text: string, at: number): boolean {
  if (at === 0) return true;
  const c = text.charCodeAt(at - 1);
  return isSpaceCode(c) || BEFORE.includes(text[at - 1]!) || htmlTagBefore(text, at);
}

/** True when a bare value ending at `end` stands apart: the text ends, or whitespace, punctuation,
 * a closer, an HTML tag, an end-of-turn token, or the next value of a run (`{…}{…}`) follows. */
export function bareEnd(text: string, end: number): boolean {
  const t = END_TOKENS.find((x) => text.startsWith(x, end));
  const k = t === undefined ? end : end + t.length;
  if (k >= text.length) return true;
  const c = text.charCodeAt(k);
  return isSpaceCode(c) || AFTER.includes(text[k]!) || htmlTagAt(text, k) || (t === undefined && text[k] === '{');
}

/** The scan of the last text, resumable: candidates are found only as far as a caller asks. */
let memo: { text: string; found: BareCandidate[]; i: number; brace: number; bracket: number } | null = null;

/**
 * The call-shaped JSON values of the text, in order, found at least as far as `before` (module
 * header); the list may hold later ones. Memoised for the last text and resumed, so the families
 * reading bare JSON share one pass.
 */
export function bareCandidates(text: string, before = text.length): BareCandidate[] {
  if (memo === null || memo.text !== text) {
    // the gate: every call shape has a "name" key (one search, shared by the families of this shape)
    const gate = text.includes('"name"');
    memo = { text, found: [], i: gate ? 0 : text.length, brace: gate ? text.indexOf('{') : -1, bracket: gate ? text.indexOf('[') : -1 };
  }
  const m = memo;
  while ((m.brace >= 0 || m.bracket >= 0) && m.i < before) {
    const at = m.bracket < 0 || (m.brace >= 0 && m.brace < m.bracket) ? m.brace : m.bracket;
    if (at >= before) break;
    const c = classify(text, at);
    if ('kind' in c) {
      if (bareStart(text, at) && (c.end < 0 || bareEnd(text, c.end))) m.found.push({ at, kind: c.kind });
      m.i = c.end < 0 ? text.length : c.end;
    } else m.i = c.skip;
    if (m.i >= text.length) {
      m.brace = m.bracket = -1;
      break;
    }
    if (m.brace >= 0 && m.brace < m.i) m.brace = text.indexOf('{', m.i);
    if (m.bracket >= 0 && m.bracket < m.i) m.bracket = text.indexOf('[', m.i);
  }
  return m.found;
}

/** The first candidate of one of `kinds` that starts before `before`, or -1. */
export function detectBareJson(text: string, kinds: readonly BareKind[], before = text.length): number {
  for (const c of bareCandidates(text, before)) {
    if (c.at >= before) break;
    if (kinds.includes(c.kind)) return c.at;
  }
  return -1;
}

/** The label each shape reports. */
export const BARE_LABEL: Record<BareKind, string> = {
  parameters: 'llama3-json',
  arguments: 'openai-json',
  function: 'openai-json',
  wrapper: 'llamacpp-generic',
  list: 'xlam',
};

/** The JSON value [start, end) with its scan. */
type At = { start: number; end: number; scan: JsonScan };

/** The elements of the array at `at` (each an object, scanned), or a problem. */
function elements(text: string, at: At): At[] | FamilyProblem {
  const out: At[] = [];
  let i = skipWs(text, at.start + 1);
  if (text[i] === ']') return shape('an empty call list');
  while (i < at.end) {
    if (text[i] !== '{') return shape('an element of the call list is not a call object');
    const s = scanJson(text, i);
    out.push({ start: i, end: s.end, scan: s });
    i = skipWs(text, s.end);
    if (text[i] === ',') i = skipWs(text, i + 1);
    else break;
  }
  return out;
}

/** The calls of one call entry (`parameters`/`arguments` object, or the tool-call object). */
function entryCalls(text: string, at: At): FamilyCall[] | FamilyProblem {
  const h = readHead(text, at.start);
  const kind = entryKind(text, h);
  if (kind === null) return shape('an entry of the call list is not a call (only "name", "arguments" or "parameters", "type": "function" and "id")');
  let value = at;
  if (kind === 'function') {
    const fn = member(h, 'function')!;
    value = { start: fn.start, end: fn.end, scan: scanJson(text, fn.start) };
  }
  const got = callsFromJsonCallValue(text, value);
  return 'problem' in got ? got.problem : got.calls;
}

/** The calls of a complete call-shaped value. */
function valueCalls(text: string, at: At, kind: BareKind): FamilyCall[] | FamilyProblem {
  const raw = text.slice(at.start, at.end);
  const parsed = parseJsonValue(raw);
  if (!parsed.ok) {
    const why = parsed.error.startsWith('duplicate') ? `has a ${parsed.error}` : `is ${parsed.error}`;
    return [{ name: '', argumentsRaw: raw, arguments: null, argumentsError: `the call JSON ${why}`, nameUnread: true }];
  }
  let list: At | null = null;
  if (kind === 'list') list = at;
  else if (kind === 'wrapper') {
    const w = readHead(text, at.start).members[0]!;
    const inner: At = { start: w.start, end: w.end, scan: scanJson(text, w.start) };
    if (w.key === 'tool_call') return entryCalls(text, inner);
    list = inner;
  }
  if (list === null) return entryCalls(text, at);
  const items = elements(text, list);
  if (!Array.isArray(items)) return items;
  const calls: FamilyCall[] = [];
  for (const item of items) {
    const got = entryCalls(text, item);
    if (!Array.isArray(got)) return got;
    calls.push(...got);
  }
  return calls;
}

/**
 * Reads bare JSON calls from `from` (a candidate's index): one call list or wrapper, or a run of
 * call objects separated by whitespace or `;` (vLLM and SGLang read several Llama objects so; Llama 4
 * writes them back to back). An end-of-turn token right after is part of the envelope. The text
 * ending inside a value is `truncated`; a closed value whose JSON does not parse is a call whose
 * arguments are bad (`bad_arguments`). After the calls, the text is prose.
 */
export function parseBareJson(text: string, from: number, label?: string): FamilyMatch {
  const spans: Array<[number, number]> = [];
  const calls: FamilyCall[] = [];
  let family = label ?? null;
  let i = from;
  for (;;) {
    const c = classify(text, i);
    if (!('kind' in c)) break;
    // after the first value only call objects follow (a list or wrapper stands alone)
    if (spans.length > 0 && (c.kind === 'list' || c.kind === 'wrapper')) break;
    family ??= BARE_LABEL[c.kind];
    const j = jsonAt(text, i, 'call JSON');
    if (!j.ok) {
      spans.push([i, text.length]);
      return match(family, spans, calls, j.problem);
    }
    const got = valueCalls(text, j, c.kind);
    if (!Array.isArray(got)) {
      spans.push([i, text.length]);
      return match(family, spans, calls, got);
    }
    calls.push(...got);
    let end = j.end;
    const k = skipWs(text, end);
    const tail = END_TOKENS.find((t) => text.startsWith(t, k));
    if (tail !== undefined) end = k + tail.length;
    spans.push([i, end]);
    if (tail !== undefined || c.kind === 'list' || c.kind === 'wrapper') break;
    let n = skipWs(text, j.end);
    if (text[n] === ';') n = skipWs(text, n + 1);
    if (text[n] !== '{') break;
    i = n;
  }
  return match(family ?? BARE_LABEL.arguments, spans, calls);
}
