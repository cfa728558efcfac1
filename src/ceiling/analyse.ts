/**
 * Where the prose ceiling falls in a labelled corpus, and which bound to suggest. Pure.
 */

import type { CeilingAnalysis, CeilingLabel, CeilingRow, CeilingSample, CeilingSide, CeilingSuggestion } from './types.js';

/** Rounds derived quantities (gap, margins) so float noise such as 0.30000000000000004 does not show in JSON. */
export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** Byte-order comparison, the same on every machine. */
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function sideOf(ratio: number | null, ceiling: number): CeilingSide {
  if (ratio === null) return 'unmeasured';
  // the engine reads a reply as prose when ratio > ceiling, so a ratio equal to the ceiling is below
  return ratio > ceiling ? 'above' : 'below';
}

function compareRows(a: CeilingRow, b: CeilingRow): number {
  if (a.proseRatio !== null && b.proseRatio !== null && a.proseRatio !== b.proseRatio) return a.proseRatio - b.proseRatio;
  if ((a.proseRatio === null) !== (b.proseRatio === null)) return a.proseRatio === null ? 1 : -1;
  if (a.label !== b.label) return a.label === 'leak' ? -1 : 1;
  return byCodeUnit(a.file, b.file) || a.line - b.line;
}

/**
 * Measures a labelled corpus against a prose ceiling.
 *
 * @param samples the replies with the recovery engine's verdict (family, prose ratio 0..1 or null,
 *   reason, outcome), in any order.
 * @param ceiling the bound checked, ratio 0..1; a reply whose ratio equals it counts as below
 *   (the engine recovers up to and including the ceiling).
 * @returns rows sorted by ratio with the marker position, the largest leak ratio, the smallest
 *   quotation ratio, the gap, the ceiling's margin to each side, and the rows on the wrong side.
 *   A reply with no prose ratio (the engine found no markup) is `unmeasured` and on the wrong
 *   side: the corpus claims something the ceiling cannot check. Never throws.
 */
export function analyseCeiling(samples: readonly CeilingSample[], ceiling: number): CeilingAnalysis {
  const rows: CeilingRow[] = samples.map((s) => {
    const side = sideOf(s.proseRatio, ceiling);
    const wrongSide = s.label === 'leak' ? side !== 'below' : side !== 'above';
    return { ...s, side, wrongSide };
  });
  rows.sort(compareRows);
  const markerIndex = rows.filter((r) => r.side === 'below').length;
  let maxLeakRow: CeilingRow | null = null;
  let minQuotationRow: CeilingRow | null = null;
  const counts: Record<CeilingLabel, number> = { leak: 0, quotation: 0 };
  for (const r of rows) {
    counts[r.label]++;
    if (r.proseRatio === null) continue;
    if (r.label === 'leak' && (maxLeakRow === null || r.proseRatio > maxLeakRow.proseRatio!)) maxLeakRow = r;
    if (r.label === 'quotation' && (minQuotationRow === null || r.proseRatio < minQuotationRow.proseRatio!)) minQuotationRow = r;
  }
  const maxLeak = maxLeakRow?.proseRatio ?? null;
  const minQuotation = minQuotationRow?.proseRatio ?? null;
  const wrong = rows.filter((r) => r.wrongSide);
  return {
    ceiling,
    rows,
    markerIndex,
    maxLeak,
    minQuotation,
    maxLeakRow,
    minQuotationRow,
    gap: maxLeak !== null && minQuotation !== null ? round6(minQuotation - maxLeak) : null,
    leakMargin: maxLeak !== null ? round6(ceiling - maxLeak) : null,
    quotationMargin: minQuotation !== null ? round6(minQuotation - ceiling) : null,
    separated: wrong.length === 0 && rows.length > 0,
    wrong,
    counts,
  };
}

/** The fraction of the gap between the largest leak and the suggested bound. */
export const SUGGEST_FRACTION = 1 / 3;

/**
 * Proposes a prose ceiling for the measured corpus: one third of the gap above the largest leak
 * ratio (so the quotation side keeps twice the leak side's margin), rounded to two decimals when
 * the rounded value still lies strictly inside the gap.
 *
 * Why nearer the leaks: the two errors are not alike. A bound too low refuses a real leak, which
 * guard still reports (a turn lost, as before guard); a bound too high recovers a quotation,
 * which dispatches a call nobody made. Why not at the largest leak itself: the next leak with a
 * sentence more of preface would be refused, so the leaks keep a third of the gap.
 *
 * @param analysis the result of {@link analyseCeiling}.
 * @returns the bound (ratio 0..1) with its margins and the reasoning; `ceiling` is null when a
 *   group has no measured reply or the groups overlap or touch (no bound separates them).
 */
export function suggestCeiling(analysis: CeilingAnalysis): CeilingSuggestion {
  const { maxLeak, minQuotation, gap } = analysis;
  if (maxLeak === null || minQuotation === null || gap === null) {
    const missing = maxLeak === null ? 'leak' : 'quotation';
    return { ceiling: null, leakMargin: null, quotationMargin: null, reasoning: [`No ${missing} reply has a prose ratio, so there is nothing to put a bound against.`] };
  }
  if (minQuotation <= maxLeak) {
    return {
      ceiling: null,
      leakMargin: null,
      quotationMargin: null,
      reasoning: [
        `The groups overlap: the smallest quotation ratio ${minQuotation.toFixed(2)} is not above the largest leak ratio ${maxLeak.toFixed(2)}.`,
        'No prose ceiling separates them; the quotations below the leaks need another rule (fence, backticks, example frame) or the corpus labels are wrong.',
      ],
    };
  }
  const raw = maxLeak + (minQuotation - maxLeak) * SUGGEST_FRACTION;
  const rounded = Math.round(raw * 100) / 100;
  const ceiling = rounded > maxLeak && rounded < minQuotation ? rounded : round6(raw);
  const leakMargin = round6(ceiling - maxLeak);
  const quotationMargin = round6(minQuotation - ceiling);
  return {
    ceiling,
    leakMargin,
    quotationMargin,
    reasoning: [
      `The largest leak measures ${maxLeak.toFixed(2)} and the smallest quotation ${minQuotation.toFixed(2)}: a gap of ${gap.toFixed(2)}.`,
      'A bound too high recovers a quotation, which dispatches a call nobody made; a bound too low only refuses a leak, which is still reported. So the bound sits nearer the leaks.',
      'It does not sit on the largest leak: the next leak with one more sentence of preface would be refused. One third of the gap above the largest leak leaves the quotations twice the leaks\' margin.',
      `Suggested ceiling ${fmt(ceiling)}: margin ${leakMargin.toFixed(2)} above the largest leak, ${quotationMargin.toFixed(2)} below the smallest quotation.`,
    ],
  };
}

/** A ratio with two decimals, or more when two would hide the difference that matters. */
export function fmt(x: number): string {
  const two = x.toFixed(2);
  return Number(two) === x ? two : String(round6(x));
}
