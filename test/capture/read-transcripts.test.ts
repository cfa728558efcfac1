import { describe, expect, it } from 'vitest';
import { BLOCK_SEPARATOR } from '../../src/capture/bodies/anthropic.js';
import { readFixture, readText } from './read-helpers.js';

describe('Claude Code sessions', () => {
  it('groups the real hello-world session by message.id (one block per line)', async () => {
    const r = await readFixture('claude-code/session-hello-world-script.claude-reliability.jsonl');
    expect(r.errors).toEqual([]);
    expect(r.end).toMatchObject({ formats: ['claude-code'], replies: 4, errors: 0 });
    expect(r.replies.map((x) => [x.source.line, x.id])).toEqual([
      [3, 'msg_01KF5AL1TRZ7eLJUyf8heHMW'],
      [5, 'msg_01WgqVH1hfc779JeD924wJq3'],
      [7, 'msg_01TjXVqd2RuVeurDqyjjzYbN'],
      [9, 'msg_01QPLqHYF684tbt1hygY5uzC'],
    ]);
    const [write, bash] = r.replies;
    expect(write).toMatchObject({ format: 'claude-code', advertised: null, model: 'claude-opus-4-5-20251101', text: '' });
    expect(write!.toolCalls).toEqual([
      {
        id: 'toolu_01R3SZZYuAq6mou5RqHE4rzF',
        name: 'Write',
        kind: 'function',
        argumentsRaw: '{"file_path":"/tmp/tmp74wiyiny/hello.sh","content":"#!/bin/bash\\necho \\"Hello world\\"\\n"}',
        arguments: { file_path: '/tmp/tmp74wiyiny/hello.sh', content: '#!/bin/bash\necho "Hello world"\n' },
        argumentsError: null,
      },
    ]);
    expect(bash!.toolCalls.map((c) => [c.id, c.name, c.arguments?.['command']])).toEqual([
      ['toolu_01GNvoSEyj9jAsgFtJBduDPp', 'Bash', 'chmod +x /tmp/tmp74wiyiny/hello.sh && /tmp/tmp74wiyiny/hello.sh'],
    ]);
  });

  it('joins text and several tool_use lines of one message in the real coverage session', async () => {
    const r = await readFixture('claude-code/session-coverage-test-fix.claude-reliability.jsonl');
    expect(r.errors).toEqual([]);
    expect(r.replies).toHaveLength(14);
    expect(r.replies.map((x) => x.source.line)).toEqual([3, 6, 10, 15, 17, 20, 22, 25, 27, 30, 32, 34, 36, 38]);
    const reads = r.replies[1]!;
    expect(reads.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual([
      ['toolu_013bY7pp2ZCudW9rcLBUUJJE', 'Read', { file_path: '/tmp/tmpw6sk2trg/src/math_utils.py' }],
      ['toolu_01N2w85jxZmUG77Yf7ufNPZ9', 'Read', { file_path: '/tmp/tmpw6sk2trg/tests/test_math_utils.py' }],
    ]);
    const edits = r.replies[2]!;
    expect(edits.text.startsWith("I can see the structure. I'll add the `multiply_numbers` function")).toBe(true);
    expect(edits.toolCalls.map((c) => [c.id, c.name])).toEqual([
      ['toolu_012DTETgq8s6o9MajSCMmNJX', 'Edit'],
      ['toolu_01LcAKnfpHYfFok9WHC3pXjF', 'Edit'],
    ]);
    expect(r.replies[4]!.toolCalls[0]).toMatchObject({ id: 'toolu_01MeATbNZfiwc4tXym9vapou', name: 'Bash', arguments: { command: 'git status', description: 'Check git status for uncommitted changes' } });
  });

  it('puts thinking into reasoning, drops a repeated line and skips bookkeeping lines', async () => {
    const r = await readFixture('claude-code/session.synthetic.jsonl');
    expect(r.errors).toEqual([]);
    expect(r.replies).toHaveLength(2);
    expect(r.replies[0]).toMatchObject({
      source: { line: 2 },
      id: 'msg_1',
      text: "I'll list them.",
      reasoning: 'The user wants a listing.',
      finishReason: 'tool_use',
    });
    expect(r.replies[0]!.toolCalls.map((c) => c.id)).toEqual(['toolu_1']);
    expect(r.replies[1]).toMatchObject({ source: { line: 8 }, id: 'msg_2', text: 'One file: a.txt', finishReason: 'end_turn' });
  });

  it('does not yield a replayed message twice when it reappears later in the file', async () => {
    const line = (uuid: string, block: object) =>
      JSON.stringify({ type: 'assistant', sessionId: 's', uuid, message: { id: 'msg_r', role: 'assistant', content: [block] } });
    const user = JSON.stringify({ type: 'user', sessionId: 's', uuid: 'u', message: { role: 'user', content: 'go on' } });
    const r = await readText(
      [line('a', { type: 'text', text: 'Once.' }), user, line('b', { type: 'text', text: 'Once.' }), line('c', { type: 'tool_use', id: 't9', name: 'Bash', input: { command: 'id' } })].join('\n'),
    );
    // one API response (one message id) is one reply, even with a user line between its lines (red-team cc02: counted 2)
    expect(r.replies.map((x) => [x.source.line, x.text, x.toolCalls.map((c) => c.id)])).toEqual([[1, 'Once.', ['t9']]]);
  });

  it('drops a block only when its JSON repeats one seen under the same message id (key order and extra fields count)', async () => {
    const line = (uuid: string, blocks: object[]) =>
      JSON.stringify({ type: 'assistant', sessionId: 's', uuid, message: { id: 'msg_d', role: 'assistant', content: blocks } });
    const quoted = 'say "hi"\nthen\u2028go';
    const r = await readText(
      [
        line('a', [{ type: 'text', text: 'A' }, { type: 'text', text: quoted }]),
        line('b', [{ type: 'text', text: 'A' }]), // the same block again: dropped
        line('c', [{ text: 'A', type: 'text' }]), // same fields, other order: another JSON, kept
        line('d', [{ type: 'text', text: 'A', citations: [] }]), // an extra field: kept
        line('e', [{ type: 'text', text: quoted }, { type: 'text', text: 'B' }]), // the escaped text again: dropped
      ].join('\n'),
    );
    expect(r.errors).toEqual([]);
    expect(r.replies).toHaveLength(1);
    expect(r.replies[0]!.text).toBe(['A', quoted, 'A', 'A', 'B'].join(BLOCK_SEPARATOR));
  });
});

describe('Codex CLI rollouts', () => {
  it('reads the real rollout (no assistant items) as codex-rollout with no replies and no errors', async () => {
    const r = await readFixture('codex/rollout-gpt-5.2-codex-no-tool-calls.claude-code-transcripts.jsonl');
    expect(r.end).toMatchObject({ formats: ['codex-rollout'], replies: 0, errors: 0 });
  });

  it('groups reasoning, messages and tool calls into one reply per sampling; ignores event_msg', async () => {
    const r = await readFixture('codex/rollout-tools.synthetic.jsonl');
    expect(r.errors).toEqual([]);
    expect(r.replies.map((x) => [x.source.line, x.id, x.text, x.reasoning, x.model, x.advertised])).toEqual([
      [4, null, '', 'Run ls.', 'gpt-5-codex', null],
      [7, 'msg_a1', 'Adding a line.', '', 'gpt-5-codex', null],
      [10, null, 'One file: a.txt', '', 'gpt-5-codex', null],
    ]);
    expect(r.replies[0]!.toolCalls).toEqual([
      {
        id: 'call_1',
        name: 'shell',
        kind: 'function',
        argumentsRaw: '{"command":["bash","-lc","ls -la"],"workdir":"/repo"}',
        arguments: { command: ['bash', '-lc', 'ls -la'], workdir: '/repo' },
        argumentsError: null,
      },
    ]);
    expect(r.replies[1]!.toolCalls.map((c) => [c.id, c.name, c.kind, c.argumentsRaw])).toEqual([
      ['call_2', 'apply_patch', 'custom_tool_call', '*** Begin Patch\n*** Update File: a.txt\n+hello\n*** End Patch'],
    ]);
  });

  it('uses session_meta.dynamic_tools as the advertised tools', async () => {
    const meta = { timestamp: 't', type: 'session_meta', payload: { id: 'x', dynamic_tools: [{ name: 'deploy', input_schema: { type: 'object' } }] } };
    const call = { timestamp: 't', type: 'response_item', payload: { type: 'function_call', name: 'deploy', arguments: '{}', call_id: 'c' } };
    const r = await readText(`${JSON.stringify(meta)}\n${JSON.stringify(call)}\n`);
    expect(r.replies.map((x) => [x.source.line, x.advertised])).toEqual([[2, [{ name: 'deploy', schema: { type: 'object' } }]]]);
  });
});
