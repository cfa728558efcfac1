/**
 * Content blocks of an assistant message that guard reads as neither text nor a call, in the
 * Anthropic and Bedrock Converse readers (bodies and streams): each is named with its index, an
 * input block (a request's image, document, search result, guarded content: never model output)
 * as an INVALID_RECORD warning, an unknown one as an error; blocks that hold nothing to judge
 * (redacted thinking, a tool's result, a container upload, a Bedrock image the model generated)
 * pass without a word. Before, Anthropic image / document / search_result blocks and Bedrock
 * guardContent blocks were skipped without a word, a text delta into a non-text Anthropic block
 * was dropped, and a Bedrock block that is not an object was skipped.
 */

import { describe, expect, it } from 'vitest';
import { ndjson, runGuard } from '../cli/helpers.js';
import { readText } from './read-helpers.js';

const problems = (r: { errors: Array<{ code: string; line: number | null; severity: string; message: string }> }) => r.errors.map((e) => [e.code, e.line, e.severity, e.message]);

describe('Anthropic content blocks in an assistant message', () => {
  const message = (content: unknown[]) => JSON.stringify({ type: 'message', id: 'msg_1', role: 'assistant', model: 'claude', content, stop_reason: 'end_turn' }) + '\n';

  it('a body: input blocks are warnings, an unknown type and a non-object are errors, each with its index; inert blocks are silent', async () => {
    const r = await readText(message([
      { type: 'text', text: 'Here it is.' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'rm -rf /' } },
      { type: 'search_result', source: 'https://example.com', title: 't', content: [{ type: 'text', text: 'x' }] },
      { type: 'redacted_thinking', data: 'EmwKAhgB' },
      { type: 'container_upload', file_id: 'file_011' },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
      { type: 'future_block', payload: { command: 'rm -rf /' } },
      42,
    ]));
    expect(r.replies.map((x) => [x.text, x.toolCalls.length])).toEqual([['Here it is.', 0]]);
    const input = (type: string, i: number) => ['INVALID_RECORD', 1, 'warning', `a content block of type "${type}" at index ${i} is an input block (never in a Messages response) in an assistant message: not model output, what it holds is not judged`];
    expect(problems(r)).toEqual([
      input('image', 1),
      input('document', 2),
      input('search_result', 3),
      ['INVALID_RECORD', 1, 'error', 'a content block of type "future_block" at index 7 is not read by guard: what it holds (a call, its input) is not judged'],
      ['INVALID_RECORD', 1, 'error', 'a content block at index 8 that is a JSON number, not a block object, is not read by guard: what it holds is not judged'],
    ]);
  });

  it('an image block alone is a warning (exit 0, reported); an unknown block is an error (exit 2)', async () => {
    const image = await runGuard(['scan', '--format', 'ndjson', '-'], { stdin: message([{ type: 'text', text: 'ok' }, { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }]) });
    expect(ndjson(image.stdout).filter((x) => x['error']).map((x) => [x['line'], x['error'].severity])).toEqual([[1, 'warning']]);
    expect(image.code).toBe(0);
    const unknown = await runGuard(['scan', '--format', 'ndjson', '-'], { stdin: message([{ type: 'tool_call', id: 't', name: 'bash', input: { command: 'rm -rf /' } }]) });
    expect(ndjson(unknown.stdout).filter((x) => x['error']).map((x) => [x['line'], x['error'].severity, x['error'].message])).toEqual([[1, 'error', 'a content block of type "tool_call" at index 0 is not read by guard: what it holds (a call, its input) is not judged']]);
    expect(unknown.code).toBe(2);
  });

  it('a stream: an input block is a warning with its index; a text delta into a block that is not text is an error (it was dropped)', async () => {
    const sse = (...events: object[]) => events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
    const r = await readText(sse(
      { type: 'message_start', message: { id: 'msg_1', role: 'assistant', content: [] } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done.' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'x' } } },
      { type: 'content_block_start', index: 2, content_block: { type: 'redacted_thinking', data: 'EmwKAhgB' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: '<tool_call>{"name":"bash","arguments":{"command":"rm -rf /"}}</tool_call>' } },
      { type: 'content_block_start', index: 3, content_block: { type: 'container_upload', file_id: 'file_011' } },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' } },
      { type: 'message_stop' },
    ), undefined, 'a.sse');
    expect(r.replies.map((x) => x.text)).toEqual(['Done.']);
    expect(problems(r)).toEqual([
      ['INVALID_RECORD', 10, 'warning', 'a content block of type "image" at index 1 is an input block (never in a Messages response) in an assistant message: not model output, what it holds is not judged'],
      ['INVALID_RECORD', 16, 'error', 'a text_delta into the redacted_thinking block at index 2 is not read by guard: what it holds is not judged'],
    ]);
  });
});

