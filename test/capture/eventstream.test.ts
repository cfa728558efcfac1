/**
 * The AWS event stream decoder (src/capture/eventstream.ts): frames decoded whatever the chunk
 * boundaries, and a damaged frame costs only itself (property tests over the real fixtures).
 */

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventStreamDecoder, isEventStreamPrelude, type EventStreamItem } from '../../src/capture/eventstream.js';
import { FIXTURES } from './read-helpers.js';

const FILES = [
  'bedrock/converse-stream-claude-3-sonnet-text-then-tool-use.openllmetry.eventstream',
  'bedrock/converse-stream-nova-2-lite-server-tool-web-grounding.ruby_llm.eventstream',
  'bedrock/invoke-model-with-response-stream-claude-3-sonnet-messages.openllmetry.eventstream',
].map((f) => readFileSync(FIXTURES + f));

function decode(bytes: Buffer, cuts: number[] = []): EventStreamItem[] {
  const d = new EventStreamDecoder();
  const out: EventStreamItem[] = [];
  let from = 0;
  for (const cut of [...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b)) {
    out.push(...d.push(bytes.subarray(from, cut)));
    from = cut;
  }
  out.push(...d.push(bytes.subarray(from)), ...d.end());
  return out;
}

/** The offsets of the frames of a clean stream. */
function frameOffsets(bytes: Buffer): number[] {
  const out: number[] = [];
  for (let at = 0; at < bytes.length; at += bytes.readUInt32BE(at)) out.push(at);
  return out;
}

describe('event stream decoder', () => {
  it('decodes every frame of the fixtures, the same whatever the chunk boundaries', () => {
    for (const bytes of FILES) {
      expect(isEventStreamPrelude(bytes)).toBe(true);
      const whole = decode(bytes);
      expect(whole.every((i) => i.kind === 'event')).toBe(true);
      expect(whole.map((i) => i.offset)).toEqual(frameOffsets(bytes));
      fc.assert(
        fc.property(fc.array(fc.nat({ max: bytes.length }), { maxLength: 20 }), (cuts) => {
          expect(decode(bytes, cuts)).toEqual(whole);
        }),
        { numRuns: 50, seed: 11 },
      );
    }
  });

  it('a byte flipped inside one frame costs that frame only: one corrupt item at its offset, every other frame decoded', () => {
    fc.assert(
      fc.property(fc.nat({ max: FILES.length - 1 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (f, seed, mask) => {
        const bytes = FILES[f]!;
        const offsets = frameOffsets(bytes);
        const k = seed % offsets.length;
        const start = offsets[k]!;
        const end = offsets[k + 1] ?? bytes.length;
        // a byte after the prelude (a damaged length is found again by the prelude search, but may swallow more)
        const at = start + 12 + ((seed >>> 8) % (end - start - 12));
        const bad = Buffer.from(bytes);
        bad[at]! ^= mask;
        const items = decode(bad);
        const corrupt = items.filter((i) => i.kind === 'corrupt');
        expect(corrupt.map((i) => i.offset)).toEqual([start]);
        expect(items.filter((i) => i.kind === 'event').map((i) => i.offset)).toEqual(offsets.filter((o) => o !== start));
      }),
      { numRuns: 300, seed: 12 },
    );
  });

  it('reports a stream cut inside a frame, and bytes that never make a frame', () => {
    const bytes = FILES[0]!;
    const cut = decode(bytes.subarray(0, bytes.length - 5));
    expect(cut.at(-1)).toMatchObject({ kind: 'corrupt', message: expect.stringContaining('is cut') });
    expect(decode(Buffer.from('AAAAAAAAAAAAAAAAAAAAAAAA'))).toMatchObject([{ kind: 'corrupt', offset: 0 }]);
  });
});
