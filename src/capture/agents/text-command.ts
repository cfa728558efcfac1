/**
 * Commands agents run from text (issue 15 point 3): SWE-agent, mini-swe-agent and Aider have the
 * model write a shell command in a fenced block, and the agent executes that block. Such a block
 * is the format's own tool call, so the readers put it in `Reply.toolCalls` as a call of kind
 * `text-command`, name `bash`, arguments `{"command": <the block>}`:
 *
 * - the inspection engine reads it like any shell call (`command` is a command-bearing key,
 *   src/inspection/extract.ts), so `rm -rf /` in the block is a `rm-rf-root` hit;
 * - the recovery engine sees a reply that carries tool calls and judges it `structured`
 *   (src/recovery/judge.ts rule 1): the fence is never taken for a quotation of leaked markup, and
 *   markup elsewhere in the text is still reported with its family.
 *
 * Each agent's own parser decides what is a command; the functions here mirror them:
 * - mini-swe-agent 1.x (`DefaultAgent.parse_action`, SWE-agent/mini-swe-agent v1.x, and
 *   `parse_regex_actions` in src/minisweagent/models/utils/actions_text.py @
 *   a83fcae82d2a08f0ee0c688f9d137b3566c097f8,
 *   https://github.com/SWE-agent/mini-swe-agent/blob/a83fcae82d2a08f0ee0c688f9d137b3566c097f8/src/minisweagent/models/utils/actions_text.py):
 *   exactly one match of ```` ```bash\s*\n(.*?)\n``` ```` (DOTALL), stripped; none or several is a
 *   format error and nothing runs.
 * - SWE-agent `ThoughtActionParser` (sweagent/tools/parsing.py @
 *   3ea751c087f32b16e039a2233dd6eefecef325d5,
 *   https://github.com/SWE-agent/SWE-agent/blob/3ea751c087f32b16e039a2233dd6eefecef325d5/sweagent/tools/parsing.py):
 *   the last code block not nested in another (used when a history item has no `action`).
 * - Aider `find_original_update_blocks`: src/capture/agents/aider-edits.ts, which also reads the
 *   file edits Aider applies (kind `text-edit`).
 */

import { makeToolCall } from '../toolcall.js';
import type { ToolCall } from '../types.js';

/** The tool name every text command carries. */
export const TEXT_COMMAND_TOOL = 'bash';

/** A text command as a tool call: kind `text-command`, name `bash` (or `name`), arguments `{command}`. */
export function textCommandCall(command: string, id: string | null = null, name = TEXT_COMMAND_TOOL): ToolCall {
  return makeToolCall(id, name, 'text-command', { command });
}

/**
 * mini-swe-agent's action patterns: 1.x's ```` ```bash ```` block and 2.x's text-based models'
 * ```` ```mswea_bash_command ```` block (`action_regex` defaults, SWE-agent/mini-swe-agent
 * `src/minisweagent/models/` and `config/default.yaml`).
 */
const MINI_ACTION_BLOCK = /```(?:bash|mswea_bash_command)\s*\n([\s\S]*?)\n```/g;

/**
 * The command of a mini-swe-agent assistant message without `extra.actions`: the single
 * ```` ```bash ```` (1.x) or ```` ```mswea_bash_command ```` (2.x) block, stripped (Python
 * `str.strip`), or null when there is none or more than one (a format error: mini-swe-agent runs
 * nothing).
 */
export function miniSweAgentAction(content: string): string | null {
  const found = [...content.matchAll(MINI_ACTION_BLOCK)];
  return found.length === 1 ? pyStrip(found[0]![1]!) : null;
}

/** Python's `str.strip()` (whitespace at both ends). */
function pyStrip(s: string): string {
  return s.replace(/^\s+|\s+$/g, '');
}

/** A fence line of SWE-agent's `code_block_pat`: an opener (```` ```lang ````) or a bare ```` ``` ````. */
const SWE_FENCE = /^```(\S*)\s*\n|^```\s*$/gm;

/**
 * SWE-agent's `ThoughtActionParser`: the last code block of `message` that is not nested in
 * another, or null when there is none. Python's regex semantics are kept: the opener needs a
 * newline after it; a bare ```` ``` ```` closes a block when one is open and opens one otherwise.
 */
export function sweAgentThoughtAction(message: string): string | null {
  const stack: RegExpMatchArray[] = [];
  let last: [RegExpMatchArray, RegExpMatchArray] | null = null;
  for (const m of message.matchAll(SWE_FENCE)) {
    const lang = m[1];
    if (stack.length > 0 && !lang) {
      const start = stack.pop()!;
      if (stack.length === 0) last = [start, m];
    } else if (lang !== undefined) stack.push(m);
  }
  if (!last) return null;
  const [start, end] = last;
  return message.slice(start.index! + start[0].length, end.index!);
}
