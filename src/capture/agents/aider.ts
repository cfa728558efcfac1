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
 *   with two spaces (`tool_output`, `tool_error`, `confirm_ask`, …: blockquote + linebreak); a
 *   `tool_output` message of several lines is logged whole, `> ` before its first line and two
 *   spaces after its last (`append_chat_history`, lines 1117-1136), so a `>` line that follows
 *   Aider's or the user's line directly (a reply follows a blank line) opens such a message.
 *
 * One reply per run of lines that are none of those (the model's output: after the user's input,
 * and after Aider's own lines when it sends the model a reflection such as lint errors). Aider writes
 * a blank line before and after a reply (`ai_output`), so a line right after the reply's text stays
 * in the reply even when it looks like one of Aider's. A line
 * of the reply that happens to look like Aider's (a quotation ending in two spaces) ends it there;
 * Aider writes no other marker. Reasoning Aider logged inside its reasoning tag (or a model's
 * `<think>`) is the reply's reasoning, as Aider strips it before reading edits. The session's `> Model: … with <format> edit format` line (or
 * `Main model:`) names the edit format and the model (an architect session's `Editor model:` line
 * the editor's format). What Aider applies from a reply is its calls (src/capture/agents/aider-edits.ts):
 * the file edits its coder reads (SEARCH/REPLACE blocks, whole files, unified diffs, patches: kind
 * `text-edit`) and the shell blocks edit-block coders offer to run (kind `text-command`), unless
 * the session's command line (a `> …aider… ` line before its first input) holds
 * `--no-suggest-shell-commands`. `/code` and `/ok` turns run the model's own edit format (not
 * in the history; read as edit-block) in any session. A session whose edit format is not
 * in the file (a cut history) is read as an edit-block session, so no command goes uninspected.
 * A reply to an `/ask` or `/architect` input applies nothing (Aider logs such an input twice: the
 * line typed, then the message its coder runs); after `Edit the files?` is answered yes, the
 * architect's answer is logged as the editor's input, and the editor's reply is read in the editor's
 * edit format with no shell blocks (`ArchitectCoder.reply_completed`, aider/coders/architect_coder.py).
 * `> Added <file> to the chat.` and `> Removed <file> from the chat.` keep the chat's files, which
 * name a whole-file block written without a file name and the file a SEARCH/REPLACE block
 * matches. `> Applied edit to <file>` for a file no call of the reply before it writes is an error
 * (an edit guard did not read). Advertised tools: none (Aider has no tools); `advertised` null.
 *
 * Memory: one reply's text, capped at `maxReplyBytes` (a longer reply is read up to the cap and
 * reported DOCUMENT_TOO_LARGE).
 */

import type { RecordOutput } from '../bodies/common.js';
import { captureError } from '../bodies/common.js';
import { aiderEditStyle } from './aider-edits.js';
import { aiderReply, ReplyLines, writtenPaths } from './aider-reply.js';

