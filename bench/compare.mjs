/**
 * Comparing a bench run's ratios with the figures recorded in docs/performance.md, so that a
 * regression shows in `npm run bench`. The recorded figures are a fenced block of JSON tagged
 * `bench-figures` (a code fence whose info string is `json bench-figures`), an object keyed by
 * set size (`200MB`, `1GB`), each an object of ratios (snake_case keys, {@link RATIOS}).
 */

/**
 * The ratios compared, with which way is better and what they mean. A run worse than the
 * recorded figure by more than {@link TOLERANCE} (relative) is a regression.
 */
export const RATIOS = [
  { key: 'b_over_a_cpu', better: 'lower', what: '(b)/(a) CPU' },
  { key: 'b_over_a_wall', better: 'lower', what: '(b)/(a) wall' },
  { key: 'c_over_b_cpu', better: 'lower', what: '(c)/(b) CPU' },
  { key: 'b_over_c_wall', better: 'higher', what: '(c) speed-up' },
  { key: 'rescan_over_b_wall', better: 'lower', what: '(e)/(b) wall' },
  { key: 'inspection_ratio', better: 'lower', what: 'inspection/peer' },
  { key: 'recovery_ratio', better: 'lower', what: 'recovery/peer' },
];

/** Relative change past which a ratio counts as a regression: 10%. */
export const TOLERANCE = 0.1;

/**
 * The recorded figures for a set size from the text of docs/performance.md.
 *
 * @param markdown the document's text.
 * @param size the set's size label as the bench prints it (`200MB`, `1GB`).
 * @returns `{ figures }` (an object of numbers, possibly empty), or `{ error }` saying why there
 *   are none (no block, a block that is not JSON, no entry for the size). Never throws.
 */
export function recordedFigures(markdown, size) {
  const m = /^```json bench-figures[ \t]*\n([\s\S]*?)^```/m.exec(markdown);
  if (!m) return { error: 'docs/performance.md has no `json bench-figures` block' };
  let all;
  try {
    all = JSON.parse(m[1]);
  } catch (e) {
    return { error: `the bench-figures block of docs/performance.md is not JSON (${e.message})` };
  }
  const entry = all && typeof all === 'object' ? all[size] : undefined;
  if (!entry || typeof entry !== 'object') return { error: `the bench-figures block of docs/performance.md records no ${size} run (it has: ${Object.keys(all ?? {}).join(', ') || 'none'})` };
  const figures = {};
  for (const [k, v] of Object.entries(entry)) if (typeof v === 'number' && Number.isFinite(v)) figures[k] = v;
  return { figures };
}

/**
 * The comparison of this run's ratios with the recorded ones.
 *
 * @param current this run's ratios (keys of {@link RATIOS}; a missing or null one is skipped).
 * @param recorded the recorded ratios ({@link recordedFigures}).
 * @returns `{ line, regressions }`: one line, each ratio as `now (recorded, ±change%)`, and the
 *   keys of the ratios worse by more than {@link TOLERANCE}.
 */
export function compareFigures(current, recorded) {
  const parts = [];
  const regressions = [];
  for (const r of RATIOS) {
    const now = current[r.key];
    const then = recorded[r.key];
    if (typeof now !== 'number' || !Number.isFinite(now) || typeof then !== 'number' || then === 0) continue;
    const change = (now - then) / then;
    const worse = r.better === 'lower' ? change > TOLERANCE : change < -TOLERANCE;
    if (worse) regressions.push(r.key);
    parts.push(`${r.what} ${now.toFixed(2)} (${then.toFixed(2)}, ${change >= 0 ? '+' : ''}${(change * 100).toFixed(0)}%${worse ? ', REGRESSION' : ''})`);
  }
  const line = parts.length === 0 ? 'nothing to compare' : parts.join('; ');
  return { line, regressions };
}
