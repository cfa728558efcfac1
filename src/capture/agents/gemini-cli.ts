/**
 * Gemini CLI chat recordings (`~/.gemini/tmp/<project hash>/chats/session-*.json` and
 * `session-*.jsonl`).
 *
 * Schema: google-gemini/gemini-cli `packages/core/src/services/chatRecordingTypes.ts`
 * (`ConversationRecord`, `MessageRecord`, `ToolCallRecord`, `RewindRecord`, `MetadataUpdateRecord`,
 * `PartialMetadataRecord`) and the writer `chatRecordingService.ts`
 * (https://github.com/google-gemini/gemini-cli/blob/016443b5e7bf36fc40313db8a901f639a4426a14/packages/core/src/services/chatRecordingService.ts,
 * types at https://github.com/google-gemini/gemini-cli/blob/04741d1d7383bce06c0f0a22101561b619a75dd3/packages/core/src/services/chatRecordingTypes.ts).
 *
 * Two layouts:
 * - legacy `session-*.json`: one `ConversationRecord` `{sessionId, projectHash, startTime,
 *   lastUpdated, messages[], summary?}`; the document splitter reads `messages` one message at a
 *   time (formats.ts `envelope`);
 * - current `session-*.jsonl`, an append log: a metadata line `{sessionId, projectHash, …}`, then
 *   `MessageRecord` lines, `{"$set": {…}}` metadata patches and `{"$rewindTo": id}` markers. The
 *   writer appends a message again, whole, each time its tokens or tool calls change (only the
 *   last message is ever updated), so the lines of one message id are one message, its last
 *   version the complete one.
 *
 * One reply per `type: "gemini"` message (the record of one model turn): `content` (a string or
 * `PartListUnion`) is the text, `thoughts[]` (`{subject, description}`) the reasoning,
 * `toolCalls[]` (`{id, name, args}`, whatever their `status`) the calls. `user`, `info`, `error`
 * and `warning` messages are not replies. A message id already read is not read again (a
 * `$set.messages` history sync repeats every message); `$rewindTo` does not take back replies that
 * were made (the model did produce them). Advertised tools are not recorded: `advertised` null.
 */

