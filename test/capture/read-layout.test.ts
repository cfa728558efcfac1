import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { readCapture } from '../../src/capture/read.js';
import type { CaptureItem } from '../../src/capture/types.js';
import { readFixture, readText } from './read-helpers.js';

const chat = (id: string, content: string) =>
  JSON.stringify({ id, object: 'chat.completion', model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }] });

describe('line-level problems in JSON Lines', () => {
  it('reports a malformed line with its number and reads the rest', async () => {
    const r = await readText([chat('a', 'one'), '{"id": "b", "object": "chat.comp', '', chat('c', 'three')].join('\n'));
    expect(r.replies.map((x) => [x.source.line, x.id])).toEqual([
      [1, 'a'],
      [4, 'c'],
    ]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ file: 'mem.jsonl', line: 2, code: 'INVALID_JSON', severity: 'error' });
    expect(r.errors[0]!.message).toMatch(/JSON/);
    expect(r.end).toMatchObject({ formats: ['openai-chat'], replies: 2, errors: 1 });
  });

  it('reads a JSONL file whose first line is broken as JSON Lines, not as a document', async () => {
    const r = await readText(`{"id": "a", "object": "chat.compl\n${chat('b', 'two')}\n${chat('c', 'three')}\n`);
    expect(r.replies.map((x) => [x.source.line, x.id])).toEqual([
      [2, 'b'],
      [3, 'c'],
    ]);
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['INVALID_JSON', 1]]);
  });

  it('also when the broken first line is longer than the 8 KiB binary check', async () => {
    const r = await readText(`{"text": "${'p'.repeat(10_000)}\n${chat('b', 'two')}\n`);
    expect(r.replies.map((x) => [x.source.line, x.id])).toEqual([[2, 'b']]);
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['INVALID_JSON', 1]]);
  });

  it('reads a JSONL file whose first line was cut at the front (x{"id":…) as JSON Lines: the damaged line is reported, every intact reply kept', async () => {
    // fuzz finding (test/resilience/fuzz.test.ts): this file was one UNKNOWN_FORMAT and lost every reply
    const r = await readText(`x${chat('a', 'one')}\n\n${chat('b', 'two')}\n${chat('c', 'three')}\n${chat('d', 'four')}\n`);
    expect(r.replies.map((x) => [x.source.line, x.id])).toEqual([
      [3, 'b'],
      [4, 'c'],
      [5, 'd'],
    ]);
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['INVALID_JSON', 1]]);
    expect(r.end).toMatchObject({ formats: ['openai-chat'], replies: 3, errors: 1 });
  });

  it('reads a JSONL file whose damaged first line starts with [ as JSON Lines, and one line after it is enough', async () => {
    const r = await readText(`[${chat('a', 'one')}\n${chat('b', 'two')}\n`);
    expect(r.replies.map((x) => [x.source.line, x.id])).toEqual([[2, 'b']]);
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['INVALID_JSON', 1]]);
  });

  it('reads a JSONL file whose first line was damaged into an SSE comment (:{"id":…) as JSON Lines', async () => {
    const r = await readText(`:${chat('a', 'one')}\n${chat('b', 'two')}\n`);
    expect(r.replies.map((x) => [x.source.line, x.id])).toEqual([[2, 'b']]);
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['INVALID_JSON', 1]]);
    expect(r.errors[0]!.message).toContain('an SSE line inside a JSON file');
  });

  it('keeps a first line that is not JSON UNKNOWN_FORMAT when a later line of the next three is not JSON either', async () => {
    const r = await readText(`hello\n${chat('a', 'one')}\n${chat('b', 'two')}\nworld\n${chat('c', 'three')}\n`);
    expect(r.replies).toEqual([]);
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['UNKNOWN_FORMAT', null]]);
  });

  it('still reads a one-element JSON array with the element on its own line as a document', async () => {
    const r = await readText(`[\n${chat('a', 'one')}\n]\n`);
    expect(r.replies.map((x) => [x.source.line, x.id])).toEqual([[2, 'a']]);
    expect(r.errors).toEqual([]);
  });

  it('skips an invalid UTF-8 line (never judging altered text) and reads the next', async () => {
    const bad = Buffer.concat([Buffer.from('{"text":"caf'), Buffer.from([0xc3, 0x28]), Buffer.from('","tools":[]}\n')]);
    const r = await readText(Buffer.concat([Buffer.from(`${chat('a', 'ok')}\n`), bad, Buffer.from(`${chat('c', 'fine')}\n`)]));
    expect(r.replies.map((x) => x.id)).toEqual(['a', 'c']);
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['INVALID_UTF8', 2]]);
  });

  it('reports an over-long line and goes on', async () => {
    const r = await readText(`${chat('a', 'x'.repeat(200))}\n${chat('b', 'short')}\n`, { maxLineBytes: 150 });
    expect(r.replies.map((x) => x.id)).toEqual(['b']);
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['LINE_TOO_LONG', 1]]);
  });

  it('accepts CRLF line ends and a leading BOM', async () => {
    const r = await readText(`\uFEFF${chat('a', 'one')}\r\n\r\n${chat('b', 'two')}\r\n`);
    expect(r.errors).toEqual([]);
    expect(r.replies.map((x) => [x.source.line, x.text])).toEqual([
      [1, 'one'],
      [3, 'two'],
    ]);
  });

  it('reads a 50 MB line', async () => {
    const big = 'y'.repeat(50 * 1024 * 1024);
    const r = await readText(`${chat('big', big)}\n${chat('after', 'ok')}\n`, undefined, 'big.jsonl', 1 << 20);
    expect(r.errors).toEqual([]);
    expect(r.replies.map((x) => [x.id, x.text.length])).toEqual([
      ['big', big.length],
      ['after', 2],
    ]);
  });
});

