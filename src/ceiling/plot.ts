/**
 * The strip plot: each group's prose ratios as points on a 0..1 axis, one text row per group, the
 * ceiling drawn as a column of `|` and a `^` under the axis. Readable without colour: a point is
 * `o` (one reply), `2`–`9` (that many in one column) or `#` (ten or more). Pure.
 */

import { fmt } from './analyse.js';
import { CEILING_LABELS, PLAIN_STYLE, type CeilingAnalysis, type CeilingStyle } from './types.js';

/** Plot columns for 0..1: 51 columns, so one column is 0.02 and a tick every 0.1 falls on a column. */
export const PLOT_WIDTH = 51;

const LABEL_WIDTH = 11;

/** The column (0 .. width−1) of a ratio. */
export function plotColumn(ratio: number, width = PLOT_WIDTH): number {
  return Math.min(width - 1, Math.max(0, Math.round(ratio * (width - 1))));
}

function glyph(n: number): string {
  return n === 1 ? 'o' : n < 10 ? String(n) : '#';
}

/**
 * Draws the strip plot.
 *
 * @param analysis rows and ceiling from analyseCeiling; unmeasured rows are not drawn (a line
 *   under the plot counts them).
 * @param style colour hooks (points of wrong-side replies use `style.wrong`).
 * @returns the lines, without trailing newlines: tick labels, one row per label, the axis, the
 *   ceiling caret, and a legend.
 */
export function renderStripPlot(analysis: CeilingAnalysis, style: CeilingStyle = PLAIN_STYLE, width = PLOT_WIDTH): string[] {
  const pad = ' '.repeat(LABEL_WIDTH);
  const c = plotColumn(analysis.ceiling, width);
  const ticks: string[] = [];
  const step = (width - 1) / 10;
  let tickLine = '';
  for (let t = 0; t <= 10; t++) {
    const col = Math.round(t * step);
    tickLine = tickLine.padEnd(col) + (t / 10).toFixed(1);
  }
  ticks.push(pad + tickLine);
  const lines = [...ticks];
  for (const label of CEILING_LABELS) {
    const counts = new Array<number>(width).fill(0);
    const wrong = new Array<boolean>(width).fill(false);
    for (const r of analysis.rows) {
      if (r.label !== label || r.proseRatio === null) continue;
      const col = plotColumn(r.proseRatio, width);
      counts[col]!++;
      if (r.wrongSide) wrong[col] = true;
    }
    let row = '';
    for (let col = 0; col < width; col++) {
      const n = counts[col]!;
      if (n > 0) row += wrong[col] ? style.wrong(glyph(n)) : style[label](glyph(n));
      else if (col === c) row += style.ceiling('|');
      else row += ' ';
    }
    lines.push(label.padEnd(LABEL_WIDTH) + row.replace(/ +$/, ''));
  }
  let axis = '';
  for (let col = 0; col < width; col++) axis += col === c ? style.ceiling('|') : Math.abs(col / step - Math.round(col / step)) < 1e-9 ? '+' : '-';
  lines.push(pad + axis);
  lines.push(pad + ' '.repeat(c) + style.ceiling(`^ ceiling ${fmt(analysis.ceiling)}`));
  const unmeasured = analysis.rows.filter((r) => r.proseRatio === null).length;
  lines.push(style.dim(`${pad}o one reply, 2-9 that many in one column, # ten or more; one column is ${(1 / (width - 1)).toFixed(2)}`));
  if (unmeasured > 0) lines.push(`${pad}not drawn: ${unmeasured} repl${unmeasured === 1 ? 'y' : 'ies'} with no markup found (no prose ratio)`);
  return lines;
}
