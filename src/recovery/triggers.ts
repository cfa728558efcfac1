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
 * The prefilter: a predicate true when a text holds at least one of `tokens` (as a substring).
 * When false, no family of the tokens' source can detect markup in the text, so the engine skips
 * every family scanner. Cheaper than one search per token on text without markup: tokens are
 * grouped by one character each of them holds ({@link keyOf}: a rare one, `<`, `[`, `|`, `｜` for
 * most families' markers, never prose punctuation such as `:` when the token holds a rarer one),
 * and a group is searched only when the text holds its character. Prose without those characters costs one substring search per
 * group instead of one per token.
 *
 * @param tokens from {@link markerTokens}.
 * @returns a predicate, true when `text` holds at least one of `tokens`.
 */
export function tokenFilter(tokens: readonly string[]): (text: string) => boolean {
  const groups = new Map<string, string[]>();
  const plain: string[] = []; // tokens of letters, digits and spaces only: searched every time
  for (const t of tokens) {
    const key = keyOf(t);
    if (key === undefined) plain.push(t);
    else groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const keyed = [...groups.entries()];
  return (text: string): boolean => {
    for (const t of plain) if (text.includes(t)) return true;
    for (const [key, group] of keyed) {
      if (!text.includes(key)) continue;
      for (const t of group) if (text.includes(t)) return true;
    }
    return false;
  };
}

