/**
 * Pins the measured prose ratios of the project's leak and quotation cases on either side of
 * DEFAULT_PROSE_CEILING, so moving the bound means moving the corpus with it (docs/recovery.md,
 * "Default ceiling"). Corpus: fixtures/recovery/cases.jsonl. The labelled corpus that `guard
 * ceiling` reads (fixtures/corpus/, built at the same time) should be pinned here too once it lands.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROSE_CEILING, recoverReply } from '../../src/recovery/index.js';

interface Case {
  id: string;
  tools?: string[];
  text: string;
  expected: 'recover' | 'refuse' | 'clean';
  expected_reason: string;
  tool_calls?: unknown[];
  advertised_unknown?: boolean;
}

const cases: Case[] = readFileSync(new URL('../../fixtures/recovery/cases.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as Case);

/** The measured ratio (the engine's own, with no structured calls so the text is always judged). */
function ratioOf(c: Case): number | null {
  return recoverReply({ text: c.text, advertised: (c.tools ?? []).map((name) => ({ name })), toolCalls: [], truncated: false }, { proseCeiling: 1 }).proseRatio;
}

/** Emitted markup: recovered, or refused for a defect of the call itself (not a quotation). */
const leaks = cases.filter((c) => c.expected === 'recover' || (c.expected === 'refuse' && !c.tool_calls));
/** Quotations that only the ratio can tell apart (no fence, no backticks, no example words). */
const proseQuotations = cases.filter((c) => c.expected_reason === 'prose');

const round = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

describe('the prose ceiling separates the leak cases from the prose quotations', () => {
  it('every leak case measures at most the ceiling; the highest are pinned', () => {
    const measured = leaks.map((c) => [c.id, round(ratioOf(c))] as const).filter(([, r]) => r !== null && r > 0);
    expect(measured.sort((a, b) => b[1]! - a[1]!)).toEqual([
      ['harmony-ok', 0.16],
      ['dsml-prose-before', 0.132],
    ]);
    for (const c of leaks) expect(ratioOf(c) ?? 0, c.id).toBeLessThanOrEqual(DEFAULT_PROSE_CEILING);
  });

  it('every prose quotation measures above the ceiling; all are pinned', () => {
    expect(proseQuotations.map((c) => [c.id, round(ratioOf(c))])).toEqual([
      ['hermes-prose', 0.757],
      ['mistral-mention', 0.838],
    ]);
    for (const c of proseQuotations) expect(ratioOf(c)!, c.id).toBeGreaterThan(DEFAULT_PROSE_CEILING);
  });

  it('the ceiling sits in the gap (the margins are pinned: see docs/recovery.md on moving it nearer the leaks)', () => {
    const maxLeak = Math.max(...leaks.map((c) => ratioOf(c) ?? 0));
    const minQuote = Math.min(...proseQuotations.map((c) => ratioOf(c)!));
    expect(maxLeak).toBeLessThan(DEFAULT_PROSE_CEILING);
    expect(DEFAULT_PROSE_CEILING).toBeLessThan(minQuote);
    expect([round(DEFAULT_PROSE_CEILING - maxLeak), round(minQuote - DEFAULT_PROSE_CEILING)]).toEqual([0.34, 0.257]);
  });
});