describe('file-level problems', () => {
  it('reports an empty file as a warning', async () => {
    const r = await readText('');
    expect(r.errors).toEqual([{ file: 'mem.jsonl', line: null, code: 'EMPTY_FILE', message: 'the input is empty', severity: 'error' }]);
    expect(r.end).toMatchObject({ formats: [], replies: 0, errors: 1 });
  });

  it('reports a file of blank lines as empty', async () => {
    const r = await readText('\n  \r\n\n');
    expect(r.errors.map((e) => [e.code, e.message])).toEqual([['EMPTY_FILE', 'the input holds only blank lines']]);
  });

  it('stops at a file with NUL bytes after a first text line (a PNG header)', async () => {
    const r = await readText(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x0a, 0x7b]));
    // a whole-file problem: line null, the line of the first NUL byte in the message
    expect(r.errors.map((e) => [e.code, e.line, e.message])).toEqual([
      ['BINARY_FILE', null, 'the input holds NUL bytes (first on line 3): it is binary, not a text capture; not read'],
    ]);
    expect(r.replies).toEqual([]);
  });

  it('gives one UNKNOWN_FORMAT for a JSONL file with no known record', async () => {
    const r = await readText('{"a":1}\n{"b":2}\nnot json\n{"c":3}\n');
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([
      ['UNKNOWN_FORMAT', null],
      ['INVALID_JSON', 3],
    ]);
    expect(r.errors[0]!.message).toBe('no record in this file is in a known capture format (3 JSON records; the first, at line 1, is an object with keys a)');
  });

  it('names each unknown line once the file has a known record', async () => {
    const r = await readText(`{"a":1}\n${chat('x', 'hi')}\n[1,2]\n`);
    expect(r.items.map((i) => (i.kind === 'reply' ? `reply@${i.reply.source.line}` : i.kind === 'error' ? `${i.error.code}@${i.error.line}` : i.kind))).toEqual([
      'UNKNOWN_FORMAT@1',
      'reply@2',
      'UNKNOWN_FORMAT@3',
      'file-end',
    ]);
  });

  it('skips request bodies and user messages silently', async () => {
    const req = JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }], tools: [] });
    const user = JSON.stringify({ role: 'user', content: 'hello' });
    const r = await readText(`${req}\n${user}\n${chat('a', 'hi')}\n`);
    expect(r.errors).toEqual([]);
    expect(r.replies.map((x) => x.source.line)).toEqual([3]);
  });

  it('reports a text file that is neither JSON nor SSE once', async () => {
    const r = await readText('# Notes\n\nsome prose\n', undefined, 'README.md');
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['UNKNOWN_FORMAT', null]]);
    expect(r.errors[0]!.message).toBe('not a capture guard reads: line 1 is neither JSON nor SSE (starts "# Notes")');
  });

  it('turns a stream read error into UNREADABLE', async () => {
    const failing = new Readable({
      read() {
        this.destroy(Object.assign(new Error('illegal operation on a directory, read'), { code: 'EISDIR' }));
      },
    });
    const items: CaptureItem[] = [];
    for await (const i of readCapture('dir', failing)) items.push(i);
    expect(items).toEqual([
      { kind: 'error', error: { file: 'dir', line: null, code: 'UNREADABLE', message: 'cannot read the input: EISDIR: illegal operation on a directory, read', severity: 'error' } },
      { kind: 'file-end', file: 'dir', formats: [], replies: 0, errors: 1 },
    ]);
  });
});