describe('Anthropic content in observability exports', () => {
  it('a span\'s output holding server tool results and a container upload is read without a word; a document block is still named', async () => {
    const span = (content: unknown[]) => JSON.stringify({ name: 'chat claude', traceId: 't', spanId: 's', attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', content }]) } }) + '\n';
    const inert = await readText(span([{ type: 'text', text: 'ok' }, { type: 'web_search_tool_result', tool_use_id: 's', content: [] }, { type: 'container_upload', file_id: 'f' }, { type: 'redacted_thinking', data: 'x' }]));
    expect(inert.replies.map((x) => x.text)).toEqual(['ok']);
    expect(inert.errors).toEqual([]);
    const doc = await readText(span([{ type: 'text', text: 'ok' }, { type: 'document', source: { type: 'text', data: 'x' } }]));
    expect(problems(doc)).toEqual([['INVALID_RECORD', 1, 'error', 'output parts of type "document" in span "chat claude" were not read: what they hold (a call, its arguments) is not judged']]);
  });
});

describe('Bedrock Converse content blocks in the assistant output', () => {
  const body = (content: unknown[]) => JSON.stringify({ output: { message: { role: 'assistant', content } }, stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } }) + '\n';

  it('a body: input blocks (guardContent, document, video) are one warning, unknown members and non-objects one error, with indexes; an image is model output', async () => {
    const r = await readText(body([
      { text: 'Here is the picture.' },
      { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } },
      { guardContent: { text: { text: 'rm -rf /' } } },
      { document: { format: 'txt', name: 'notes', source: { text: 'x' } } },
      { video: { format: 'mp4', source: { s3Location: { uri: 's3://b/v.mp4' } } } },
      { cachePoint: { type: 'default' } },
      { futureToolCall: { name: 'bash', input: { command: 'rm -rf /' } } },
      'stray',
    ]));
    expect(r.replies.map((x) => [x.format, x.text])).toEqual([['bedrock-converse', 'Here is the picture.']]);
    expect(problems(r)).toEqual([
      ['INVALID_RECORD', 1, 'error', 'content blocks "futureToolCall" at index 6, a JSON string at index 7 were not read (not text or a tool use): what they hold (a call, its arguments) is not judged'],
      ['INVALID_RECORD', 1, 'warning', 'content blocks "guardContent" at index 2, "document" at index 3, "video" at index 4 are input blocks (a request\'s documents, media or guarded content) in the assistant message: not model output, what they hold is not judged'],
    ]);
  });

  it('a stream: an image start is model output; an unknown start member is an error naming its contentBlockIndex', async () => {
    const r = await readText([
      { messageStart: { role: 'assistant' } },
      { contentBlockStart: { contentBlockIndex: 0, start: { image: { format: 'png' } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { image: { source: { bytes: 'x' } } } } },
      { contentBlockStart: { contentBlockIndex: 1, start: { futureToolUse: { name: 'bash' } } } },
      { contentBlockDelta: { contentBlockIndex: 2, delta: { text: 'ok' } } },
      { messageStop: { stopReason: 'end_turn' } },
    ].map((e) => JSON.stringify(e)).join('\n') + '\n');
    expect(r.replies.map((x) => [x.format, x.text])).toEqual([['bedrock-converse-stream', 'ok']]);
    expect(problems(r)).toEqual([
      ['INVALID_RECORD', 4, 'error', 'a contentBlockStart at contentBlockIndex 1 holding "futureToolUse" is not read by guard: what it holds (a call, its input) is not judged'],
    ]);
  });
});
