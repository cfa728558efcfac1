/**
 * nock recordings (src/capture/exports/nock.ts): each definition read as the HTTP exchange it
 * records (JSON, SSE and NDJSON bodies, gzip-compressed hex chunks, the request's tools), other
 * traffic named in one warning, a body that does not decompress an error. Real recordings of
 * open-telemetry/opentelemetry-js-contrib (fixtures/SOURCES.md) were UNKNOWN_FORMAT before.
 */

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readFixture, readText } from './read-helpers.js';

const calls = (r: { replies: Array<{ toolCalls: Array<{ name: string; kind: string; arguments: unknown }> }> }) => r.replies.flatMap((x) => x.toolCalls.map((c) => [c.name, c.kind, c.arguments]));

describe('nock recordings', () => {
  it('reads a real recording whose responses are gzip-compressed hex chunks: the two parallel calls, then the answer', async () => {
    const r = await readFixture('nock/openai-chat-completions-gzip-hex-chunks-2-parallel-tool-calls.otel-js-contrib.json');
    expect(r.errors).toEqual([]);
    expect(r.end).toMatchObject({ formats: ['nock'], replies: 2, errors: 0 });
    expect(r.replies.map((x) => [x.source.line, x.format, x.model, x.advertised?.map((t) => t.name)])).toEqual([
      [2, 'nock', 'gpt-4o-mini-2024-07-18', ['get_weather']],
      [70, 'nock', 'gpt-4o-mini-2024-07-18', ['get_weather']],
    ]);
    expect(calls(r)).toEqual([
      ['get_weather', 'function', { location: 'New York City' }],
      ['get_weather', 'function', { location: 'London' }],
    ]);
    expect(r.replies[1]!.text).toContain('25 degrees');
  });

  it('reads a real recording whose responses are SSE streams kept as strings', async () => {
    const r = await readFixture('nock/openai-chat-completions-stream-sse-2-parallel-tool-calls.otel-js-contrib.json');
    expect(r.errors).toEqual([]);
    expect(r.replies.map((x) => [x.source.line, x.toolCalls.length])).toEqual([
      [2, 2],
      [68, 0],
    ]);
    expect(calls(r)).toEqual([
      ['get_weather', 'function', { location: 'New York City' }],
      ['get_weather', 'function', { location: 'London' }],
    ]);
    expect(r.replies[1]!.text.startsWith('The weather in New York City is 25 degrees and sunny')).toBe(true);
  });

  it('reads a response nock kept as a JSON value: a Responses local_shell_call is a shell call', async () => {
    const r = await readFixture('nock/openai-responses-local-shell-call.otel-js-contrib.json');
    expect(r.errors).toEqual([]);
    expect(r.replies).toHaveLength(1);
    expect(r.replies[0]!.toolCalls.map((c) => [c.id, c.name, c.kind])).toEqual([['call_ls_001', 'local_shell', 'local_shell_call']]);
  });

  it('reads Anthropic SSE, Ollama NDJSON and gzip chunks under flat rawHeaders lists; other traffic is one warning', async () => {
    const r = await readFixture('nock/anthropic-sse-ollama-ndjson-gzip-chunks-and-other-traffic.synthetic.json');
    expect(r.replies.map((x) => [x.source.line, x.id, x.text, x.advertised?.map((t) => t.name) ?? null])).toEqual([
      [2, 'msg_nock_1', '', ['bash']],
      [39, null, '', ['read_file']],
      [75, 'chatcmpl-nock-3', 'The tests pass.', []],
    ]);
    expect(calls(r)).toEqual([
      ['bash', 'function', { command: 'git status' }],
      ['read_file', 'function', { path: 'README.md' }],
    ]);
    expect(r.errors.map((e) => [e.code, e.line, e.severity])).toEqual([['INVALID_RECORD', 100, 'warning']]);
  });

  it('never silent: a body that does not decompress, an LLM call whose body is no API guard reads, and a file of other traffic only are errors', async () => {
    const def = (response: unknown, headers: string[], path = '/v1/chat/completions') => ({ scope: 'https://api.openai.com:443', method: 'POST', path, body: { model: 'm', messages: [] }, status: 200, response, rawHeaders: headers });
    const corrupt = await readText(JSON.stringify([def(['1f8b0800deadbeef'], ['Content-Encoding', 'gzip'])]));
    expect(corrupt.errors.map((e) => [e.code, e.severity])).toEqual([['INVALID_RECORD', 'error']]);
    expect(corrupt.errors[0]!.message).toContain('does not decompress as its content-encoding "gzip" says');
    const unknown = await readText(JSON.stringify([def({ result: 'x' }, ['Content-Type', 'application/json'])]));
    expect(unknown.errors.map((e) => [e.code, e.severity])).toEqual([['UNKNOWN_FORMAT', 'error']]);
    const embeddings = await readText(JSON.stringify([def({ object: 'list', data: [] }, ['Content-Type', 'application/json'], '/v1/embeddings')]));
    expect(embeddings.errors.map((e) => [e.code, e.severity])).toEqual([['UNKNOWN_FORMAT', 'error']]);
    // a gzip body named in the older `headers` object is read too
    const body = { id: 'c1', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] };
    const older = await readText(JSON.stringify([{ ...def([gzipSync(JSON.stringify(body)).toString('hex')], []), rawHeaders: undefined, headers: { 'content-encoding': 'gzip' } }]));
    expect(older.errors).toEqual([]);
    expect(older.replies.map((x) => x.text)).toEqual(['ok']);
  });
});