const HEADING = /^# aider chat started at /;
/** A line Aider itself wrote: `> …` or `>`, ended with two spaces. */
const TOOL_LINE = /^>(?: .*)? {2}$/;
/** A line of the user's input: `#### …`, ended with two spaces. */
const USER_LINE = /^####(?: .*)? {2}$/;
const MODEL_LINE = /^> (?:Main model|Model): (.+?) with ([\w-]+) edit format/;
const EDITOR_LINE = /^> Editor model: .+? with ([\w-]+) edit format/;
/** `Added app.py to the chat.` (start-up) and `Added app.py to the chat` (`/add`); not `Added 3 lines of output to the chat.` */
const ADDED_LINE = /^> Added (.+?) to the chat\.? {2}$/;
const OUTPUT_LINES = /^\d+ lines? of output$/;
const REMOVED_LINE = /^> (?:Removed|Dropping) (.+?) from the chat\.? {2}$/;
const DROPPED_ALL = /^> Dropping all files from the chat session/;
/** Session formats that apply nothing: a `/code` turn in such a session runs the model's own format, unknown here (read as edit-block). */
const STYLE_LESS: ReadonlySet<string> = new Set(['ask', 'architect', 'help', 'context']);
const APPLIED_EDIT = /^> Applied edit to (.+?) {2}$/;
const EDIT_THE_FILES = /^> Edit the files\? .*: *(\S*) {2}$/;
/** True for the start of an Aider chat history: its session heading, or any text in a file named `.aider.chat.history.md`. */
export function sniffAider(first: string, file: string): boolean {
  if (HEADING.test(first)) return true;
  return /(^|[\\/]|\.)\.?aider\.chat\.history\.md$/i.test(file) && !/^\s*[[{]/.test(first);
}

/** Whose reply the next one is: the coder's (`code`), an `/ask` answer, an architect's answer, or the architect's editor's. */
type Turn = 'code' | 'ask' | 'architect' | 'editor' | 'code-command';

/** Reads one Aider chat history line by line (see the module header). */
export class AiderReader {
  private reply: ReplyLines | null = null;
  /** The session's edit format, when a `Model:` line named it. */
  private editFormat: string | null = null;
  /** An architect session's editor edit format (`Editor model:` line). */
  private editorFormat: string | null = null;
  private suggestShell = true;
  private turn: Turn = 'code';
  /** An architect answered in this turn: the next user input is the editor's (unless `Edit the files?` was answered no). */
  private editorPending = false;
  /** The last line that was not blank was a line of the user's input (Aider logs a `/ask` input twice, a blank line between). */
  private inUserInput = false;
  private model: string | undefined;
  private readonly chatFiles = new Set<string>();
  /** What the previous line was: Aider's own line, the user's input, or anything else. */
  private prev: 'tool' | 'user' | 'other' = 'other';
  /** Only blank lines since the session heading. */
  private afterHeading = false;
  /** Inside a message of several lines Aider logged with only its first line quoted (`tool_output`). */
  private inToolMessage = false;
  /** The session had a user input (its command line comes before). */
  private sawInput = false;
  /** The previous line was a line of the open reply, not blank. */
  private inReplyText = false;
  /** The files the last reply's calls write (null before the session's first reply). */
  private lastWritten: string[] | null = null;

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
      this.editorFormat = null;
      this.suggestShell = true;
      this.turn = 'code';
      this.editorPending = false;
      this.inUserInput = false;
      this.model = undefined;
      this.chatFiles.clear();
      this.prev = 'other';
      this.afterHeading = true;
      this.inToolMessage = false;
      this.sawInput = false;
      this.inReplyText = false;
      return out;
    }
    if (this.inToolMessage) {
      // the message runs to the line Aider ended with two spaces
      if (/ {2}$/.test(text)) {
        this.inToolMessage = false;
        this.prev = 'tool';
      }
      return out;
    }
    // Aider writes a blank line after a reply: a line right after the reply's text is the reply's,
    // even when it looks like Aider's (`> **Note**  `, `#### Step 2  `)
    const continues = this.reply !== null && this.inReplyText;
    if (!continues && TOOL_LINE.test(text)) {
      this.close(out);
      this.inUserInput = false;
      this.afterHeading = false;
      this.prev = 'tool';
      this.toolLine(text);
      this.appliedEdit(text, line, out);
      return out;
    }
    if (!continues && /^>/.test(text) && (this.prev !== 'other' || this.afterHeading)) {
      // Aider's `tool_output` logs a message of several lines as one blockquote line: `> ` before its
      // first line, two spaces after its last; a reply never starts here (Aider writes a blank line before one)
      this.close(out);
      this.inUserInput = false;
      this.afterHeading = false;
      this.inToolMessage = true;
      this.toolLine(`${text}  `);
      return out;
    }
    if (!continues && USER_LINE.test(text)) {
      this.close(out);
      this.sawInput = true;
      if (!this.inUserInput) this.turn = this.turnOf(text);
      this.inUserInput = true;
      this.afterHeading = false;
      this.prev = 'user';
      return out;
    }
    this.prev = 'other';
    if (text.trim() !== '') {
      this.inUserInput = false;
      this.afterHeading = false;
    }
    this.inReplyText = text.trim() !== '';
    if (!this.reply) {
      if (text.trim() === '') return out;
      this.reply = new ReplyLines(line);
    }
    this.reply.add(text, this.file, this.maxReplyBytes, out);
    return out;
  }

  finish(): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    this.close(out);
    return out;
  }

  /**
   * `> Applied edit to PATH`: Aider wrote PATH. A path no call of the reply before it writes is an
   * edit guard did not read (a fence or a file name it cannot see, an edit Aider moved to another
   * chat file): an error, so that the file does not pass as inspected.
   */
  private appliedEdit(text: string, line: number, out: RecordOutput): void {
    const m = APPLIED_EDIT.exec(text);
    if (!m) return;
    const path = m[1]!;
    const written = this.lastWritten ?? [];
    if (written.some((p) => p === path || path.endsWith(`/${p}`) || p.endsWith(`/${path}`))) return;
    out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `Aider applied an edit to ${JSON.stringify(path)} that guard read from no call of the reply before it: that edit is not inspected`));
  }

  /** A line Aider wrote: the session's model and edit formats, its flags, the chat's files, the architect's question. */
  private toolLine(text: string): void {
    const m = MODEL_LINE.exec(text);
    if (m) {
      this.model = m[1];
      this.editFormat = m[2]!;
    }
    const editor = EDITOR_LINE.exec(text);
    if (editor) this.editorFormat = editor[1]!;
    // the session's own command line (before its first input), not a commit message or command output quoting the flag
    if (!this.sawInput && /^> \S*aider\S*\s/.test(text) && /\s--no-suggest-shell-commands\b/.test(text)) this.suggestShell = false;
    const added = ADDED_LINE.exec(text);
    if (added && !OUTPUT_LINES.test(added[1]!)) this.chatFiles.add(added[1]!);
    const removed = REMOVED_LINE.exec(text);
    if (removed) this.chatFiles.delete(removed[1]!);
    if (DROPPED_ALL.test(text)) this.chatFiles.clear();
    const asked = EDIT_THE_FILES.exec(text);
    if (asked && /^n/i.test(asked[1]!)) this.editorPending = false;
  }

  /** The turn a user input starts, from its first line. */
  private turnOf(first: string): Turn {
    if (this.editorPending) {
      this.editorPending = false;
      return 'editor';
    }
    if (/^#### \/ask\b/.test(first)) return 'ask';
    // `/code` and `/ok` run the model's own edit format (`cmd_code`), whatever the session's is
    if (/^#### \/(?:code|ok)\b/.test(first)) return 'code-command';
    if (/^#### \/architect\b/.test(first) || this.editFormat === 'architect') return 'architect';
    return 'code';
  }

  private close(out: RecordOutput): void {
    const r = this.reply;
    this.reply = null;
    this.inReplyText = false;
    if (!r) return;
    const whole = r.text();
    if (whole === '') return;
    if (this.turn === 'architect') this.editorPending = true;
    const format = this.turn === 'editor' ? this.editorFormat : this.turn === 'code-command' ? (STYLE_LESS.has(this.editFormat ?? '') ? null : this.editFormat) : this.editFormat;
    const style = this.turn === 'ask' || this.turn === 'architect' ? 'none' : aiderEditStyle(format);
    const shell = this.suggestShell && (this.turn === 'code' || this.turn === 'code-command');
    const reply = aiderReply(this.file, r.line, whole, r.cut, { format: 'aider', style, shell, chat: { files: this.chatFiles }, model: this.model });
    out.replies.push(reply);
    this.lastWritten = reply.toolCalls.flatMap(writtenPaths);
  }
}
