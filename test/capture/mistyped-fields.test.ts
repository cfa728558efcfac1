/**
 * Fields of the wrong type (issue 14, round 9): a record of a known format whose calls, content
 * or text sit under the right key with the wrong JSON type was read as if the key were absent, so
 * a call under `tool_calls: {…}` (an object, not a list) passed as "no tool calls", exit 0. Each
 * case is the input that passed silently before; each is now an INVALID_RECORD at its line.
 */
import { describe, expect, it } from 'vitest';
import { readText } from './read-helpers.js';
import { runGuard } from '../cli/helpers.js';

const problems = (r: { errors: Array<{ code: string; line: number | null; severity: string; message: string }> }) =>
  r.errors.map((e) => [e.line, e.code, e.severity, e.message]);

const NOT_JUDGED = 'it was not read, and what it holds (text, a call) is not judged';

describe('fields of the wrong type are reported, never read as absent', () => {
  it('a Chat Completions message whose tool_calls is one call object, not a list: an error, exit 2 (was "no tool calls", exit 0)', async () => {
    const text =
      '{"object":"chat.completion","choices":[{"message":{"role":"assistant","content":null,"tool_calls":{"id":"c","type":"function","function":{"name":"bash","arguments":"{\\"command\\":\\"rm -rf /\\"}"}}}}]}\n' +
      '{"object":"chat.completion","choices":[{"message":{"role":"assistant","content":{"text":"<tool_call>x</tool_call>"},"reasoning_content":5}}]}\n' +
      '{"object":"chat.completion","choices":[{"message":{"role":"assistant","content":"fine"}}]}\n';
    const r = await readText(text);
    expect(r.replies.map((x) => [x.source.line, x.text, x.toolCalls.length])).toEqual([[1, '', 0], [2, '', 0], [3, 'fine', 0]]);
    expect(problems(r)).toEqual([
      [1, 'INVALID_RECORD', 'error', 'message keys of a type the Chat Completions API never sends ("tool_calls" is an object with keys id, type, function) are not read: what they hold (text, a call) is not judged'],
      [2, 'INVALID_RECORD', 'error', 'message keys of a type the Chat Completions API never sends ("content" is an object with keys text; "reasoning_content" is a JSON number) are not read: what they hold (text, a call) is not judged'],
    ]);
    const cli = await runGuard(['scan', '-q', '-'], { stdin: text });
    expect(cli.code).toBe(2);
  });

  it('a Chat Completions stream whose delta content is a number and whose choices is a string: errors at their lines (was 1 clean reply, exit 0)', async () => {
    const text =
      'data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":5}}]}\n\n' +
      'data: {"id":"c1","object":"chat.completion.chunk","choices":"x"}\n\n' +
      'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":[{"type":"image_url","image_url":{"url":"u"}}]},"finish_reason":"stop"}]}\n\n' +
      'data: [DONE]\n\n';
    const r = await readText(text, undefined, 'mem.sse');
    expect(r.replies.map((x) => [x.source.line, x.format, x.text])).toEqual([[1, 'openai-chat-sse', '']]);
    expect(problems(r)).toEqual([
      [1, 'INVALID_RECORD', 'error', 'delta keys of a type the Chat Completions API never sends ("content" is a JSON number) are not read: what they hold (text, a call) is not judged'],
      [3, 'INVALID_RECORD', 'error', `a chunk's choices is a JSON string, not a list: ${NOT_JUDGED}`],
      [5, 'INVALID_RECORD', 'error', 'delta content parts of type "image_url" were not read (not text): what they hold (a call, its arguments) is not judged'],
    ]);
  });

  it('an Ollama reply whose tool_calls is an object and whose thinking is a list', async () => {
    const text = '{"model":"llama","message":{"role":"assistant","content":"","thinking":["a"],"tool_calls":{"function":{"name":"bash","arguments":{"command":"rm -rf /"}}}},"done":true}\n';
    const r = await readText(text);
    expect(r.replies.map((x) => [x.format, x.toolCalls.length])).toEqual([['ollama', 0]]);
    expect(problems(r)).toEqual([
      [1, 'INVALID_RECORD', 'error', `thinking is a JSON array, not text: ${NOT_JUDGED}`],
      [1, 'INVALID_RECORD', 'error', `tool_calls is an object with keys function, not a list: ${NOT_JUDGED}`],
    ]);
  });

  it('a Cohere v2 body whose tool_calls is an object and whose content holds a bare number', async () => {
    const text = '{"id":"x","finish_reason":"COMPLETE","message":{"role":"assistant","content":[7,{"type":"text","text":"hi"}],"tool_calls":{"id":"t","type":"function","function":{"name":"bash","arguments":"{}"}}}}\n';
    const r = await readText(text);
    expect(r.replies.map((x) => [x.format, x.text, x.toolCalls.length])).toEqual([['cohere-chat', 'hi', 0]]);
    expect(problems(r)).toEqual([
      [1, 'INVALID_RECORD', 'error', 'content items of type "a JSON number" were not read (not text): what they hold (a call, its arguments) is not judged'],
      [1, 'INVALID_RECORD', 'error', `message.tool_calls is an object with keys id, type, function, not a list: ${NOT_JUDGED}`],
    ]);
  });

  it('guard reply records: tools, tool_calls, reasoning and id of the wrong type are each said', async () => {
    const text =
      '{"id":["x"],"text":"a","tools":"bash"}\n' +
      '{"id":"t","text":"a","tools":[1,null,{"x":1},"bash"],"tool_calls":"no"}\n' +
      '{"id":"t3","text":"a","reasoning":7}\n' +
      '{"id":"ok","text":"a","tools":["bash",{"type":"function","function":{"name":"read_file"}}]}\n';
    const r = await readText(text);
    expect(r.replies.map((x) => [x.id, x.advertised?.map((t) => t.name) ?? null])).toEqual([[null, null], ['t', ['bash']], ['t3', null], ['ok', ['bash', 'read_file']]]);
    expect(problems(r)).toEqual([
      [1, 'INVALID_RECORD', 'warning', 'id is a JSON array, not a string or a number; the reply has no id'],
      [1, 'INVALID_RECORD', 'error', 'tools is a JSON string, not a list of tool names or definitions; the advertised tools are unknown'],
      [2, 'INVALID_RECORD', 'error', `tool_calls is a JSON string, not a list: ${NOT_JUDGED}`],
      [2, 'INVALID_RECORD', 'warning', 'tools entries at index 0, 1, 2 are neither a tool name nor a definition with a name; they were left out'],
      [3, 'INVALID_RECORD', 'error', `reasoning is a JSON number, not text: ${NOT_JUDGED}`],
    ]);
  });
});
