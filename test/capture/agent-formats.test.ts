/**
 * The agent-file formats (src/capture/agents/): each fixture's exact reply count, tool-call count
 * and tool names (the staged research manifest's numbers for the real files; the counts the
 * schema gives for the synthetic ones, fixtures/SOURCES.md), then what each reader reads, the
 * commands agents run from text (`text-command` calls, inspected as shell calls), never-silent
 * reports, and reading a large session one message at a time.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { compileRuleSet, initInspection } from '../../src/inspection/index.js';
import { judgeReply } from '../../src/verdict/judge.js';
import type { CaptureFormat, Reply } from '../../src/capture/types.js';
import { readFixture, readText, type ReadResult } from './read-helpers.js';

interface Expected {
  file: string;
  format: CaptureFormat;
  replies: number;
  toolNames: string[];
}

/** One row per fixture of the agent formats. */
const EXPECTED: Expected[] = [
  {
    file: 'gemini-cli/session-2025-12-30-gemini-3-pro-read-replace-shell.m-gemini.json',
    format: 'gemini-cli',
    replies: 9,
    toolNames: ['list_directory', 'read_file', 'read_file', 'run_shell_command', 'read_file', 'run_shell_command', 'replace', 'read_file'],
  },
  {
    file: 'gemini-cli/session-2025-12-13-gemini-2.5-flash-and-3-pro-web-search.m-gemini.json',
    format: 'gemini-cli',
    replies: 7,
    toolNames: ['google_web_search', 'read_file', 'google_web_search'],
  },
  { file: 'gemini-cli/session-2026-01-10T10-00-upsert-log.synthetic.jsonl', format: 'gemini-cli', replies: 2, toolNames: ['run_shell_command'] },
  {
    file: 'cline-task/verbose-flag.synthetic.api_conversation_history.json',
    format: 'cline-task',
    replies: 4,
    toolNames: ['read_file', 'write_to_file', 'execute_command', 'attempt_completion'],
  },
  { file: 'cline-task/roo-code-reasoning-item.synthetic.api_conversation_history.json', format: 'cline-task', replies: 2, toolNames: ['execute_command', 'attempt_completion'] },
  { file: 'cline-ui/verbose-flag.synthetic.ui_messages.json', format: 'cline-ui', replies: 4, toolNames: ['readFile', 'newFileCreated', 'execute_command'] },
  { file: 'chat-messages/issue-15-one-line-array.synthetic.json', format: 'chat-messages', replies: 1, toolNames: ['bash'] },
  { file: 'chat-messages/openai-and-anthropic-shapes.synthetic.jsonl', format: 'chat-messages', replies: 3, toolNames: ['shell', 'read_file'] },
  {
    file: 'openhands/trajectory-claude-3.5-sonnet-rename-file-4-tool-calls.openhands-tests.json',
    format: 'openhands',
    replies: 4,
    toolNames: ['str_replace_editor', 'execute_bash', 'str_replace_editor', 'finish'],
  },
  {
    file: 'openhands/trajectory-claude-3.5-sonnet-vue-todo-app-gui-mode.openhands-tests.json',
    format: 'openhands',
    replies: 5,
    toolNames: ['execute_bash', 'str_replace_editor', 'str_replace_editor', 'execute_bash'],
  },
  { file: 'openhands/trajectory-gpt-4o-chat-then-finish.openhands-tests.json', format: 'openhands', replies: 3, toolNames: ['finish'] },
  // the staged manifest names SWE-agent's text actions by their first word (find_file, open, edit,
  // python, submit); guard names every command run from text `bash` (the action is run in the
  // agent's shell), so the count agrees and the names are the shell tool's
  { file: 'swe-agent/gpt4-test-repo-i1-missing-colon-text-actions.swe-agent-tests.traj', format: 'swe-agent', replies: 5, toolNames: ['bash', 'bash', 'bash', 'bash', 'bash'] },
  {
    file: 'swe-agent/marshmallow-1867-function-calling-demonstration.swe-agent.traj',
    format: 'swe-agent',
    replies: 11,
    toolNames: ['create', 'insert', 'bash', 'bash', 'find_file', 'open', 'edit', 'edit', 'bash', 'bash', 'submit'],
  },
  { file: 'mini-swe-agent/django-16255-gemini-3-pro-openrouter.traj.json', format: 'mini-swe-agent', replies: 17, toolNames: Array<string>(17).fill('bash') },
  { file: 'aider/qwen3-coder-whole-edit-5-sessions.opencoder.aider.chat.history.md', format: 'aider', replies: 5, toolNames: ['write_file', 'write_file', 'write_file'] },
  { file: 'aider/diff-edit-shell-commands.synthetic.aider.chat.history.md', format: 'aider', replies: 4, toolNames: ['edit_file', 'bash', 'bash'] },
  {
    file: 'aider/edit-formats.synthetic.aider.chat.history.md',
    format: 'aider',
    replies: 8,
    toolNames: ['edit_file', 'edit_file', 'write_file', 'write_file', 'apply_patch', 'apply_patch', 'edit_file'],
  },
  { file: 'opencode/export-bash-tool.synthetic.json', format: 'opencode', replies: 2, toolNames: ['bash'] },
  { file: 'opencode/run-format-json.synthetic.jsonl', format: 'opencode', replies: 2, toolNames: ['bash'] },
  { file: 'goose/legacy-session.synthetic.jsonl', format: 'goose', replies: 2, toolNames: ['developer__shell'] },
  { file: 'goose/run-stream-json.synthetic.jsonl', format: 'goose', replies: 2, toolNames: ['developer__shell'] },
  { file: 'goose/session-export.synthetic.json', format: 'goose', replies: 3, toolNames: ['developer__shell', 'developer__text_editor'] },
];

