/**
 * Types of `guard ceiling`: a labelled corpus measured by the recovery engine, and what the prose
 * ceiling does to it. Pure data: no fs, no process.
 */

/** What a corpus reply is: captured leaked markup, or prose that quotes or explains markup. */
export type CeilingLabel = 'leak' | 'quotation';

/** Every {@link CeilingLabel}, in table order. */
export const CEILING_LABELS: readonly CeilingLabel[] = ['leak', 'quotation'];

/**
 * Where a reply's prose ratio falls: `below` = at or under the ceiling (the engine may recover it),
 * `above` = over it (the engine reads it as prose), `unmeasured` = the engine found no markup, so the
 * reply has no prose ratio and the ceiling says nothing about it.
 */
export type CeilingSide = 'below' | 'above' | 'unmeasured';

/** One labelled reply as the recovery engine measured it (the input of {@link analyseCeiling}). */
export interface CeilingSample {
  /** The reply's own id (guard reply record `id`, response id), or null. */
  id: string | null;
  /** Capture file as given, and 1-based line where the reply starts. */
  file: string;
  line: number;
  label: CeilingLabel;
  /** Family the engine convicted, or null when it found no markup. */
  family: string | null;
  /** The engine's prose ratio 0..1, or null when it found no markup. */
  proseRatio: number | null;
  /** The engine's reason code, read from its verdict as is. */
  reason: string;
  /** The engine's outcome (`none`, `recovered`, `refused`). */
  outcome: string;
}

/** A sample with its place relative to the ceiling. */
export interface CeilingRow extends CeilingSample {
  side: CeilingSide;
  /** A leak not `below`, or a quotation not `above` (an unmeasured reply is always wrong). */
  wrongSide: boolean;
}

/** What the ceiling does to a corpus (see {@link analyseCeiling}). */
export interface CeilingAnalysis {
  /** The bound checked (ratio 0..1). */
  ceiling: number;
  /** Measured rows by prose ratio ascending (ties: leaks first, then file, line), then unmeasured rows. */
  rows: CeilingRow[];
  /** How many rows come before the ceiling marker (the measured rows at or below the ceiling). */
  markerIndex: number;
  /** The largest leak ratio and the smallest quotation ratio; null when that group has no measured reply. */
  maxLeak: number | null;
  minQuotation: number | null;
  /** The rows holding them (the first in table order on ties). */
  maxLeakRow: CeilingRow | null;
  minQuotationRow: CeilingRow | null;
  /** minQuotation − maxLeak; negative when the groups overlap; null when either is null. */
  gap: number | null;
  /** ceiling − maxLeak and minQuotation − ceiling; negative on the wrong side; null when unknown. */
  leakMargin: number | null;
  quotationMargin: number | null;
  /** True when every leak is at or below the ceiling and every quotation above it. */
  separated: boolean;
  /** The rows on the wrong side, in table order. */
  wrong: CeilingRow[];
  /** Rows per label. */
  counts: Record<CeilingLabel, number>;
}

/** A proposed ceiling (see {@link suggestCeiling}). */
export interface CeilingSuggestion {
  /** The proposed bound, or null when no bound separates the corpus. */
  ceiling: number | null;
  /** Its distance to the largest leak and to the smallest quotation. */
  leakMargin: number | null;
  quotationMargin: number | null;
  /** The argument, one sentence a line, for people. */
  reasoning: string[];
}

/**
 * Colour hooks for the text renderers; each returns its argument styled (or unchanged). The
 * renderers never depend on colour: every distinction is also drawn in characters.
 */
export interface CeilingStyle {
  leak(s: string): string;
  quotation(s: string): string;
  wrong(s: string): string;
  ceiling(s: string): string;
  dim(s: string): string;
}

/** A style that changes nothing (no colour). */
export const PLAIN_STYLE: CeilingStyle = { leak: (s) => s, quotation: (s) => s, wrong: (s) => s, ceiling: (s) => s, dim: (s) => s };
