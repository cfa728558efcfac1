/**
 * The prose ratio: how much of a reply is not markup.
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

/**
 * Prose outside the markup over the whole reply (see the module header for the exact definition).
 *
 * @param text the reply's visible text.
 * @param markupSpans [start, end) offsets in UTF-16 code units (String indices); they may be
 *   unsorted or overlap; out-of-range offsets are clamped.
 * @returns a ratio 0..1; 1 when there are no spans and some text, 0 for blank text.
 */
export function proseRatio(text: string, markupSpans: Array<[number, number]>): number {
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
  return total === 0 ? 0 : prose / total;
}
