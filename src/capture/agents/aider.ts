/**
 * Aider chat histories (`.aider.chat.history.md`): a Markdown file, read line by line (a text
 * format of its own, formats.ts kind `text`).
 *
 * Format: what Aider-AI/aider @ 5dc9490bb35f9729ef2c95d00a19ccd30c26339c `aider/io.py` writes
 * (https://github.com/Aider-AI/aider/blob/5dc9490bb35f9729ef2c95d00a19ccd30c26339c/aider/io.py):
 * `append_chat_history` (lines 1117-1136), called for
 * - a session heading `\n# aider chat started at <time>\n\n` (line 336);
 * - the user's input, every line prefixed `#### ` and ended with two spaces (`user_input`, 775-789);
 * - the model's reply, verbatim, stripped, between blank lines (`ai_output`, 793-795);
 * - Aider's own output and questions, every line prefixed `> ` (or `>` for an empty one) and ended
 *   with two spaces (`tool_output`, `tool_error`, `confirm_ask`, …: blockquote + linebreak).
 *
 * One reply per run of lines that are none of those (the model's output: after the user's input,
 * and after Aider's own lines when it sends the model a reflection such as lint errors). A line
 * of the reply that happens to look like Aider's (a quotation ending in two spaces) ends it there;
 * Aider writes no other marker. Reasoning Aider logged inside its reasoning tag (or a model's
 * `<think>`) is the reply's reasoning, as Aider strips it before reading edits. The session's `> Model: … with <format> edit format` line (or
 * `Main model:`) names the edit format and the model. Aider's edit-block coders (`diff`,
 * `diff-fenced`, `editor-diff`, `editor-diff-fenced`) offer to run the shell blocks of a reply
 * (`find_original_update_blocks`, src/capture/agents/text-command.ts), unless the session was
 * started with `--no-suggest-shell-commands`: those blocks are the reply's `text-command` calls. A
 * session whose edit format is not in the file (a cut history) is read as an edit-block session,
 * so no command goes uninspected; `whole`, `udiff`, `patch`, `ask`, `architect` and the others
 * run no shell block, nor does a reply to an `/ask` or `/architect` input. Advertised tools: none (Aider has no tools); `advertised` null.
 *
 * Memory: one reply's text, capped at `maxReplyBytes` (a longer reply is read up to the cap and
 * reported DOCUMENT_TOO_LARGE).
 */

import type { RecordOutput } from '../bodies/common.js';
import { captureError } from '../bodies/common.js';
import type { Reply } from '../types.js';
import { aiderShellBlocks, textCommandCall } from './text-command.js';

const HEADING = /^# aider chat started at /;
/** A line Aider itself wrote: `> …` or `>`, ended with two spaces. */
const TOOL_LINE = /^>(?: .*)? {2}$/;
/** A line of the user's input: `#### …`, ended with two spaces. */
const USER_LINE = /^####(?: .*)? {2}$/;
const MODEL_LINE = /^> (?:Main model|Model): (.+?) with ([\w-]+) edit format/;
const SHELL_FORMATS: ReadonlySet<string> = new Set(['diff', 'diff-fenced', 'editor-diff', 'editor-diff-fenced']);
/**
 * Reasoning Aider keeps in the reply it logs: its own tag (`REASONING_TAG` of aider/reasoning_tags.py)
 * or a model's reasoning tag (`<think>`); Aider removes it before reading edits and commands
 * (`remove_reasoning_content`).
 */
const REASONING = /<(thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b|think)>([\s\S]*?)<\/\1>/g;

/** True for the start of an Aider chat history: its session heading, or any text in a file named `.aider.chat.history.md`. */
export function sniffAider(first: string, file: string): boolean {
  if (HEADING.test(first)) return true;
  return /(^|[\\/]|\.)\.?aider\.chat\.history\.md$/i.test(file) && !/^\s*[[{]/.test(first);
}

interface Open {
  line: number;
  lines: string[];
  bytes: number;
  cut: boolean;
}

/** Reads one Aider chat history line by line (see the module header). */
export class AiderReader {
  private reply: Open | null = null;
  /** The session's edit format, when a `Model:` line named it. */
  private editFormat: string | null = null;
  private suggestShell = true;
  /** The user's last input was `/ask` or `/architect`: the next replies are answers, whose blocks run nothing. */
  private askMode = false;
  /** The previous line was a line of the user's input. */
  private inUserInput = false;
  private model: string | undefined;

  constructor(
    private readonly file: string,
    private readonly maxReplyBytes: number,
  ) {}

  /** One line of the file (without its line end). */
  line(text: string, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (HEADING.test(text)) {
      this.close(out);
      this.editFormat = null;
      this.suggestShell = true;
      this.askMode = false;
      this.inUserInput = false;
      this.model = undefined;
      return out;
    }
    if (TOOL_LINE.test(text)) {
      this.close(out);
      this.inUserInput = false;
      const m = MODEL_LINE.exec(text);
      if (m) {
        this.model = m[1];
        this.editFormat = m[2]!;
      }
      if (/\s--no-suggest-shell-commands\b/.test(text)) this.suggestShell = false;
      return out;
    }
    if (USER_LINE.test(text)) {
      this.close(out);
      // the first line of the user's input: `/ask …` and `/architect …` answer without edits or commands
      if (!this.inUserInput) this.askMode = /^#### \/(?:ask|architect)\b/.test(text);
      this.inUserInput = true;
      return out;
    }
    this.inUserInput = false;
    if (!this.reply) {
      if (text.trim() === '') return out;
      this.reply = { line, lines: [], bytes: 0, cut: false };
    }
    const r = this.reply;
    if (r.cut) return out;
    const bytes = Buffer.byteLength(text) + 1;
    if (r.bytes + bytes > this.maxReplyBytes) {
      r.cut = true;
      // the part of the line that fits, so a reply of one huge line is still judged on its start
      const room = Math.max(0, this.maxReplyBytes - r.bytes);
      if (room > 0) r.lines.push(Buffer.from(text).subarray(0, room).toString('utf8').replace(/\uFFFD$/, ''));
      out.errors.push(captureError(this.file, r.line, 'DOCUMENT_TOO_LARGE', `the reply starting here is longer than ${this.maxReplyBytes} bytes; it was read up to that size`));
      return out;
    }
    r.lines.push(text);
    r.bytes += bytes;
    return out;
  }

  finish(): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    this.close(out);
    return out;
  }

  private close(out: RecordOutput): void {
    const r = this.reply;
    this.reply = null;
    if (!r) return;
    const whole = r.lines.join('\n').replace(/\s+$/, '');
    if (whole === '') return;
    const reasoning: string[] = [];
    const body = whole.replace(REASONING, (_m, _tag: string, inner: string) => {
      reasoning.push(inner.trim());
      return '';
    }).trim();
    const runsShell = this.suggestShell && !this.askMode && (this.editFormat === null || SHELL_FORMATS.has(this.editFormat));
    const reply: Reply = {
      source: { file: this.file, line: r.line },
      format: 'aider',
      id: null,
      advertised: null,
      text: body,
      reasoning: reasoning.join('\n'),
      toolCalls: runsShell ? aiderShellBlocks(`${body}\n`).filter((c) => c.trim() !== '').map((c) => textCommandCall(c)) : [],
      truncated: r.cut,
    };
    if (this.model) reply.model = this.model;
    out.replies.push(reply);
  }
}
