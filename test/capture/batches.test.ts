/**
 * The batched readers (readLineBatches, readCaptureBatches) give exactly the lines and items of
 * the one-at-a-time readers, in non-empty batches no larger than one chunk's worth.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLineBatches, readLines } from '../../src/capture/lines.js';
import { readCapture, readCaptureBatches } from '../../src/capture/read.js';
import type { CaptureItem } from '../../src/capture/types.js';
import { FIXTURES } from './read-helpers.js';

const chunked = (buf: Buffer, size: number) => {
  const pieces: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) pieces.push(buf.subarray(i, i + size));
  return Readable.from(pieces);
};

describe('readLineBatches', () => {
  it('gives the lines of readLines, one non-empty batch per chunk that completes a line', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('a', 'é', '{"x":1}', '\n', '\r', '\r\n', ' ', '\ufeff'), { maxLength: 60 }),
        fc.integer({ min: 1, max: 9 }),
        async (parts, size) => {
          const buf = Buffer.from(parts.join(''), 'utf8');
          const one: unknown[] = [];
          for await (const l of readLines(chunked(buf, size))) one.push(l);
          const batches: unknown[][] = [];
          for await (const b of readLineBatches(chunked(buf, size))) batches.push(b);
          expect(batches.flat()).toEqual(one);
          for (const b of batches) expect(b.length).toBeGreaterThan(0);
          // a chunk of `size` bytes completes at most `size` lines (+1 for the final unterminated one)
          expect(batches.length).toBeLessThanOrEqual(Math.ceil(buf.length / size) + 1);
          for (const b of batches) expect(b.length).toBeLessThanOrEqual(size);
        },
      ),
      { numRuns: 300, seed: 3 },
    );
  });
});

describe('readCaptureBatches', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));

  it('gives every capture fixture\'s items of readCapture, in order, ending with file-end, at every chunk size', async () => {
    const all = files(FIXTURES);
    expect(all.length).toBeGreaterThan(30);
    for (const f of all) {
      const buf = readFileSync(f);
      for (const size of [5, 4096, 1 << 20]) {
        const one: CaptureItem[] = [];
        for await (const item of readCapture(f, chunked(buf, size))) one.push(item);
        const batches: CaptureItem[][] = [];
        for await (const b of readCaptureBatches(f, chunked(buf, size))) batches.push(b);
        expect(batches.flat(), `${f} in ${size}-byte chunks`).toEqual(one);
        for (const b of batches) expect(b.length).toBeGreaterThan(0);
        expect(batches.at(-1)!.at(-1)!.kind).toBe('file-end');
      }
    }
  });
});