const names = (r: ReadResult) => r.replies.flatMap((x) => x.toolCalls.map((c) => c.name));

describe('agent-format fixtures: exact replies, tool calls and tool names', () => {
  for (const e of EXPECTED) {
    it(`${e.file}: ${e.replies} replies, ${e.toolNames.length} tool calls`, async () => {
      const r = await readFixture(e.file);
      expect(r.errors).toEqual([]);
      expect(r.end).toMatchObject({ formats: [e.format], replies: e.replies, errors: 0 });
      expect(names(r)).toEqual(e.toolNames);
      expect(r.replies.every((x) => x.format === e.format && x.advertised === null)).toBe(true);
    });

    it(`${e.file}: the same under --input-format ${e.format}`, async () => {
      const r = await readFixture(e.file, { inputFormat: e.format });
      expect(r.errors).toEqual([]);
      expect(r.replies).toHaveLength(e.replies);
      expect(names(r)).toEqual(e.toolNames);
    });
  }
});

describe('Gemini CLI', () => {
  it('reads each message at its own line (the session is split message by message), with thoughts as reasoning', async () => {
    const r = await readFixture('gemini-cli/session-2025-12-30-gemini-3-pro-read-replace-shell.m-gemini.json');
    const lines = r.replies.map((x) => x.source.line);
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines[0]).toBe(13);
    const first = r.replies[0]!;
    expect(first).toMatchObject({ id: '3ec8c271-dcc5-459d-8d51-42be80c0779f', model: 'gemini-3-pro-preview', text: expect.stringContaining('I will search for the Gemini desktop entry') });
    expect(first.reasoning.startsWith('Identifying Application Shortcuts\n')).toBe(true);
    expect(first.toolCalls[0]).toMatchObject({ id: 'list_directory-1767080698811-a27d0a26c9f6', kind: 'function', arguments: { dir_path: '.local/share/applications' } });
  });

  it('reads a JSONL upsert log once per message id: later versions replace the held one, $set.messages repeats are skipped', async () => {
    const r = await readFixture('gemini-cli/session-2026-01-10T10-00-upsert-log.synthetic.jsonl');
    expect(r.replies.map((x) => [x.source.line, x.id, x.toolCalls.length])).toEqual([
      [3, 'm-gemini-1', 1],
      [8, 'm-gemini-2', 0],
    ]);
    expect(r.replies[0]!.toolCalls[0]).toMatchObject({ name: 'run_shell_command', arguments: { command: 'rm -rf tmp', description: 'Remove the tmp folder' } });
  });

  it('reports a message of a type Gemini CLI does not write, and a functionCall content part is a call', async () => {
    const text = [
      JSON.stringify({ sessionId: 's', projectHash: 'h', startTime: 't', lastUpdated: 't' }),
      JSON.stringify({ id: 'a', timestamp: 't', type: 'gemini', content: [{ text: 'thinking…', thought: true }, { functionCall: { name: 'run_shell_command', args: { command: 'ls' } } }, { inlineData: {} }, { hologram: {} }] }),
      JSON.stringify({ id: 'b', timestamp: 't', type: 'gemini', content: 'ok', toolCalls: [{ id: 'c', name: 'x', args: {} }] }),
    ].join('\n');
    const r = await readText(`${text}\n`, undefined, 'session-x.jsonl');
    expect(r.replies.map((x) => [x.text, x.reasoning, x.toolCalls.map((c) => c.name)])).toEqual([
      ['', 'thinking…', ['run_shell_command']],
      ['ok', '', ['x']],
    ]);
    // media is nothing to judge; a part of a kind guard does not know may hold a call: an error (red-team: it was a warning, exit 0)
    expect(r.errors.map((e) => [e.code, e.line, e.severity])).toEqual([['INVALID_RECORD', 2, 'error']]);
    expect(r.errors[0]!.message).toContain('"hologram"');
    expect(r.errors[0]!.message).not.toContain('inlineData');
  });
});

