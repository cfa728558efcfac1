import { describe, expect, it } from 'vitest';
import { createStreamAccumulator, type StreamOutput } from '../../src/capture/streams/index.js';
import { callSummary, feedPayloads, readChunksFixture, readSseFixture } from './streams-helpers.js';

function run(payloads: unknown[]): StreamOutput {
  return feedPayloads('anthropic', 'anthropic-chunks', payloads, null, 'a.jsonl');
}

describe('Anthropic SSE captures (pydantic-ai cassettes)', () => {
  it('code execution: thinking to reasoning, server_tool_use bash_code_execution built from input_json_delta', async () => {
    const { replies, errors } = await readSseFixture('anthropic-code-execution-bash.pydantic-ai.sse');
    expect(errors).toEqual([]);
    expect(replies).toHaveLength(1);
    const r = replies[0]!;
    expect(r).toMatchObject({ id: 'msg_01Js8aWE7YbmiaUPneGiCskE', model: 'claude-sonnet-4-6', format: 'anthropic-sse', finishReason: 'end_turn', truncated: false, source: { line: 1 } });
    expect(r.reasoning).toHaveLength(46);
    expect(r.text.endsWith('Answer: **-428,330,955.97745**')).toBe(true);
    expect(callSummary(r)).toEqual([
      { id: 'srvtoolu_01MwXaweAHve88x6s3Fc8x6Q', name: 'bash_code_execution', kind: 'server_tool_use', argumentsRaw: '{"command": "echo \\"65465-6544 * 65464-6+1.02255\\" | bc -l"}' },
    ]);
    expect(r.toolCalls[0]!.arguments).toEqual({ command: 'echo "65465-6544 * 65464-6+1.02255" | bc -l' });
  });

  it('MCP servers: mcp_tool_use ask_question; the mcp_tool_result block is not a call', async () => {
    const { replies, errors } = await readSseFixture('anthropic-mcp-servers-tool-use.pydantic-ai.sse');
    expect(errors).toEqual([]);
    expect(callSummary(replies[0]!)).toEqual([
      {
        id: 'mcptoolu_01FZmJ5UspaX5BB9uU339UT1',
        name: 'ask_question',
        kind: 'mcp_tool_use',
        argumentsRaw: '{"repoName": "pydantic/pydantic-ai", "question": "What is this repository about? What are its main features and purpose?"}',
      },
    ]);
    expect(replies[0]!.text.startsWith('**Pydantic-AI** is a framework')).toBe(true);
  });

  it('tool search: server_tool_use tool_search_tool_bm25, then a client tool_use get_exchange_rate', async () => {
    const { replies, errors } = await readSseFixture('anthropic-tool-use-tool-search.pydantic-ai.sse');
    expect(errors).toEqual([]);
    expect(replies[0]!.finishReason).toBe('tool_use');
    expect(callSummary(replies[0]!)).toEqual([
      { id: 'srvtoolu_01S5swZdBmTzLDVzwcT5LbHp', name: 'tool_search_tool_bm25', kind: 'server_tool_use', argumentsRaw: '{"query": "USD EUR exchange rate currency conversion"}' },
      { id: 'toolu_01EFn5wTNBYA8Reni8rbmnHT', name: 'get_exchange_rate', kind: 'function', argumentsRaw: '{"from_currency": "USD", "to_currency": "EUR"}' },
    ]);
  });

  it('an error event mid-stream closes the message (truncated) and is a STREAM_ERROR warning at its line (synthetic)', async () => {
    const { items } = await readSseFixture('synthetic-anthropic-error.sse');
    expect(items.map((i) => i.kind)).toEqual(['reply', 'error']);
    expect(items[0]).toMatchObject({ kind: 'reply', reply: { id: 'msg_syn1', text: 'Cleaning up.', truncated: true, source: { line: 1 } } });
    const reply = items[0]!.kind === 'reply' ? items[0]!.reply : null;
    expect(callSummary(reply!)).toEqual([{ id: 'toolu_syn1', name: 'bash', kind: 'function', argumentsRaw: '{"command": "rm -r' }]);
    expect(reply!.toolCalls[0]!.argumentsError).toMatch(/not valid JSON/);
    expect(items[1]).toMatchObject({ kind: 'error', error: { line: 22, code: 'STREAM_ERROR', message: 'API error (overloaded_error): Overloaded', severity: 'warning' } });
  });
});

