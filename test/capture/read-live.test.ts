/**
 * A capture read while it is still being written (stdin piped from a gateway): each reply comes
 * out as soon as its line is complete, not when the input ends or fills a sniffing window.
 * Found by a fresh-user run: a small first record was held until 8 KiB of input had arrived.
 */
import { createReadStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCapture } from '../../src/capture/read.js';
import type { CaptureItem } from '../../src/capture/types.js';

const record = (id: string) => `${JSON.stringify({ id, tools: ['bash'], text: `reply ${id}` })}\n`;
const sse = (id: string) =>
  `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: `hello ${id}` }, finish_reason: null }] })}\n\n` +
  `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;

/** The next item, or 'pending' when none comes within `ms`. */
async function next(items: AsyncIterator<CaptureItem>, ms = 1500): Promise<CaptureItem | 'pending'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'pending'>((ok) => (timer = setTimeout(() => ok('pending'), ms)));
  const r = await Promise.race([items.next().then((x) => (x.done ? 'pending' : x.value)), late]);
  clearTimeout(timer);
  return r;
}

describe('reading a capture that is still being written', () => {
  it('yields the reply of a first small JSON Lines record before more input arrives', async () => {
    const input = new PassThrough();
    const items = readCapture('-', input)[Symbol.asyncIterator]();
    input.write(record('first'));
    const first = await next(items);
    expect(first !== 'pending' && first.kind === 'reply' && first.reply.id).toBe('first');
    input.end(record('second'));
    const second = await next(items);
    expect(second !== 'pending' && second.kind === 'reply' && second.reply.id).toBe('second');
  });

  it('yields the reply of a first small SSE stream before more input arrives', async () => {
    const input = new PassThrough();
    const items = readCapture('-', input)[Symbol.asyncIterator]();
    input.write(sse('chatcmpl-1'));
    const first = await next(items);
    expect(first !== 'pending' && first.kind === 'reply' && first.reply.text).toBe('hello chatcmpl-1');
    input.end();
  });
});

describe('an input that cannot be opened', () => {
  it('names the error code once (found by a red-team run: "ENOENT: ENOENT: no such file")', async () => {
    const items: CaptureItem[] = [];
    for await (const item of readCapture('gone.jsonl', createReadStream('/nonexistent/gone.jsonl'))) items.push(item);
    expect(items).toEqual([
      { kind: 'error', error: { file: 'gone.jsonl', line: null, code: 'UNREADABLE', message: "cannot read the input: ENOENT: no such file or directory, open '/nonexistent/gone.jsonl'", severity: 'error' } },
      { kind: 'file-end', file: 'gone.jsonl', formats: [], replies: 0, errors: 1 },
    ]);
  });
});
