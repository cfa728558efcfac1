import { describe, expect, it } from 'vitest';
import { sniffStreamPayload } from '../../src/capture/streams/index.js';

describe('sniffStreamPayload', () => {
  it.each([
    ['[DONE]', undefined, null],
    [{ object: 'chat.completion.chunk', choices: [] }, undefined, 'openai-chat'],
    [{ id: 'x', choices: [{ index: 0, delta: { content: 'a' } }] }, undefined, 'openai-chat'],
    [{ error: { message: 'bad', code: 'tool_use_failed' } }, 'error', 'openai-chat'],
    [{ error: { message: 'bad' } }, undefined, 'openai-chat'],
    [{ type: 'message_start', message: {} }, undefined, 'anthropic'],
    [{ type: 'content_block_delta', index: 0, delta: {} }, undefined, 'anthropic'],
    [{ type: 'ping' }, undefined, 'anthropic'],
    [{ type: 'message_stop' }, undefined, 'anthropic'],
    [{ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error', 'anthropic'],
    [{ type: 'response.created', response: {} }, undefined, 'openai-responses'],
    [{ type: 'response.output_text.delta', delta: 'x' }, undefined, 'openai-responses'],
    [{ type: 'error', code: 'server_error', message: 'x', sequence_number: 4 }, undefined, 'openai-responses'],
    [{ response: { id: 'r' } }, 'response.completed', 'openai-responses'],
    [{ message: { id: 'm' } }, 'message_start', 'anthropic'],
  ] as const)('%j (event %s) → %s', (payload, eventName, api) => {
    expect(sniffStreamPayload(payload, eventName)).toBe(api);
  });

  it.each([[{ foo: 1 }], [{ id: 'c', choices: [] }], [{ object: 'response', output: [] }], [42], [null], ['hello']])('%j → null', (payload) => {
    expect(sniffStreamPayload(payload)).toBeNull();
  });
});
