/**
 * Shared readers of the envelope families (not a family itself): JSON call lists whose entries
 * name their keys differently from Hermes (`{"tool_name", "parameters"}` of Cohere Command,
 * `{"NAME": {…}}` of Apertus), the auxiliary tokens a template writes around its calls (turn,
 * thinking and response delimiters: markup, whose bodies stay prose), and whether a call sits
 * inside a reasoning block a template writes into the visible text.
 *
 * Every reader is linear in the text: each JSON value is scanned once, each token found with one
 * `indexOf` pass.
 */

import { ARGUMENTS_TOO_DEEP, jsonDepthExceeds, MAX_ARGUMENT_DEPTH } from '../../base/json.js';
import { callFromJsonText, shape, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { isObject, parseJsonValue, scanJson, skipWs, type JsonScan } from '../scan.js';

/** How the entries of a JSON call list name the tool and its arguments. */
export type CallListKeys =
  | {
      /** Key of the tool name (a string). */
      name: string;
      /** Key of the arguments (a JSON object). */
      args: string;
      /** Other keys an entry may hold, each with the test its value must pass. */
      extra?: Readonly<Record<string, (v: unknown) => boolean>>;
    }
  | {
      /** Each entry is an object of exactly one member: the key is the tool name, the value the
       * arguments object (Apertus). */
      singleKey: true;
    };

/**
 * Reads the calls of a JSON call list (an array of entries), delimited in the text by `at`.
 * A list that does not parse is one call with an unread name (`bad_arguments`: the envelope is
 * closed but its JSON is not); an entry that is not an object of the expected keys, or an empty
 * list, is `shape`. Argument text is sliced from the markup, never re-serialised.
 *
 * @param text the whole text.
 * @param at the value's extent (from `jsonAt`).
 * @param keys how entries name the tool and the arguments.
 * @param list `array`: the value must be an array; `object`: one entry on its own is accepted too.
 */
export function callsFromList(
  text: string,
  at: { start: number; end: number; scan: JsonScan },
  keys: CallListKeys,
  list: 'array' | 'array-or-object' = 'array',
): { calls: FamilyCall[] } | { problem: FamilyProblem } {
  const raw = text.slice(at.start, at.end);
  const parsed = parseJsonValue(raw);
  if (!parsed.ok) {
    const error = parsed.error.startsWith('duplicate') ? `has a ${parsed.error}` : `is ${parsed.error}`;
    return { calls: [{ name: '', argumentsRaw: raw, arguments: null, argumentsError: `the call list ${error}`, nameUnread: true }] };
  }
  const isArray = Array.isArray(parsed.value);
  if (!isArray && list === 'array') return { problem: shape('the calls are not a JSON list') };
  const entries: unknown[] = isArray ? (parsed.value as unknown[]) : [parsed.value];
  if (entries.length === 0) return { problem: shape('an empty call list') };
  const members = isArray ? elementMembers(text, at.start) : [at.scan.members];
  const calls: FamilyCall[] = [];
  for (const [k, entry] of entries.entries()) {
    if (!isObject(entry)) return { problem: shape('a call entry is not a JSON object') };
    let name: string;
    let argKey: string;
    if ('singleKey' in keys) {
      const own = Object.keys(entry);
      if (own.length !== 1) return { problem: shape(`a call entry has ${own.length} members, not one {"NAME": {…}}`) };
      name = own[0]!;
      argKey = name;
    } else {
      for (const key of Object.keys(entry)) {
        if (key === keys.name || key === keys.args) continue;
        const test = keys.extra?.[key];
        if (test === undefined) return { problem: shape(`a call entry holds "${key.slice(0, 40)}", which the grammar does not write`) };
        if (!test(entry[key])) return { problem: shape(`a call entry's "${key}" is malformed`) };
      }
      if (typeof entry[keys.name] !== 'string') return { problem: shape(`a call entry has no string "${keys.name}"`) };
      name = entry[keys.name] as string;
      argKey = keys.args;
      if (!Object.prototype.hasOwnProperty.call(entry, argKey)) {
        calls.push({ name, argumentsRaw: '', arguments: null, argumentsError: `call has no "${argKey}"` });
        continue;
      }
    }
    const value = entry[argKey];
    if (jsonDepthExceeds(value, MAX_ARGUMENT_DEPTH)) {
      calls.push({ name, argumentsRaw: '', arguments: null, argumentsError: ARGUMENTS_TOO_DEEP });
      continue;
    }
    const span = members[k]?.get(argKey);
    const exact = span ? text.slice(span[0], span[1]) : (JSON.stringify(value) ?? '');
    if (isObject(value)) calls.push(callFromJsonText(name, exact));
    else calls.push({ name, argumentsRaw: exact, arguments: null, argumentsError: `"${argKey.slice(0, 40)}" is not a JSON object` });
  }
  return { calls };
}

/**
 * The member spans of each object element of the JSON array starting at `start`, in order; stops
 * at the first element that is not an object. Linear: each element is scanned once.
 */
export function elementMembers(text: string, start: number): Array<Map<string, [number, number]>> {
  const out: Array<Map<string, [number, number]>> = [];
  let i = skipWs(text, start + 1);
  while (text[i] === '{') {
    const s = scanJson(text, i);
    if (s.end < 0 || s.error !== null) break;
    out.push(s.members);
    i = skipWs(text, s.end);
    if (text[i] !== ',') break;
    i = skipWs(text, i + 1);
  }
  return out;
}

/**
 * The spans of every occurrence of `tokens` in [from, to): the turn, thinking and response
 * delimiters a template writes around its calls. They are markup (the prose ratio does not count
 * them), while the text between them stays prose.
 */
export function tokenSpans(text: string, tokens: readonly string[], from = 0, to = text.length): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const t of tokens) {
    for (let at = text.indexOf(t, from); at >= 0 && at < to; at = text.indexOf(t, at + t.length)) out.push([at, at + t.length]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/**
 * True when index `at` lies inside a block opened by `open` and not closed by `close` before it
 * (a reasoning block written into the visible text: `<seed:think>`, `<|START_THINKING|>`).
 */
export function insideBlock(text: string, at: number, open: string, close: string): boolean {
  const o = text.lastIndexOf(open, at - 1);
  if (o < 0) return false;
  const c = text.indexOf(close, o + open.length);
  return c < 0 || c >= at;
}

/** The end of `token` when it follows `i` after whitespace only, else `i` (a stop token written after a block). */
export function optionalToken(text: string, i: number, tokens: readonly string[]): number {
  const k = skipWs(text, i);
  for (const t of tokens) if (text.startsWith(t, k)) return k + t.length;
  return i;
}

/**
 * A match with the template's auxiliary tokens added as markup spans (turn, thinking and response
 * delimiters; their bodies stay prose). The calls' own spans become `callSpans`, so the prose
 * between a thinking block and a call is never read as narrative between calls. Tokens inside a
 * block (an argument that quotes them) are dropped; on a failed parse only the tokens before the
 * failed block are added and the failed block stays last (../markup.ts reads it so). Linear: both
 * lists are sorted and swept once.
 */
export function withTokens(m: FamilyMatch, tokens: ReadonlyArray<[number, number]>): FamilyMatch {
  if (tokens.length === 0) return m;
  const failed = m.problem !== null && m.spans.length > 0 ? m.spans[m.spans.length - 1]! : null;
  const blocks = failed !== null ? m.spans.slice(0, -1) : m.spans;
  const keep: Array<[number, number]> = [];
  let b = 0;
  for (const t of tokens) {
    if (failed !== null && t[1] > failed[0]) break;
    while (b < blocks.length && blocks[b]![1] <= t[0]) b++;
    const blk = blocks[b];
    if (blk !== undefined && blk[0] < t[1]) continue; // inside (or overlapping) a block
    keep.push([t[0], t[1]]);
  }
  const spans = [...blocks, ...keep].sort((x, y) => x[0] - y[0]);
  if (failed !== null) spans.push(failed);
  return { ...m, spans, callSpans: m.callSpans ?? m.spans.slice() };
}
