/**
 * The API formats of issue 15: Ollama native, Gemini / Vertex AI, Cohere v2, Bedrock (Converse,
 * ConverseStream and InvokeModelWithResponseStream, decoded and as binary event streams), read from
 * their real fixtures and from small inputs for the cases the fixtures do not show.
 */

import { readFileSync } from 'node:fs';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import { FIXTURES, readFixture, readText } from './read-helpers.js';

const codes = (r: { errors: Array<{ code: string; line: number | null; severity: string }> }) => r.errors.map((e) => [e.code, e.line, e.severity]);
const calls = (r: { replies: Array<{ toolCalls: Array<{ name: string; argumentsRaw: string }> }> }) => r.replies.flatMap((x) => x.toolCalls.map((c) => [c.name, c.argumentsRaw]));

const codec = new EventStreamCodec(toUtf8, fromUtf8);
/** One event stream frame holding `{"<type>": payload}` as Bedrock sends it. */
function frame(type: string, payload: unknown, messageType = 'event'): Uint8Array {
  const key = messageType === 'exception' ? ':exception-type' : ':event-type';
  return codec.encode({
    headers: { [key]: { type: 'string', value: type }, ':content-type': { type: 'string', value: 'application/json' }, ':message-type': { type: 'string', value: messageType } },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

describe('Ollama native', () => {
  it('reads /api/chat bodies, streams and /api/generate streams: text, thinking, tool calls with object arguments and no ids', async () => {
    const body = await readFixture('ollama/api-chat-gpt-oss-20b-thinking-and-tool-call.ollama-bash-lib.json');
    expect(body.replies.map((x) => [x.format, x.text, x.reasoning, x.truncated])).toEqual([['ollama', '', 'We need to use the search tool.', false]]);
    expect(body.replies[0]!.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual([[null, 'search', { query: 'ollama bash lib' }]]);
    const gen = await readFixture('ollama/api-generate-stream-gpt-oss-20b-thinking.ollama-bash-lib.ndjson');
    expect(gen.replies.map((x) => [x.text, x.finishReason])).toEqual([['Fluffy, swift, curious', 'stop']]);
    expect(gen.replies[0]!.reasoning.startsWith('The user wants')).toBe(true);
    expect(gen.errors).toEqual([]);
  });

  it('ends a reply only at done: true, in concatenated streams and pretty-printed objects', async () => {
    const r = await readFixture('ollama/chat-two-streams-pretty-printed.synthetic.json');
    expect(r.replies.map((x) => [x.source.line, x.text, x.toolCalls.length, x.truncated, x.finishReason])).toEqual([
      [1, '', 1, false, 'stop'],
      [40, 'Done: 3 files.', 0, true, 'length'],
    ]);
    const cut = await readText('{"model":"m","created_at":"t","message":{"role":"assistant","content":"par"},"done":false}\n');
    expect(cut.replies.map((x) => [x.text, x.truncated])).toEqual([['par', true]]);
    expect(codes(cut)).toEqual([['TRUNCATED_STREAM', 1, 'error']]);
  });

  it('keeps a <think> block opening the text as reasoning, split over /api/generate chunks, beside a thinking field (it was visible text)', async () => {
    const r = await readFixture('ollama/api-generate-stream-think-tag-in-response.synthetic.ndjson');
    expect(r.replies.map((x) => [x.source.line, x.model, x.text, x.reasoning])).toEqual([
      [1, 'deepseek-r1:8b', 'Run `ls -la` in the directory.', 'The user wants the files listed; a tool call is not  available here, so I answer in text.'],
      [11, 'qwen3:4b', '<tool_call>\n{"name": "bash", "arguments": {"command": "rm -rf /tmp/build"}}\n</tool_call>', 'Clean the build directory first.'],
    ]);
    expect(r.errors).toEqual([]);
    // /api/chat content too; an unclosed block and a <think> after text stay in the text
    const chat = (content: string) => `{"model":"m","created_at":"t","message":{"role":"assistant","content":${JSON.stringify(content)}},"done":true}\n`;
    const read = async (content: string) => (await readText(chat(content))).replies.map((x) => [x.text, x.reasoning]);
    expect(await read('<think>plan</think>Answer.')).toEqual([['Answer.', 'plan']]);
    expect(await read('<think>plan, cut by the limit')).toEqual([['<think>plan, cut by the limit', '']]);
    expect(await read('Say <think>x</think> to me')).toEqual([['Say <think>x</think> to me', '']]);
  });
});

describe('Gemini and Vertex AI', () => {
  it('reads thought parts as reasoning and functionCall parts (with ids) as tool calls, in bodies and CRLF SSE streams', async () => {
    const body = await readFixture('gemini/generatecontent-gemini-3.1-pro-thought-then-function-call.ruby_llm.json');
    expect(body.replies.map((x) => [x.format, x.text, x.reasoning.slice(0, 20)])).toEqual([['gemini', '', '**My Analysis of the']]);
    expect(body.replies[0]!.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual([['call_883098', 'weather', { latitude: '52.5200', longitude: '13.4050' }]]);
    const sse = await readFixture('gemini/streamgeneratecontent-sse-gemini-3-flash-thoughts-then-text.ruby_llm.sse');
    expect(sse.replies.map((x) => [x.format, x.finishReason, x.truncated])).toEqual([['gemini-sse', 'STOP', false]]);
    expect(sse.replies[0]!.text.startsWith('To see your future self')).toBe(true);
    expect(sse.errors).toEqual([]);
  });

  it('assembles streamed function-call arguments (partialArgs, willContinue)', async () => {
    const r = await readFixture('gemini/vertexai-streamgeneratecontent-gemini-3.1-pro-streamed-function-call-args.vercel-ai.chunks.jsonl');
    expect(calls(r)).toEqual([
      ['getWeather', '{"location":"Boston"}'],
      ['getWeather', '{"location":"San Francisco"}'],
    ]);
  });

  it('a partialArgs path through __proto__ is a key of that name, never the prototype (red-team g05: Object.prototype written, the command lost)', async () => {
    const chunk = (fc: object, finish?: string) => JSON.stringify({ candidates: [{ index: 0, content: { role: 'model', parts: [{ functionCall: fc }] }, ...(finish ? { finishReason: finish } : {}) }], modelVersion: 'g', responseId: 'r1' });
    const r = await readText(`${chunk({ name: 'run_shell', partialArgs: [{ jsonPath: '$.__proto__.command', stringValue: 'rm -rf /' }], willContinue: true })}\n${chunk({}, 'STOP')}\n`);
    expect(({} as Record<string, unknown>)['command']).toBeUndefined();
    expect(calls(r)).toEqual([['run_shell', '{"__proto__":{"command":"rm -rf /"}}']]);
  });

  it('reads the JSON-array stream form, executableCode as a server tool call, and says when a stream is cut or the prompt blocked', async () => {
    const r = await readFixture('gemini/streamgeneratecontent-json-array.synthetic.json');
    expect(r.replies.map((x) => [x.text, x.reasoning])).toEqual([['I will run the code.', 'Let me check']]);
    expect(r.replies[0]!.toolCalls.map((c) => [c.kind, c.name])).toEqual([['server_tool_use', 'code_execution'], ['function', 'delete_file']]);
    const cut = await readText('{"candidates":[{"content":{"parts":[{"text":"half"}]}}],"responseId":"r1","modelVersion":"g"}\n');
    expect(cut.replies.map((x) => [x.text, x.truncated])).toEqual([['half', true]]);
    expect(codes(cut)).toEqual([['TRUNCATED_STREAM', 1, 'error']]);
    const blocked = await readText('{"promptFeedback":{"blockReason":"SAFETY"},"modelVersion":"g"}\n');
    expect(codes(blocked)).toEqual([['STREAM_ERROR', 1, 'warning']]);
  });
});

describe('Cohere v2 chat', () => {
  it('reads tool_plan as visible text, thinking as reasoning and tool calls, in bodies, SSE and chunks; [DONE] does not make it OpenAI Chat', async () => {
    const body = await readFixture('cohere/chat-command-a-parallel-tool-calls.ruby_llm.json');
    expect(body.replies.map((x) => [x.format, x.text.slice(0, 30), x.finishReason])).toEqual([['cohere-chat', 'I will use the weather tool to', 'TOOL_CALL']]);
    expect(calls(body).map((c) => c[0])).toEqual(['weather', 'best_language_to_learn']);
    for (const [file, format] of [
      ['cohere/chat-stream-command-a-tool-plan-then-tool-call.ruby_llm.sse', 'cohere-chat-sse'],
      ['cohere/chat-stream-command-a-tool-plan-then-tool-call.ruby_llm.chunks.jsonl', 'cohere-chat-chunks'],
    ] as const) {
      const r = await readFixture(file);
      expect(r.replies.map((x) => [x.format, x.text])).toEqual([[format, 'I will use the weather tool to find the weather in Berlin.']]);
      expect(calls(r)).toEqual([['weather', '{"latitude": "52.5200", "longitude": "13.4050"}']]);
      expect(r.errors).toEqual([]);
    }
    const thinking = await readFixture('cohere/chat-stream-command-a-plus-thinking-text-citations.ruby_llm.sse');
    expect(thinking.replies[0]!.reasoning.startsWith('The document clearly states')).toBe(true);
  });
});

describe('Mistral', () => {
  it('reads the real thinking and text parts exactly, in bodies and in a stream whose content switches from parts to a string', async () => {
    const body = await readFixture('mistral/chat-mistral-small-reasoning-thinking-and-text-parts.ruby_llm.json');
    expect(body.replies.map((x) => x.text)).toEqual(['144']);
    expect(body.replies[0]!.reasoning).not.toBe('');
    const stream = await readFixture('mistral/chat-stream-mistral-small-reasoning-thinking-parts.ruby_llm.sse');
    expect(stream.replies.map((x) => x.text)).toEqual(['144']);
    const magistral = await readFixture('mistral/chat-stream-magistral-small-thinking-parts.ruby_llm.sse');
    expect(magistral.replies).toHaveLength(1);
    expect(magistral.replies[0]!.reasoning.length).toBeGreaterThan(1000);
    expect(magistral.replies[0]!.text.length).toBeGreaterThan(100);
    expect(magistral.errors).toEqual([]);
  });
});

describe('Amazon Bedrock', () => {
  it('reads Converse bodies: text, reasoningContent, toolUse (server tools keep their kind)', async () => {
    const r = await readFixture('bedrock/converse-claude-haiku-4.5-reasoning-content.ruby_llm.json');
    expect(r.replies[0]!.reasoning).not.toBe('');
    const tools = await readFixture('bedrock/converse-claude-sonnet-4.5-parallel-tool-use.ruby_llm.json');
    expect(tools.replies[0]!.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual([
      ['tooluse_cqjo6jvCBSr6SGuk4qYWVG', 'weather', { latitude: '52.5200', longitude: '13.4050' }],
      ['tooluse_IvALtxXMVmFaVpJ2Quvdww', 'best_language_to_learn', {}],
    ]);
    const grounding = await readFixture('bedrock/converse-stream-nova-2-lite-server-tool-web-grounding.ruby_llm.decoded.jsonl');
    expect(grounding.replies[0]!.toolCalls.map((c) => [c.kind, c.name])).toEqual([['server_tool_use', 'nova_grounding']]);
  });

  it('reads the binary event stream exactly as its decoded twin', async () => {
    for (const base of ['bedrock/converse-stream-claude-3-sonnet-text-then-tool-use.openllmetry', 'bedrock/converse-stream-nova-2-lite-tool-use.ruby_llm', 'bedrock/invoke-model-with-response-stream-claude-3-sonnet-messages.openllmetry']) {
      const bin = await readFixture(`${base}.eventstream`);
      const dec = await readFixture(`${base}.decoded.jsonl`);
      const strip = (r: typeof bin) => r.replies.map((x) => ({ ...x, source: null }));
      expect(strip(bin)).toEqual(strip(dec));
      expect(bin.errors).toEqual([]);
      expect(bin.end.formats).toEqual(dec.end.formats);
    }
  });

  it('reports a corrupt frame at its byte offset and reads the frames after it; a cut stream is truncated', async () => {
    const bytes = readFileSync(`${FIXTURES}bedrock/converse-stream-claude-3-sonnet-text-then-tool-use.openllmetry.eventstream`);
    const bad = Buffer.from(bytes);
    bad[1000]! ^= 0xff;
    const r = await readText(bad, undefined, 'bad.eventstream', 333);
    expect(r.replies.flatMap((x) => x.toolCalls.map((c) => c.name))).toEqual(['get_weather']);
    expect(codes(r)).toEqual([['INVALID_RECORD', null, 'error']]);
    expect(r.errors[0]!.message).toMatch(/^frame 6 at byte offset 922 does not decode: .*checksum.*; 168 bytes skipped$/);
    const cut = await readText(bytes.subarray(0, 3000), undefined, 'cut.eventstream', 100);
    expect(cut.replies.map((x) => x.truncated)).toEqual([true]);
    expect(codes(cut)).toEqual([['INVALID_RECORD', null, 'error'], ['TRUNCATED_STREAM', null, 'error']]);
    expect(cut.errors[0]!.message).toContain('byte offset 2864 is cut');
  });

  it('reads exception frames as STREAM_ERROR warnings and an unknown event type as UNKNOWN_FORMAT, both naming the frame', async () => {
    const bytes = Buffer.concat([
      frame('messageStart', { role: 'assistant' }),
      frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'hel' } }),
      frame('surpriseEvent', { x: 1 }),
      frame('throttlingException', { message: 'Too many requests' }, 'exception'),
    ]);
    const r = await readText(bytes, undefined, 'x.eventstream', 50);
    expect(r.replies.map((x) => [x.text, x.truncated])).toEqual([['hel', true]]);
    expect(codes(r)).toEqual([['UNKNOWN_FORMAT', null, 'error'], ['STREAM_ERROR', null, 'warning']]);
    expect(r.errors[0]!.message).toMatch(/^frame 3 \(byte offset \d+\): the event "surpriseEvent"/);
    expect(r.errors[1]!.message).toContain('Too many requests');
  });

  it('decodes InvokeModelWithResponseStream chunk.bytes into the provider events: Anthropic messages, legacy completions', async () => {
    const r = await readFixture('bedrock/invoke-model-with-response-stream-claude-3-sonnet-messages.openllmetry.decoded.jsonl');
    expect(r.replies.map((x) => [x.format, x.finishReason, x.truncated])).toEqual([['bedrock-invoke-stream', 'end_turn', false]]);
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
    const legacy = [{ completion: ' North,' }, { completion: ' South', stop_reason: 'stop_sequence' }].map((e) => `{"chunk":{"bytes":"${b64(e)}"}}\n`).join('');
    const l = await readText(legacy);
    expect(l.replies.map((x) => [x.text, x.finishReason])).toEqual([[' North, South', 'stop_sequence']]);
    const odd = await readText(`{"chunk":{"bytes":"${b64({ weird: true })}"}}\n`);
    expect(codes(odd)).toEqual([['UNKNOWN_FORMAT', 1, 'error']]);
  });
});

describe('--input-format names for the new formats', () => {
  it('forces a format and reports records that do not fit it', async () => {
    const r = await readFixture('ollama/api-chat-stream-llama3.1-text.ruby_llm.ndjson', { inputFormat: 'ollama' });
    expect(r.replies).toHaveLength(1);
    const wrong = await readFixture('ollama/api-chat-stream-llama3.1-text.ruby_llm.ndjson', { inputFormat: 'cohere-chat-sse' });
    expect(wrong.replies).toEqual([]);
    expect(wrong.errors.every((e) => e.code === 'INVALID_RECORD')).toBe(true);
    const gemini = await readFixture('gemini/streamgeneratecontent-sse-gemini-2.5-flash-function-call.ruby_llm.sse', { inputFormat: 'gemini-sse' });
    expect(gemini.replies.map((x) => x.format)).toEqual(['gemini-sse']);
  });
});
