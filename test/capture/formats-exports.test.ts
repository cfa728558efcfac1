/**
 * Batch outputs and observability exports (issue 15): OpenAI Batch and Anthropic Message Batches
 * results, LiteLLM logs, OpenTelemetry GenAI spans, Langfuse exports and HAR files, from their
 * fixtures and from small inputs; each reads nested API bodies with the registry's readers.
 */

import { describe, expect, it } from 'vitest';
import { readFixture, readText } from './read-helpers.js';

const codes = (r: { errors: Array<{ code: string; line: number | null; severity: string }> }) => r.errors.map((e) => [e.code, e.line, e.severity]);
const names = (r: { replies: Array<{ toolCalls: Array<{ name: string }> }> }) => r.replies.flatMap((x) => x.toolCalls.map((c) => c.name));

describe('batch outputs', () => {
  it('reads each OpenAI Batch body as its API (Responses, Chat) and names failed requests by custom_id', async () => {
    const real = await readFixture('openai-batch/batch-output-responses-api-gpt-5-nano-2-requests.ruby_llm.jsonl');
    expect(real.replies.map((x) => [x.format, x.source.line, x.text])).toEqual([
      ['openai-batch', 1, '4'],
      ['openai-batch', 2, 'Jupiter'],
    ]);
    const r = await readFixture('openai-batch/batch-output-chat-with-failures.synthetic.jsonl');
    expect(names(r)).toEqual(['bash']);
    expect(codes(r)).toEqual([['STREAM_ERROR', 2, 'warning'], ['STREAM_ERROR', 3, 'warning']]);
    expect(r.errors.map((e) => e.message.slice(0, 24))).toEqual(['batch request "task-2" f', 'batch request "task-3" f']);
    const unknown = await readText('{"custom_id":"x","response":{"status_code":200,"body":{"weird":1}},"error":null}\n');
    expect(codes(unknown)).toEqual([['UNKNOWN_FORMAT', 1, 'error']]);
  });

  it('reads Anthropic Message Batches results; errored, expired and canceled requests are warnings naming custom_id', async () => {
    const r = await readFixture('anthropic-batch/results-with-errored-expired-canceled.synthetic.jsonl');
    expect(r.replies.map((x) => [x.format, x.id])).toEqual([['anthropic-batch', 'msg_syn1']]);
    expect(names(r)).toEqual(['bash']);
    expect(r.errors.map((e) => [e.code, e.line, e.severity, /"req-\d"/.exec(e.message)?.[0]])).toEqual([
      ['STREAM_ERROR', 2, 'warning', '"req-2"'],
      ['STREAM_ERROR', 3, 'warning', '"req-3"'],
      ['STREAM_ERROR', 4, 'warning', '"req-4"'],
    ]);
  });
});

describe('LiteLLM', () => {
  it('reads the logging payload and spend logs; an empty response and a failure are warnings, embeddings hold no reply', async () => {
    const payload = await readFixture('litellm/standard-logging-payload-gpt-4o-stream-mock-response.litellm-tests.json');
    expect(payload.replies.map((x) => [x.format, x.text])).toEqual([['litellm', 'hi']]);
    const spend = await readFixture('litellm/spend-logs.synthetic.jsonl');
    expect(spend.replies.map((x) => [x.toolCalls[0]!.name, x.advertised?.map((t) => t.name)])).toEqual([['shell', ['shell']]]);
    expect(codes(spend)).toEqual([['INVALID_RECORD', 2, 'warning'], ['STREAM_ERROR', 3, 'warning']]);
  });

  it('reads callback kwargs through their standard_logging_object (they were UNKNOWN_FORMAT)', async () => {
    const response = { id: 'chatcmpl-1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 't', type: 'function', function: { name: 'bash', arguments: '{"command":"rm -rf /"}' } }] }, finish_reason: 'tool_calls' }] };
    const kwargs = { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], litellm_call_id: 'abc', standard_logging_object: { id: 'chatcmpl-1', call_type: 'acompletion', model: 'gpt-4o', messages: [], response } };
    const r = await readText(`${JSON.stringify(kwargs)}\n`);
    expect(codes(r)).toEqual([]);
    expect(r.replies.map((x) => [x.format, x.id, x.toolCalls.map((c) => c.name)])).toEqual([['litellm', 'chatcmpl-1', ['bash']]]);
    // near miss: a standard_logging_object without a response says so (a warning), it is never silent
    const empty = await readText(`${JSON.stringify({ ...kwargs, standard_logging_object: { id: 'x', call_type: 'acompletion' } })}\n`);
    expect(codes(empty)).toEqual([['INVALID_RECORD', 1, 'warning']]);
  });
});

