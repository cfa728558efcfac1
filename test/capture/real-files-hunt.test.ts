/**
 * Real capture files from public repositories that guard misread (a hunt over test cassettes, SDK
 * fixtures and published agent files; fixtures/SOURCES.md names each file's source): each test
 * holds the input that showed the misreading, read from its fixture or cut down to the records
 * that matter.
 */

import { describe, expect, it } from 'vitest';
import { readFixture, readText } from './read-helpers.js';

const codes = (r: { errors: Array<{ code: string; line: number | null; severity: string }> }) => r.errors.map((e) => [e.code, e.line, e.severity]);
const calls = (r: { replies: Array<{ toolCalls: Array<{ kind: string; name: string; argumentsRaw: string }> }> }) =>
  r.replies.flatMap((x) => x.toolCalls.map((c) => [c.kind, c.name, c.argumentsRaw]));

describe('Gemini 3 server-side tool invocations (toolCall / toolResponse parts)', () => {
  it('reads a toolCall part as a server tool call named by its toolType, beside a functionCall (was: INVALID_RECORD, the search unread)', async () => {
    const r = await readFixture('gemini/generatecontent-gemini-3-flash-function-call-and-google-search-server-tool.pydantic-ai.json');
    expect(calls(r)).toEqual([
      ['function', 'calculator', '{"expression":"2+2"}'],
      ['server_tool_use', 'GOOGLE_SEARCH_WEB', '{"queries":["current weather in Tokyo"]}'],
    ]);
    expect(r.replies[0]!.toolCalls[1]!.id).toBe('93z4z1x3');
    expect(r.errors).toEqual([]);
  });

  it('reads a toolCall without args (File Search) in a body and in an SSE stream', async () => {
    for (const file of [
      'gemini/generatecontent-gemini-3-flash-file-search-server-tool.pydantic-ai.json',
      'gemini/streamgeneratecontent-sse-gemini-3-flash-file-search-server-tool.pydantic-ai.sse',
    ]) {
      const r = await readFixture(file);
      expect(calls(r), file).toEqual([['server_tool_use', 'FILE_SEARCH', '{}']]);
      expect(r.replies[0]!.text, file).toMatch(/Paris/);
      expect(r.errors, file).toEqual([]);
    }
  });

  it('still reports a toolCall key it does not read, and a toolCall with no toolType keeps a name', async () => {
    const r = await readText('{"candidates":[{"content":{"role":"model","parts":[{"toolCall":{"id":"t1","code":"rm -rf /"}}]},"finishReason":"STOP"}],"modelVersion":"gemini-3-flash-preview"}\n');
    expect(r.replies[0]!.toolCalls.map((c) => [c.name, c.argumentsError !== null])).toEqual([['server_tool', true]]);
  });
});

describe('SWE-agent demonstrations ({history} alone)', () => {
  it('reads a demonstration .traj holding only its history (was: UNKNOWN_FORMAT, five replies unread)', async () => {
    const r = await readFixture('swe-agent/function-calling-simple-demonstration-history-only.swe-agent.traj');
    expect(r.replies.map((x) => x.format)).toEqual(Array(5).fill('swe-agent'));
    expect(calls(r).map((c) => c[1])).toEqual(['find_file', 'open', 'edit', 'bash', 'submit']);
    expect(r.errors).toEqual([]);
  });

  it('does not take any {history} document for SWE-agent: its first item must carry agent or message_type', async () => {
    const r = await readText('{"history": [{"role": "assistant", "content": "hi"}]}', undefined, 'h.json');
    expect(r.replies.map((x) => x.format)).not.toContain('swe-agent');
  });
});

