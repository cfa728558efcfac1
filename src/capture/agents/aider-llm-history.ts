/**
 * Aider's LLM history (`.aider.llm.history`, written with `--llm-history-file`): every request Aider
 * sent and every response it got, one prefixed line per line of text (a text format of its own,
 * formats.ts kind `text`).
 *
 * Format: Aider-AI/aider @ 5dc9490bb35f9729ef2c95d00a19ccd30c26339c `aider/io.py`
 * `log_llm_history` (a line `ROLE TIMESTAMP`, ISO 8601 to the second, then the content) called by
 * `aider/coders/base_coder.py` `send` with `TO LLM` and `utils.format_messages(messages)` (each
 * message after a `-------` line, each of its lines prefixed with its role upper-cased and a
 * space), and, when the response ends, with `LLM RESPONSE` and `format_content("ASSISTANT",
 * partial_response_content)`: every line of the reply prefixed `ASSISTANT `
 * (https://github.com/Aider-AI/aider/blob/5dc9490bb35f9729ef2c95d00a19ccd30c26339c/aider/utils.py).
 *
 * One reply per `LLM RESPONSE` block that holds text. An empty one is logged when the request
 * failed (a rate limit, an API error), was interrupted, or (a real ask-mode history,
 * dadmaan/music-anomalizer @ 440851e5, every response empty) when the reply streamed but was not
 * logged: the next request then holds it, as the assistant message after the user message the
 * empty response answered (the request's messages end `USER <that message>`, `ASSISTANT
 * <reply>`, `USER <new message>`; the answered message may have lost the `Reply in English.`
 * Aider appends to the last one). That assistant message is read as the reply, at its lines, with a
 * warning saying so; an empty response no later request answers is a warning, not a reply. The
 * other messages of a `TO LLM` block are the request (earlier replies among them are not replies
 * of this log). A line of a response block without the `ASSISTANT ` prefix is reported
 * (`INVALID_RECORD`), never taken silently. Its calls are what Aider applies (aider-edits.ts),
 * read in the edit style the request's first message (the coder's main system prompt,
 * aider/coders/*_prompts.py `main_system`) names: `Act as an expert code analyst` (ask, context),
 * `You are an expert on the AI coding tool called Aider` (help), `Act as an expert architect
 * engineer`, commit-message and summary prompts (aider/prompts.py) apply nothing; `*** Begin Patch` is the patch format; `diff -U0` a unified diff;
 * `output a copy of each file` whole files; anything else (SEARCH/REPLACE, an unknown prompt) is
 * read as edit-block, so nothing runs uninspected. Shell blocks are read when that prompt asks for
 * them (`suggest any shell commands`, aider/coders/shell.py `shell_cmd_prompt`). The log names no
 * model and no chat files.
 *
 * Memory: one message's first lines (for the prompt), one reply's text, and the last three
 * messages of a request (to find a reply an empty response did not log), each capped at
 * `maxReplyBytes`.
 */

import type { RecordOutput } from '../bodies/common.js';
import { captureError } from '../bodies/common.js';
import { CappedReports } from '../capped.js';
import type { AiderEditStyle } from './aider-edits.js';
import { aiderReply, ReplyLines } from './aider-reply.js';

/** A block's first line: `TO LLM 2025-05-04T17:06:58` or `LLM RESPONSE 2025-05-04T17:07:07`. */
const BLOCK = /^(TO LLM|LLM RESPONSE) \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?$/;
/** The line before each message of a request. */
const MESSAGE_RULE = '-------';
/** A request message's line: its role, upper-cased, and the text. */
const ROLE_LINE = /^([A-Z]+)(?: (.*))?$/;
/** Prompts whose replies Aider applies nothing from: ask/context, help, architect, commit messages (aider/prompts.py `commit_system`), summaries (`summarize`). */
const NO_EDITS = /^(?:Act as an expert code analyst|You are an expert on the AI coding tool called Aider|Act as an expert architect engineer|You are an expert software engineer that generates concise|\*Briefly\* summarize this partial conversation)/;
/** How much of the first message is read for its prompt (characters). */
const PROMPT_CHARS = 64 * 1024;

