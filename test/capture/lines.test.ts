import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLines, utf16WithoutBom, type Line } from '../../src/capture/lines.js';

/** Reads `chunks` (strings are UTF-8) and returns [line number, text] pairs plus the raw Lines. */
async function read(chunks: (string | Buffer)[], maxLineBytes?: number, decodeWindowBytes?: number): Promise<{ pairs: [number, string][]; lines: Line[] }> {
  const lines: Line[] = [];
  const input = Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : c)));
  const options = { ...(maxLineBytes === undefined ? {} : { maxLineBytes }), ...(decodeWindowBytes === undefined ? {} : { decodeWindowBytes }) };
  for await (const l of readLines(input, options)) lines.push(l);
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

/** The plain rules, one line at a time: what readLines must give for `bytes` however it is chunked. */
function referenceLines(bytes: Buffer, max: number): Line[] {
  const out: Line[] = [];
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
  let start = 0;
  const emit = (end: number): void => {
    let body = bytes.subarray(start, end);
    const line = out.length + 1;
    // the cap applies to the raw line, a BOM on line 1 included
    if (body.length > max) {
      out.push({ line, text: '', bytes: body.length, invalidUtf8: false, tooLong: true, hasNul: false });
      return;
    }
    if (line === 1 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) body = body.subarray(3);
    let text: string;
    let invalidUtf8 = false;
    try {
      text = strict.decode(body);
    } catch {
      text = lenient.decode(body);
      invalidUtf8 = true;
    }
    out.push({ line, text, bytes: body.length, invalidUtf8, tooLong: false, hasNul: body.includes(0) });
  };
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0x0a && bytes[i] !== 0x0d) continue;
    emit(i);
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) i++;
    start = i + 1;
  }
  if (start < bytes.length) emit(bytes.length);
  return out;
}

