/**
 * What Aider's two logs share (src/capture/agents/aider.ts, aider-llm-history.ts): a reply's lines
 * held up to a cap, and the reply built from its text, with reasoning kept apart and the calls
 * Aider applies read by edit style (aider-edits.ts).
 */

import type { RecordOutput } from '../bodies/common.js';
import { captureError } from '../bodies/common.js';
import { aiderCalls, type AiderChatFiles, type AiderEditStyle } from './aider-edits.js';
import type { CaptureFormat, Reply, ToolCall } from '../types.js';

/**
 * Reasoning Aider keeps in the reply it logs: its own tag (`REASONING_TAG` of aider/reasoning_tags.py)
 * or a model's reasoning tag (`<think>`), kept apart from the text. Aider removes only one of them
 * before reading edits and commands (`remove_reasoning_content`: the model's configured tag, else
 * its own), and which tag a model has is in neither log, so the calls are read from the text with
 * only Aider's own tag removed: an edit inside `<think>` of a model whose tag it is not is still
 * inspected.
 */
const AIDER_TAG = 'thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b';
const REASONING = new RegExp(`<(${AIDER_TAG}|think)>([\\s\\S]*?)<\\/\\1>`, 'g');
const AIDER_REASONING = new RegExp(`<${AIDER_TAG}>[\\s\\S]*?<\\/${AIDER_TAG}>`, 'g');

/** The lines of one reply as they are read, held up to `maxBytes` (UTF-8 bytes, line ends counted). */
export class ReplyLines {
  private readonly lines: string[] = [];
  private bytes = 0;
  /** True once a line did not fit: the reply was read up to the cap. */
  cut = false;

  /** @param line the 1-based line the reply starts on. */
  constructor(readonly line: number) {}

  /**
   * Adds one line. The first line that does not fit is kept up to the cap and reported
   * `DOCUMENT_TOO_LARGE` (into `out`, naming `file` and the reply's first line); later lines are dropped.
   */
  add(text: string, file: string, maxBytes: number, out: RecordOutput): void {
    if (this.cut) return;
    const bytes = Buffer.byteLength(text) + 1;
    if (this.bytes + bytes > maxBytes) {
      this.cut = true;
      // the part of the line that fits, so a reply of one huge line is still judged on its start
      const room = Math.max(0, maxBytes - this.bytes);
      if (room > 0) this.lines.push(Buffer.from(text).subarray(0, room).toString('utf8').replace(/\uFFFD$/, ''));
      out.errors.push(captureError(file, this.line, 'DOCUMENT_TOO_LARGE', `the reply starting here is longer than ${maxBytes} bytes; it was read up to that size`));
      return;
    }
    this.lines.push(text);
    this.bytes += bytes;
  }

  /** True while no line was added. */
  empty(): boolean {
    return this.lines.length === 0;
  }

  /** The reply's text: its lines joined with `\n`, trailing whitespace removed. */
  text(): string {
    return this.lines.join('\n').replace(/\s+$/, '');
  }
}

/** How Aider read the reply: its edit style, whether it offers shell blocks, the chat's files. */
export interface AiderReading {
  format: Extract<CaptureFormat, 'aider' | 'aider-llm-history'>;
  style: AiderEditStyle;
  shell: boolean;
  chat: AiderChatFiles;
  model?: string | undefined;
}

/**
 * The reply Aider logged as `whole`: reasoning (Aider's tag or `<think>`) apart from the text, the
 * calls read from the text with Aider's own reasoning removed.
 *
 * @param file the path as given; `line` the reply's first line (1-based).
 * @param truncated the reply was read only up to the size cap.
 */
export function aiderReply(file: string, line: number, whole: string, truncated: boolean, how: AiderReading): Reply {
  const reasoning: string[] = [];
  const body = whole.replace(REASONING, (_m, _tag: string, inner: string) => {
    reasoning.push(inner.trim());
    return '';
  }).trim();
  const reply: Reply = {
    source: { file, line },
    format: how.format,
    id: null,
    advertised: null,
    text: body,
    reasoning: reasoning.join('\n'),
    toolCalls: aiderCalls(`${whole.replace(AIDER_REASONING, '').trim()}\n`, how.style, how.shell, how.chat),
    truncated,
  };
  if (how.model) reply.model = how.model;
  return reply;
}

/** The files an Aider call writes: an edit's or a whole file's `file_path`, a patch's `+++` and `*** … File:` paths. */
export function writtenPaths(call: ToolCall): string[] {
  const a = call.arguments ?? {};
  if (typeof a['file_path'] === 'string') return [a['file_path']];
  if (typeof a['patch'] !== 'string') return [];
  return [...a['patch'].matchAll(/^\+\+\+ (?:b\/)?(.+?)\s*$|^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$/gm)].map((m) => m[1] ?? m[2] ?? m[3]!);
}
