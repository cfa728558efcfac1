/**
 * The engine's prefilter: the tokens without which no family's markup, stray token or repeated
 * token can be found in a text. Derived from the families' own `markers` and `triggers`
 * (./family.ts), never listed twice: a family's `detect` only fires on text that holds one of the
 * tokens of the families it is read with (test/recovery/prefilter.test.ts checks this on random
 * texts), and the stray and repetition checks search the `markers` among them (./markup.ts).
 */

import type { Family } from './family.js';

/**
 * The distinct marker tokens of `families`, in family order: their `markers`, then their
 * `triggers` (substrings `detect` needs that are no markup on their own, ./family.ts).
 *
 * @param families the families the engine reads (../index.ts FAMILIES).
 * @returns each token once; empty for no families.
 */
export function markerTokens(families: readonly Family[]): string[] {
  return [...new Set(families.flatMap((f) => [...f.markers, ...(f.triggers ?? [])]))];
}

/** Characters of marker tokens that prose seldom holds, in the order a group key is chosen; prose
 * punctuation (`:`, `>`, `.`, `(` …) comes after them, so `Action: \`\`\`json` is keyed by its backtick,
 * not by its colon. */
const RARE = '`<|[{\\~^=';

/** The group key of a token: a character outside ASCII (`｜`, `▁`), else the first of {@link RARE} it
 * holds, else its first character that is not an ASCII letter, digit or space; undefined for none. */
function keyOf(t: string): string | undefined {
  const chars = [...t].filter((c) => !/[A-Za-z0-9 ]/.test(c));
  const wide = chars.find((c) => c.charCodeAt(0) > 0x7f);
  if (wide !== undefined) return wide;
  for (const r of RARE) if (chars.includes(r)) return r;
  return chars[0];
}

/**
 * A filter of items by the tokens they carry: for a text, the items whose token the text may hold
 * (the others certainly do not occur in it). Tokens are grouped by one character each of them
 * holds ({@link keyOf}: a rare one, `<`, `[`, `|`, `｜` for most families' markers, never prose
 * punctuation such as `:` when the token holds a rarer one); a group is kept only when the text
 * holds its character, one substring search per group instead of one per token.
 *
 * @param items the items, in the order the result keeps.
 * @param tokenOf the token of an item.
 * @returns a function from a text to the items (in order) whose token's group character it holds;
 *   items whose token has no such character (letters, digits and spaces only) are always kept.
 */
export function keyedFilter<T>(items: readonly T[], tokenOf: (item: T) => string): (text: string) => T[] {
  const keys = items.map((i) => keyOf(tokenOf(i)));
  const distinct = [...new Set(keys.filter((k): k is string => k !== undefined))];
  // per item, the index of its key in `distinct` (-1: always kept); per text, one search per key
  const keyIds = keys.map((k) => (k === undefined ? -1 : distinct.indexOf(k)));
  const always = items.filter((_, i) => keyIds[i] === -1);
  const present = new Uint8Array(distinct.length);
  return (text: string): T[] => {
    let any = false;
    for (let k = 0; k < distinct.length; k++) any = (present[k] = text.includes(distinct[k]!) ? 1 : 0) === 1 || any;
    if (!any) return always.slice();
    const out: T[] = [];
    for (let i = 0; i < items.length; i++) if (keyIds[i] === -1 || present[keyIds[i]!] === 1) out.push(items[i]!);
    return out;
  };
}

/**
 * The prefilter: a predicate true when a text holds at least one of `tokens` (as a substring).
 * When false, no family of the tokens' source can detect markup in the text, so the engine skips
 * every family scanner. Cheaper than one search per token on text without markup: only the tokens
 * {@link keyedFilter} keeps are searched, and prose without their characters costs one substring
 * search per group instead of one per token.
 *
 * @param tokens from {@link markerTokens}.
 * @returns a predicate, true when `text` holds at least one of `tokens`.
 */
export function tokenFilter(tokens: readonly string[]): (text: string) => boolean {
  const candidates = keyedFilter(tokens, (t) => t);
  return (text: string): boolean => candidates(text).some((t) => text.includes(t));
}