describe('readLines decodes the lines of a chunk together (same lines as one decode per line)', () => {
  it('reads a chunk mixing ASCII, multi-byte text, CRLF, NUL, an over-long line and invalid UTF-8', async () => {
    // first chunk: valid UTF-8 lines (decoded together); second: an invalid line (decoded alone), then valid ones
    const valid = Buffer.concat([
      Buffer.from('first\n{"a":"\u00e9t\u00e9"}\r\nplain\r{"b":"\u2603"}\n', 'utf8'),
      Buffer.from([0x78, 0x00, 0x79, 0x0a]), // x NUL y
      Buffer.from(`${'z'.repeat(30)}\nafter\n`, 'utf8'),
    ]);
    const invalid = Buffer.concat([
      Buffer.from([0x61, 0xff, 0x62, 0x0d, 0x0a]), // a, an invalid byte, b, CRLF
      Buffer.from('\u00fcber\nlast', 'utf8'),
    ]);
    const bytes = Buffer.concat([valid, invalid]);
    const { lines } = await read([valid, invalid], 20);
    expect(lines.map((l) => [l.line, l.text, l.bytes, l.invalidUtf8, l.tooLong, l.hasNul])).toEqual([
      [1, 'first', 5, false, false, false],
      [2, '{"a":"\u00e9t\u00e9"}', 13, false, false, false],
      [3, 'plain', 5, false, false, false],
      [4, '{"b":"\u2603"}', 11, false, false, false],
      [5, 'x\u0000y', 3, false, false, true],
      [6, '', 30, false, true, false],
      [7, 'after', 5, false, false, false],
      [8, 'a\uFFFDb', 3, true, false, false],
      [9, '\u00fcber', 5, false, false, false],
      [10, 'last', 4, false, false, false],
    ]);
    expect(lines).toEqual(referenceLines(bytes, 20));
  });

  it('reads 400 KB chunks of ASCII lines, and of mostly ASCII lines with a few non-ASCII ones at any place', async () => {
    // lines of 1..6000 bytes (some longer than the ASCII run decoded at once), every 7th holding
    // a DSML bar or an accent at a varying place, and one CRLF in every 5 line ends
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const parts: string[] = [];
    for (let i = 0; i < 300; i++) {
      const len = 1 + next(6000);
      let line = 'x'.repeat(len);
      if (i % 7 === 3) {
        const at = next(len);
        line = `${line.slice(0, at)}${i % 2 ? '\uFF5C' : '\u00e9'}${line.slice(at)}`;
      }
      parts.push(line, i % 5 === 0 ? '\r\n' : '\n');
    }
    const mixed = Buffer.from(parts.join(''), 'utf8');
    const ascii = Buffer.from(parts.join('').replace(/[^\x00-\x7f]/g, 'y'), 'utf8');
    // short lines, every other one non-ASCII for a while, then ASCII only: the window shrinks and grows back
    const alternating = Buffer.from(
      Array.from({ length: 12_000 }, (_, i) => (i < 6000 && i % 2 ? `{"t":"r\u00e9ponse ${i}"}` : `{"t":"reply ${i}"}`)).join('\n'),
      'utf8',
    );
    const alternatingLines = referenceLines(alternating, 1 << 20);
    expect(alternatingLines).toHaveLength(12_000);
    expect((await read([alternating])).lines).toEqual(alternatingLines);
    for (const bytes of [mixed, ascii]) {
      expect(bytes.length).toBeGreaterThan(400 * 1024);
      const expected = referenceLines(bytes, 1 << 20);
      expect(expected).toHaveLength(300);
      expect((await read([bytes])).lines).toEqual(expected);
      for (const window of [1, 5, 4096]) expect((await read([bytes], undefined, window)).lines).toEqual(expected);
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += 100_000) chunks.push(bytes.subarray(i, i + 100_000));
      expect((await read(chunks)).lines).toEqual(expected);
    }
  });

  it('two NUL lines (00 0A 00 0A) are read as written, not as two blank lines of UTF-16 BE (a CI counterexample)', async () => {
    const bytes = Buffer.from([0, 10, 0, 10]);
    const want = [[1, '\u0000', 1, true], [2, '\u0000', 1, true]];
    for (const chunks of [[bytes], [bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2, 3), bytes.subarray(3)]]) {
      expect((await read(chunks, 2)).lines.map((l) => [l.line, l.text, l.bytes, l.hasNul])).toEqual(want);
    }
  });

  it('the encoding is judged on the first bytes however they are chunked: 00 0A 00 61 62 63 in chunks of 4 is UTF-8 (a CI counterexample)', async () => {
    const bytes = Buffer.from([0, 10, 0, 97, 98, 99]);
    const want = [[1, '\u0000', 1, true], [2, '\u0000abc', 4, true]];
    for (const size of [1, 2, 3, 4, 5, 6]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      expect((await read(chunks)).lines.map((l) => [l.line, l.text, l.bytes, l.hasNul])).toEqual(want);
    }
    // UTF-16 BE text handed over two bytes at a time is still UTF-16
    const utf16 = Buffer.from('\u0000{\u0000"\u0000k\u0000"\u0000:\u00001\u0000}\u0000\n', 'latin1');
    const pairs: Buffer[] = [];
    for (let i = 0; i < utf16.length; i += 2) pairs.push(utf16.subarray(i, i + 2));
    expect((await read(pairs)).lines.map((l) => l.text)).toEqual(['{"k":1}']);
  });

  it('gives the lines of a plain per-line decode for any bytes and any chunking', async () => {
    const ascii = fc.constantFrom('\n', '\r', '\r\n', '{"k":1}', '\u0000', 'abc', 'de', ' ');
    const other = fc.constantFrom('\u00e9', '\u2603', '\uD83D\uDE00', '\uFEFF');
    // raw bytes, often not valid UTF-8 (a lone continuation byte, a cut sequence)
    const raw = fc.uint8Array({ minLength: 1, maxLength: 3 }).map((a) => Buffer.from(a));
    // mostly ASCII, as captures are; invalid bytes rare enough that many inputs have none
    const piece = fc.oneof(
      { arbitrary: ascii.map((t) => Buffer.from(t, 'utf8')), weight: 30 },
      { arbitrary: other.map((t) => Buffer.from(t, 'utf8')), weight: 3 },
      { arbitrary: raw, weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 60 }),
        fc.integer({ min: 1, max: 16 }),
        fc.integer({ min: 2, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        async (parts, size, max, window) => {
          const bytes = Buffer.concat(parts);
          // an input that opens as UTF-16 is decoded as such (tested on its own above)
          const bom = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
          fc.pre(!bom && utf16WithoutBom(bytes) === null);
          const chunks: Buffer[] = [];
          for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
          const expected = referenceLines(bytes, max);
          expect((await read(chunks, max)).lines).toEqual(expected);
          expect((await read([bytes], max)).lines).toEqual(expected);
          // ASCII decoded a few bytes at a time: every window boundary falls inside or at the end of a line
          expect((await read([bytes], max, window)).lines).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('blank runs (round 9: a file of blank lines was read at 1-2 MB/s, one line object each)', () => {
  it('with blankRuns, a run of empty lines in a chunk is one line with its count; the numbers after it are unchanged', async () => {
    const lines: Line[] = [];
    for await (const l of readLines(Readable.from([Buffer.from('a\n\n\r\n\rb\n\n\nc\n\n')]), { blankRuns: true })) lines.push(l);
    expect(lines.map((l) => [l.line, l.text, l.blanks ?? 1])).toEqual([[1, 'a', 1], [2, '', 3], [5, 'b', 1], [6, '', 2], [8, 'c', 1], [9, '', 1]]);
    const plain = await read(['a\n\n\r\n\rb\n\n\nc\n\n']);
    expect(plain.pairs.map(([n]) => n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