/** True for an Aider LLM history: its first line opens a `TO LLM` or `LLM RESPONSE` block. */
export function sniffAiderLlmHistory(first: string, file: string): boolean {
  return BLOCK.test(first) || (/(^|[\\/]|\.)\.?aider\.llm\.history$/i.test(file) && !/^\s*[[{]/.test(first));
}

/** The edit style and shell offer that a coder's main system prompt names (see the module header). */
function readingOf(prompt: string): { style: AiderEditStyle; shell: boolean } {
  const shell = /suggest any shell commands/.test(prompt);
  if (NO_EDITS.test(prompt)) return { style: 'none', shell: false };
  if (/\*\*\* Begin Patch/.test(prompt)) return { style: 'patch', shell: false };
  if (/like `diff -U0` would produce/.test(prompt)) return { style: 'udiff', shell: false };
  if (/output a copy of each file that needs changes/i.test(prompt)) return { style: 'whole', shell: false };
  return { style: 'edit-block', shell };
}

/** A message of a request, as far as it fits in `maxReplyBytes`. */
interface RequestMessage {
  role: string;
  /** The line of its first text line (0 before it). */
  line: number;
  lines: string[];
  bytes: number;
  cut: boolean;
}

/** An empty response: where it is, the message it answered, and how its reply would be read. */
interface EmptyResponse {
  line: number;
  answered: string;
  reading: { style: AiderEditStyle; shell: boolean };
}

const messageText = (m: RequestMessage): string => m.lines.join('\n').replace(/\s+$/, '');

/** Reads one Aider LLM history line by line (see the module header). */
export class AiderLlmHistoryReader {
  private block: 'none' | 'request' | 'response' = 'none';
  private reply: ReplyLines | null = null;
  /** The current request's first message, as far as it is read (null before its first rule). */
  private prompt: string[] | null = null;
  private promptChars = 0;
  private messages = 0;
  private reading: { style: AiderEditStyle; shell: boolean } = { style: 'edit-block', shell: true };
  private readonly stray: CappedReports;
  /** The last three messages of the request being read (the last one still open). */
  private recent: RequestMessage[] = [];
  /** The text of the last message of the last request (the message its response answers). */
  private lastAsked = '';
  /** The empty response whose reply the next request may hold. */
  private empty: EmptyResponse | null = null;

  constructor(
    private readonly file: string,
    private readonly maxReplyBytes: number,
  ) {
    this.stray = new CappedReports(file, 'INVALID_RECORD', 'lines of an Aider LLM history that are none of its lines');
  }

  /** One line of the file (without its line end). */
  line(text: string, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    const block = BLOCK.exec(text);
    if (block) {
      this.close(out);
      this.endRequest(out);
      if (block[1] === 'TO LLM') {
        this.block = 'request';
        this.messages = 0;
        this.prompt = null;
        this.promptChars = 0;
      } else {
        this.block = 'response';
        this.reply = new ReplyLines(line + 1);
      }
      return out;
    }
    if (this.block === 'response') {
      if (text === 'ASSISTANT' || text.startsWith('ASSISTANT ')) this.reply!.add(text.slice(10), this.file, this.maxReplyBytes, out);
      // Aider logs an empty response as one empty line
      else if (text !== '' || !this.reply!.empty()) this.strayLine(line, 'a line of an LLM response without its "ASSISTANT " prefix', out, 'error');
      return out;
    }
    if (this.block === 'request') {
      if (text === MESSAGE_RULE) {
        this.messages++;
        if (this.messages === 1) this.prompt = [];
        this.recent.push({ role: '', line: 0, lines: [], bytes: 0, cut: false });
        if (this.recent.length > 3) this.recent.shift();
        return out;
      }
      // a message with empty content is logged as an empty line (`format_content` of "")
      if (text === '') return out;
      const role = ROLE_LINE.exec(text);
      if (!role || this.messages === 0) {
        this.strayLine(line, 'a line of a request that is no message line ("ROLE text" after a "-------" line)', out, 'warning');
        return out;
      }
      if (this.messages === 1 && this.prompt && this.promptChars < PROMPT_CHARS) {
        const t = role[2] ?? '';
        this.prompt.push(t);
        this.promptChars += t.length + 1;
      }
      this.addToMessage(role[1]!, role[2] ?? '', line);
      return out;
    }
    if (text.trim() !== '') this.strayLine(line, 'a line before the first "TO LLM" or "LLM RESPONSE" line', out, 'error');
    return out;
  }

  finish(): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    this.close(out);
    this.endRequest(out);
    if (this.empty) this.reportEmpty(this.empty.line, out);
    this.empty = null;
    const summary = this.stray.summary();
    if (summary) out.errors.push(summary);
    return out;
  }

  /** A line that is none of the log's: an error where it may hold reply text, else a warning. */
  private strayLine(line: number, what: string, out: RecordOutput, severity: 'error' | 'warning'): void {
    const e = this.stray.report(line, `${what}: not read`);
    if (e) out.errors.push({ ...e, severity });
  }

  /** One text line of the open request message (its role is the first line's). */
  private addToMessage(role: string, text: string, line: number): void {
    const m = this.recent[this.recent.length - 1];
    if (!m || m.cut) return;
    if (m.line === 0) {
      m.role = role;
      m.line = line;
    }
    const bytes = Buffer.byteLength(text) + 1;
    if (m.bytes + bytes > this.maxReplyBytes) {
      m.cut = true;
      return;
    }
    m.lines.push(text);
    m.bytes += bytes;
  }

  /**
   * A request ended: its first message names how the next response is read; when an empty
   * response came before it, its messages may hold that response's reply (see the module header).
   */
  private endRequest(out: RecordOutput): void {
    if (this.block !== 'request') return;
    const [asked, reply, next] = this.recent.length === 3 ? this.recent : [];
    const empty = this.empty;
    this.empty = null;
    if (empty && asked && reply && next && asked.role === 'USER' && reply.role === 'ASSISTANT' && next.role === 'USER') {
      const question = messageText(asked);
      const text = messageText(reply);
      if (question !== '' && empty.answered.startsWith(question) && text !== '') {
        out.errors.push(captureError(this.file, empty.line, 'INVALID_RECORD', `an empty LLM response: its reply was not logged; it was read from the next request, which holds it (line ${reply.line})`, 'warning'));
        if (reply.cut) out.errors.push(captureError(this.file, reply.line, 'DOCUMENT_TOO_LARGE', `the reply starting here is longer than ${this.maxReplyBytes} bytes; it was read up to that size`));
        out.replies.push(aiderReply(this.file, reply.line, text, reply.cut, { format: 'aider-llm-history', style: empty.reading.style, shell: empty.reading.shell, chat: { files: new Set() } }));
      } else this.reportEmpty(empty.line, out);
    } else if (empty) this.reportEmpty(empty.line, out);
    const last = this.recent[this.recent.length - 1];
    this.lastAsked = last ? messageText(last) : '';
    this.recent = [];
    if (this.prompt === null) return;
    this.reading = readingOf(this.prompt.join('\n'));
    this.prompt = null;
  }

  private reportEmpty(line: number, out: RecordOutput): void {
    out.errors.push(captureError(this.file, line, 'INVALID_RECORD', 'an empty LLM response (Aider logs one when the request failed, a rate limit or an error, or was interrupted; no later request holds a reply to it): no reply', 'warning'));
  }

  private close(out: RecordOutput): void {
    const r = this.reply;
    this.reply = null;
    if (!r) return;
    const text = r.text();
    if (text === '') {
      // held: the next request may hold its reply
      if (this.empty) this.reportEmpty(this.empty.line, out);
      this.empty = { line: r.line - 1, answered: this.lastAsked, reading: this.reading };
      return;
    }
    out.replies.push(aiderReply(this.file, r.line, text, r.cut, { format: 'aider-llm-history', style: this.reading.style, shell: this.reading.shell, chat: { files: new Set() } }));
  }
}
