/**
 * The literal prefilter of the built-in raw patterns (src/base/anchors.ts, used by rawFind in
 * src/inspection/engine.ts) changes no match: a pattern is skipped only on text that holds none
 * of the literals every match of it holds. Checked for every built-in raw pattern on every shell
 * command and whole-call argument of the rules' vectors (and each in mixed case, with the letters
 * case-insensitive matching also takes for k, s and i), and on random texts built from
 * the pieces of those commands.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_RULES } from '../../src/inspection/index.js';
import { rawFind } from '../../src/inspection/engine.js';
import { callOf, commandOf, vectors } from './vectors.js';

const PATTERNS = BUILTIN_RULES.flatMap((r) => (r.match.raw ? [r.match.raw] : []));
const ENTRIES = Object.values(vectors).flatMap((v) => [...v.match, ...v.not_match]);
const TEXTS = ENTRIES.flatMap((e) => {
  const c = commandOf(e);
  if (c !== null) return [c];
  const call = callOf(e);
  return call ? [call.argumentsRaw ?? ''] : [];
});
const PIECES = [...new Set(TEXTS.flatMap((t) => t.split(/(\s+|[|;&/=])/u)).filter((w) => w !== ''))];

const same = (text: string) => {
  for (const re of PATTERNS) expect(rawFind(re, text, true), `${re.source.slice(0, 60)} on ${text.slice(0, 80)}`).toEqual(rawFind(re, text, false));
};

describe('raw pattern prefilter', () => {
  it('gives most built-in raw patterns literals', () => {
    expect(PATTERNS.length).toBeGreaterThan(20);
    expect(TEXTS.length).toBeGreaterThan(500);
  });

  it('finds on every vector what the full match finds', () => {
    const mixed = (t: string) => [...t].map((c, i) => (c === 'k' ? '\u212a' : c === 's' ? 'ſ' : c === 'i' ? 'ı' : i % 2 ? c.toUpperCase() : c)).join('');
    for (const t of TEXTS) for (const v of [t, mixed(t)]) same(v);
  });

  it('finds on random texts of the vectors\' pieces what the full match finds', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 16 }), fc.boolean(), (pieces, upper) => {
        const text = pieces.join('');
        same(upper ? text.toUpperCase() : text);
      }),
      { numRuns: 400 },
    );
  });
});
