/**
 * Claude Code session files (`~/.claude/projects/<project>/<session>.jsonl`) and the
 * `claude -p --output-format stream-json` stdout stream.
 *
 * Format (no vendor schema was available; docs/sources.md "Agent transcripts"): the line fields
 * are those the reader daaain/claude-code-log models
 * (https://github.com/daaain/claude-code-log/blob/a641071a154f041b96e9b83ccd42d2f92eaa321a/claude_code_log/models.py);
 * the grouping is what other readers of these files report. Claude Code
 * writes one content block per line; all lines of one API response share `message.id`.
 * Consecutive assistant lines with the same `message.id` are grouped into one reply (the reply's
 * line is the group's first line); a block seen before under the same `message.id` (replays in
 * sidechain files, repeated lines) is dropped. Advertised tools are not stored in these files, so
 * replies carry `advertised: null`. A subagent's turns, repeated in `progress` lines
 * (`data.type: "agent_progress"`, `data.message` a whole assistant or user line), are read as the
 * session's own lines. Another line that holds a reply guard does not read is INVALID_RECORD.
 */

import { hexDigest } from '../../base/digest.js';
import { type BlockParts, joinBlockParts, readContentBlock } from '../bodies/anthropic.js';
import { arr, captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';
import type { Reply } from '../types.js';

/** Line types Claude Code writes that carry no assistant reply (docs/sources.md "Agent
 * transcripts"); new ones appear often. */
const BOOKKEEPING_TYPES: ReadonlySet<string> = new Set([
  'summary',
  'file-history-snapshot',
  'file-history-delta',
  'queue-operation',
  'attachment',
  'progress',
  'ai-title',
  'custom-title',
  'last-prompt',
  'mode',
  'permission-mode',
  'compact',
  'stream_event',
  'result',
]);

/** Keys only Claude Code lines carry (session files: `sessionId`/`uuid`; stream-json: `session_id`). */
const SESSION_KEYS = ['sessionId', 'uuid', 'parentUuid', 'leafUuid', 'session_id'];

/**
 * True for a Claude Code line: a string `type` plus a session key (`sessionId`, `uuid`,
 * `parentUuid`, `leafUuid` or stream-json `session_id`), or a `type` among the known bookkeeping
 * line types (`summary`, `file-history-snapshot`, `queue-operation`, ...).
 */
export function isClaudeCodeLine(v: unknown): v is JsonObject {
  if (!isObject(v)) return false;
  const type = v['type'];
  if (typeof type !== 'string') return false;
  if (BOOKKEEPING_TYPES.has(type)) return true;
  return SESSION_KEYS.some((k) => k in v);
}

/** Line types that are neither bookkeeping nor an assistant line, and hold no reply of their own. */
const KNOWN_TYPES: ReadonlySet<string> = new Set([...BOOKKEEPING_TYPES, 'user', 'system']);

/**
 * What of a reply a line that is not an assistant line holds, or null: an assistant message (a
 * `message` with role `assistant`, or with tool_use content; nested in `data.message` for a
 * subagent's progress line), or a tool call (a `name` with `input` or `arguments`).
 */
function heldReply(record: JsonObject): string | null {
  if (record['type'] === 'user') return null;
  if (typeof record['name'] === 'string' && ('input' in record || 'arguments' in record || 'parameters' in record)) return 'a tool call';
  if (typeof record['tool_name'] === 'string') return 'a tool call';
  const isAssistantMessage = (m: JsonObject) => m['role'] === 'assistant' || arr(m['content']).some((b) => isObject(b) && typeof b['type'] === 'string' && b['type'].endsWith('tool_use'));
  // object values three levels down (`message`, `data.message.message`, `turn.message`, ...)
  let level: JsonObject[] = [record];
  for (let depth = 0; depth < 3 && level.length > 0; depth++) {
    const next: JsonObject[] = [];
    for (const v of level) {
      for (const key in v) {
        const child = v[key];
        if (!isObject(child)) continue;
        if (isAssistantMessage(child)) return depth === 0 && key === 'message' ? 'an assistant message' : `an assistant message (under ${JSON.stringify(key)})`;
        if (next.length < 64) next.push(child);
      }
    }
    level = next;
  }
  return null;
}

interface Group {
  messageId: string;
  line: number;
  parts: BlockParts;
  model: string | undefined;
  stopReason: string | undefined;
  added: number;
}

/**
 * A key identifying a content block for de-duplication: tool blocks by `type:id`; a plain text
 * block (exactly `type` then `text`, what Claude Code writes) by `T` + the SHA-1 of its text;
 * any other block by the SHA-1 of its JSON. Two blocks get the same key when their JSON is the
 * same: a plain text block's JSON is fixed by its text, so hashing the text alone skips
 * serialising it. The three kinds cannot collide: id keys hold a `:`, hash keys do not, and only
 * text keys are 41 characters long.
 */
function blockKey(block: unknown): string {
  if (isObject(block)) {
    const id = str(block['id']);
    // a tool block by its id and its input: the same id with another input is another call, read too
    if (id) return `${String(block['type'])}:${id}:${hexDigest('sha1', JSON.stringify(block['input']) ?? '')}`;
    if (isPlainTextBlock(block)) return `T${hexDigest('sha1', block.text)}`;
  }
  return hexDigest('sha1', JSON.stringify(block) ?? '');
}

/** True for `{"type":"text","text":"..."}` with exactly those keys in that order (its JSON is then fixed by `text`). */
function isPlainTextBlock(block: JsonObject): block is { type: 'text'; text: string } {
  let n = 0;
  for (const key in block) {
    if (n === 2 || key !== (n === 0 ? 'type' : 'text')) return false;
    n++;
  }
  return n === 2 && block['type'] === 'text' && typeof block['text'] === 'string';
}

/**
 * Stateful reader for one Claude Code file. Feed every Claude Code line in order with
 * {@link ClaudeCodeReader.push}, then call {@link ClaudeCodeReader.finish}.
 */
export class ClaudeCodeReader {
  private group: Group | null = null;
  /** Block keys already used, per message id (memory: one short key per content block). */
  private readonly seen = new Map<string, Set<string>>();

  /** `stream_event` content lines since the last assistant line, and the line of the first. */
  private streamEvents = 0;
  private streamEventLine = 0;

  constructor(private readonly file: string) {}

  /**
   * Reads one line (`isClaudeCodeLine` holds). Assistant lines join or start a group; an
   * assistant line with another `message.id` closes the open group (a `user` line between the
   * lines of one response does not). Other line types
   * (summaries, snapshots, system lines) are skipped, unless one holds an assistant message: that
   * is an INVALID_RECORD error (a line type newer than this reader).
   *
   * @param line 1-based line number of the record.
   * @returns the replies closed by this line, and INVALID_RECORD problems (tool block with no name).
   */
  push(record: JsonObject, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    const type = record['type'];
    // a subagent's turn, repeated in the session as a progress line (`data.message` is the
    // subagent's own assistant or user line): read like the session's own lines
    const data = record['data'];
    if (type === 'progress' && isObject(data) && isObject(data['message']) && (data['message']['type'] === 'assistant' || data['message']['type'] === 'user')) {
      return this.push(data['message'], line);
    }
    // a user line (a tool result) may fall between the lines of one response: only another
    // message id closes the group, so one API response stays one reply
    if (type === 'user') return out;
    const message = record['message'];
    if (type !== 'assistant') {
      this.other(record, String(type), line, out);
      return out;
    }
    if (!isObject(message) || !('content' in message)) {
      const what = !isObject(message) ? `its message is ${message === undefined ? 'missing' : `not an object (${typeof message})`}` : 'its message has no content';
      out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `an assistant line guard cannot read: ${what}; nothing of it is judged`));
      return out;
    }
    this.streamEvents = 0;
    const messageId = str(message['id']) ?? str(record['uuid']) ?? `line:${line}`;
    if (this.group && this.group.messageId !== messageId) this.close(out);
    const group = (this.group ??= {
      messageId,
      line,
      parts: { texts: [], reasoning: [], toolCalls: [] },
      model: undefined,
      stopReason: undefined,
      added: 0,
    });
    group.model = str(message['model']) ?? group.model;
    group.stopReason = str(message['stop_reason']) ?? group.stopReason;
    let seen = this.seen.get(messageId);
    if (!seen) this.seen.set(messageId, (seen = new Set()));
    const content = message['content'];
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : arr(content);
    blocks.forEach((block, index) => {
      const key = blockKey(block);
      if (seen.has(key)) return;
      seen.add(key);
      group.added++;
      readContentBlock(block, group.parts, { file: this.file, line }, out, index);
    });
    return out;
  }

  /** End of input: the reply of the open group, if any, and the stream events no assistant line followed. */
  finish(): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    this.close(out);
    if (this.streamEvents > 0) {
      const n = this.streamEvents;
      out.errors.push(captureError(this.file, this.streamEventLine, 'INVALID_RECORD', `${n} stream_event line${n === 1 ? '' : 's'} from here on carry a response that no assistant line follows (the run was cut before it): their content is not judged`));
    }
    return out;
  }

  /**
   * A line of another type than `assistant`: skipped when it is known bookkeeping holding no
   * reply; an error when it holds what a reply holds (an assistant message, at its top or nested
   * as a subagent's `data.message`, or a tool call's name and input); a warning for an unknown
   * type holding neither. `stream_event` lines that open or fill content blocks are counted until
   * an assistant line closes them ({@link finish}).
   */
  private other(record: JsonObject, type: string, line: number, out: RecordOutput): void {
    if (type === 'stream_event') {
      const event = isObject(record['event']) ? record['event'] : {};
      if (typeof event['type'] === 'string' && event['type'].startsWith('content_block')) {
        if (this.streamEvents === 0) this.streamEventLine = line;
        this.streamEvents++;
      }
      return;
    }
    const held = heldReply(record);
    const name = JSON.stringify(type.slice(0, 60));
    if (held !== null) out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `a line of type ${name} holds ${held} guard does not read: its content is not judged`));
    else if (!KNOWN_TYPES.has(type)) out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `a line of type ${name} is not a Claude Code line type guard knows; skipped`, 'warning'));
  }

  private close(out: RecordOutput): void {
    const g = this.group;
    this.group = null;
    if (!g || g.added === 0) return;
    const reply: Reply = {
      source: { file: this.file, line: g.line },
      format: 'claude-code',
      id: g.messageId.startsWith('line:') ? null : g.messageId,
      advertised: null,
      ...joinBlockParts(g.parts),
      truncated: g.stopReason === 'max_tokens',
    };
    if (g.model) reply.model = g.model;
    if (g.stopReason) reply.finishReason = g.stopReason;
    out.replies.push(reply);
  }
}