describe('Anthropic chunk captures (vercel/ai fixtures)', () => {
  it('tool-use-no-args: text then updateIssueList with an empty input buffer, which means {}', async () => {
    const { replies, errors } = await readChunksFixture('anthropic-tool-use-no-args.vercel-ai.chunks.jsonl');
    expect(errors).toEqual([]);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ id: 'msg_01GE2RKp1VYsPzdFs3sS9z5S', format: 'anthropic-chunks', text: "I'll update the issue list for you.", finishReason: 'tool_use', truncated: false });
    expect(callSummary(replies[0]!)).toEqual([{ id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', kind: 'function', argumentsRaw: '{}' }]);
    expect(replies[0]!.toolCalls[0]!.arguments).toEqual({});
  });

  it('json tool: input_json_delta pieces joined byte for byte', async () => {
    const { replies } = await readChunksFixture('anthropic-json-tool-input-json-delta.vercel-ai.chunks.jsonl');
    expect(callSummary(replies[0]!)).toEqual([
      { id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA', name: 'json', kind: 'function', argumentsRaw: '{"elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]}' },
    ]);
  });

  it('mcp_tool_use echo', async () => {
    const { replies } = await readChunksFixture('anthropic-mcp-tool-use.vercel-ai.chunks.jsonl');
    expect(callSummary(replies[0]!)).toEqual([{ id: 'mcptoolu_017CuqaJcXe5ZHJjaz3KS1AT', name: 'echo', kind: 'mcp_tool_use', argumentsRaw: '{"message": "hello world"}' }]);
  });

  it('code execution: text_editor_code_execution create, then bash_code_execution python', async () => {
    const { replies, errors } = await readChunksFixture('anthropic-code-execution-bash.vercel-ai.chunks.jsonl');
    expect(errors).toEqual([]);
    const calls = replies[0]!.toolCalls;
    expect(calls.map((c) => [c.id, c.name, c.kind])).toEqual([
      ['srvtoolu_0112cP8RpnKv67t2cscmN4ia', 'text_editor_code_execution', 'server_tool_use'],
      ['srvtoolu_01K2E2j5mkxbtLqNBc6RJHds', 'bash_code_execution', 'server_tool_use'],
    ]);
    expect(calls[0]!.arguments).toMatchObject({ command: 'create', path: '/tmp/fibonacci.py' });
    expect(String(calls[0]!.arguments!['file_text']).startsWith('def fibonacci(n):\n    """\n    Calculate the nth Fibonacci number.')).toBe(true);
    expect(calls[1]!.argumentsRaw).toBe('{"command": "python /tmp/fibonacci.py"}');
  });

  it('advisor: the server_tool_use advisor call; the advisor result text (with <function_calls> markup) is not reply text', async () => {
    const { replies } = await readChunksFixture('anthropic-advisor-result-leaked-function-calls.vercel-ai.chunks.jsonl');
    expect(callSummary(replies[0]!)).toEqual([{ id: 'srvtoolu_01R6zRtm9VnRaSJUVkGK9zvM', name: 'advisor', kind: 'server_tool_use', argumentsRaw: '{}' }]);
    expect(replies[0]!.text.startsWith('# Concurrent Worker Pool in Go')).toBe(true);
    expect(replies[0]!.text).not.toContain('<function_calls>');
  });

  it('two messages: max_tokens marks the first truncated; the second, never stopped, gets TRUNCATED_STREAM (synthetic)', async () => {
    const { replies, errors } = await readChunksFixture('bad-input:synthetic-anthropic-two-messages.chunks.jsonl');
    expect(replies.map((r) => [r.id, r.source.line, r.text, r.finishReason, r.truncated])).toEqual([
      ['msg_syn3', 1, 'Long answer', 'max_tokens', true],
      ['msg_syn4', 7, '', undefined, true],
    ]);
    expect(callSummary(replies[1]!)).toEqual([{ id: 'toolu_syn4', name: 'Write', kind: 'function', argumentsRaw: '{"file_path":"/tmp/a"' }]);
    expect(errors).toEqual([expect.objectContaining({ line: 7, code: 'TRUNCATED_STREAM', severity: 'error' })]);
  });
});

describe('Anthropic accumulation rules', () => {
  it('orders blocks by index and joins text blocks without a separator', () => {
    const out = run([
      { type: 'message_start', message: { id: 'm1', model: 'claude', content: [] } },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: 'second' } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'first ' } },
      { type: 'message_stop' },
    ]);
    expect(out.replies.map((r) => r.text)).toEqual(['first second']);
  });

  it('reads a block of 200,000 deltas (spreading them into one call overflowed the stack and lost the reply)', () => {
    const n = 200_000;
    const payloads: unknown[] = [
      { type: 'message_start', message: { id: 'm-long', model: 'claude', content: [] } },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
    ];
    for (let i = 0; i < n; i++) {
      payloads.push({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'r' } });
      payloads.push({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: i % 2 ? 'b' : 'a' } });
    }
    payloads.push({ type: 'message_stop' });
    const out = run(payloads);
    expect(out.errors).toEqual([]);
    expect(out.replies).toHaveLength(1);
    expect(out.replies[0]!.id).toBe('m-long');
    expect(out.replies[0]!.text).toBe('ab'.repeat(n / 2));
    expect(out.replies[0]!.reasoning).toBe('r'.repeat(n));
  });

  it('keeps a non-empty start input when no input_json_delta came (replayed captures)', () => {
    const out = run([
      { type: 'message_start', message: { id: 'm2' } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_z', name: 'bash', input: { command: 'ls' } } },
      { type: 'message_stop' },
    ]);
    expect(callSummary(out.replies[0]!)).toEqual([{ id: 'toolu_z', name: 'bash', kind: 'function', argumentsRaw: '{"command":"ls"}' }]);
  });

  it('events without a message_start still make a reply (capture started mid-stream), marked truncated', () => {
    const out = run([{ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'tail' } }, { type: 'ping' }]);
    expect(out.replies.map((r) => [r.id, r.text, r.truncated, r.source.line])).toEqual([[null, 'tail', true, 1]]);
    expect(out.errors.map((e) => [e.code, e.line])).toEqual([['TRUNCATED_STREAM', 1]]);
  });

  it('dispatches on the SSE event name when the payload has no type', () => {
    const acc = createStreamAccumulator('anthropic', { file: 'a.sse', format: 'anthropic-sse', advertised: null });
    acc.push({ message: { id: 'm3' } }, 'message_start', 1);
    acc.push({ index: 0, content_block: { type: 'text', text: 'hi' } }, 'content_block_start', 4);
    const done = acc.push({}, 'message_stop', 7);
    expect(done.replies.map((r) => [r.id, r.text, r.truncated])).toEqual([['m3', 'hi', false]]);
  });
});
