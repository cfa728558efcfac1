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
 * replies carry `advertised: null`.
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
    if (id) return `${String(block['type'])}:${id}`;
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

  constructor(private readonly file: string) {}

  /**
   * Reads one line (`isClaudeCodeLine` holds). Assistant lines join or start a group; a `user`
   * line or an assistant line with another `message.id` closes the open group. Other line types
   * (summaries, snapshots, system lines) are skipped, unless one holds an assistant message: that
   * is an INVALID_RECORD error (a line type newer than this reader).
   *
   * @param line 1-based line number of the record.
   * @returns the replies closed by this line, and INVALID_RECORD problems (tool block with no name).
   */
  push(record: JsonObject, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    const type = record['type'];
    if (type === 'user') {
      this.close(out);
      return out;
    }
    const message = record['message'];
    if (type !== 'assistant' && isObject(message) && message['role'] === 'assistant') {
      // an assistant message under a line type this reader does not know: reported, never dropped
      out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `a line of type ${JSON.stringify(String(type).slice(0, 60))} holds an assistant message guard does not read: its content is not judged`));
      return out;
    }
    if (type !== 'assistant' || !isObject(message)) return out;
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
    for (const block of blocks) {
      const key = blockKey(block);
      if (seen.has(key)) continue;
      seen.add(key);
      group.added++;
      readContentBlock(block, group.parts, { file: this.file, line }, out);
    }
    return out;
  }

  /** End of input: the reply of the open group, if any. */
  finish(): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    this.close(out);
    return out;
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
