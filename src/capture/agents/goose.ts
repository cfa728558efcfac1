/**
 * Goose sessions: the legacy JSON Lines session files (`~/.local/share/goose/sessions/*.jsonl`,
 * before Goose 1.10 moved sessions into SQLite), the `goose run --output-format stream-json`
 * stream, and a session as `goose session export --format json` and the server's
 * `GET /sessions/{id}` give it (the `Session` struct: `{id, working_dir, name, created_at, …,
 * conversation: [<Message>…], message_count, …}`, block/goose `crates/goose/src/session/model.rs`
 * @ 865e4a030a67eb0c51869874b9c758cb1eb10595,
 * https://github.com/block/goose/blob/865e4a030a67eb0c51869874b9c758cb1eb10595/crates/goose/src/session/model.rs;
 * its `conversation` is read one message at a time, formats.ts `envelope`).
 *
 * Schema: block/goose `crates/goose/src/conversation/message.rs` (`Message{id?, role, created,
 * content[], metadata}`; `MessageContent`, serde tag `type`, camelCase: `text`, `image`,
 * `toolRequest{id, toolCall}`, `toolResponse`, `toolConfirmationRequest`, `actionRequired`,
 * `frontendToolRequest{id, toolCall}`, `thinking{thinking, signature}`, `redactedThinking`,
 * `systemNotification`; a `toolCall` is `{status: "success", value: {name, arguments}}` or
 * `{status: "error", error}`),
 * https://github.com/block/goose/blob/05132966065f7dd80b97af7d080a41328d103073/crates/goose/src/conversation/message.rs,
 * and `crates/goose/src/session/legacy.rs` (the first line is the `SessionMetadata`
 * `{working_dir, description, message_count, total_tokens, …}`, then one message per line),
 * https://github.com/block/goose/blob/0fc5e54062be2712f705269265e928c17bceee83/crates/goose/src/session/legacy.rs.
 * No real session file was found in a public repository; the fixtures are built from these
 * sources (fixtures/SOURCES.md).
 *
 * One reply per assistant message: `text` items are the text, `thinking` the reasoning,
 * `toolRequest` / `frontendToolRequest` items the calls (a request Goose could not parse, status
 * `error`, is reported). Stream-json lines are `{"type": "message", "message": <Message>}`,
 * `{"type": "notification", …}` and `{"type": "complete", …}`.
 */

