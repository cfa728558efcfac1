import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the bench, without types
import { compareFigures, recordedFigures } from '../bench/compare.mjs';

describe('bench/compare.mjs', () => {
  it('reads the bench-figures block of docs/performance.md', () => {
    const doc = readFileSync(new URL('../docs/performance.md', import.meta.url), 'utf8');
    const r = recordedFigures(doc, '200MB');
    expect(r.error).toBeUndefined();
    expect(r.figures).toMatchObject({ b_over_a_cpu: 3.65, b_over_c_wall: 0.88, rescan_over_b_wall: 0.115 });
    expect(recordedFigures(doc, '5GB').error).toBe('the bench-figures block of docs/performance.md records no 5GB run (it has: 200MB, 1GB)');
  });

  it('says why there are no figures, never throws', () => {
    expect(recordedFigures('# nothing', '200MB').error).toBe('docs/performance.md has no `json bench-figures` block');
    expect(recordedFigures('```json bench-figures\n{oops\n```\n', '200MB').error).toMatch(/^the bench-figures block of docs\/performance.md is not JSON/);
  });

  it('flags a ratio worse by more than 10%, in the direction that is worse', () => {
    const { line, regressions } = compareFigures(
      { b_over_a_cpu: 4.2, b_over_c_wall: 0.7, c_over_b_cpu: 1.5, rescan_over_b_wall: null },
      { b_over_a_cpu: 3.7, b_over_c_wall: 0.9, c_over_b_cpu: 1.57, rescan_over_b_wall: 0.1 },
    );
    expect(regressions).toEqual(['b_over_a_cpu', 'b_over_c_wall']);
    expect(line).toBe('(b)/(a) CPU 4.20 (3.70, +14%, REGRESSION); (c)/(b) CPU 1.50 (1.57, -4%); (c) speed-up 0.70 (0.90, -22%, REGRESSION)');
    expect(compareFigures({}, { b_over_a_cpu: 1 }).line).toBe('nothing to compare');
  });
});
