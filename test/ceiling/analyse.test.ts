import { describe, expect, it } from 'vitest';
import { analyseCeiling, suggestCeiling } from '../../src/ceiling/analyse.js';
import type { CeilingLabel, CeilingSample } from '../../src/ceiling/types.js';

function sample(id: string, label: CeilingLabel, proseRatio: number | null, line = 1, outcome = 'none', reason = 'prose'): CeilingSample {
  return { id, file: 'c.jsonl', line, label, family: proseRatio === null ? null : 'hermes', proseRatio, reason, outcome };
}

describe('analyseCeiling', () => {
  it('sorts by ratio, leaks first on ties, unmeasured last, and places the marker after the last row at or below the ceiling', () => {
    const a = analyseCeiling(
      [
        sample('q1', 'quotation', 0.8, 1),
        sample('l2', 'leak', 0.3, 2, 'recovered', 'ok'),
        sample('u', 'leak', null, 3, 'none', 'no_tags'),
        sample('q2', 'quotation', 0.5, 4),
        sample('l1', 'leak', 0.5, 5, 'recovered', 'ok'),
        sample('l0', 'leak', 0, 6, 'refused', 'truncated'),
      ],
      0.5,
    );
    expect(a.rows.map((r) => r.id)).toEqual(['l0', 'l2', 'l1', 'q2', 'q1', 'u']);
    expect(a.rows.map((r) => r.side)).toEqual(['below', 'below', 'below', 'below', 'above', 'unmeasured']);
    expect(a.markerIndex).toBe(4);
    expect(a.maxLeak).toBe(0.5);
    expect(a.maxLeakRow?.id).toBe('l1');
    expect(a.minQuotation).toBe(0.5);
    expect(a.minQuotationRow?.id).toBe('q2');
    expect(a.gap).toBe(0);
    expect(a.leakMargin).toBe(0);
    expect(a.quotationMargin).toBe(0);
    // a quotation at the ceiling is recovered by the engine (ratio > ceiling is prose), so it is wrong;
    // an unmeasured leak cannot be checked, so it is wrong too
    expect(a.wrong.map((r) => r.id)).toEqual(['q2', 'u']);
    expect(a.separated).toBe(false);
    expect(a.counts).toEqual({ leak: 4, quotation: 2 });
  });

  it('computes gap and margins without float noise', () => {
    const a = analyseCeiling([sample('l', 'leak', 0.1), sample('q', 'quotation', 0.7)], 0.4);
    expect(a.gap).toBe(0.6);
    expect(a.leakMargin).toBe(0.3);
    expect(a.quotationMargin).toBe(0.3);
    expect(a.separated).toBe(true);
    expect(a.markerIndex).toBe(1);
  });

  it('puts the marker first when every row is above, and reports negative margins on overlap', () => {
    const a = analyseCeiling([sample('l', 'leak', 0.6), sample('q', 'quotation', 0.55)], 0.5);
    expect(a.markerIndex).toBe(0);
    expect(a.rows.map((r) => r.id)).toEqual(['q', 'l']);
    expect(a.gap).toBe(-0.05);
    expect(a.leakMargin).toBe(-0.1);
    expect(a.quotationMargin).toBe(0.05);
    expect(a.wrong.map((r) => r.id)).toEqual(['l']);
  });

  it('an empty corpus is not separated', () => {
    const a = analyseCeiling([], 0.5);
    expect(a.separated).toBe(false);
    expect(a.maxLeak).toBeNull();
    expect(a.gap).toBeNull();
  });
});

describe('suggestCeiling', () => {
  it('sits one third of the gap above the largest leak, rounded to two decimals', () => {
    const s = suggestCeiling(analyseCeiling([sample('l', 'leak', 0.1), sample('l2', 'leak', 0.25), sample('q', 'quotation', 0.85)], 0.5));
    expect(s.ceiling).toBe(0.45);
    expect(s.leakMargin).toBe(0.2);
    expect(s.quotationMargin).toBe(0.4);
    expect(s.reasoning[0]).toBe('The largest leak measures 0.25 and the smallest quotation 0.85: a gap of 0.60.');
    expect(s.reasoning.at(-1)).toBe('Suggested ceiling 0.45: margin 0.20 above the largest leak, 0.40 below the smallest quotation.');
  });

  it('keeps more decimals when rounding to two would leave the gap', () => {
    // raw = 0.300 + 0.009/3 = 0.303 → 0.30 equals the largest leak, so the unrounded value is kept
    const s = suggestCeiling(analyseCeiling([sample('l', 'leak', 0.3), sample('q', 'quotation', 0.309)], 0.5));
    expect(s.ceiling).toBe(0.303);
    expect(s.leakMargin).toBe(0.003);
    expect(s.quotationMargin).toBe(0.006);
  });

  it('suggests nothing when the groups overlap or touch, and says why', () => {
    const s = suggestCeiling(analyseCeiling([sample('l', 'leak', 0.4), sample('q', 'quotation', 0.4)], 0.5));
    expect(s.ceiling).toBeNull();
    expect(s.reasoning[0]).toBe('The groups overlap: the smallest quotation ratio 0.40 is not above the largest leak ratio 0.40.');
  });

  it('suggests nothing when a group has no measured reply', () => {
    const s = suggestCeiling(analyseCeiling([sample('l', 'leak', 0.1), sample('q', 'quotation', null)], 0.5));
    expect(s.ceiling).toBeNull();
    expect(s.reasoning).toEqual(['No quotation reply has a prose ratio, so there is nothing to put a bound against.']);
  });
});