describe('Cline, Roo Code and plain chat messages', () => {
  it('keeps thinking as reasoning and the model of modelInfo', async () => {
    const r = await readFixture('cline-task/verbose-flag.synthetic.api_conversation_history.json');
    expect(r.replies[0]).toMatchObject({ source: { line: 1 }, model: 'claude-sonnet-4-5-20250929', reasoning: 'I should look at the CLI entry point first.', text: '\nLet me read the CLI entry point.' });
    expect(r.replies[2]!.toolCalls[0]).toMatchObject({ id: 'toolu_01Cmd', kind: 'function', arguments: { command: 'npm test', requires_approval: 'false' } });
  });

  it('gives a Roo Code reasoning item to the next assistant message', async () => {
    const r = await readFixture('cline-task/roo-code-reasoning-item.synthetic.api_conversation_history.json');
    expect(r.replies.map((x) => x.reasoning)).toEqual(['I will list src first, then delete build.', '']);
  });

  it('reads ui_messages.json: one reply per api_req_started, say/ask tool and command messages are its calls', async () => {
    const r = await readFixture('cline-ui/verbose-flag.synthetic.ui_messages.json');
    expect(r.replies.map((x) => [x.text, x.reasoning, x.toolCalls.map((c) => c.name)])).toEqual([
      ['Let me read the CLI entry point.', 'I should look at the CLI entry point first.', ['readFile']],
      ['', 'Now add the flag.', ['newFileCreated']],
      ['Running the tests.', '', ['execute_command']],
      ['Added --verbose to the CLI; the tests pass.', '', []],
    ]);
    expect(r.replies[2]!.toolCalls[0]!.arguments).toEqual({ command: 'npm test' });
  });

  it('reports a ui message of a kind Cline does not define', async () => {
    const r = await readText(`${JSON.stringify([{ ts: 1, type: 'say', say: 'api_req_started', text: '{}' }, { ts: 2, type: 'say', say: 'text', text: 'hi' }, { ts: 3, type: 'say', say: 'new_kind', text: 'x' }])}\n`);
    expect(r.replies).toHaveLength(1);
    expect(r.errors.map((e) => [e.code, e.severity])).toEqual([['INVALID_RECORD', 'warning']]);
    expect(r.errors[0]!.message).toContain('say:new_kind');
  });

  it('reads the issue-15 one-line array (it was 0 replies, exit 0, before any reader knew it)', async () => {
    const r = await readFixture('chat-messages/issue-15-one-line-array.synthetic.json');
    expect(r.replies[0]!.toolCalls[0]).toMatchObject({ id: 't', name: 'bash', kind: 'function', arguments: { command: 'rm -rf /' } });
  });

  it('reads OpenAI-style tool_calls, Anthropic blocks and reasoning_content in one JSONL list', async () => {
    const r = await readFixture('chat-messages/openai-and-anthropic-shapes.synthetic.jsonl');
    expect(r.replies.map((x) => [x.source.line, x.text, x.reasoning])).toEqual([
      [3, '', ''],
      [5, "I'll read the README.", 'The user wants the README too.'],
      [7, 'The directory holds README.md (a one-line title) and src/.', 'Summarise both results.'],
    ]);
    expect(r.replies[0]!.toolCalls[0]).toMatchObject({ id: 'call_ls', argumentsRaw: '{"command":"ls -la"}' });
  });

  it('names assistant content it cannot read in a warning', async () => {
    const r = await readText(`${JSON.stringify({ role: 'assistant', content: [{ type: 'text', text: 'see' }, { type: 'image', source: {} }] })}\n`);
    expect(r.replies).toHaveLength(1);
    expect(r.errors.map((e) => [e.code, e.line, e.severity])).toEqual([['INVALID_RECORD', 1, 'warning']]);
  });
});