describe('OpenHands evaluation output.jsonl', () => {
  it('reads each line\'s history as a trajectory; a run that ended in an error is no API error body (was: STREAM_ERROR warning, 0 replies, exit 0)', async () => {
    const r = await readFixture('openhands/eval-output-ponyc-4588-max-iterations-error.multi-swe-bench.openhands.jsonl');
    expect(r.replies.map((x) => x.format)).toEqual(Array(5).fill('openhands'));
    expect(calls(r).map((c) => c[1])).toEqual(['execute_bash', 'execute_bash', 'execute_bash', 'execute_bash', 'str_replace_editor']);
    expect(r.errors).toEqual([]);
  });

  it('reads the older [action, observation] pairs', async () => {
    const action = { id: 2, timestamp: 't', source: 'agent', message: 'Running', action: 'run', args: { command: 'rm -rf /', thought: 'clean' } };
    const observation = { id: 3, timestamp: 't', source: 'environment', message: 'ran', observation: 'run', content: '', extras: {} };
    const r = await readText(`${JSON.stringify({ instance_id: 'i', instruction: 'fix', history: [[action, observation]], error: 'boom' })}\n`);
    expect(calls(r)).toEqual([['text-command', 'bash', '{"command":"rm -rf /"}']]);
  });

  it('does not recurse into an evaluation output nested in a history', async () => {
    const event = { id: 1, timestamp: 't', source: 'agent', message: 'm', action: 'message', args: { content: 'hi' } };
    let line: Record<string, unknown> = { instance_id: 'i', history: [event] };
    for (let i = 0; i < 2000; i++) line = { instance_id: 'i', history: [event, line] };
    const r = await readText(`${JSON.stringify(line)}\n`);
    expect(r.replies.map((x) => x.text)).toEqual(['hi']);
    expect(r.errors.filter((e) => e.code === 'INTERNAL_ERROR')).toEqual([]);
  });

  it('an error body is still one: {error} beside nothing but scalars', async () => {
    const r = await readText('{"error": {"message": "overloaded", "type": "overloaded_error"}, "request_id": "r1"}\n{"error": "model not found", "status": 404}\n');
    expect(codes(r)).toEqual([['STREAM_ERROR', 1, 'warning'], ['STREAM_ERROR', 2, 'warning']]);
    const log = await readText('{"error": "RuntimeError: boom", "history": [{"role": "assistant", "content": "x"}], "metadata": {}}\n');
    expect(codes(log).map((c) => c[0])).toEqual(['UNKNOWN_FORMAT']);
  });
});

describe('OpenTelemetry spans of the Langfuse SDKs (langfuse.observation.*)', () => {
  const span = (attributes: Array<[string, string]>) =>
    JSON.stringify({
      resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'langfuse-sdk' }, spans: [{ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name: 'litellm-acompletion', attributes: attributes.map(([key, v]) => ({ key, value: { stringValue: v } })) }] }] }],
    });

  it('reads a generation span\'s langfuse.observation.output (was: 0 replies, exit 0, a tool call unread)', async () => {
    const output = JSON.stringify({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"rm -rf /"}' } }] });
    const r = await readText(span([['langfuse.observation.type', 'generation'], ['langfuse.observation.model.name', 'gpt-4o'], ['langfuse.observation.output', output]]), undefined, 'otlp.json');
    expect(r.replies.map((x) => [x.format, x.model])).toEqual([['otel-genai', 'gpt-4o']]);
    expect(calls(r)).toEqual([['function', 'bash', '{"command":"rm -rf /"}']]);
  });

  it('reads a tool observation span as an execution: inspected unless a generation of its trace holds the call', async () => {
    const output = JSON.stringify({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] });
    const two = (toolInput: string) =>
      JSON.stringify({
        resourceSpans: [{ scopeSpans: [{ spans: [
          { traceId: 't1', spanId: 's1', name: 'chat', attributes: [{ key: 'langfuse.observation.type', value: { stringValue: 'generation' } }, { key: 'langfuse.observation.output', value: { stringValue: output } }] },
          { traceId: 't1', spanId: 's2', name: 'bash', attributes: [{ key: 'langfuse.observation.type', value: { stringValue: 'tool' } }, { key: 'langfuse.observation.input', value: { stringValue: toolInput } }] },
        ] }] }],
      });
    const held = await readText(two('{"command":"ls"}'), undefined, 'otlp.json');
    expect(calls(held)).toEqual([['function', 'bash', '{"command":"ls"}']]);
    const own = await readText(two('{"command":"rm -rf /"}'), undefined, 'otlp.json');
    expect(calls(own)).toEqual([['function', 'bash', '{"command":"ls"}'], ['function', 'bash', '{"command":"rm -rf /"}']]);
  });

  it('a generation span without output is a model call that records none (a warning), a plain span nothing', async () => {
    const r = await readText(span([['langfuse.observation.type', 'generation']]), undefined, 'otlp.json');
    expect(codes(r)).toEqual([['INVALID_RECORD', 1, 'warning']]);
    const plain = await readText(span([['langfuse.observation.type', 'span'], ['langfuse.observation.output', '"done"']]), undefined, 'otlp.json');
    expect(plain.replies).toEqual([]);
  });
});

