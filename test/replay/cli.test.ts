/** `guard replay` end to end: output on stdout, decisions on stderr or --events, exit codes. */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ndjson, runGuard } from '../cli/helpers.js';
import { repliesOf } from './helpers.js';

describe('guard replay', () => {
  it('recovers a leak: tool-call frames on stdout, decisions as NDJSON on stderr, exit 0', async () => {
    const r = await runGuard(['replay', 'fixtures/replay/openai-chat-hermes-leak.sse', '--tools', 'get_weather']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('<tool_call>');
    expect(repliesOf(r.stdout)[0]!.toolCalls.map((c) => [c.name, c.arguments])).toEqual([['get_weather', { city: 'Tokyo' }]]);
    expect(ndjson(r.stderr).map((d) => d['type'])).toEqual(['recovered', 'summary']);
    expect(ndjson(r.stderr)[0]).toMatchObject({ file: 'fixtures/replay/openai-chat-hermes-leak.sse', line: 7, family: 'hermes' });
  });

  it('--events writes the decisions to a file; a cut in enforce exits 1', async () => {
    const events = join(mkdtempSync(join(tmpdir(), 'guard-replay-cli-')), 'events.ndjson');
    const r = await runGuard(['replay', 'fixtures/replay/openai-chat-dangerous-call.sse', '--mode', 'enforce', '--events', events]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(ndjson(readFileSync(events, 'utf8')).map((d) => d['type'])).toEqual(['hit', 'cut', 'summary']);
  });

  it('under enforce sends nothing of an input that holds no stream event it reads (it copied the input out, then said UNKNOWN_FORMAT); observe too (it echoed the input before the error)', async () => {
    const file = 'fixtures/capture/openai-chat/completions.synthetic.jsonl';
    const enforce = await runGuard(['replay', file, '--mode', 'enforce']);
    expect(enforce.code).toBe(2);
    expect(enforce.stdout).toBe('');
    expect(ndjson(enforce.stderr).map((d) => d['code'] ?? d['type'])).toEqual(['UNKNOWN_FORMAT', 'summary']);
    const observe = await runGuard(['replay', file, '--mode', 'observe']);
    expect(observe.code).toBe(2);
    expect(observe.stdout).toBe('');
    expect(ndjson(observe.stderr).map((d) => d['code'] ?? d['type'])).toEqual(['UNKNOWN_FORMAT', 'summary']);
  });

  it('reads stdin and the chunks.jsonl form, writing the same form back', async () => {
    const input = readFileSync('fixtures/capture/chunks/openai-chat-alibaba-qwen-tool-call.vercel-ai.chunks.jsonl', 'utf8');
    const r = await runGuard(['replay', '-'], { stdin: input });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(input);
  });

  it('observe passes a dangerous call byte for byte and exits 0', async () => {
    const r = await runGuard(['replay', 'fixtures/replay/openai-chat-dangerous-call.sse', '--mode', 'observe']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync('fixtures/replay/openai-chat-dangerous-call.sse', 'utf8'));
  });

  it('bad input: a missing file and a bad --mode exit 2; bad JSON in a frame is reported with its line and passed through', async () => {
    expect((await runGuard(['replay', 'fixtures/replay/nope.sse'])).code).toBe(2);
    const bad = await runGuard(['replay', 'fixtures/replay/openai-chat-hermes-leak.sse', '--mode', 'strict']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--mode must be one of');
    const input = 'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\ndata: {oops\n\ndata: [DONE]\n\n';
    const r = await runGuard(['replay', '-'], { stdin: input });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(input);
    expect(ndjson(r.stderr)[0]).toMatchObject({ type: 'problem', line: 3, code: 'INVALID_JSON', severity: 'error' });
  });
});

describe('guard replay: secrets in decisions', () => {
  it('masks a token an API error event quotes, on stderr and in --events (the stream itself is left exact)', async () => {
    // bug: the STREAM_ERROR decision held the whole GitHub token (red-team pass of 2026-12-02)
    const token = `ghp_${'A1b2C3d4E5f6G7h8I9j0'}K1l2M3n4O5p6Q7r8`;
    const sse = [
      'event: message_start',
      'data: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}',
      '',
      'event: error',
      `data: {"type":"error","error":{"type":"api_error","message":"upstream refused: Authorization: Bearer ${token}"}}`,
      '',
    ].join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'guard-replay-secret-'));
    const file = join(dir, 'secret.sse');
    writeFileSync(file, `${sse}\n`);
    const r = await runGuard(['replay', file]);
    expect(r.stderr).toContain('STREAM_ERROR');
    expect(r.stderr).not.toContain(token);
    expect(r.stderr).toContain('ghp_A1b2');
    const events = join(dir, 'events.jsonl');
    await runGuard(['replay', file, '--mode', 'enforce', '--events', events]);
    expect(readFileSync(events, 'utf8')).not.toContain(token);
  });
});

describe('guard replay on bad input (round 9)', () => {
  it('a directory is a usage error naming it, not "internal error: EISDIR"', async () => {
    const r = await runGuard(['replay', 'fixtures']);
    expect([r.code, r.stderr]).toEqual([2, 'guard: cannot read fixtures: it is a directory\n']);
  });

  it('an input of NUL bytes with no line end (/dev/zero) stops as BINARY_FILE (it was read for ever)', async () => {
    const r = await runGuard(['replay', '-'], { stdin: '\u0000'.repeat(20_000) });
    expect(r.code).toBe(2);
    expect(ndjson(r.stderr).map((d) => [d.type, d.line, d.code])).toEqual([['problem', 1, 'BINARY_FILE']]);
  });
});

describe('guard replay decodes UTF-16 as guard scan does (issue 14 red-team pass)', () => {
  it('a stream saved as UTF-16 LE or BE with a byte order mark is judged and re-emitted as UTF-8 (it was UNKNOWN_FORMAT, nothing judged)', async () => {
    const sse = readFileSync('fixtures/replay/openai-chat-dangerous-call.sse', 'utf8');
    const dir = mkdtempSync(join(tmpdir(), 'guard-replay-utf16-'));
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(sse, 'utf16le')]);
    const be = Buffer.from(le.subarray(2)).swap16();
    for (const [name, bytes] of [['le.sse', le], ['be.sse', Buffer.concat([Buffer.from([0xfe, 0xff]), be])]] as const) {
      const file = join(dir, name);
      writeFileSync(file, bytes);
      const r = await runGuard(['replay', file, '--mode', 'enforce']);
      expect(ndjson(r.stderr).map((d) => d['type']), name).toEqual(['hit', 'cut', 'summary']);
      expect(ndjson(r.stderr).at(-1), name).toMatchObject({ api: 'openai-chat', cut: true });
      expect(r.code, name).toBe(1);
      expect(r.stdout.endsWith('data: [DONE]\n\n'), name).toBe(true);
    }
  });
});