describe('OpenHands', () => {
  it('reads one reply per model response (its observation repeats it) and agent messages without metadata', async () => {
    const r = await readFixture('openhands/trajectory-claude-3.5-sonnet-vue-todo-app-gui-mode.openhands-tests.json');
    expect(r.replies.map((x) => x.id)).toEqual([
      'chatcmpl-6bb9f175-c587-44b4-8c8d-f91fc4827590',
      'chatcmpl-55936480-cbf9-4d24-bd4a-329bd2f1f65c',
      'chatcmpl-34fef176-276b-4a18-892f-688b08f51225',
      'chatcmpl-51a85fbb-dafc-4519-a7d2-df369e38d76f',
      '15',
    ]);
    expect(r.replies[4]!.text.startsWith("I've created a complete Vue.js todo application")).toBe(true);
  });

  it('reads a text-mode run action (no tool_call_metadata) as a text-command', async () => {
    const events = [
      { id: 1, timestamp: 't', source: 'agent', message: 'Running', action: 'run', args: { command: 'ls /', thought: 'list root' } },
      { id: 2, timestamp: 't', source: 'agent', message: '', observation: 'run', content: 'bin', extras: {} },
      { id: 3, timestamp: 't', source: 'agent', message: '', action: 'change_agent_state', args: { agent_state: 'finished' } },
    ];
    const r = await readText(`${JSON.stringify(events)}\n`);
    expect(r.errors).toEqual([]);
    expect(r.replies).toHaveLength(1);
    expect(r.replies[0]).toMatchObject({ format: 'openhands', text: 'list root', toolCalls: [{ name: 'bash', kind: 'text-command', arguments: { command: 'ls /' } }] });
  });
});

describe('SWE-agent and mini-swe-agent', () => {
  it('reads the history, not the trajectory that repeats it; text actions are text-command calls', async () => {
    const r = await readFixture('swe-agent/gpt4-test-repo-i1-missing-colon-text-actions.swe-agent-tests.traj');
    expect(r.replies.map((x) => x.toolCalls[0]!.arguments?.['command'])).toEqual([
      'find_file "missing_colon.py"',
      'open tests/missing_colon.py',
      'edit 4:4\ndef division(a: float, b: float) -> float:\nend_of_edit',
      'python tests/missing_colon.py',
      'submit',
    ]);
    expect(r.replies.every((x) => x.toolCalls[0]!.kind === 'text-command')).toBe(true);
    expect(new Set(r.replies.map((x) => x.source.line)).size).toBe(5);
  });

  it('keeps function-calling tool_calls as structured calls (ids are reused in demonstrations: not deduplicated)', async () => {
    const r = await readFixture('swe-agent/marshmallow-1867-function-calling-demonstration.swe-agent.traj');
    expect(r.replies.every((x) => x.toolCalls.every((c) => c.kind === 'function'))).toBe(true);
    expect(r.replies[0]!.toolCalls[0]).toMatchObject({ name: 'create', arguments: { filename: 'reproduce.py' } });
  });

  it('falls back to the ThoughtActionParser block when a history item has no action, and reads a trajectory without history from its steps', async () => {
    const withBlock = { trajectory: [], history: [{ role: 'assistant', content: 'Look:\n```\nls\n```\nthen\n```\ncat a\n```\n', agent: 'main' }], info: {} };
    const r = await readText(JSON.stringify(withBlock, null, 2), undefined, 'x.traj');
    expect(r.replies[0]!.toolCalls.map((c) => c.arguments?.['command'])).toEqual(['cat a']);
    const noHistory = { environment: 'e', trajectory: [{ action: 'ls', observation: 'x', response: 'r', thought: 't' }], info: {} };
    const r2 = await readText(JSON.stringify(noHistory, null, 2), { inputFormat: 'swe-agent' }, 'y.traj');
    // the steps are read on their own (they were only reported before)
    expect(r2.replies.map((x) => [x.text, x.toolCalls.map((c) => c.arguments)])).toEqual([['r', [{ command: 'ls' }]]]);
    expect(r2.errors.map((e) => [e.code, e.line, e.severity, e.message])).toEqual([
      ['INVALID_RECORD', 4, 'warning', '1 trajectory step (trajectory[0]) ran an action no history reply holds (the file has no history): read from the steps'],
    ]);
  });

  it('reads every attempt of a RetryAgent file once, not the chosen attempt again', async () => {
    const attempt = (cmd: string) => ({ trajectory: [], history: [{ role: 'assistant', content: 'x', action: cmd, agent: 'main' }], info: {} });
    const doc = { attempts: [attempt('echo 1'), attempt('echo 2')], trajectory: [], history: attempt('echo 2').history, info: { best_attempt_idx: 1 } };
    const r = await readText(JSON.stringify(doc, null, 2), undefined, 'z.traj');
    expect(r.replies.map((x) => x.toolCalls[0]!.arguments?.['command'])).toEqual(['echo 1', 'echo 2']);
  });

  it('mini-swe-agent: the single bash block is the action, reasoning comes from the raw response', async () => {
    const r = await readFixture('mini-swe-agent/django-16255-gemini-3-pro-openrouter.traj.json');
    expect(r.replies[0]).toMatchObject({ id: 'gen-1763509960-EPyJRkcZuak1RsUYNELj', model: 'google/gemini-3-pro-preview' });
    expect(r.replies[0]!.toolCalls[0]).toMatchObject({ kind: 'text-command', arguments: { command: 'ls -R django/contrib/sitemaps' } });
    expect(r.replies[0]!.reasoning.startsWith('**Diagnosing the Sitemap Issue**')).toBe(true);
  });

  it('mini-swe-agent: no call for a message with two bash blocks (a format error: nothing ran); extra.actions win in 2.x', async () => {
    const doc = {
      info: { mini_version: '2.0.0', config: {}, model_stats: {} },
      messages: [
        { role: 'assistant', content: '```bash\nls\n```\n```bash\npwd\n```' },
        { role: 'assistant', content: 'x', extra: { actions: [{ command: 'echo hi' }] } },
        { role: 'exit', content: 'Submitted', extra: {} },
      ],
      trajectory_format: 'mini-swe-agent-1.1',
    };
    const r = await readText(JSON.stringify(doc, null, 2), undefined, 'a.traj.json');
    expect(r.replies.map((x) => x.toolCalls.map((c) => c.arguments?.['command']))).toEqual([[], ['echo hi']]);
  });
});

