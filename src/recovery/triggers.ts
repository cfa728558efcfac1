/**
 * The engine's prefilter: the tokens without which no family's markup, stray token or repeated
 * token can be found in a text. Derived from the families' own `markers` (./family.ts), never
 * listed twice: a family's `detect` only fires on text that holds one of the markers of the
 * families it is read with (test/recovery/prefilter.test.ts checks this on random texts), and
 * the stray and repetition checks search exactly these tokens.
 */

import type { Family } from './family.js';

/**
 * The distinct marker tokens of `families`, in family order.
 *
 * @param families the families the engine reads (../index.ts FAMILIES).
 * @returns each marker once; empty for no families.
 */
export function markerTokens(families: readonly Family[]): string[] {
  return [...new Set(families.flatMap((f) => f.markers))];
}

/**
 * True when `text` holds at least one of `tokens` (a plain substring search per token, linear in
 * the text). When false, no family of the tokens' source can detect markup in the text, so the
 * engine skips every family scanner.
 *
 * @param text any text.
 * @param tokens from {@link markerTokens}.
 */
export function holdsAnyToken(text: string, tokens: readonly string[]): boolean {
  for (const t of tokens) if (text.includes(t)) return true;
  return false;
}
