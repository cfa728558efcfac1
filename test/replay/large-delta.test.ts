/**
 * A tester's report: `guard replay` slowed down faster than the event grew on one huge content
 * delta (4 MB 2.4 s, 16 MB 11.9 s, 60 MB > 60 s), while `scan` read the 16 MB file in 1.5 s. The
 * profile put the time in the SSE line splitter, which scanned the whole unfinished line again on
 * every 64 KiB chunk the file arrived in (quadratic in the line's length).
 */

import { describe, expect, it } from 'vitest';
import { formatFrame, readJsonlFrames, readSseFrames } from '../../src/replay/frames.js';
import { replay } from './helpers.js';

const PROSE = 'The quick brown fox jumps over the lazy dog, and then it writes a report about the results. ';

/** The tester's generator: one Chat chunk whose `delta.content` is `mb` MB of prose with a few
 * `<` and `|` sprinkled in (they start the hold-back check), a finish chunk and `[DONE]`. */
function oneHugeDelta(mb: number): string {
  const parts: string[] = [];
  let len = 0;
  for (let i = 0; len < mb * 1024 * 1024; i++) {
    const p = i % 50 === 7 ? `${PROSE}a < b and x | y ` : PROSE;
    parts.push(p);
    len += p.length;
  }
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' };
  const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return chunk({ role: 'assistant', content: parts.join('') }, null) + chunk({}, 'stop') + 'data: [DONE]\n\n';
}

/** The text cut in 64 KiB chunks, as `guard replay` reads a file. */
function* chunksOf(text: string): Generator<string> {
  for (let i = 0; i < text.length; i += 65536) yield text.slice(i, i + 65536);
}

async function* lift<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}

/** Frames and replays `text` read in 64 KiB chunks; the output text and the time taken (ms). */
async function timedReplay(text: string): Promise<{ out: string; ms: number; summary: unknown }> {
  const t0 = performance.now();
  const frames = [];
  for await (const f of readSseFrames(lift(chunksOf(text)))) frames.push(f);
  const r = await replay(frames);
  return { out: r.text, ms: performance.now() - t0, summary: r.decisions.at(-1) };
}

describe('one huge content delta replays in linear time', () => {
  it('16 MB in time linear with 4 MB (4x the bytes well under the 16x of quadratic work), output identical to input', async () => {
    const small = oneHugeDelta(4);
    const large = oneHugeDelta(16);
    await timedReplay(oneHugeDelta(1)); // warm up
    const a = await timedReplay(small);
    expect(a.out).toBe(small);
    const b = await timedReplay(large);
    expect(b.out).toBe(large);
    expect(b.summary).toMatchObject({ type: 'summary', api: 'openai-chat', frames_in: 3, frames_out: 3, replies: 1, recovered: 0, refused: 0, max_held_chars: 0 });
    // Best of two for the small one, so a loaded machine (files run in parallel) does not decide it.
    const smallMs = Math.min(a.ms, (await timedReplay(small)).ms);
    expect(b.ms / smallMs).toBeLessThan(10);
  }, 120_000);

  it('the line splitter is linear in a line spread over many chunks, whatever its line ends', async () => {
    const line = 'x'.repeat(8 * 1024 * 1024);
    const time = async (text: string, jsonl: boolean) => {
      const t0 = performance.now();
      const got = [];
      for await (const f of (jsonl ? readJsonlFrames : readSseFrames)(lift(chunksOf(text)))) got.push(f);
      return { ms: performance.now() - t0, raw: got.map((f) => formatFrame(f, jsonl ? 'jsonl' : 'sse')).join(''), n: got.length };
    };
    const sse = `data: ${line}\r\n\r\ndata: [DONE]\r\n\r\n`;
    const got = await time(sse, false);
    expect([got.raw === sse, got.n]).toEqual([true, 2]);
    const jsonl = `{"a":"${line}"}\r{"b":1}\n`;
    const j = await time(jsonl, true);
    expect([j.raw === jsonl, j.n]).toEqual([true, 2]);
    // 8 MB in 128 chunks: the old splitter rescanned ~0.5 GB of characters here (seconds); now one pass
    expect(got.ms + j.ms).toBeLessThan(3000);
  }, 60_000);
});
