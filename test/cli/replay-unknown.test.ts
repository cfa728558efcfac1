import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ndjson, runGuard } from './helpers.js';

describe('guard replay on a capture that is not a stream', () => {
  it('says nothing was judged and exits 2, also under enforce', async () => {
    // bug: reply records with curl|sh replayed under enforce passed through with exit 0
    const r = await runGuard(['replay', '--mode', 'enforce', 'fixtures/cli/findings.jsonl']);
    expect(r.code).toBe(2);
    const events = ndjson(r.stderr.split('\n').filter((l) => l.startsWith('{')).join('\n'));
    expect(events[0]).toMatchObject({ file: 'fixtures/cli/findings.jsonl', type: 'problem', line: null, severity: 'error', code: 'UNKNOWN_FORMAT' });
    expect(events[1]).toMatchObject({ type: 'summary', api: null, replies: 0 });
  });
});

describe('guard replay reports the problems scan reports, and echoes nothing before them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'guard-replay-'));
  const cases: Array<[string, string, string, string]> = [
    // bug: a text file was echoed on stdout, then UNKNOWN_FORMAT; an empty file was UNKNOWN_FORMAT where scan says EMPTY_FILE
    ['notes.txt', 'hello world\nsecond\n', 'UNKNOWN_FORMAT', 'no OpenAI Chat, Anthropic Messages or OpenAI Responses stream event in the input; nothing was judged (use guard scan for other capture formats)'],
    ['empty.sse', '', 'EMPTY_FILE', 'the input is empty'],
    ['blank.sse', '\n\n  \n', 'EMPTY_FILE', 'the input holds only blank lines'],
    ['doc.json', '{"hello": "world"}\n', 'UNKNOWN_FORMAT', 'no OpenAI Chat, Anthropic Messages or OpenAI Responses stream event in the input; nothing was judged (use guard scan for other capture formats)'],
  ];
  for (const [name, content, code, message] of cases) {
    it(`${name}: ${code}, nothing on stdout`, async () => {
      writeFileSync(join(dir, name), content);
      const r = await runGuard(['replay', name], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      const events = ndjson(r.stderr);
      expect(events[0]).toEqual({ file: name, type: 'problem', line: null, severity: 'error', code, message });
      expect(events[1]).toMatchObject({ type: 'summary', api: null, frames_out: 0 });
      if (code === 'EMPTY_FILE') {
        const scan = await runGuard(['scan', name, '-f', 'ndjson', '-q'], { cwd: dir });
        expect(ndjson(scan.stdout)[0]!.error).toEqual({ code, message, severity: 'error' });
      }
    });
  }

  it('a stream still goes out whole, the frames before its first event included', async () => {
    const r = await runGuard(['replay', 'fixtures/replay/openai-chat-hermes-dangerous-leak.sse']);
    expect(r.stdout.length).toBeGreaterThan(0);
    expect(r.stdout).toContain('data: [DONE]');
  });
});

describe('guard replay inspects the candidate calls of a refused leak, as scan does', () => {
  it('reports the hit of a refused Hermes leak in observe', async () => {
    // bug: scan reported curl-pipe-shell on the candidate, replay reported no hit
    const r = await runGuard(['replay', 'fixtures/replay/openai-chat-hermes-dangerous-leak.sse']);
    const events = ndjson(r.stderr.split('\n').filter((l) => l.startsWith('{')).join('\n'));
    expect(events.filter((e) => e.type === 'hit').map((e) => [e.rule, e.origin, e.tool])).toEqual([['curl-pipe-shell', 'recovered', 'bash']]);
    expect(events.find((e) => e.type === 'refused')).toMatchObject({ reason: 'no_advertised_tools', action: 'passed' });
    expect(events.at(-1)).toMatchObject({ type: 'summary', hits: 1, cut: false });
  });
});