describe('OpenTelemetry GenAI spans', () => {
  it('reads OTLP JSON: gen_ai.output.messages and gen_ai.completion.* spans; a model call without output is a warning; other spans are skipped', async () => {
    const r = await readFixture('otel-genai/otlp-json-chat-spans.synthetic.json');
    expect(r.replies.map((x) => [x.id, x.text, x.reasoning, x.advertised?.map((t) => t.name) ?? null])).toEqual([
      ['chatcmpl-syn-1', "I'll list the directory.", 'The user wants the file list.', ['run_shell']],
      [null, '', '', null],
    ]);
    expect(r.replies.flatMap((x) => x.toolCalls.map((c) => [c.id, c.name, c.arguments]))).toEqual([
      ['call_syn_1', 'run_shell', { command: 'ls -la /tmp' }],
      ['call_syn_2', 'read_file', { path: '/etc/hosts' }],
    ]);
    expect(codes(r)).toEqual([['INVALID_RECORD', 1, 'warning']]);
  });

  it('reads the AI SDK doGenerate / doStream spans of a span dump and skips their wrapper spans', async () => {
    const r = await readFixture('otel-genai/vercel-ai-sdk-v6-generateText-doGenerate-2-spans.openinference.json');
    expect(r.replies.map((x) => x.text)).toEqual(['Lines of code align,  \nLogic dances through the night—  \nDreams in data flow.', '3 + 3 equals 6.']);
    const wrapper = { name: 'ai.generateText', spanContext: { traceId: 't', spanId: 's' }, attributes: { 'ai.operationId': 'ai.generateText', 'ai.response.text': 'repeated' }, events: [] };
    const child = { name: 'ai.generateText.doGenerate', spanContext: { traceId: 't', spanId: 'c' }, attributes: { 'ai.operationId': 'ai.generateText.doGenerate', 'ai.response.text': 'repeated' }, events: [] };
    // the wrapper repeats its child's response: read once, from the child, whichever comes first
    for (const order of [[wrapper, child], [child, wrapper]]) {
      const w = await readText(`${order.map((x) => JSON.stringify(x)).join('\n')}\n`);
      expect(w.replies.map((x) => [x.source.line, x.text])).toEqual([[order.indexOf(child) + 1, 'repeated']]);
      expect(w.errors).toEqual([]);
    }
    // a wrapper whose trace holds no model-call span is the only record of the call (red-team t04: 0 replies, exit 0)
    const alone = await readText(`${JSON.stringify(wrapper)}\n`);
    expect(alone.replies.map((x) => [x.source.line, x.text])).toEqual([[1, 'repeated']]);
  });
});

describe('OpenTelemetry GenAI events in OTLP logs', () => {
  it('reads the gen_ai.choice and gen_ai.client.inference.operation.details log records; request events, evaluations and other logs hold no reply', async () => {
    const r = await readFixture('otel-genai/otlp-json-logs-genai-events.synthetic.jsonl');
    expect(r.end).toMatchObject({ formats: ['otel-genai'], replies: 2, errors: 0 });
    expect(r.replies.map((x) => [x.source.line, x.text, x.model ?? null, x.finishReason ?? null])).toEqual([
      [1, '', null, 'tool_calls'],
      [2, 'I will read the config first.', 'gemini-2.5-flash', 'tool_call'],
    ]);
    expect(r.replies.flatMap((x) => x.toolCalls.map((c) => [c.id, c.name, c.arguments]))).toEqual([
      ['call_weather_1', 'get_weather', { city: 'Oslo' }],
      ['call_cfg_1', 'read_file', { path: '/srv/app/config.yaml' }],
    ]);
    expect(r.errors).toEqual([]);
  });

  it('was UNKNOWN_FORMAT; a gen_ai.choice whose message is in gen_ai.event.content is read; a GenAI event guard does not know is an error', async () => {
    const logs = (record: object) => JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ timeUnixNano: '1', traceId: 't', spanId: 's', ...record }] }] }] });
    const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
    const content = JSON.stringify({ message: { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'bash', arguments: '{"command":"rm -rf /"}' } }] } });
    const r = await readText(`${logs({ attributes: [attr('event.name', 'gen_ai.choice'), attr('gen_ai.event.content', content)] })}
`);
    expect(r.replies.flatMap((x) => x.toolCalls.map((c) => [c.name, c.arguments]))).toEqual([['bash', { command: 'rm -rf /' }]]);
    const unknown = await readText(`${logs({ eventName: 'gen_ai.agent.output', attributes: [] })}
`);
    expect(codes(unknown)).toEqual([['INVALID_RECORD', 1, 'error']]);
    expect(unknown.errors[0]!.message).toContain('GenAI event "gen_ai.agent.output" was not read');
    const noOutput = await readText(`${logs({ eventName: 'gen_ai.client.inference.operation.details', attributes: [attr('gen_ai.operation.name', 'chat')] })}
`);
    expect(codes(noOutput)).toEqual([['INVALID_RECORD', 1, 'warning']]);
    expect(noOutput.errors[0]!.message).toContain('log record "gen_ai.client.inference.operation.details" is a model call but records no output');
  });
});

