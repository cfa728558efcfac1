import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines, type Line } from '../../src/capture/lines.js';

/** Reads `chunks` (strings are UTF-8) and returns [line number, text] pairs plus the raw Lines. */
async function read(chunks: (string | Buffer)[], maxLineBytes?: number): Promise<{ pairs: [number, string][]; lines: Line[] }> {
  const lines: Line[] = [];
  const input = Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : c)));
  for await (const l of readLines(input, maxLineBytes === undefined ? {} : { maxLineBytes })) lines.push(l);
  return { pairs: lines.map((l) => [l.line, l.text]), lines };
}

describe('readLines line terminators (LF, CRLF, lone CR)', () => {
  it('ends a line at a lone CR (tester report: every record of a CR-only file was at line 1)', async () => {
    const { pairs } = await read(['{"id":"a"}\r{"id":"b"}\r{"id":"c"}\r']);
    expect(pairs).toEqual([
      [1, '{"id":"a"}'],
      [2, '{"id":"b"}'],
      [3, '{"id":"c"}'],
    ]);
  });

  it('treats CRLF as one terminator and mixes all three', async () => {
    const { pairs } = await read(['a\rb\r\nc\nd\r\re']);
    expect(pairs).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
      [4, 'd'],
      [5, ''],
      [6, 'e'],
    ]);
  });

  it('keeps CRLF one terminator when CR ends one chunk and LF starts the next', async () => {
    expect((await read(['a\r', '\nb\n'])).pairs).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    // an empty chunk in between does not break the pair
    expect((await read(['a\r', '', '\nb'])).pairs).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    // CR at a chunk end followed by another CR: two line ends
    expect((await read(['a\r', '\r\nb'])).pairs).toEqual([
      [1, 'a'],
      [2, ''],
      [3, 'b'],
    ]);
    // CR at a chunk end followed by text: a lone CR
    expect((await read(['a\r', 'b'])).pairs).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
  });

  it('yields the same lines whatever the chunking', async () => {
    const text = '\uFEFFone\r\ntwo\rthree\n\rfour\r\r\nfive';
    const whole = (await read([text])).pairs;
    expect(whole).toEqual([
      [1, 'one'],
      [2, 'two'],
      [3, 'three'],
      [4, ''],
      [5, 'four'],
      [6, ''],
      [7, 'five'],
    ]);
    const bytes = Buffer.from(text, 'utf8');
    for (let size = 1; size <= 5; size++) {
      const pieces: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
      expect((await read(pieces)).pairs, `chunk size ${size}`).toEqual(whole);
    }
  });

  it('does not add a line after a final CR, and an empty input yields nothing', async () => {
    expect((await read(['x\r'])).pairs).toEqual([[1, 'x']]);
    expect((await read(['x\r\n'])).pairs).toEqual([[1, 'x']]);
    expect((await read([''])).pairs).toEqual([]);
  });

  it('reports an over-long CR-terminated line and reads the next', async () => {
    const { lines } = await read(['y'.repeat(20), '\rshort\r'], 10);
    expect(lines.map((l) => [l.line, l.tooLong, l.bytes, l.text])).toEqual([
      [1, true, 20, ''],
      [2, false, 5, 'short'],
    ]);
  });
});
