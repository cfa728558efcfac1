/**
 * The prose ratio: how much of a reply is not markup.
 *
 * The markup's weight is its structure, not its argument content: each call's argument text counts
 * at most {@link ARGUMENT_WEIGHT} non-whitespace code points ({@link proseRatio}'s `calls`), so a
 * reply cannot lower its ratio (and pass a refusal preamble off as a short preface) by padding the
 * arguments, and a long file written by one call does not hide a long preamble either. Why a
 * bound rather than the whole envelope: docs/recovery.md, "The prose ratio".
 *
 * Definition: the number of non-whitespace code points outside the markup spans, divided by the
 * number of non-whitespace code points in the whole text. Whitespace is the JavaScript `\s` set
 * (Unicode White_Space plus U+FEFF). A surrogate pair counts once. The ratio is 0..1; a text with
 * no non-whitespace character has ratio 0 (there is no prose in it). Whitespace is left out so that
 * the newlines a template puts around its blocks, or a pretty-printed JSON body, do not count
 * either way.
 */

/** True for the UTF-16 code units of JavaScript's `\s` (`c` is a char code). */
export function isSpaceCode(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** Sorts, clamps to [0, length] and merges spans; drops empty ones. */
export function normaliseSpans(spans: ReadonlyArray<readonly [number, number]>, length: number): Array<[number, number]> {
  const clean = spans
    .map(([a, b]) => [Math.max(0, Math.min(length, Math.floor(a))), Math.max(0, Math.min(length, Math.floor(b)))] as [number, number])
    .filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b) && b > a)
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out: Array<[number, number]> = [];
  for (const s of clean) {
    const last = out[out.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else out.push([s[0], s[1]]);
  }
  return out;
}

/** Non-whitespace code points of a call's argument text that count toward the markup's weight. */
export const ARGUMENT_WEIGHT = 64;

/** Non-whitespace code points of `s` (a surrogate pair counts once). */
export function nonSpaceLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const p = s.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) continue;
    }
    if (!isSpaceCode(c)) n++;
  }
  return n;
}

/**
 * Prose outside the markup over the prose plus the markup's weight (see the module header).
 *
 * @param text the reply's visible text.
 * @param markupSpans [start, end) offsets in UTF-16 code units (String indices); they may be
 *   unsorted or overlap; out-of-range offsets are clamped.
 * @param calls the calls read from the markup (their argument texts): each counts at most
 *   {@link ARGUMENT_WEIGHT} code points of argument text; none (the default) weighs the markup whole.
 * @returns a ratio 0..1; 1 when there are no spans and some text, 0 for blank text.
 */
export function proseRatio(text: string, markupSpans: Array<[number, number]>, calls: ReadonlyArray<{ argumentsRaw: string }> = []): number {
  let excess = 0;
  for (const c of calls) excess += Math.max(0, nonSpaceLength(c.argumentsRaw) - ARGUMENT_WEIGHT);
  return boundedRatio(text, markupSpans, excess);
}

/** Prose over prose plus markup less `excess` code points of argument text (at least one of markup). */
function boundedRatio(text: string, markupSpans: Array<[number, number]>, excess: number): number {
  const spans = normaliseSpans(markupSpans, text.length);
  let total = 0;
  let prose = 0;
  let s = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // The low half of a surrogate pair was counted with its high half.
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const p = text.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) continue;
    }
    if (isSpaceCode(c)) continue;
    total++;
    while (s < spans.length && spans[s]![1] <= i) s++;
    const inside = s < spans.length && spans[s]![0] <= i;
    if (!inside) prose++;
  }
  if (total === 0) return 0;
  const markup = total - prose;
  if (markup === 0) return 1;
  return prose / (prose + Math.max(1, markup - excess));
}