describe('Aider', () => {
  it('reads each reply between the user input and Aider\'s own lines, with the session model', async () => {
    const r = await readFixture('aider/qwen3-coder-whole-edit-5-sessions.opencoder.aider.chat.history.md');
    expect(r.replies.map((x) => x.source.line)).toEqual([17, 36, 102, 150, 226]);
    expect(r.replies.every((x) => x.model === 'Qwen/Qwen3-Coder')).toBe(true);
    expect(r.replies[1]!.text.endsWith('since it uses `sudo` to execute the shutdown command.')).toBe(true);
  });

  it('takes shell blocks as calls in an edit-block session only (not in a SEARCH/REPLACE block, an /ask answer or a whole-file session)', async () => {
    const r = await readFixture('aider/diff-edit-shell-commands.synthetic.aider.chat.history.md');
    expect(r.replies.map((x) => x.toolCalls.filter((c) => c.kind === 'text-command').map((c) => c.arguments?.['command']))).toEqual([['python -m pytest -q\n'], ['rm -rf build\nls\n'], [], []]);
    expect(r.replies[0]!.toolCalls[0]).toMatchObject({ kind: 'text-edit', name: 'edit_file', arguments: { file_path: 'app.py', old_string: 'for i in range(n - 1):\n', new_string: 'for i in range(n):\n' } });
    expect(r.replies.map((x) => x.model)).toEqual(['anthropic/claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5', 'ollama/qwen2.5-coder:7b']);
  });

  it('keeps the reasoning Aider logged in its reasoning tag apart, and reads no command from it', async () => {
    const tag = 'thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b';
    const r = await readText(`# aider chat started at x\n\n> Model: m with diff edit format  \n\n#### go  \n\n<${tag}>\n\nMaybe:\n\n\`\`\`bash\nrm -rf /\n\`\`\`\n\n</${tag}>\n\nRun:\n\n\`\`\`bash\nls\n\`\`\`\n`);
    expect(r.replies[0]).toMatchObject({ text: 'Run:\n\n```bash\nls\n```', reasoning: 'Maybe:\n\n```bash\nrm -rf /\n```' });
    expect(r.replies[0]!.toolCalls.map((c) => c.arguments?.['command'])).toEqual(['ls\n']);
  });

  it('is recognised by its file name when the session heading was cut away', async () => {
    const r = await readText('#### hi  \n\nhello\n\n> Tokens: 1 sent, 1 received.  \n', undefined, 'repo/.aider.chat.history.md');
    expect(r.end.formats).toEqual(['aider']);
    expect(r.replies.map((x) => x.text)).toEqual(['hello']);
  });

  it('reads a reply longer than the cap up to the cap and says so', async () => {
    const r = await readText(`# aider chat started at x\n\n#### go  \n\n${'a'.repeat(200)}\n${'b'.repeat(200)}\n`, { maxDocumentBytes: 300 });
    expect(r.replies).toHaveLength(1);
    expect(r.replies[0]).toMatchObject({ truncated: true, text: `${'a'.repeat(200)}\n${'b'.repeat(99)}` });
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['DOCUMENT_TOO_LARGE', 5]]);
  });
});

