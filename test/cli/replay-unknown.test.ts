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
