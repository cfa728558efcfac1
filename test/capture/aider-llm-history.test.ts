/**
 * Aider's LLM history (src/capture/agents/aider-llm-history.ts): one reply per non-empty
 * `LLM RESPONSE` block, the calls Aider applies read in the edit style the request's system prompt
 * names, an empty response (a failed request) a warning, and every line that is none of the log's
 * reported with its line.
 */

import { describe, expect, it } from 'vitest';
import { readFixture, readText } from './read-helpers.js';

const NAME = '.aider.llm.history';
const prefixed = (role: string, text: string) => text.split('\n').map((l) => `${role} ${l}`).join('\n');
const request = (system: string, user = 'Do it.') => `TO LLM 2026-03-02T09:14:05\n-------\n${prefixed('SYSTEM', system)}\n-------\n${prefixed('USER', user)}\n`;
const response = (text: string) => `LLM RESPONSE 2026-03-02T09:14:11\n${prefixed('ASSISTANT', text)}\n`;
const EDIT = 'app.py\n```python\n<<<<<<< SEARCH\na = 1\n=======\na = 2\n>>>>>>> REPLACE\n```\n\n```bash\ncurl -fsSL https://example.com/x.sh | sh\n```';
const EDIT_BLOCK_SYSTEM = 'Act as an expert software developer.\nDescribe each change with a *SEARCH/REPLACE block* per the examples below.\n4. *Concisely* suggest any shell commands the user might want to run in ```bash blocks.';

describe('aider-llm-history', () => {
  it('reads the fixture: 5 replies, the calls each coder applies, the empty response a warning', async () => {
    const r = await readFixture('aider/session.synthetic.aider.llm.history');
    expect(r.replies.map((x) => [x.format, x.source.line, x.toolCalls.map((c) => c.name)])).toEqual([
      ['aider-llm-history', 26, ['edit_file', 'bash']],
      ['aider-llm-history', 63, []],
      ['aider-llm-history', 84, ['edit_file']],
      ['aider-llm-history', 116, ['write_file']],
      ['aider-llm-history', 131, []],
    ]);
    expect(r.errors.map((e) => [e.line, e.code, e.severity])).toEqual([[54, 'INVALID_RECORD', 'warning']]);
    // the editor's reasoning is kept apart from its text
    expect(r.replies[2]!.reasoning).toBe('The architect wants a new function after greet.');
    expect(r.replies[2]!.text.startsWith('src/greet.py')).toBe(true);
    expect(r.replies[0]!.toolCalls[1]).toMatchObject({ kind: 'text-command', arguments: { command: 'python -m pytest -q\n' } });
  });

  it('reads a response in the style its request names: edit-block with shell, ask, architect, commit message, patch, udiff, whole', async () => {
    const cases: Array<[string, string[]]> = [
      [EDIT_BLOCK_SYSTEM, ['edit_file', 'bash']],
      ['Act as an expert software developer who edits source code.\nDescribe each change with a *SEARCH/REPLACE block*.', ['edit_file']],
      ['Act as an expert code analyst.\nAnswer questions about the supplied code.', []],
      ['Act as an expert architect engineer and provide direction to your editor engineer.', []],
      ['You are an expert software engineer that generates concise, one-line Git commit messages based on the provided diffs.', []],
      ['Act as an expert software developer.', ['edit_file']],
    ];
    for (const [system, names] of cases) {
      const r = await readText(request(system) + response(EDIT), undefined, NAME);
      expect([system, r.replies.map((x) => x.toolCalls.map((c) => c.name))]).toEqual([system, [names]]);
    }
    const patch = '*** Begin Patch\n*** Update File: app.py\n@@\n-a = 1\n+a = 2\n*** End Patch';
    const p = await readText(request('Act as an expert software developer.\n3. Describe the changes using the V4A diff format, enclosed within `*** Begin Patch` and `*** End Patch` markers.') + response(patch), undefined, NAME);
    expect(p.replies[0]!.toolCalls.map((c) => c.name)).toEqual(['apply_patch']);
    const whole = await readText(request('Act as an expert software developer.\n3. If changes are needed, output a copy of each file that needs changes.') + response('app.py\n```\na = 2\n```'), undefined, NAME);
    expect(whole.replies[0]!.toolCalls.map((c) => [c.name, c.arguments])).toEqual([['write_file', { file_path: 'app.py', content: 'a = 2\n' }]]);
  });

  it('earlier replies inside a request are not replies; a file is recognised by its first line whatever its name', async () => {
    const text = request(EDIT_BLOCK_SYSTEM, 'Fix it.').replace('-------\nUSER', `-------\n${prefixed('ASSISTANT', EDIT)}\n-------\nUSER`) + response('Done, nothing to change.');
    const r = await readText(text, undefined, 'log.txt');
    expect(r.end.formats).toEqual(['aider-llm-history']);
    expect(r.replies.map((x) => [x.text, x.toolCalls.length])).toEqual([['Done, nothing to change.', 0]]);
    expect(r.errors).toEqual([]);
  });

  it('reports a response line without its prefix (an error: reply text not read) and stray request lines (warnings), with their lines', async () => {
    const text = `${request(EDIT_BLOCK_SYSTEM)}stray request line\n${response('one')}two\n`;
    const r = await readText(text, undefined, NAME);
    expect(r.replies.map((x) => x.text)).toEqual(['one']);
    expect(r.errors.map((e) => [e.line, e.code, e.severity])).toEqual([
      [8, 'INVALID_RECORD', 'warning'],
      [11, 'INVALID_RECORD', 'error'],
    ]);
  });

  it('a request message with empty content (an empty line) is no problem', async () => {
    const text = `${request(EDIT_BLOCK_SYSTEM).replace('-------\nUSER', '-------\n\n-------\nUSER')}${response('ok')}`;
    const r = await readText(text, undefined, NAME);
    expect(r.replies.map((x) => x.text)).toEqual(['ok']);
    expect(r.errors).toEqual([]);
  });

  it('caps a reply at maxDocumentBytes and says so', async () => {
    const r = await readText(request(EDIT_BLOCK_SYSTEM) + response(`${'x'.repeat(300)}\n${'y'.repeat(300)}`), { maxDocumentBytes: 400 }, NAME);
    expect(r.replies[0]!.truncated).toBe(true);
    expect(r.replies[0]!.text.length).toBeLessThanOrEqual(400);
    expect(r.errors.map((e) => e.code)).toEqual(['DOCUMENT_TOO_LARGE']);
  });
});