describe('HAR: a Gemini Live API WebSocket session', () => {
  // frames as pydantic-ai's cassette tests/realtime/cassettes/test_google_ws/test_tool_call_round.yaml recorded them
  const frames = [
    { type: 'send', time: 1, opcode: 1, data: JSON.stringify({ setup: { model: 'models/gemini-2.5-flash-native-audio-preview-09-2025' } }) },
    { type: 'receive', time: 2, opcode: 1, data: JSON.stringify({ setupComplete: {} }) },
    { type: 'receive', time: 3, opcode: 1, data: JSON.stringify({ toolCall: { functionCalls: [{ name: 'record_reading', args: { zqx_measurement: 5, qbf_note: 'steady' }, id: 'function-call-3225422447732038294' }] } }) },
  ];
  const entry = (url: string, extra: Record<string, unknown>) => ({
    startedDateTime: '2026-01-01T00:00:00Z',
    time: 1,
    request: { method: url.startsWith('wss') ? 'GET' : 'POST', url, httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
    response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [], cookies: [], content: { size: 0, mimeType: 'application/json' }, redirectURL: '', headersSize: -1, bodySize: 0 },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
    ...extra,
  });
  const chat = entry('https://api.openai.com/v1/chat/completions', {});
  (chat.response.content as Record<string, unknown>)['text'] = JSON.stringify({ id: 'c1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'hi' } }] });

  it('is an error beside other LLM traffic (was: "holds no LLM API traffic", a warning, exit 0, its call unread)', async () => {
    for (const url of ['wss://generativelanguage.googleapis.com/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent', 'wss://proxy.example/live']) {
      const har = { log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, entries: [chat, entry(url, { _resourceType: 'websocket', _webSocketMessages: frames })] } };
      const r = await readText(JSON.stringify(har), undefined, 'live.har');
      expect(r.replies.map((x) => x.text), url).toEqual(['hi']);
      expect(r.errors.map((e) => [e.code, e.severity]), url).toEqual([['UNKNOWN_FORMAT', 'error']]);
      expect(r.errors[0]!.message, url).toMatch(/Gemini Live/);
    }
  });
});

describe('HAR: a Gemini Interactions API call', () => {
  it('is LLM traffic: its body, which guard does not read, is an error, not other traffic (was: a warning, exit 0)', async () => {
    // the response of vercel/ai packages/google/src/interactions/__fixtures__/tool-call-step1.json, cut to its step
    const body = { id: 'v1_Chd', status: 'requires_action', steps: [{ type: 'function_call', id: 'fc1', name: 'weather', arguments: { location: 'Paris' } }] };
    const mk = (url: string, text: string) => ({
      startedDateTime: '2026-01-01T00:00:00Z', time: 1,
      request: { method: 'POST', url, httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
      response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [], cookies: [], content: { size: text.length, mimeType: 'application/json', text }, redirectURL: '', headersSize: -1, bodySize: -1 },
      cache: {}, timings: { send: 0, wait: 1, receive: 0 },
    });
    const chat = JSON.stringify({ id: 'c1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'hi' } }] });
    const har = { log: { version: '1.2', creator: { name: 'mitmproxy', version: '10' }, entries: [mk('https://api.openai.com/v1/chat/completions', chat), mk('https://generativelanguage.googleapis.com/v1beta/interactions', JSON.stringify(body))] } };
    const r = await readText(JSON.stringify(har), undefined, 'x.har');
    expect(r.replies.length).toBe(1);
    expect(r.errors.map((e) => [e.code, e.severity])).toEqual([['UNKNOWN_FORMAT', 'error']]);
  });
});

describe('Cohere v1 chat bodies', () => {
  it('are read as cohere-chat, tool_calls with parameters as calls (was: taken for a guard reply record, its call unread)', async () => {
    // the v1 NonStreamedChatResponse fields (https://docs.cohere.com/v1/reference/chat)
    const body = { response_id: 'r1', text: 'Let me look.', generation_id: 'g1', chat_history: [{ role: 'USER', message: 'clean up' }], finish_reason: 'COMPLETE', tool_calls: [{ name: 'bash', parameters: { command: 'rm -rf /' } }], meta: { api_version: { version: '1' } } };
    const r = await readText(`${JSON.stringify(body)}\n`);
    expect(r.replies.map((x) => [x.format, x.id, x.text])).toEqual([['cohere-chat', 'g1', 'Let me look.']]);
    expect(calls(r)).toEqual([['function', 'bash', '{"command":"rm -rf /"}']]);
    expect(r.errors).toEqual([]);
  });

  it('v1 stream events are not guard reply records (UNKNOWN_FORMAT: guard does not read the v1 stream)', async () => {
    const r = await readText('{"is_finished":false,"event_type":"text-generation","text":"hi"}\n');
    expect(r.replies).toEqual([]);
    expect(codes(r).map((c) => c[0])).toEqual(['UNKNOWN_FORMAT']);
  });
});