import { jsonDigest } from '../../base/digest.js';
import { arr, captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';
import { makeToolCall } from '../toolcall.js';
import { contextAt, emptyParts, partsReply, reportUnreadMembers } from './common.js';

const MESSAGE_TYPES: ReadonlySet<string> = new Set(['user', 'gemini', 'info', 'error', 'warning']);

/** The metadata of a session (a conversation record, or a JSONL file's first line). */
function isSessionHead(v: JsonObject): boolean {
  return typeof v['sessionId'] === 'string' && typeof v['projectHash'] === 'string';
}

/** A `MessageRecord`: string `id`, `type` among the message types, string `timestamp`, and a `content` (a string or parts). */
function isMessageRecord(v: JsonObject): boolean {
  const c = v['content'];
  return (
    typeof v['id'] === 'string' &&
    typeof v['type'] === 'string' &&
    MESSAGE_TYPES.has(v['type']) &&
    typeof v['timestamp'] === 'string' &&
    (typeof c === 'string' || Array.isArray(c) || isObject(c) || (v['type'] === 'gemini' && Array.isArray(v['toolCalls'])))
  );
}

/** The `ConversationRecord` keys a `$set` patch sets. */
const CONVERSATION_KEYS = ['sessionId', 'projectHash', 'startTime', 'lastUpdated', 'messages', 'summary', 'directories', 'kind', 'memoryScratchpad', 'activeExtensionName'];

/** The members of a session record guard reads or knows to hold no model output. */
const SESSION_KEYS: ReadonlySet<string> = new Set(CONVERSATION_KEYS);

/** A `MetadataUpdateRecord`: `{$set: {…}}` setting a `ConversationRecord` key. */
function isMetadataUpdate(v: JsonObject): boolean {
  const set = v['$set'];
  return isObject(set) && CONVERSATION_KEYS.some((k) => k in set);
}

/** Part keys that hold nothing to judge: a tool's response, media (an image the user sent or the model made). */
const INERT_PART_KEYS = ['functionResponse', 'inlineData', 'fileData'];

/** True for any record of a Gemini CLI recording: a conversation or metadata record, a message, a `$set` or `$rewindTo`. */
export function isGeminiCliRecord(v: unknown): v is JsonObject {
  if (!isObject(v)) return false;
  return isSessionHead(v) || isMessageRecord(v) || typeof v['$rewindTo'] === 'string' || isMetadataUpdate(v);
}

/** Under `--input-format gemini-cli`: any object with `messages[]`, a message-like `type`, or the log's `$` keys. */
export function acceptsGeminiCli(v: unknown): boolean {
  return isObject(v) && (Array.isArray(v['messages']) || typeof v['type'] === 'string' || '$set' in v || '$rewindTo' in v || isSessionHead(v));
}

/** The envelope claim: the `messages` of a document whose members before it name a session. */
export function claimsGeminiCli(head: JsonObject): boolean {
  return isSessionHead(head);
}

interface Pending {
  id: string;
  record: JsonObject;
  line: number;
}

/** Reads the records of one Gemini CLI recording (see the module header). */
export class GeminiCliReader {
  /** The latest gemini message, held until a record of another message comes (its later versions replace it). */
  private pending: Pending | null = null;
  /** The messages read: id → digest of what the model wrote in it (content and calls, not the calls' status or results). */
  private readonly read = new Map<string, string>();

  constructor(private readonly file: string) {}

  push(record: unknown, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (!isObject(record)) return this.invalid(out, line, 'a record that is not a JSON object');
    if (isSessionHead(record)) reportUnreadMembers(this.file, line, record, SESSION_KEYS, 'the session record', out);
    if (isMessageRecord(record)) this.message(record, line, out);
    else if (Array.isArray(record['messages'])) for (const m of record['messages']) this.message(m, line, out);
    else if (isObject(record['$set']) && Array.isArray(record['$set']['messages'])) for (const m of record['$set']['messages']) this.message(m, line, out);
    else if (!(isSessionHead(record) || '$set' in record || '$rewindTo' in record)) {
      return this.invalid(out, line, `a record with keys ${Object.keys(record).slice(0, 6).join(', ') || '(none)'}`);
    }
    return out;
  }

  element(key: string, _index: number, value: unknown, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (key === 'messages') this.message(value, line, out);
    return out;
  }

  finish(): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    this.flush(out);
    return out;
  }

  private invalid(out: RecordOutput, line: number, what: string): RecordOutput {
    out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `${what} is not a Gemini CLI record; skipped`));
    return out;
  }

  /** One message: a gemini message is held (its later versions replace it); any other ends the held one. */
  private message(m: unknown, line: number, out: RecordOutput): void {
    if (!isObject(m)) {
      this.invalid(out, line, 'a message that is not a JSON object');
      return;
    }
    const type = str(m['type']);
    const id = str(m['id']);
    if (this.pending && id !== undefined && this.pending.id === id) {
      if (type === 'gemini') this.pending.record = m;
      return;
    }
    this.flush(out);
    if (type !== 'gemini') {
      if (type === undefined || !MESSAGE_TYPES.has(type)) {
        out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `a message of type ${JSON.stringify(m['type'] ?? null)} is not a Gemini CLI message type; skipped`));
      }
      if (id !== undefined) this.read.set(id, '');
      return;
    }
    if (id === undefined) {
      this.reply(m, line, out);
      return;
    }
    // a message read before (a history sync repeats them) is skipped, unless what the model wrote
    // in it changed: that version is read too (red-team: a later version with a call was dropped)
    if (this.read.get(id) === modelDigest(m)) return;
    this.pending = { id, record: m, line };
  }

  private flush(out: RecordOutput): void {
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    this.read.set(p.id, modelDigest(p.record));
    this.reply(p.record, p.line, out);
  }

  /** The reply of one gemini message. */
  private reply(m: JsonObject, line: number, out: RecordOutput): void {
    const ctx = contextAt(this.file, line, 'gemini-cli');
    const parts = emptyParts();
    const skipped = new Set<string>();
    const content = m['content'];
    const callIds = new Set(arr(m['toolCalls']).map((c) => (isObject(c) ? str(c['id']) : undefined)).filter((x) => x !== undefined));
    const contentParts = typeof content === 'string' ? [{ text: content }] : Array.isArray(content) ? content : isObject(content) ? [content] : [];
    for (const part of contentParts) {
      if (typeof part === 'string') parts.text.add(part);
      else if (!isObject(part)) continue;
      else if (typeof part['text'] === 'string') {
        if (part['thought'] === true) parts.reasoning.push(part['text']);
        else parts.text.add(part['text']);
      }
      else if (isObject(part['functionCall'])) {
        const fc = part['functionCall'];
        const name = str(fc['name']);
        if (!name) out.errors.push(captureError(this.file, line, 'INVALID_RECORD', 'a functionCall part has no name; it was skipped'));
        else if (!callIds.has(str(fc['id']) ?? '')) parts.toolCalls.push(makeToolCall(str(fc['id']), name, 'function', fc['args'], { entry: fc, read: ['args'], optional: true }));
      } else if (!INERT_PART_KEYS.some((k) => k in part) && !('thoughtSignature' in part && Object.keys(part).length === 1)) {
        skipped.add(Object.keys(part)[0] ?? '(empty part)');
      }
    }
    for (const t of arr(m['thoughts'])) {
      if (!isObject(t)) continue;
      const text = [str(t['subject']), str(t['description'])].filter((x) => x).join('\n');
      if (text) parts.reasoning.push(text);
    }
    const calls = [];
    for (const c of arr(m['toolCalls'])) {
      if (!isObject(c) || !str(c['name'])) {
        out.errors.push(captureError(this.file, line, 'INVALID_RECORD', 'a toolCalls entry has no name; it was skipped'));
        continue;
      }
      calls.push(makeToolCall(str(c['id']), str(c['name'])!, 'function', c['args'], { entry: c, read: ['args', 'response'] }));
    }
    parts.toolCalls.unshift(...calls);
    if (skipped.size > 0) {
      out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `content parts ${[...skipped].map((k) => JSON.stringify(k)).join(', ')} were not read (not text or a function call): what they hold (a call, its arguments) is not judged`));
    }
    out.replies.push(partsReply(parts, ctx, { id: str(m['id']) ?? null, model: str(m['model']) }));
  }
}

/** A digest of what the model wrote in a message: its content, thoughts and calls' names and arguments (not their status or results). */
function modelDigest(m: JsonObject): string {
  const calls = arr(m['toolCalls']).map((c) => (isObject(c) ? [c['id'], c['name'], c['args']] : c));
  return jsonDigest([m['content'], m['thoughts'], calls]);
}