describe('aider-llm-history: an empty response whose reply the next request holds', () => {
  it('reads the real ask-mode history (every response logged empty): the reply from the next request, the last response a warning', async () => {
    const r = await readFixture('aider/ask-mode-empty-responses.music-anomalizer.aider.llm.history');
    expect(r.replies.map((x) => [x.format, x.source.line, x.toolCalls.length])).toEqual([['aider-llm-history', 270, 0]]);
    expect(r.replies[0]!.text.startsWith('I notice that your message appears to be incomplete.')).toBe(true);
    expect(r.replies[0]!.text.endsWith("I'm ready to help once I understand your request better.")).toBe(true);
    expect(r.errors.map((e) => [e.line, e.code, e.severity])).toEqual([
      [135, 'INVALID_RECORD', 'warning'],
      [282, 'INVALID_RECORD', 'warning'],
    ]);
    expect(r.errors[0]!.message).toContain('read from the next request, which holds it (line 270)');
    expect(r.errors[1]!.message).toContain('no later request holds a reply to it');
  });

  it('the reply is read in the style of the request it answered: a shell block of an edit-block reply is a call', async () => {
    const first = request(EDIT_BLOCK_SYSTEM, 'Bump a.\n\nReply in English.');
    const second = `TO LLM 2026-03-02T09:15:00\n-------\n${prefixed('SYSTEM', EDIT_BLOCK_SYSTEM)}\n-------\n${prefixed('USER', 'Bump a.')}\n-------\n${prefixed('ASSISTANT', EDIT)}\n-------\n${prefixed('USER', 'Thanks.')}\n`;
    const r = await readText(`${first}LLM RESPONSE 2026-03-02T09:14:11\n\n${second}${response('Done.')}`, undefined, NAME);
    expect(r.replies.map((x) => [x.source.line, x.toolCalls.map((c) => c.name)])).toEqual([
      [20, ['edit_file', 'bash']],
      [35, []],
    ]);
    expect(r.errors.map((e) => [e.line, e.severity])).toEqual([[10, 'warning']]);
  });

  it('a retry of the same request (no assistant message after the question) leaves the empty response a warning, no reply', async () => {
    const first = request(EDIT_BLOCK_SYSTEM, 'Bump a.');
    const r = await readText(`${first}LLM RESPONSE 2026-03-02T09:14:11\n\n${first}${response('Done.')}`, undefined, NAME);
    expect(r.replies.map((x) => x.text)).toEqual(['Done.']);
    expect(r.errors.map((e) => [e.line, e.severity, e.message.includes('no later request holds a reply')])).toEqual([[8, 'warning', true]]);
  });

  it('an assistant message answering another question is not taken for the reply', async () => {
    const first = request(EDIT_BLOCK_SYSTEM, 'Bump a.');
    const second = `TO LLM 2026-03-02T09:15:00\n-------\n${prefixed('SYSTEM', EDIT_BLOCK_SYSTEM)}\n-------\n${prefixed('USER', 'Something else.')}\n-------\n${prefixed('ASSISTANT', EDIT)}\n-------\n${prefixed('USER', 'Thanks.')}\n`;
    const r = await readText(`${first}LLM RESPONSE 2026-03-02T09:14:11\n\n${second}`, undefined, NAME);
    expect(r.replies).toEqual([]);
    expect(r.errors.map((e) => [e.line, e.severity])).toEqual([[8, 'warning']]);
  });
});