describe('JSON documents and arrays', () => {
  it('reads a pretty-printed array element by element with each element\'s line', async () => {
    const r = await readFixture('documents/chat-completions.array.json');
    expect(r.errors).toEqual([]);
    expect(r.replies.map((x) => [x.source.line, x.id, x.text])).toEqual([
      [2, 'chatcmpl-a1', 'First [reply] with "brackets" } in text'],
      [8, 'chatcmpl-a2', 'Second'],
      [10, 'chatcmpl-a3', ''],
    ]);
  });

  it('reads a one-line JSON array of records, all at that line', async () => {
    const r = await readText(`[${chat('a', 'one')},${chat('b', 'two')}]\n`);
    expect(r.replies.map((x) => [x.source.line, x.id])).toEqual([
      [1, 'a'],
      [1, 'b'],
    ]);
  });

  it('reads concatenated pretty-printed documents (jq . output)', async () => {
    const doc = (id: string) => JSON.stringify(JSON.parse(chat(id, 'x')), null, 2);
    const r = await readText(`${doc('a')}\n${doc('b')}\n`);
    const lines = doc('a').split('\n').length;
    expect(r.replies.map((x) => [x.source.line, x.id])).toEqual([
      [1, 'a'],
      [lines + 1, 'b'],
    ]);
  });

  it('reports a bad element with the line of the error and reads the next element', async () => {
    const text = ['[', '  {"object": "chat.completion",', '   "choices": [tru]},', `  ${chat('ok', 'fine')}`, ']'].join('\n');
    const r = await readText(text);
    expect(r.replies.map((x) => [x.source.line, x.id])).toEqual([[4, 'ok']]);
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['INVALID_JSON', 2]]);
    expect(r.errors[0]!.message).toMatch(/\(in the JSON value starting at this line\)$/);
  });

  it('reports a document cut short', async () => {
    const r = await readText('[\n  {"a": [1,\n');
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([
      ['INVALID_JSON', 2],
      ['INVALID_JSON', 1],
    ]);
  });

  it('skips an element over the size cap and reads the others', async () => {
    const text = `[\n${chat('huge', 'z'.repeat(5000))},\n${chat('small', 's')}\n]\n`;
    const r = await readText(text, { maxDocumentBytes: 1000 });
    expect(r.replies.map((x) => x.id)).toEqual(['small']);
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['DOCUMENT_TOO_LARGE', 2]]);
    expect(r.errors[0]!.message).toMatch(/^the JSON value starting here is 5\d\d\d bytes, over the limit of 1000 bytes; skipped$/);
  });
});

describe('SSE files and forced formats', () => {
  it('hands an SSE file to the SSE reader', async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const r = await readText(`: keep-alive\n\n${chunk({ content: 'Hi' })}${chunk({}, 'stop')}data: [DONE]\n\n`, undefined, 'x.sse');
    expect(r.errors).toEqual([]);
    expect(r.replies.map((x) => [x.source.line, x.format, x.text])).toEqual([[3, 'openai-chat-sse', 'Hi']]);
    expect(r.end.formats).toEqual(['openai-chat-sse']);
  });

  it('reads stream payloads one per line as -chunks', async () => {
    const events = [
      { type: 'message_start', message: { id: 'msg_c', role: 'assistant', content: [] } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'chunked' } },
      { type: 'message_stop' },
    ];
    const r = await readText(events.map((e) => JSON.stringify(e)).join('\n'));
    expect(r.replies.map((x) => [x.source.line, x.format, x.id, x.text])).toEqual([[1, 'anthropic-chunks', 'msg_c', 'chunked']]);
  });

  it('forces a format: records that do not fit are INVALID_RECORD', async () => {
    const reply = JSON.stringify({ text: 'plain', extra: 1 });
    const r = await readText(`${reply}\n${chat('a', 'x')}\n`, { inputFormat: 'guard-reply' });
    expect(r.replies.map((x) => [x.format, x.text, x.advertised])).toEqual([['guard-reply', 'plain', null]]);
    expect(r.errors.map((e) => [e.code, e.line, e.message])).toEqual([['INVALID_RECORD', 2, 'the record is not in the forced input format guard-reply (it looks like openai-chat)']]);
  });

  it('forces an SSE format onto a file whose first line is not an SSE field', async () => {
    const r = await readText(`\n\ndata: ${JSON.stringify({ type: 'response.completed', response: { id: 'resp_f', object: 'response', status: 'completed', output: [] } })}\n\n`, {
      inputFormat: 'openai-responses-sse',
    });
    expect(r.replies.map((x) => [x.format, x.id])).toEqual([['openai-responses-sse', 'resp_f']]);
  });

  it('forces a -chunks format on payloads the sniffer would not recognise', async () => {
    const r = await readText(`${JSON.stringify({ choices: [{ index: 0, delta: { content: 'a' } }] })}\n${JSON.stringify({ choices: [{ index: 0, delta: { content: 'b' }, finish_reason: 'stop' }] })}\n`, {
      inputFormat: 'openai-chat-chunks',
    });
    expect(r.replies.map((x) => [x.format, x.text])).toEqual([['openai-chat-chunks', 'ab']]);
  });
});
