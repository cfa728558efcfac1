/** A content block or output item guard does not read is reported (INVALID_RECORD, exit 2), never
 * dropped: each of these held `rm -rf /` and passed as a clean reply (red-team pass). */
import { describe, expect, it } from 'vitest';
import { ROOT, ndjson, runGuard } from '../cli/helpers.js';

const DIR = `${ROOT}fixtures/bad-input/unread/`;

describe('blocks and items of types guard does not read', () => {
  it.each([
    ['anthropic-future-block.synthetic.json', 'a content block of type "future_tool_use"'],
    ['responses-code-interpreter-call.synthetic.json', 'an output item of type "code_interpreter_call"'],
    ['responses-computer-call.synthetic.json', 'an output item of type "computer_call"'],
    ['claude-code-unknown-line-type.synthetic.jsonl', 'a line of type "future_assistant" holds an assistant message'],
  ])('%s: INVALID_RECORD at line 1 naming the type, exit 2, the reply still reported', async (file, says) => {
    const r = await runGuard(['scan', '--format', 'ndjson', DIR + file]);
    const recs = ndjson(r.stdout);
    const err = recs.find((x) => x['error'])!;
    expect(err).toMatchObject({ line: 1, error: { code: 'INVALID_RECORD', severity: 'error' } });
    expect(err['error'].message).toContain(says);
    expect(recs.filter((x) => x['format']).length).toBeLessThanOrEqual(1);
    expect(r.code).toBe(2);
  });
  it('a one-line message list names the assistant message and the block index of content it does not read', async () => {
    // bug: every message of a one-line list is on line 1, and the warning named only the type
    const list = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'a' }, { role: 'user', content: 'x' }, { role: 'assistant', content: [{ type: 'text', text: 'ok' }, { type: 'weird_block' }] }];
    const r = await runGuard(['scan', '--format', 'ndjson', '-'], { stdin: `${JSON.stringify(list)}\n` });
    const err = ndjson(r.stdout).find((x) => x['error'])!;
    expect(err).toMatchObject({ line: 1, error: { code: 'INVALID_RECORD', severity: 'warning' } });
    expect(err['error'].message).toBe('content of assistant message 2 of type "weird_block" at index 1 was not read (no text, reasoning or tool call guard knows)');
  });
  it('result blocks and server-side search items are skipped without a word', async () => {
    const body = { type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'Done.' }, { type: 'web_search_tool_result', tool_use_id: 's', content: [] }, { type: 'redacted_thinking', data: 'x' }], stop_reason: 'end_turn' };
    const resp = { object: 'response', id: 'r', model: 'm', status: 'completed', output: [{ type: 'web_search_call', id: 'w', status: 'completed' }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] }] };
    const r = await runGuard(['scan', '--format', 'ndjson', '-'], { stdin: `${JSON.stringify(body)}\n${JSON.stringify(resp)}\n` });
    expect(ndjson(r.stdout).filter((x) => x['error'])).toEqual([]);
    expect(r.code).toBe(0);
  });
});