describe('OpenCode and Goose', () => {
  it('OpenCode: an export message with its parts, and run --format json events grouped by messageID', async () => {
    const a = await readFixture('opencode/export-bash-tool.synthetic.json');
    expect(a.replies[0]).toMatchObject({ id: 'msg_a0000000002SyntheticAsst1', model: 'claude-sonnet-4-5', reasoning: 'Remove build/ with the bash tool, then list the rest.', text: "I'll remove the build folder." });
    expect(a.replies[0]!.toolCalls[0]).toMatchObject({ id: 'toolu_bash_1', arguments: { command: 'rm -rf build && ls', description: 'Remove build and list' } });
    const b = await readFixture('opencode/run-format-json.synthetic.jsonl');
    expect(b.replies.map((x) => [x.source.line, x.id, x.text, x.reasoning])).toEqual([
      [1, 'msg_b0000000001SyntheticRun01', '', 'Check the git status.'],
      [5, 'msg_b0000000002SyntheticRun02', 'One file is modified: src/cli.ts.', ''],
    ]);
  });

  it('OpenCode: a part of an unknown type is named in an error (it may hold a call)', async () => {
    const part = { id: 'prt_1', sessionID: 's', messageID: 'msg_1', type: 'hologram' };
    const r = await readText(`${JSON.stringify(part)}\n`);
    expect(r.end.formats).toEqual(['opencode']);
    expect(r.errors.map((e) => [e.code, e.severity])).toEqual([['INVALID_RECORD', 'error']]);
  });

  it('Goose: toolRequest items are calls, thinking is reasoning, a request Goose could not parse is reported', async () => {
    const r = await readFixture('goose/legacy-session.synthetic.jsonl');
    expect(r.replies[0]!.toolCalls[0]).toMatchObject({ id: 'toolu_goose_1', arguments: { command: 'rm -rf node_modules/.cache dist' } });
    expect(r.replies[1]).toMatchObject({ reasoning: 'Both folders were removed.', text: 'Removed node_modules/.cache and dist.' });
    const bad = { role: 'assistant', created: 1, content: [{ type: 'toolRequest', id: 'x', toolCall: { status: 'error', error: 'invalid JSON' } }] };
    const r2 = await readText(`${JSON.stringify(bad)}\n`);
    expect(r2.errors.map((e) => [e.code, e.severity])).toEqual([['INVALID_RECORD', 'warning']]);
  });

  it('Goose: an exported session (goose session export --format json) is read message by message from its conversation', async () => {
    const r = await readFixture('goose/session-export.synthetic.json');
    expect(r.replies.map((x) => [x.source.line, x.id, x.toolCalls.length])).toEqual([
      [21, 'msg_a1', 1],
      [23, 'msg_a2', 1],
      [25, 'msg_a3', 0],
    ]);
    expect(r.replies[0]).toMatchObject({ reasoning: 'Archive first, then list.', text: "I'll archive the old logs." });
    expect(r.replies[0]!.toolCalls[0]).toMatchObject({ id: 'toolu_exp_1', arguments: { command: 'tar czf logs-old.tgz logs/*.log && rm logs/*.log' } });
  });

  it('Goose: an exported session passed as "no assistant reply", exit 0, with its rm -rf / unread (bug): now read, also with conversation before working_dir', async () => {
    const call = { type: 'toolRequest', id: 't1', toolCall: { status: 'success', value: { name: 'developer__shell', arguments: { command: 'rm -rf /' } } } };
    const conversation = [
      { id: 'm1', role: 'user', created: 1, content: [{ type: 'text', text: 'clean up' }] },
      { id: 'm2', role: 'assistant', created: 2, content: [{ type: 'text', text: 'Cleaning.' }, call] },
    ];
    const head = { id: '20251201_1', working_dir: '/home/u/p', name: 'cleanup', created_at: 'x', updated_at: 'x', extension_data: {}, total_tokens: 1 };
    for (const doc of [{ ...head, conversation, message_count: 2 }, { conversation, ...head, message_count: 2 }]) {
      const r = await readText(JSON.stringify(doc, null, 2));
      expect(r.errors).toEqual([]);
      expect(r.end).toMatchObject({ formats: ['goose'], replies: 1 });
      expect(r.replies[0]!.toolCalls[0]).toMatchObject({ name: 'developer__shell', arguments: { command: 'rm -rf /' } });
    }
    const r = await readText(JSON.stringify({ ...head, conversation: [...conversation, 'not a message'], message_count: 3 }));
    expect(r.errors.map((e) => [e.code, e.severity])).toEqual([['INVALID_RECORD', 'error']]);
  });
});

