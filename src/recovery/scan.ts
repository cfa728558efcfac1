/**
 * Linear-time text scanning shared by the family parsers: memoised `indexOf`, whitespace skips,
 * and a JSON extent scanner that respects strings (so a `</tool_call>` inside a JSON string value
 * is not taken for a closer) and reports duplicate keys and the root object's member spans.
 *
 * Nothing here uses a backtracking regular expression; every loop moves forward, so a 1 MB reply
 * costs O(n) per family. What they step over is counted in `work.recoveryScanChars` (base/work.ts).
 */

import { work } from '../base/work.js';

/**
 * `indexOf` with a per-needle memo. A parser that searches the same closer again and again from
 * later and later offsets (a reply made of thousands of openers and no closer) would otherwise
 * rescan the whole tail each time; with the memo a search that failed once fails at once.
 */
export class Scanner {
  private readonly memo = new Map<string, { from: number; at: number }>();

  constructor(readonly text: string) {}

  /** The first index ≥ `from` where `needle` occurs, or -1. */
  find(needle: string, from: number): number {
    const m = this.memo.get(needle);
    // No occurrence lies in [m.from, m.at), so for from ≥ m.from the memoised answer still holds.
    if (m && from >= m.from && (m.at === -1 || m.at >= from)) return m.at;
    const at = this.text.indexOf(needle, from);
    work.recoveryScanChars += (at === -1 ? this.text.length : at) - from;
    this.memo.set(needle, { from, at });
    return at;
  }

  /** True when `token` occurs exactly at index `i`. */
  at(i: number, token: string): boolean {
    return this.text.startsWith(token, i);
  }
}

/** True for the JSON / XML inter-token whitespace characters (space, tab, CR, LF). */
export function isWs(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
}

/** The first index ≥ i that is not whitespace (or text.length). */
export function skipWs(text: string, i: number): number {
  while (i < text.length && isWs(text[i])) i++;
  return i;
}

/** The last index < end that is not whitespace, plus one (so [start, result) trims the right). */
export function trimEnd(text: string, start: number, end: number): number {
  while (end > start && isWs(text[end - 1])) end--;
  return end;
}

/** What {@link scanJson} learnt about one JSON value. */
export interface JsonScan {
  /** Index just past the value, or -1 when the text ends before the value closes. */
  end: number;
  /** True when `end` is -1 because the text ends inside a JSON string (not just with brackets open). */
  inString: boolean;
  /** A structural problem the scanner saw (mismatched bracket), or null. */
  error: string | null;
  /** The first key seen twice in one object, or null. JSON.parse would silently keep the last. */
  duplicateKey: string | null;
  /** For a root object: each member's value span [start, end) in the text, whitespace trimmed. */
  members: Map<string, [number, number]>;
}

interface Frame {
  kind: '{' | '[';
  keys: Set<string>;
  expectKey: boolean;
}

/**
 * Finds where the JSON object or array starting at `start` ends, counting brackets outside
 * strings. It does not validate the value (JSON.parse does that on the slice); it only delimits
 * it, so it must be followed by a real parse.
 *
 * @param text the whole text.
 * @param start index of a `{` or `[`.
 * @returns the extent; `end` is -1 when the text ends inside the value (a truncation).
 */
export function scanJson(text: string, start: number): JsonScan {
  const out: JsonScan = { end: -1, inString: false, error: null, duplicateKey: null, members: new Map() };
  const stack: Frame[] = [];
  let memberKey: string | null = null;
  let memberStart = -1;
  const closeMember = (at: number) => {
    if (memberKey !== null && memberStart >= 0) out.members.set(memberKey, [memberStart, trimEnd(text, memberStart, at)]);
    memberKey = null;
    memberStart = -1;
  };
  let i = start;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) {
        out.inString = true; // the text ends inside a string
        work.recoveryScanChars += j - start;
        return out;
      }
      const top = stack[stack.length - 1];
      if (top && top.kind === '{' && top.expectKey) {
        let key: string;
        try {
          key = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          key = text.slice(i + 1, j);
        }
        if (top.keys.has(key) && out.duplicateKey === null) out.duplicateKey = key;
        top.keys.add(key);
        top.expectKey = false;
        if (stack.length === 1) memberKey = key;
      }
      i = j + 1;
      continue;
    }
    if (ch === '{' || ch === '[') {
      stack.push({ kind: ch, keys: new Set(), expectKey: ch === '{' });
    } else if (ch === '}' || ch === ']') {
      const top = stack.pop();
      if (!top || (top.kind === '{') !== (ch === '}')) {
        out.error = `mismatched '${ch}' at offset ${i - start}`;
        out.end = i + 1;
        work.recoveryScanChars += out.end - start;
        return out;
      }
      if (stack.length === 0) {
        closeMember(i);
        out.end = i + 1;
        work.recoveryScanChars += out.end - start;
        return out;
      }
    } else if (ch === ':') {
      if (stack.length === 1 && memberKey !== null) memberStart = skipWs(text, i + 1);
    } else if (ch === ',') {
      const top = stack[stack.length - 1];
      if (top && top.kind === '{') top.expectKey = true;
      if (stack.length === 1) closeMember(i);
    }
    i++;
  }
  work.recoveryScanChars += i - start;
  return out;
}

/**
 * The first index ≥ `from` where `needle` occurs outside a JSON string, reading the text from `from`
 * as JSON tokens (a `"` opens or closes a string, `\` escapes inside one). Used to find a family's
 * closer after JSON whose brackets do not balance: the closer that follows the last string is the
 * envelope's end, one inside a string value is not. Linear.
 *
 * @param text the whole text.
 * @param from where the JSON value starts (outside any string).
 * @param needle the closer to look for.
 * @returns its index, or -1 when every occurrence lies inside a string (or there is none).
 */
export function indexOutsideStrings(text: string, from: number, needle: string): number {
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === needle[0] && text.startsWith(needle, i)) {
      work.recoveryScanChars += i - from;
      return i;
    }
  }
  work.recoveryScanChars += text.length - from;
  return -1;
}

/** A JSON value parsed from a delimited slice, or why it could not be. */
export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

/** JSON.parse without throwing; refuses duplicate keys (found by {@link scanJson}). */
export function parseJsonValue(raw: string): JsonParse {
  const t = skipWs(raw, 0);
  if (raw[t] === '{' || raw[t] === '[') {
    const s = scanJson(raw, t);
    if (s.duplicateKey !== null) return { ok: false, error: `duplicate key "${s.duplicateKey}"` };
  }
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (e) {
    return { ok: false, error: `not valid JSON: ${(e as Error).message}` };
  }
}

/** True for a plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
