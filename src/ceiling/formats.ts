/**
 * The machine and pull-request forms of a ceiling report: JSON (one object) and a Markdown table.
 * Pure: returns text.
 */

import { fmt } from './analyse.js';
import { ratioCell, reasonCell, rowName } from './table.js';
import type { CeilingAnalysis, CeilingSide, CeilingSuggestion } from './types.js';

/** One row of the JSON report; `source` is `file:line`. */
export interface CeilingJsonRow {
  id: string | null;
  source: string;
  label: string;
  family: string | null;
  /** The engine's prose ratio, unrounded (0..1), or null when no markup was found. */
  prose_ratio: number | null;
  reason: string;
  outcome: string;
  side: CeilingSide;
  wrong_side: boolean;
}

/** The JSON report (README "guard ceiling" documents the fields). */
export interface CeilingJson {
  ceiling: number;
  rows: CeilingJsonRow[];
  max_leak: number | null;
  min_quotation: number | null;
  gap: number | null;
  margins: { leak: number | null; quotation: number | null };
  separated: boolean;
  /** `file:line` of each reply on the wrong side, in table order. */
  wrong: string[];
  counts: { leak: number; quotation: number };
  suggestion?: { ceiling: number | null; leak_margin: number | null; quotation_margin: number | null; reasoning: string[] };
}

/** Builds the JSON report object. */
export function ceilingJson(a: CeilingAnalysis, suggestion?: CeilingSuggestion): CeilingJson {
  const out: CeilingJson = {
    ceiling: a.ceiling,
    rows: a.rows.map((r) => ({
      id: r.id,
      source: `${r.file}:${r.line}`,
      label: r.label,
      family: r.family,
      prose_ratio: r.proseRatio,
      reason: r.reason,
      outcome: r.outcome,
      side: r.side,
      wrong_side: r.wrongSide,
    })),
    max_leak: a.maxLeak,
    min_quotation: a.minQuotation,
    gap: a.gap,
    margins: { leak: a.leakMargin, quotation: a.quotationMargin },
    separated: a.separated,
    wrong: a.wrong.map((r) => `${r.file}:${r.line}`),
    counts: { ...a.counts },
  };
  if (suggestion) {
    out.suggestion = {
      ceiling: suggestion.ceiling,
      leak_margin: suggestion.leakMargin,
      quotation_margin: suggestion.quotationMargin,
      reasoning: suggestion.reasoning,
    };
  }
  return out;
}

/** A Markdown table cell: pipes escaped, line breaks flattened, never empty-looking. */
function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

/**
 * The Markdown report: a GitHub-flavoured table (header, separator, one row per reply, the
 * ceiling as a bold row where it falls; every row has the same six columns), then the summary as a
 * list, and the suggestion when given.
 *
 * @returns the text, ending in a newline.
 */
export function renderMarkdown(a: CeilingAnalysis, suggestion?: CeilingSuggestion): string {
  const row = (c: string[]) => `| ${c.map(cell).join(' | ')} |`;
  const marker = `| **ceiling ${fmt(a.ceiling)}** |  |  | **${fmt(a.ceiling)}** |  |  |`;
  const lines = [row(['reply', 'label', 'family', 'prose ratio', 'reason', 'side']), '|---|---|---|---:|---|---|'];
  a.rows.forEach((r, i) => {
    if (i === a.markerIndex) lines.push(marker);
    const side = r.wrongSide ? `**${r.side} (wrong side)**` : r.side;
    lines.push(row([rowName(r), r.label, r.family ?? '-', ratioCell(r), reasonCell(r), side]));
  });
  if (a.markerIndex === a.rows.length) lines.push(marker);
  const two = (x: number | null) => (x === null ? '-' : x.toFixed(2));
  lines.push(
    '',
    `- largest leak ratio: ${two(a.maxLeak)}`,
    `- smallest quotation ratio: ${two(a.minQuotation)}`,
    `- gap: ${two(a.gap)}`,
    `- margins of the ceiling ${fmt(a.ceiling)}: ${two(a.leakMargin)} above the largest leak, ${two(a.quotationMargin)} below the smallest quotation`,
    `- separated: ${a.separated ? 'yes' : `no (${a.wrong.length} on the wrong side)`} — ${a.counts.leak} leaks, ${a.counts.quotation} quotations`,
  );
  if (suggestion) {
    lines.push('', suggestion.ceiling === null ? '**Suggested ceiling:** none' : `**Suggested ceiling:** ${fmt(suggestion.ceiling)}`, '');
    for (const r of suggestion.reasoning) lines.push(`- ${r}`);
  }
  return lines.join('\n') + '\n';
}