import { arr, captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';
import { makeToolCall } from '../toolcall.js';
import { contextAt, emptyParts, partsReply, reportUnreadMembers } from './common.js';

/** Content types that are no model output to read. */
const INERT: ReadonlySet<string> = new Set(['toolResponse', 'toolConfirmationRequest', 'actionRequired', 'redactedThinking', 'systemNotification', 'conversationCompacted']);

/** A Goose `Message`: a role, a numeric `created` and a content list. */
function isGooseMessage(v: unknown): v is JsonObject {
  return isObject(v) && typeof v['role'] === 'string' && typeof v['created'] === 'number' && Array.isArray(v['content']);
}

/** True for a line of a Goose session (metadata or message) or of its stream-json output. */
export function isGooseRecord(v: unknown): v is JsonObject {
  if (!isObject(v)) return false;
  if (isGooseMessage(v)) return true;
  if (isGooseSession(v)) return true;
  const type = v['type'];
  if (type === 'message') return isGooseMessage(v['message']) || (isObject(v['message']) && arr(v['message']['content']).some((c) => isObject(c) && c['type'] === 'toolRequest'));
  return (type === 'complete' && 'total_tokens' in v) || (type === 'notification' && 'extensionId' in v);
}

/** The members of a `Session` (and of the legacy `SessionMetadata`): none but `conversation` holds messages. */
const SESSION_KEYS: ReadonlySet<string> = new Set([
  'id', 'working_dir', 'name', 'description', 'user_set_name', 'session_type', 'created_at', 'updated_at', 'extension_data',
  'total_tokens', 'input_tokens', 'output_tokens', 'accumulated_total_tokens', 'accumulated_input_tokens', 'accumulated_output_tokens',
  'accumulated_cost', 'schedule_id', 'recipe', 'user_recipe_values', 'conversation', 'message_count', 'provider_name', 'model_config',
  'goose_mode', 'archived_at', 'project_id',
]);

/** True for a `Session` (its metadata; the messages, when there are any, in `conversation`). */
function isGooseSession(v: JsonObject): boolean {
  return typeof v['working_dir'] === 'string' && ('message_count' in v || 'description' in v || Array.isArray(v['conversation']));
}

/**
 * The envelope claim: the `conversation` of an exported session, when the members before it hold
 * the session's `working_dir` (serde writes the struct's fields in order, `working_dir` second).
 */
export function claimsGoose(key: string, head: JsonObject): boolean {
  return key === 'conversation' && typeof head['working_dir'] === 'string';
}

/** Reads the lines of one Goose session or stream (see the module header). */
export class GooseReader {
  /**
   * The assistant message being read: `goose run --output-format stream-json` writes one message
   * in several lines under the same id (its text in pieces), joined here into one reply.
   */
  private open: { id: string | null; line: number; content: unknown[] } | null = null;

  constructor(private readonly file: string) {}

  push(record: unknown, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (!isObject(record)) return out;
    if (isGooseSession(record)) reportUnreadMembers(this.file, line, record, SESSION_KEYS, 'the session record', out);
    if (Array.isArray(record['conversation'])) {
      // a whole exported session (not split: its conversation came before its working_dir)
      for (const m of record['conversation']) this.merge(this.element('conversation', 0, m, line), out);
      this.close(out);
      return out;
    }
    const message = record['type'] === 'message' && isObject(record['message']) ? record['message'] : record;
    if (message['role'] !== 'assistant' || !Array.isArray(message['content'])) {
      // another message (the user's, a tool's) or event ends the open one
      if (message['role'] !== undefined || record['type'] === 'complete') this.close(out);
      return out;
    }
    const id = str(message['id']) ?? null;
    if (this.open !== null && (id === null || this.open.id !== id)) this.close(out);
    this.open ??= { id, line, content: [] };
    this.open.content.push(...message['content']);
    return out;
  }

  /** One message of an exported session's `conversation`. */
  element(_key: string, _index: number, value: unknown, line: number): RecordOutput {
    if (!isGooseMessage(value)) {
      const out: RecordOutput = { replies: [], errors: [] };
      out.errors.push(captureError(this.file, line, 'INVALID_RECORD', 'an element of the session\'s conversation is not a Goose message {role, created, content[]}; skipped'));
      return out;
    }
    return this.push(value, line);
  }

  finish(): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    this.close(out);
    return out;
  }

  private merge(from: RecordOutput, into: RecordOutput): void {
    into.replies.push(...from.replies);
    into.errors.push(...from.errors);
  }

  /** Yields the open message: its content items in order, consecutive text pieces joined. */
  private close(out: RecordOutput): void {
    const m = this.open;
    this.open = null;
    if (m === null) return;
    const line = m.line;
    const ctx = contextAt(this.file, line, 'goose');
    const parts = emptyParts();
    const skipped = new Set<string>();
    let text: string | null = null;
    const flushText = () => {
      if (text !== null) parts.text.add(text);
      text = null;
    };
    for (const c of m.content) {
      if (!isObject(c)) continue;
      const type = str(c['type']) ?? '';
      if (type === 'text') {
        text = (text ?? '') + (str(c['text']) ?? '');
        continue;
      }
      flushText();
      if (type === 'thinking') {
        const t = str(c['thinking']);
        if (t) parts.reasoning.push(t);
      } else if (type === 'toolRequest' || type === 'frontendToolRequest') {
        const call = isObject(c['toolCall']) ? c['toolCall'] : {};
        if (call['status'] === 'error') {
          out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `a ${type} Goose could not parse (${str(call['error']) ?? 'no reason given'}) was not read`, 'warning'));
          continue;
        }
        const value = isObject(call['value']) ? call['value'] : call;
        const name = str(value['name']);
        if (!name) out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `a ${type} has no tool name; it was skipped`));
        else parts.toolCalls.push(makeToolCall(str(c['id']), name, 'function', value['arguments'], { entry: value, read: ['arguments'], optional: true }));
      } else if (!INERT.has(type)) skipped.add(type || '(no type)');
    }
    flushText();
    if (skipped.size > 0) {
      out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `content of type ${[...skipped].map((t) => JSON.stringify(t)).join(', ')} was not read: what they hold (a call, its arguments) is not judged`));
    }
    out.replies.push(partsReply(parts, ctx, { id: m.id }));
  }
}
