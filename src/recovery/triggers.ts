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

/**
 * The prefilter: a predicate true when a text holds at least one of `tokens` (as a substring).
 * When false, no family of the tokens' source can detect markup in the text, so the engine skips
 * every family scanner. Cheaper than one search per token on text without markup: tokens are grouped by one character each of them holds (the first that is not an ASCII letter,
 * digit or space: `<`, `[`, `|`, `｜` for the families' markers), and a group is searched only when
 * the text holds its character. Prose without those characters costs one substring search per
 * group instead of one per token.
 *
 * @param tokens from {@link markerTokens}.
 * @returns a predicate, true when `text` holds at least one of `tokens`.
 */
export function tokenFilter(tokens: readonly string[]): (text: string) => boolean {
  const groups = new Map<string, string[]>();
  const plain: string[] = []; // tokens of letters, digits and spaces only: searched every time
  for (const t of tokens) {
    const key = [...t].find((c) => !/[A-Za-z0-9 ]/.test(c));
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

