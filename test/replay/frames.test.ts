/** SSE framing for replay: raw bytes kept whatever the chunking and line ends; fields parsed. */

import { describe, expect, it } from 'vitest';
import { FrameLimitError, formatFrame, readJsonlFrames, readSseFrames, type SseFrame } from '../../src/replay/frames.js';
import { partialTokenStart, markupSpans, markupStart, MAX_MARKUP_TOKEN } from '../../src/recovery/prefix.js';

async function frames(chunks: string[], jsonl = false): Promise<SseFrame[]> {
  const out: SseFrame[] = [];
  const src = (async function* () {
    yield* chunks;
  })();
  for await (const f of jsonl ? readJsonlFrames(src) : readSseFrames(src)) out.push(f);
  return out;
}

const BODY = '\uFEFFevent: a\r\ndata: {"x":1}\r\n\r\n: keep-alive\r\r\nid: 7\ndata: line1\ndata:line2\n\n\ndata: [DONE]';

describe('readSseFrames', () => {
  it('keeps every byte and parses the fields, for a cut at every offset', async () => {
    for (let k = 0; k <= BODY.length; k++) {
      const got = await frames([BODY.slice(0, k), BODY.slice(k)]);
      expect(got.map((f) => f.raw).join('')).toBe(BODY);
      expect(got).toEqual([
        { raw: '\uFEFFevent: a\r\ndata: {"x":1}\r\n\r\n', line: 1, event: 'a', data: '{"x":1}' },
        { raw: ': keep-alive\r\r\n', line: 4 },
        { raw: 'id: 7\ndata: line1\ndata:line2\n\n', line: 6, id: '7', data: 'line1\nline2' },
        { raw: '\n', line: 10 },
        { raw: 'data: [DONE]', line: 11, data: '[DONE]' },
      ]);
    }
  });

  it('formats made frames with event, id and one data line per line of the value', () => {
    expect(formatFrame({ line: 0, event: 'error', data: '{"a":1}' }, 'sse')).toBe('event: error\ndata: {"a":1}\n\n');
    expect(formatFrame({ line: 0, id: '3', data: 'a\nb' }, 'sse')).toBe('id: 3\ndata: a\ndata: b\n\n');
    expect(formatFrame({ line: 0, data: '{"a":1}' }, 'jsonl')).toBe('{"a":1}\n');
    expect(formatFrame({ line: 4, raw: 'data: x\r\n\r\n', data: 'x' }, 'sse')).toBe('data: x\r\n\r\n');
  });
});

describe('readJsonlFrames', () => {
  it('one payload per line, blank lines kept raw', async () => {
    const got = await frames(['{"a":1}\r\n\n{"b"', ':2}'], true);
    expect(got).toEqual([
      { raw: '{"a":1}\r\n', line: 1, data: '{"a":1}' },
      { raw: '\n', line: 2 },
      { raw: '{"b":2}', line: 3, data: '{"b":2}' },
    ]);
  });
});

describe('recovery/prefix', () => {
  it('holds only the suffix that may begin a family token', () => {
    expect(markupStart('plain prose.')).toBeNull();
    expect(markupStart('see <too')).toEqual({ at: 4, complete: false });
    expect(markupStart('a [TOOL_CA')).toEqual({ at: 2, complete: false });
    expect(markupStart('x <｜tool▁ca')).toEqual({ at: 2, complete: false });
    expect(markupStart('a < b')).toBeNull();
    expect(partialTokenStart('ends with <')).toBe(10);
    expect(partialTokenStart('ends with |')).toBe(10); // |DSML|
  });

  it('finds a whole token, and moves back to a partial token running through it', () => {
    expect(markupStart('ok <tool_call>{')).toEqual({ at: 3, complete: true });
    expect(markupStart('ok <｜DSML｜fun')).toEqual({ at: 3, complete: true }); // ｜DSML｜ inside <｜DSML｜function_calls>
    expect(markupStart('</tool_call> stray')).toEqual({ at: 0, complete: true });
  });

  it('never holds more than the longest token minus one', () => {
    const long = `${'x'.repeat(100)}<｜tool▁calls▁begi`;
    const at = markupStart(long)!.at;
    expect(long.length - at).toBeLessThan(MAX_MARKUP_TOKEN);
    expect(at).toBe(100);
  });

  it('markupSpans gives the spans of the first family', () => {
    const text = 'Hi.\n<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>\nBye.';
    expect(markupSpans(text)).toEqual([[4, text.indexOf('\nBye.')]]);
    expect(markupSpans('no markup')).toEqual([]);
  });
});

describe('limits (round 9: an endless line was held whole, for ever)', () => {
  const read = async (gen: AsyncGenerator<SseFrame>) => {
    const out: SseFrame[] = [];
    try {
      for await (const f of gen) out.push(f);
    } catch (err) {
      return { out, err: err as FrameLimitError };
    }
    return { out, err: null };
  };
  const src = (chunks: string[]) => (async function* () { yield* chunks; })();

  it('a line longer than the limit stops the read at its line, the frames before it given', async () => {
    const { out, err } = await read(readSseFrames(src(['data: {"a":1}\n\n', 'data: ', 'x'.repeat(60), 'x'.repeat(60)]), 100));
    expect(out.map((f) => f.data)).toEqual(['{"a":1}']);
    expect(err).toBeInstanceOf(FrameLimitError);
    expect([err!.code, err!.line, err!.message]).toEqual(['LINE_TOO_LONG', 3, 'no line end within 126 characters (the limit is 100): reading stopped here']);
  });

  it('an event of many lines with no blank line stops at the line where it starts', async () => {
    const { out, err } = await read(readSseFrames(src([': hi\n\n', 'data: 1\n'.repeat(20)]), 100));
    expect(out).toHaveLength(1);
    expect([err!.code, err!.line]).toEqual(['LINE_TOO_LONG', 3]);
  });

  it('JSON Lines frames have the same line limit; NUL bytes with no line end are binary', async () => {
    const long = await read(readJsonlFrames(src(['{"a":1}\n', '{"b":"', 'y'.repeat(200)]), 100));
    expect([long.out.length, long.err?.code, long.err?.line]).toEqual([1, 'LINE_TOO_LONG', 2]);
    const bin = await read(readSseFrames(src(['\u0000'.repeat(10_000)])));
    expect([bin.out.length, bin.err?.code, bin.err?.line]).toEqual([0, 'BINARY_FILE', 1]);
  });
});
