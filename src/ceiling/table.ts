/**
 * The text report of `guard ceiling`: the table sorted by prose ratio with the ceiling marker,
 * the summary (largest leak, smallest quotation, gap, margins), the strip plot, the suggestion and
 * the replies on the wrong side. Pure: returns text.
 */

import { fmt } from './analyse.js';
import { renderStripPlot } from './plot.js';
import { PLAIN_STYLE, type CeilingAnalysis, type CeilingRow, type CeilingStyle, type CeilingSuggestion } from './types.js';

/** How a row is named in the table: the reply's id, else `file:line`. */
export function rowName(row: CeilingRow): string {
  return row.id ?? `${row.file}:${row.line}`;
}

/** How a row is named in messages: `file:line (id)`. */
export function rowLocation(row: CeilingRow): string {
  return `${row.file}:${row.line}${row.id !== null ? ` (${row.id})` : ''}`;
}

/** The ratio cell: two decimals, `-` when unmeasured. */
export function ratioCell(row: CeilingRow): string {
  return row.proseRatio === null ? '-' : row.proseRatio.toFixed(2);
}

/** The reason cell: the engine's reason unless it recovered the reply (then empty). */
export function reasonCell(row: CeilingRow): string {
  return row.outcome === 'recovered' ? '' : row.reason;
}

/** Cells of one table row: reply, label, family, ratio, reason, check. */
export function rowCells(row: CeilingRow): string[] {
  return [rowName(row), row.label, row.family ?? '-', ratioCell(row), reasonCell(row), row.wrongSide ? 'WRONG SIDE' : ''];
}

/** The table header cells, matching {@link rowCells}. */
export const TABLE_HEADER = ['reply', 'label', 'family', 'ratio', 'reason', 'check'];

/**
 * The table: a header, one line per row (sorted by prose ratio), and a marker line
 * `---- ceiling 0.50 ----` between the last row at or below the ceiling and the first above it.
 *
 * @returns lines without newlines; the ratio column is right-aligned, two decimals.
 */
export function renderTable(analysis: CeilingAnalysis, style: CeilingStyle = PLAIN_STYLE): string[] {
  const cells = analysis.rows.map(rowCells);
  const widths = TABLE_HEADER.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((s, i) => (i === 3 ? s.padStart(widths[i]!) : s.padEnd(widths[i]!)))
      .join('  ')
      .replace(/ +$/, '');
  const total = widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  const label = ` ceiling ${fmt(analysis.ceiling)} `;
  const left = 4;
  const marker = style.ceiling('-'.repeat(left) + label + '-'.repeat(Math.max(4, total - left - label.length)));
  const out = [line(TABLE_HEADER)];
  analysis.rows.forEach((row, i) => {
    if (i === analysis.markerIndex) out.push(marker);
    const text = line(cells[i]!);
    out.push(row.wrongSide ? style.wrong(text) : style[row.label](text));
  });
  if (analysis.markerIndex === analysis.rows.length) out.push(marker);
  return out;
}

/** The summary lines: largest leak, smallest quotation, gap, margins, verdict. */
export function renderSummary(a: CeilingAnalysis): string[] {
  const at = (r: CeilingRow | null) => (r ? `  (${rowLocation(r)})` : '');
  const out = [
    `largest leak ratio        ${a.maxLeak === null ? '-' : a.maxLeak.toFixed(2)}${at(a.maxLeakRow)}`,
    `smallest quotation ratio  ${a.minQuotation === null ? '-' : a.minQuotation.toFixed(2)}${at(a.minQuotationRow)}`,
    `gap                       ${a.gap === null ? '-' : a.gap.toFixed(2)}${a.gap !== null && a.gap <= 0 ? '  (the groups overlap)' : ''}`,
    `ceiling ${fmt(a.ceiling)} margins      ${a.leakMargin === null ? '-' : a.leakMargin.toFixed(2)} above the largest leak, ${a.quotationMargin === null ? '-' : a.quotationMargin.toFixed(2)} below the smallest quotation`,
  ];
  const n = `${a.counts.leak} leak${a.counts.leak === 1 ? '' : 's'}, ${a.counts.quotation} quotation${a.counts.quotation === 1 ? '' : 's'}`;
  out.push(a.separated ? `separated: yes (${n})` : `separated: no, ${a.wrong.length} of ${a.rows.length} on the wrong side (${n})`);
  return out;
}

/** The replies on the wrong side, one line each, naming file, line, id, label and ratio. */
export function renderWrong(a: CeilingAnalysis): string[] {
  if (a.wrong.length === 0) return [];
  return [
    `on the wrong side of the ceiling ${fmt(a.ceiling)}:`,
    ...a.wrong.map((r) => {
      const why =
        r.side === 'unmeasured'
          ? 'no markup found, so it has no prose ratio'
          : r.label === 'leak'
            ? `ratio ${r.proseRatio!.toFixed(2)} is above the ceiling: this leak is read as prose`
            : `ratio ${r.proseRatio!.toFixed(2)} is not above the ceiling: this quotation is not read as prose`;
      return `  ${rowLocation(r)}  ${r.label}  ${why}${reasonCell(r) !== '' ? ` (engine: ${r.reason})` : ' (engine: recovered)'}`;
    }),
  ];
}

/**
 * The whole text report: table, summary, strip plot, the suggestion when given, the wrong-side list.
 *
 * @returns the text, ending in a newline.
 */
export function renderText(a: CeilingAnalysis, style: CeilingStyle = PLAIN_STYLE, suggestion?: CeilingSuggestion): string {
  const parts = [renderTable(a, style), renderSummary(a), renderStripPlot(a, style)];
  if (suggestion) parts.push(renderSuggestion(suggestion));
  const wrong = renderWrong(a);
  if (wrong.length > 0) parts.push(wrong);
  return parts.map((p) => p.join('\n')).join('\n\n') + '\n';
}

/** The suggestion: the bound and the reasoning. */
export function renderSuggestion(s: CeilingSuggestion): string[] {
  return [s.ceiling === null ? 'suggested ceiling: none' : `suggested ceiling: ${fmt(s.ceiling)}`, ...s.reasoning.map((r) => `  ${r}`)];
}
