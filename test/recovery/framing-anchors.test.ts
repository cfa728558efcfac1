/**
 * The framing prefilter (src/base/anchors.ts) changes no reading: an entry is skipped
 * only on text that holds none of the literals its pattern needs, so `framingIn` with the
 * prefilter finds exactly what it finds running every entry. Checked on every sentence of the
 * vocabulary (its matches and near misses), and on random texts built from the vocabulary's words
 * and their pieces, in random case (the Kelvin sign for k and the long s for s too), for markup
 * before, after and between.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FRAMING, FRAMING_LANGUAGES, framingIn } from '../../src/recovery/framing/index.js';
import { lowerForAnchors, requiredLiterals } from '../../src/base/anchors.js';

const PLACES = ['before', 'after', 'between'] as const;
const SENTENCES = FRAMING_LANGUAGES.flatMap((l) => [...l.entries.flatMap((e) => [...e.match, ...e.not_match]), ...(l.acting ? [...l.acting.match, ...l.acting.not_match] : [])]);
const WORDS = [...new Set(SENTENCES.flatMap((s) => s.split(/\s+/u)).filter((w) => w !== ''))];
const ANCHORS = [...new Set(FRAMING.flatMap((f) => f.anchors ?? []))];
/** Words, anchors and pieces of both (a word cut in two: the seams of a literal). */
const PIECES = [...WORDS, ...ANCHORS, ...WORDS.flatMap((w) => (w.length > 3 ? [w.slice(0, w.length >> 1), w.slice(w.length >> 1)] : [])), '.', ',', ':', '?', '!', "'", '\n', '"', '-'];

/** What a reading found, comparably. */
const found = (text: string, place: (typeof PLACES)[number], prefilter: boolean) => {
  const r = framingIn(text, place, prefilter);
  return r === null ? null : { language: r.framing.language, id: r.framing.entry.id, words: r.words };
};

/** `text` with some letters upper-cased, and k and s written as the Kelvin sign and the long s (both match under `iu`). */
const recased = (text: string, bits: readonly number[]): string =>
  [...text].map((c, i) => { const b = bits[i % bits.length]!; return b === 1 ? c.toUpperCase() : b === 2 && c === 'k' ? '\u212a' : b === 2 && c === 's' ? 'ſ' : b === 2 && c === 'i' ? 'ı' : c; }).join('');

describe('framing prefilter', () => {
  it('gives anchors to nearly every entry', () => {
    // entries of cased non-Latin scripts (Russian, Greek, Ukrainian…) have none: they always run;
    // so do English bare-label (a shape, no word) and set-aside-3 (it holds a `here:` or an emoji)
    const unanchored = FRAMING.filter((f) => f.anchors === null).map((f) => `${f.language}/${f.entry.id}`);
    expect(unanchored.filter((k) => !/^(?:ru|uk|el|bg|sr|mk|be)\//.test(k))).toEqual(['en/bare-label', 'en/set-aside-3']);
    expect(FRAMING.filter((f) => f.anchors !== null).length).toBeGreaterThan(FRAMING.length * 0.9);
    expect(requiredLiterals('\\b(?:do not|never) run\\b')).toEqual(['do not', 'never']);
    expect(requiredLiterals('\\b(?:do|no) running\\b')).toEqual([' running']);
    expect(requiredLiterals('(?:a|b?)c')).toEqual(['c']);
    expect(requiredLiterals('x?')).toBeNull();
    expect(requiredLiterals('(?<!foo)bar|baz')).toEqual(['bar', 'baz']);
    expect(lowerForAnchors('ſTOP \u212a ı')).toBe('stop k i');
  });

  it('reads every sentence of the vocabulary as the full reading does', () => {
    for (const s of SENTENCES) for (const place of PLACES) {
      for (const t of [s, s.toUpperCase(), `${s}\n${s}`]) expect(found(t, place, true), `${place}: ${t}`).toEqual(found(t, place, false));
    }
  });

  it('reads random texts of the vocabulary as the full reading does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 24 }),
        fc.array(fc.constantFrom(' ', ' ', ' ', '', '\n', ', '), { minLength: 1, maxLength: 24 }),
        fc.array(fc.constantFrom(0, 0, 0, 1, 2), { minLength: 1, maxLength: 16 }),
        fc.constantFrom(...PLACES),
        (pieces, seps, bits, place) => {
          const text = recased(pieces.map((p, i) => p + seps[i % seps.length]!).join(''), bits);
          expect(found(text, place, true)).toEqual(found(text, place, false));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