describe('Langfuse', () => {
  it('reads one reply per GENERATION, each at its own line, in every framework shape', async () => {
    const claude = await readFixture('langfuse/trace-claude-agent-sdk-weather-2-tools.langfuse.json');
    expect(claude.replies).toHaveLength(4);
    expect(new Set(claude.replies.map((x) => x.source.line)).size).toBe(4);
    const pydantic = await readFixture('langfuse/trace-pydantic-ai-gpt-4o-mini-tools-otel-genai-attrs.langfuse.json');
    expect(names(pydantic).sort()).toEqual(['final_result', 'get_dad_joke_suggestion', 'get_one_liner_suggestion', 'get_pun_suggestion']);
  });

  it('reads a wrapper generation that repeats its child once', async () => {
    const r = await readFixture('langfuse/trace-vercel-ai-sdk-gpt-5-tool-call.langfuse.json');
    expect(r.replies.flatMap((x) => x.toolCalls.map((c) => [c.id, c.name, c.arguments]))).toEqual([['call_DgKARp7a7IhJPDczfifMp6Ra', 'getWeather', { location: 'San Francisco' }]]);
  });
});

describe('HAR', () => {
  it('reads SSE, JSON and base64 event stream bodies, with the request\'s advertised tools', async () => {
    const chat = await readFixture('har/openai-chat-completions-stream-gpt-4o-mini-2-parallel-tool-calls.openllmetry-js.har');
    expect(chat.replies.map((x) => [x.format, x.advertised?.map((t) => t.name)])).toEqual([['har', ['get_current_weather', 'get_tomorrow_weather']]]);
    expect(names(chat)).toEqual(['get_current_weather', 'get_tomorrow_weather']);
    const bedrock = await readFixture('har/bedrock-invoke-with-response-stream-claude-v2-base64-eventstream.openllmetry-js.har');
    expect(bedrock.replies.map((x) => x.text.trim().slice(0, 30))).toEqual(['The 4 cardinal directions are:']);
    expect(bedrock.errors).toEqual([]);
  });

  it('reads Ollama NDJSON, Gemini SSE and Bedrock binary bodies each at its entry\'s line; other traffic is named in one warning', async () => {
    const r = await readFixture('har/mixed-ollama-gemini-bedrock-and-page-traffic.synthetic.har');
    expect(r.replies.map((x) => [x.source.line, x.toolCalls[0]!.name, x.advertised?.map((t) => t.name)])).toEqual([
      [49, 'weather', ['weather']],
      [88, 'weather', ['weather']],
      [127, 'weather', ['weather']],
    ]);
    expect(codes(r)).toEqual([['INVALID_RECORD', 10, 'warning']]);
    expect(r.errors[0]!.message).toContain('2 HAR entries hold no LLM API traffic');
  });

  it('an LLM call whose response body the HAR did not save is an error (it was a warning: 0 replies passed with exit 0)', async () => {
    const entry = { request: { method: 'POST', url: 'https://api.openai.com/v1/chat/completions', postData: { mimeType: 'application/json', text: '{"model":"gpt-4o","messages":[]}' } }, response: { status: 200, content: { size: 5000, mimeType: 'application/json' } } };
    const r = await readText(JSON.stringify({ log: { entries: [entry, entry] } }, null, 1), undefined, 'omitted.har');
    expect(r.replies).toEqual([]);
    expect(codes(r).map((c) => [c[0], c[2]])).toEqual([['INVALID_RECORD', 'error'], ['INVALID_RECORD', 'error']]);
    // near miss: a page whose body was not saved is other traffic, never an error of its own
    const page = { request: { method: 'GET', url: 'https://chat.example.com/logo.png' }, response: { status: 200, content: { size: 10, mimeType: 'image/png' } } };
    const mixed = await readText(JSON.stringify({ log: { entries: [page, { ...entry, response: { status: 200, content: { mimeType: 'application/json', text: '{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}' } } }] } }, null, 1), undefined, 'm.har');
    expect(mixed.errors.filter((e) => e.severity === 'error')).toEqual([]);
  });

  it('a HAR with no LLM traffic at all is an error, not "0 replies"', async () => {
    const har = { log: { entries: [{ request: { method: 'GET', url: 'https://example.com/' }, response: { status: 200, content: { mimeType: 'text/html', text: '<html>' } } }] } };
    const r = await readText(JSON.stringify(har, null, 1), undefined, 'page.har');
    expect(codes(r)).toEqual([['UNKNOWN_FORMAT', 4, 'error']]);
  });

  it('an LLM call whose response guard cannot read is an error at the entry', async () => {
    const har = { log: { entries: [{ request: { method: 'POST', url: 'https://api.example.com/v1/chat/completions' }, response: { status: 200, content: { mimeType: 'application/json', text: '{"surprise":true}' } } }] } };
    const r = await readText(JSON.stringify(har, null, 1), undefined, 'x.har');
    // line 4: the entry's opening brace
    expect(codes(r)).toEqual([['UNKNOWN_FORMAT', 4, 'error']]);
  });
});
