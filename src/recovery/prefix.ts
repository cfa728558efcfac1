/**
 * Where leaked markup may start in a text that is still growing (a stream of text deltas): the
 * hold-back point of a streaming recovery (as streaming tool parsers hold one back: sglang's
 * `_ends_with_partial_token` in base_format_detector.py,
 * https://github.com/sgl-project/sglang/tree/main/python/sglang/srt/function_call, and the
 * sub-token buffer of vLLM's hermes_tool_parser.py,
 * https://github.com/vllm-project/vllm/blob/becf329d2cb4494516f3672d291d4d7c06a57563/vllm/tool_parsers/hermes_tool_parser.py;
 * docs/sources.md "Streaming hold-back"). Built from the families' own tokens ({@link FAMILIES}
 * `markers`: openers, closers, separators), so a new family is covered as soon as it is registered.
 * Pure: no fs, no process.
 */

import type { Family, FamilyMatch } from './family.js';
import { FAMILIES } from './families/index.js';

/** Every distinctive token of every family, longest first (deduplicated). */
export const MARKUP_TOKENS: readonly string[] = [...new Set(FAMILIES.flatMap((f) => f.markers))].sort((a, b) => b.length - a.length);

/** The longest token, in UTF-16 code units: no suffix longer than this minus one is ever held. */
export const MAX_MARKUP_TOKEN = MARKUP_TOKENS.reduce((n, t) => Math.max(n, t.length), 0);

/** Where the text may begin markup: `at` = index, `complete` = a whole token starts there. */
export interface MarkupStart {
  /** Index (UTF-16 code units) of the first character that may belong to markup. */
  at: number;
  /** True when a whole family token occurs from `at` on (markup has started for sure, or a
   * token that contains it does); false when only a proper prefix of a token ends the text. */
  complete: boolean;
}

/**
 * Finds the first point of `text` from which family markup may start, given that more text may
 * follow: either the first occurrence of a whole family token, or the start of the longest suffix
 * that is a proper prefix of a token (e.g. `"see <too"` → 4). When a whole token is found, a
 * partial token that began before it and runs through it (`<｜DSML｜` holding the `｜DSML｜`
 * marker) moves the point back to its own start.
 *
 * @param text the visible text seen so far (or the part not yet emitted).
 * @returns the point, or null when no markup can start in this text, whatever follows.
 *   Cost: O(text length × tokens) for the whole-token search, O(MAX_MARKUP_TOKEN × tokens) for
 *   the suffix check.
 */
export function markupStart(text: string): MarkupStart | null {
  let whole = -1;
  for (const t of MARKUP_TOKENS) {
    const at = text.indexOf(t);
    if (at >= 0 && (whole < 0 || at < whole)) whole = at;
  }
  const partial = partialTokenStart(text);
  if (whole < 0) return partial < text.length ? { at: partial, complete: false } : null;
  return { at: Math.min(whole, partial), complete: true };
}

/**
 * The start of the longest suffix of `text` that is a proper, non-empty prefix of a family
 * token, or `text.length` when there is none (nothing needs holding back).
 */
export function partialTokenStart(text: string): number {
  const from = Math.max(0, text.length - MAX_MARKUP_TOKEN + 1);
  for (let i = from; i < text.length; i++) {
    const rest = text.length - i;
    for (const t of MARKUP_TOKENS) {
      if (t.length > rest && t.startsWith(text.slice(i))) return i;
    }
  }
  return text.length;
}

/**
 * The markup spans of the family whose markup starts first in `text` (same choice and tie-break
 * as the recovery engine), or [] when no family's markup is present. For a reply the engine
 * recovered, these are exactly the spans it judged, so the text outside them is the reply's
 * prose.
 *
 * @returns spans [start, end) in UTF-16 code units, in order, non-overlapping.
 */
export function markupSpans(text: string): Array<[number, number]> {
  let best: { family: Family; at: number } | null = null;
  for (const family of FAMILIES) {
    const at = family.detect(text);
    if (at >= 0 && (best === null || at < best.at)) best = { family, at };
  }
  if (best === null) return [];
  const m: FamilyMatch = best.family.parse(text, best.at, { schemaOf: () => undefined });
  return m.spans;
}
