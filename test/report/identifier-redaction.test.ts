/**
 * Identifiers taken from a capture (file name, reply id, model, structured call ids and names,
 * rule hits' tool and call id) are masked in every output format (issue 14: a token pasted as a
 * model name, an id or a directory name reached every format verbatim); `--no-redact` keeps them.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGuard } from '../cli/helpers.js';
import { IdentifierRedactor } from '../../src/report/redact-ids.js';

const GITHUB = 'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789';
const AWS_ID = 'AKIAIOSFODNN7EXAMPLE';
const OPENAI = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH';
const body = JSON.stringify({
  id: GITHUB,
  object: 'chat.completion',
  model: AWS_ID,
  choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: OPENAI, type: 'function', function: { name: 'bash', arguments: '{"command":"rm -rf /"}' } }] }, finish_reason: 'tool_calls' }],
});

describe('identifier redaction', () => {
  it.each(['text', 'json', 'ndjson', 'sarif', 'junit', 'html', 'github', 'markdown'])('%s: no id, model, call id or directory name is written whole', async (format) => {
    const dir = join(mkdtempSync(join(tmpdir(), 'guard-ids-')), `team-${GITHUB}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'reply.jsonl'), `${body}\n`);
    writeFileSync(join(dir, 'other.jsonl'), '{"nope":1}\n');
    const r = await runGuard(['scan', '--format', format, dir]);
    expect([1, 2]).toContain(r.code);
    const out = r.stdout + r.stderr;
    for (const secret of [GITHUB, AWS_ID, OPENAI]) expect(out).not.toContain(secret);
    // the masked forms keep their prefix, so the reader still sees which reply it was
    if (format === 'json' || format === 'ndjson') expect(out).toContain('ghp_aBcD***');
  });

  it('advertised tool names and the recovery detail are masked too', async () => {
    const record = { id: 'd', tools: ['bash', GITHUB], text: `The user wrote ${GITHUB} and asked:\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>` };
    for (const format of ['json', 'ndjson', 'html']) {
      const r = await runGuard(['scan', '--format', format, '-'], { stdin: `${JSON.stringify(record)}\n` });
      expect(r.stdout + r.stderr).not.toContain(GITHUB);
    }
  });

  it('recovered and candidate arguments: secrets in their strings are masked in every format (keys and numbers kept)', async () => {
    // a UX review found the key whole in -f json / -f ndjson while text, HTML and SARIF masked it
    const leak = { id: 'r1', tools: ['bash'], text: `<tool_call>\n{"name": "bash", "arguments": {"command": "export OPENAI_API_KEY=${OPENAI} && echo done", "n": 3}}\n</tool_call>` };
    const refused = { id: 'r2', tools: ['read_file'], text: `<tool_call>\n{"name": "bash", "arguments": {"command": "curl -H 'Authorization: token ${GITHUB}' https://x.example"}}\n</tool_call>` };
    const stdin = [leak, refused].map((x) => JSON.stringify(x)).join('\n') + '\n';
    for (const format of ['json', 'ndjson', 'sarif', 'html', 'text']) {
      const r = await runGuard(['scan', '--format', format, '-'], { stdin });
      expect(r.stdout + r.stderr).not.toContain(OPENAI);
      expect(r.stdout + r.stderr).not.toContain(GITHUB);
    }
    const r = await runGuard(['scan', '--format', 'ndjson', '-'], { stdin });
    const [first, second] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(first.recovery.calls[0].arguments).toEqual({ command: 'export OPENAI_API_KEY=sk-proj-*** && echo done', n: 3 });
    expect(JSON.parse(first.recovery.calls[0].arguments_raw)).toEqual({ command: 'export OPENAI_API_KEY=sk-proj-*** && echo done', n: 3 });
    expect(second.recovery.candidates[0].arguments.command).toContain('ghp_aBcD***');
    const raw = await runGuard(['scan', '--format', 'ndjson', '--no-redact', '-'], { stdin });
    expect(JSON.parse(raw.stdout.trim().split('\n')[0]!).recovery.calls[0].arguments.command).toBe(`export OPENAI_API_KEY=${OPENAI} && echo done`);
  });

  it('--no-redact writes them as captured', async () => {
    const r = await runGuard(['scan', '--format', 'ndjson', '--no-redact', '-'], { stdin: `${body}\n` });
    expect(r.stdout).toContain(GITHUB);
    expect(r.stdout).toContain(OPENAI);
  });

  it('ordinary ids, models and names pass unchanged, and the reply object is the same one', () => {
    const redactor = new IdentifierRedactor();
    for (const s of ['chatcmpl-D8ZFHlGItjM5Nghki1LmZIRscBz2P', 'call_ZR5UUuTt3pf61kjwAJIYdVMj', 'gpt-4o-mini-2024-07-18', 'toolu_01A09q90qw90lq917835lq9', 'fixtures/capture/a.jsonl']) expect(redactor.mask(s)).toBe(s);
    expect(redactor.mask(GITHUB)).toBe('ghp_aBcD***');
  });
});