describe('commands agents run from text are the format\'s own calls', () => {
  beforeAll(async () => {
    await initInspection();
  });
  const judge = (reply: Reply) => judgeReply(reply, { recovery: { proseCeiling: 0.5 }, ruleSet: compileRuleSet(), mode: 'enforce' });

  const cases: Array<[string, string, string]> = [
    [
      'mini-swe-agent',
      'm.traj.json',
      JSON.stringify({ info: { mini_version: '1.15.0', config: {}, model_stats: {} }, messages: [{ role: 'assistant', content: 'THOUGHT: wipe it.\n\n```bash\nrm -rf /\n```' }], trajectory_format: 'mini-swe-agent-1' }, null, 2),
    ],
    ['swe-agent', 's.traj', JSON.stringify({ environment: 'e', trajectory: [], history: [{ role: 'assistant', content: 'Cleaning up.\n```\nrm -rf /\n```\n', thought: 'Cleaning up.', action: 'rm -rf /\n', agent: 'main' }], info: {} }, null, 2)],
    ['aider', 'h.aider.chat.history.md', '# aider chat started at x\n\n> Model: m with diff edit format  \n\n#### clean up  \n\nRun this:\n\n```bash\nrm -rf /\n```\n\n> Tokens: 1 sent, 1 received.  \n'],
  ];
  for (const [format, name, text] of cases) {
    it(`${format}: rm -rf / in the fenced block is the inspection hit rm-rf-root, and recovery judges the reply structured (not a quotation)`, async () => {
      const r = await readText(text, undefined, name);
      expect(r.errors).toEqual([]);
      expect(r.replies).toHaveLength(1);
      const reply = r.replies[0]!;
      expect(reply).toMatchObject({ format, toolCalls: [{ kind: 'text-command', name: 'bash' }] });
      const v = judge(reply);
      expect(v.recovery.reason).toBe('structured');
      expect(v.inspection.hits.map((h) => h.rule)).toContain('rm-rf-root');
      expect(v.inspection.outcome).toBe('block');
    });
  }

  it('the same fence in a reply that is not the format\'s call (a plain chat message) gives no call and no hit', async () => {
    const r = await readText(`${JSON.stringify({ role: 'assistant', content: 'Never run this:\n\n```bash\nrm -rf /\n```' })}\n`);
    const v = judge(r.replies[0]!);
    expect(r.replies[0]!.toolCalls).toEqual([]);
    expect(v.inspection.hits).toEqual([]);
  });
});

