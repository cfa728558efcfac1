import { describe, expect, it } from 'vitest';
import { readText } from './read-helpers.js';

/**
 * One JSONL file whose records switch kinds: each record closes what the previous kind left open
 * (a Claude Code group, an Anthropic stream, a Chat stream), and what closing yields comes before
 * the record's own output, in line order.
 */
describe('readCapture when the record kind changes within a file', () => {
  it('yields each closed reply (and its TRUNCATED_STREAM) before the record that closed it', async () => {
    const records = [
      { type: 'assistant', sessionId: 's', uuid: 'u1', message: { id: 'msg_1', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'one' }] } },
      { type: 'message_start', message: { id: 'msg_s1', model: 'claude-y', content: [] } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'two' } },
      { id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'three' }, finish_reason: null }] },
      { text: 'four' },
      { type: 'assistant', sessionId: 's', uuid: 'u2', message: { id: 'msg_2', role: 'assistant', content: [{ type: 'text', text: 'five' }] } },
    ];
    const { items, end } = await readText(records.map((r) => JSON.stringify(r)).join('\n'));
    expect(
      items.map((i) =>
        i.kind === 'reply'
          ? ['reply', i.reply.source.line, i.reply.format, i.reply.text, i.reply.truncated]
          : i.kind === 'error'
            ? ['error', i.error.line, i.error.code]
            : ['end'],
      ),
    ).toEqual([
      ['reply', 1, 'claude-code', 'one', false],
      ['reply', 2, 'anthropic-chunks', 'two', true],
      ['error', 2, 'TRUNCATED_STREAM'],
      ['reply', 5, 'openai-chat-chunks', 'three', true],
      ['error', 5, 'TRUNCATED_STREAM'],
      ['reply', 6, 'guard-reply', 'four', false],
      ['reply', 7, 'claude-code', 'five', false],
      ['end'],
    ]);
    expect(end.formats).toEqual(['claude-code', 'anthropic-chunks', 'openai-chat-chunks', 'guard-reply']);
  });
});
