/**
 * The framing vocabulary (src/recovery/framing/): every entry finds its own sentences in its
 * place, and no entry of any language fires on any near miss of any entry (the near misses are
 * the prefaces of real leaks, which must stay clean).
 */
import { describe, expect, it } from 'vitest';
import { findFraming, FRAMING, FRAMING_LANGUAGES, framingText } from '../../src/recovery/framing/index.js';

const nearMisses = FRAMING_LANGUAGES.flatMap((l) => l.entries.flatMap((e) => e.not_match));

describe.each(FRAMING_LANGUAGES.flatMap((l) => l.entries.map((e) => [`${l.language}/${e.id}`, e] as const)))('%s', (_id, entry) => {
  const f = FRAMING.find((c) => c.entry === entry)!;
  it.each(entry.match)('finds: %s', (s) => {
    expect(f.re.test(framingText(s))).toBe(true);
    const place = entry.place === 'after' ? 'after' : 'before';
    expect(findFraming(s, place)).not.toBeNull();
  });
  it('has near misses', () => expect(entry.not_match.length).toBeGreaterThan(0));
});

describe('no entry fires on a near miss', () => {
  it.each(nearMisses)('%s', (s) => {
    const fired = FRAMING.filter((f) => f.entry.place !== 'after' && f.re.test(framingText(s))).map((f) => `${f.language}/${f.entry.id}`);
    expect(fired).toEqual([]);
  });
});

it('entry ids are unique within a language, and every pattern compiles without the g or y flag', () => {
  for (const l of FRAMING_LANGUAGES) {
    const ids = l.entries.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  }
  for (const f of FRAMING) expect(f.re.flags).toBe('iu');
});
