/**
 * VCR cassettes (src/capture/exports/vcr.ts): vcrpy / pydantic-ai and Ruby VCR YAML, each
 * interaction read as the HTTP exchange it records (./har.ts), binary bodies (`!!binary`, Ruby's
 * `!binary`) decoded; and what reading the real cassettes of pydantic-ai and ruby_llm showed:
 * zero-valued `function_call`s, Gemini thought signatures, Perplexity's empty `delta`, HTTP error
 * bodies, non-reply API answers, and batch results held inline (fixtures/SOURCES.md).
 */

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, readFixture, readText } from './read-helpers.js';

const codes = (r: { errors: Array<{ code: string; line: number | null; severity: string }> }) => r.errors.map((e) => [e.code, e.line, e.severity]);

/** A vcrpy cassette of one interaction (`body` the response body's YAML scalar, indented by the caller). */
const cassette = (uri: string, status: number, body: string, headers = '') =>
  ['interactions:', '- request:', '    body: \'{"model": "m", "messages": []}\'', '    headers: {}', '    method: POST', `    uri: ${uri}`, '  response:', '    body:', `      string: ${body}`, `    headers: {${headers}}`, '    status:', `      code: ${status}`, '      message: x', 'version: 1', ''].join('\n');

describe('VCR cassettes', () => {
  it('reads JSON cassettes: vcrpy json serializer and Betamax (a base64 gzip body), pretty-printed or on one line (they were UNKNOWN_FORMAT)', async () => {
    const vcrpy = await readFixture('vcr/vcrpy-json-serializer-chat-tool-call.synthetic.json');
    expect(vcrpy.end.formats).toEqual(['vcr-json']);
    expect(vcrpy.replies.map((x) => [x.source.line, x.format, x.advertised?.map((t) => t.name), x.toolCalls.map((c) => [c.name, c.arguments])])).toEqual([
      [3, 'vcr-json', ['run_shell'], [['run_shell', { cmd: 'ls -la' }]]],
    ]);
    expect(vcrpy.errors.map((e) => [e.code, e.severity])).toEqual([['INVALID_RECORD', 'warning']]);
    const betamax = await readFixture('vcr/betamax-anthropic-gzip-base64-tool-use.synthetic.json');
    expect(betamax.errors).toEqual([]);
    expect(betamax.replies.map((x) => [x.format, x.text, x.toolCalls.map((c) => [c.id, c.arguments])])).toEqual([['vcr-json', 'Cleaning up.', [['toolu_B1', { command: 'rm -rf ./build' }]]]]);
    const doc = JSON.parse(readFileSync(join(FIXTURES, 'vcr/betamax-anthropic-gzip-base64-tool-use.synthetic.json'), 'utf8'));
    const oneLine = await readText(`${JSON.stringify(doc)}\n`);
    expect(oneLine.replies.map((x) => [x.format, x.toolCalls.length])).toEqual([['vcr-json', 1]]);
    // an interaction without a response is said
    const bad = await readText(JSON.stringify({ interactions: [doc.http_interactions[0], { request: { uri: 'x' } }], version: 1 }, null, 2));
    expect(bad.errors.map((e) => [e.code, e.message])).toEqual([['INVALID_RECORD', 'an interaction of the cassette without a request and a response; skipped']]);
  });

  it("reads Groq's executed_tools (server-side tool runs) as calls, in a body and in a stream where each comes twice (it was an INVALID_RECORD error)", async () => {
    for (const file of ['vcr/groq-compound-executed-tools-search.pydantic-ai.yaml', 'vcr/groq-compound-stream-executed-tools-search.pydantic-ai.yaml']) {
      const r = await readFixture(file);
      expect(r.errors, file).toEqual([]);
      expect(r.replies.map((x) => [x.model, x.toolCalls.map((c) => [c.id, c.name, c.kind, c.arguments])]), file).toEqual([
        ['groq/compound', [[null, 'search', 'server_tool_use', { query: 'What is the weather in San Francisco today?' }]]],
      ]);
    }
    const msg = (executed: unknown[]) => JSON.stringify({ id: 'c', object: 'chat.completion', model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok', executed_tools: executed } }] });
    const python = await readText(`${msg([{ index: 0, type: 'python', arguments: '{"code": "import os; os.system(\'rm -rf /\')"}', output: '' }, { index: 1, arguments: '{}' }])}\n`);
    expect(python.replies[0]!.toolCalls.map((c) => [c.name, c.arguments])).toEqual([['python', { code: "import os; os.system('rm -rf /')" }]]);
    expect(python.errors.map((e) => [e.code, e.severity, e.message])).toEqual([
      ['INVALID_RECORD', 'error', 'an executed_tools entry without a string "type" (an object with keys index, arguments) is not read: what it ran is not judged'],
    ]);
  });

  it('reads a pydantic-ai cassette whose Bedrock ConverseStream body is a !!binary AWS event stream', async () => {
    const r = await readFixture('vcr/bedrock-converse-stream-nova-micro-binary-eventstream.pydantic-ai.yaml');
    expect(r.errors).toEqual([]);
    expect(r.end).toMatchObject({ formats: ['vcr'], replies: 1, errors: 0 });
    expect(r.replies[0]!).toMatchObject({ format: 'vcr', source: { line: 2 } });
    expect(r.replies[0]!.text).toContain('The capital of France is Paris.');
  });

  it('Snowflake: a zero-valued function_call ({name: "", arguments: ""}) is no call (it was an error: "function_call has no name")', async () => {
    const r = await readFixture('vcr/snowflake-llama3.1-zero-valued-function-call.pydantic-ai.yaml');
    expect(r.errors).toEqual([]);
    expect(r.replies.map((x) => [x.source.line, x.model, x.toolCalls.length, x.text])).toEqual([[2, 'llama3.1-8b', 0, '{"city": "Mexico City", "country": "Mexico"}']]);
    const named = await readText(JSON.stringify({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: '', function_call: { name: '', arguments: '{"command":"rm -rf /"}' } } }] }));
    expect(codes(named)).toEqual([['INVALID_RECORD', 1, 'error']]);
  });

  it("Gemini's OpenAI-compatible thought signatures (extra_content.google, thought_signature) are no unread keys; anything else in extra_content is", async () => {
    const r = await readFixture('vcr/gemini-openai-compatible-tool-calls-thought-signatures.pydantic-ai.yaml');
    expect(r.errors).toEqual([]);
    expect(r.replies.map((x) => [x.source.line, x.toolCalls.map((c) => [c.name, c.arguments])])).toEqual([
      [2, [['get_current_time', {}]]],
      [78, []],
    ]);
    const extra = await readText(JSON.stringify({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'ok', extra_content: { google: { thought: true, text: 'hidden' } } } }] }));
    expect(codes(extra)).toEqual([['INVALID_RECORD', 1, 'error']]);
  });

  it("reads a Ruby VCR cassette whose body is a !binary scalar; Perplexity's empty delta beside the message is no unread key", async () => {
    const r = await readFixture('vcr/perplexity-sonar-binary-body-empty-delta.ruby_llm.yml');
    expect(r.errors).toEqual([]);
    expect(r.replies.map((x) => [x.source.line, x.model, x.text.trim()])).toEqual([[3, 'sonar', '**2 + 2 = 4**.[3]']]);
    const delta = await readText(JSON.stringify({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'a' }, delta: { role: 'assistant', content: 'b' } }] }));
    expect(codes(delta)).toEqual([['INVALID_RECORD', 1, 'error']]);
  });

  it('reads the results a Mistral batch job holds inline (outputs[] in the OpenAI Batch output shape), as often as the cassette records them', async () => {
    const r = await readFixture('vcr/mistral-batch-inline-outputs.ruby_llm.yml');
    expect(r.errors).toEqual([]);
    expect(r.replies.map((x) => [x.source.line, x.id, x.text])).toEqual([
      [196, 'fda5638972e24544b2a2c35d377194d3', '4'],
      [196, 'e8cf9e1be3ee446eb9f940d77ed83741', expect.any(String)],
      [277, 'fda5638972e24544b2a2c35d377194d3', '4'],
      [277, 'e8cf9e1be3ee446eb9f940d77ed83741', expect.any(String)],
    ]);
  });

  it('never silent: YAML that does not parse, YAML that is no cassette, a binary body that does not decompress', async () => {
    const bad = await readText('interactions:\n- request: [unclosed\n', undefined, 'c.yaml');
    expect(codes(bad)).toEqual([['UNKNOWN_FORMAT', 2, 'error']]);
    const notCassette = await readText('---\nname: ci\non: push\n', undefined, 'ci.yml');
    expect(codes(notCassette)).toEqual([['UNKNOWN_FORMAT', 1, 'error']]);
    const corrupt = await readText(cassette('https://api.openai.com/v1/chat/completions', 200, '!!binary |\n        H4sIAAAAAAAAA6tWKkktLlGyUlBKSy1Kzs8tSCwqScxTSMsvUshKLUpVAACtz9cRHgAAAA==', 'Content-Encoding: [br]'), undefined, 'c.yaml');
    expect(codes(corrupt)).toEqual([['INVALID_RECORD', 2, 'error']]);
  });

  it('hostile: an alias bomb is an error at its interaction, a cassette past the document cap is DOCUMENT_TOO_LARGE', async () => {
    const aliases = ['    a0: &a0 [x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `    a${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]`)];
    const bomb = ['interactions:', '- request:', ...aliases, '    method: POST', '    uri: https://api.openai.com/v1/chat/completions', '  response:', '    body:', "      string: '{}'", '    status: {code: 200}', ''].join('\n');
    const r = await readText(bomb, undefined, 'c.yaml');
    expect(codes(r)).toEqual([['INVALID_RECORD', 2, 'error']]);
    expect(r.errors[0]!.message).toContain('Excessive alias count');
    const big = await readText(cassette('https://api.openai.com/v1/chat/completions', 200, `'${'x'.repeat(300)}'`), { maxDocumentBytes: 200 }, 'c.yaml');
    expect(big.errors.map((e) => e.code)).toEqual(['DOCUMENT_TOO_LARGE']);
  });

  it('a gzip !!binary body is decompressed and read', async () => {
    const body = { id: 'c1', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'fine' }, finish_reason: 'stop' }] };
    const b64 = gzipSync(JSON.stringify(body)).toString('base64');
    const r = await readText(cassette('https://api.openai.com/v1/chat/completions', 200, `!!binary |\n        ${b64}`, 'Content-Encoding: [gzip]'), undefined, 'c.yaml');
    expect(r.errors).toEqual([]);
    expect(r.replies.map((x) => x.text)).toEqual(['fine']);
  });

  it('an HTTP error response in no API error shape is a warning (it was "no known API format", an error); non-reply API answers pass; a batch object holding messages does not', async () => {
    const err = await readText(cassette('https://api.mistral.ai/v1/chat/completions', 401, `'{"detail":"Invalid API Key"}'`), undefined, 'c.yaml');
    expect(codes(err)).toEqual([['STREAM_ERROR', 2, 'warning']]);
    expect(err.errors[0]!.message).toContain('HTTP 401 error response');
    const embed = await readText(cassette('https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.titan-embed-text-v2:0/invoke', 200, `'{"embedding":[0.1,0.2],"inputTextTokenCount":3}'`), undefined, 'c.yaml');
    expect(embed.errors).toEqual([]);
    expect(embed.replies).toEqual([]);
    const batch = JSON.stringify({ type: 'message_batch', id: 'b', results: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'bash', input: { command: 'rm -rf /' } }] }] });
    const held = await readText(cassette('https://api.anthropic.com/v1/messages/batches/b', 200, `'${batch}'`), undefined, 'c.yaml');
    expect(codes(held)).toEqual([['UNKNOWN_FORMAT', 2, 'error']]);
  });
});