describe('large sessions are read one message at a time (bounded memory)', () => {
  const N = 3000;
  const cap = 4096; // far below each document's size: only a split document can be read under it

  it('a Gemini CLI session', async () => {
    const messages = Array.from({ length: N }, (_, i) => ({ id: `m${i}`, timestamp: 't', type: 'gemini', content: `reply ${i}`, toolCalls: [{ id: `c${i}`, name: 'run_shell_command', args: { command: `echo ${i}` } }] }));
    const doc = JSON.stringify({ sessionId: 's', projectHash: 'h', startTime: 't', lastUpdated: 't', messages }, null, 2);
    expect(doc.length).toBeGreaterThan(100 * cap);
    const r = await readText(doc, { maxDocumentBytes: cap }, 'session-big.json', 65536);
    expect(r.errors).toEqual([]);
    expect(r.replies).toHaveLength(N);
    expect(r.replies[N - 1]!.text).toBe(`reply ${N - 1}`);
  });

  it('a SWE-agent trajectory and a mini-swe-agent trajectory', async () => {
    const history = Array.from({ length: N }, (_, i) => ({ role: i % 2 ? 'user' : 'assistant', content: `step ${i}`, action: `echo ${i}`, agent: 'main' }));
    const traj = JSON.stringify({ environment: 'e', trajectory: history.filter((h) => h.role === 'assistant').map((h) => ({ action: h.action, observation: 'o', response: h.content, thought: '' })), history, info: { submission: 'x' } }, null, 2);
    const r = await readText(traj, { maxDocumentBytes: cap }, 'big.traj', 65536);
    expect(r.errors).toEqual([]);
    expect(r.replies).toHaveLength(N / 2);
    const mini = JSON.stringify({ info: { mini_version: '1.0', config: {}, model_stats: {} }, messages: history.map((h) => ({ role: h.role, content: `THOUGHT\n\n\`\`\`bash\n${h.action}\n\`\`\`` })), trajectory_format: 'mini-swe-agent-1' }, null, 2);
    const m = await readText(mini, { maxDocumentBytes: cap }, 'big.traj.json', 65536);
    expect(m.errors).toEqual([]);
    expect(m.replies).toHaveLength(N / 2);
  });
});

describe('never silent: a member of a session record that may hold messages and is not read is an error', () => {
  const shell = { id: 'c', name: 'run_shell_command', args: { command: 'rm -rf /' } };
  const gooseCall = { id: 'm2', role: 'assistant', created: 2, content: [{ type: 'toolRequest', id: 't', toolCall: { status: 'success', value: { name: 'developer__shell', arguments: { command: 'rm -rf /' } } } }] };
  const ocMessage = { info: { id: 'msg_1', role: 'assistant', sessionID: 'ses_1', time: { created: 1 } }, parts: [{ id: 'prt_1', sessionID: 'ses_1', messageID: 'msg_1', type: 'tool', callID: 'c', tool: 'bash', state: { status: 'completed', input: { command: 'rm -rf /' } } }] };
  // each passed as "read whole with no assistant reply", exit 0, before (the Goose export's class of bug)
  const cases: [string, CaptureFormat, unknown, string, string][] = [
    ['Gemini CLI session, messages under "history"', 'gemini-cli', { sessionId: 's', projectHash: 'h', startTime: 't', lastUpdated: 't', history: [{ id: 'a1', timestamp: 't', type: 'gemini', content: 'ok', toolCalls: [shell] }] }, 'history', 'the session record'],
    ['Goose session, messages under "messages"', 'goose', { working_dir: '/x', description: 'd', message_count: 1, messages: [gooseCall] }, 'messages', 'the session record'],
    ['mini-swe-agent trajectory, messages under "history"', 'mini-swe-agent', { info: { mini_version: '1.0', config: {}, model_stats: {} }, trajectory_format: 'mini-swe-agent-1', messages: [], history: [{ role: 'assistant', content: '```bash\nrm -rf /\n```' }] }, 'history', 'the trajectory'],
    ['SWE-agent trajectory, a member of its own', 'swe-agent', { trajectory: [], history: [], info: {}, replay_config: '{}', environment: 'e', side_history: [{ role: 'assistant', content: 'x', action: 'rm -rf /' }] }, 'side_history', 'the trajectory'],
    ['OpenCode export, messages under "children"', 'opencode', { info: { id: 'ses_1', time: { created: 1 } }, messages: [], children: [ocMessage] }, 'children', 'the export'],
  ];
  for (const [what, format, doc, key, where] of cases) {
    it(what, async () => {
      const r = await readText(JSON.stringify(doc, null, 2));
      expect(r.end.formats).toEqual([format]);
      expect(r.errors.map((e) => [e.code, e.severity, e.line])).toEqual([['INVALID_RECORD', 'error', 1]]);
      expect(r.errors[0]!.message).toBe(`member ${JSON.stringify(key)} of ${where} was not read: it holds what may be messages or tool calls (objects with a role or a call), and they are not judged`);
    });
  }

  it('metadata members that hold no message (Goose recipe and model_config, Gemini CLI summary) are no problem', async () => {
    const r = await readText(JSON.stringify({ working_dir: '/x', name: 'n', message_count: 0, recipe: { title: 't', instructions: 'i', extensions: [{ type: 'builtin', name: 'developer' }] }, model_config: { model_name: 'm' }, conversation: [] }));
    expect(r.errors).toEqual([]);
  });
});
