/**
 * OpenCode sessions: messages with their parts, as the OpenCode server returns them
 * (`GET /session/:id/message`, `POST /session/:id/message`, the SDK's `{data, request,
 * response}` result), as `opencode export` writes them (`{info: <session>, messages: [...]}`), as
 * the storage keeps them (one `message/<session>/<message>.json` info and one
 * `part/<message>/<part>.json` per part), and as `opencode run --format json` streams them (one
 * `{type, timestamp, sessionID, part}` event per line).
 *
 * Schema: anomalyco/opencode (formerly sst/opencode) `packages/opencode/src/session/message-v2.ts`
 * (`MessageV2.Assistant`, `MessageV2.Part`: `text`, `reasoning`, `tool{callID, tool,
 * state{status, input, …}}`, `step-start`, `step-finish`, `snapshot`, `patch`, `file`, `agent`,
 * `retry`, `compaction`, `subtask`; `WithParts = {info, parts}`),
 * https://github.com/anomalyco/opencode/blob/007a9409bafea06d6b9084ff1f6d1fe9f5e3a803/packages/opencode/src/session/message-v2.ts.
 *
 * One reply per assistant message with its parts: `text` parts are the text, `reasoning` parts
 * the reasoning, `tool` parts the calls (`tool` the name, `state.input` the arguments, whatever
 * the status). Lone parts (storage part files, `run --format json` events) are grouped by
 * `messageID` while consecutive; a text part alone does not say whose it is (the role is in the
 * message file), so it is read as a reply. User messages and message infos without parts hold
 * no reply. Advertised tools are not stored: `advertised` null.
 */

import { arr, captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';
import { makeToolCall } from '../toolcall.js';
import { contextAt, emptyParts, partsReply, reportUnreadMembers, type MessageParts } from './common.js';

/** Part types that hold no text, reasoning or call. */
const INERT_PARTS: ReadonlySet<string> = new Set(['step-start', 'step-finish', 'snapshot', 'patch', 'agent', 'retry', 'compaction', 'subtask', 'file']);

/** A message info: a role, a `sessionID` and a `time` object (an Anthropic message, also `msg_…`, has neither). */
const isInfo = (v: unknown): v is JsonObject => isObject(v) && typeof v['role'] === 'string' && typeof v['sessionID'] === 'string' && isObject(v['time']);

/** `{info, parts}`: one message with its parts. */
function isWithParts(v: unknown): v is JsonObject {
  return isObject(v) && isInfo(v['info']) && Array.isArray(v['parts']);
}

/** A stored part: `id` `prt_…`, a `sessionID`, a `messageID` and a string `type`. */
function isPart(v: unknown): v is JsonObject {
  return isObject(v) && typeof v['messageID'] === 'string' && typeof v['sessionID'] === 'string' && typeof v['type'] === 'string' && typeof v['id'] === 'string' && v['id'].startsWith('prt');
}

/** A `run --format json` event: a string `type`, a `sessionID` and a `part`. */
function isRunEvent(v: JsonObject): boolean {
  return typeof v['type'] === 'string' && typeof v['sessionID'] === 'string' && isPart(v['part']);
}

/** The members of an export: the session's `info` and its `messages`. */
const EXPORT_KEYS: ReadonlySet<string> = new Set(['info', 'messages']);

/** An export: `{info: <session ses_…>, messages: [...]}`. */
function isExport(v: JsonObject): boolean {
  return isObject(v['info']) && typeof v['info']['id'] === 'string' && v['info']['id'].startsWith('ses') && Array.isArray(v['messages']);
}

/** The SDK's result wrapper around one message or a list of them. */
function isSdkResult(v: JsonObject): boolean {
  const data = v['data'];
  return Object.keys(v).every((k) => k === 'data' || k === 'request' || k === 'response' || k === 'error') && (isWithParts(data) || (Array.isArray(data) && data.length > 0 && data.every(isWithParts)));
}

/** True for any OpenCode record (see the module header). */
export function isOpenCodeRecord(v: unknown): v is JsonObject {
  if (!isObject(v)) return false;
  if (isWithParts(v) || isExport(v) || isSdkResult(v) || isRunEvent(v)) return true;
  const id = str(v['id']);
  return id !== undefined && ((id.startsWith('msg_') && isInfo(v)) || (id.startsWith('prt_') && isPart(v)));
}

/** The envelope claim: the `messages` of an export. */
export function claimsOpenCode(key: string, head: JsonObject): boolean {
  return key === 'messages' && isObject(head['info']) && typeof head['info']['id'] === 'string' && head['info']['id'].startsWith('ses');
}

interface Group {
  messageId: string;
  line: number;
  parts: MessageParts;
}

/** Reads the records of one OpenCode file (see the module header). */
export class OpenCodeReader {
  private group: Group | null = null;

  constructor(private readonly file: string) {}

  push(record: unknown, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (!isObject(record)) return out;
    if (isRunEvent(record)) this.part(record['part'] as JsonObject, line, out);
    else if (isPart(record)) this.part(record, line, out);
    else {
      this.close(out);
      if (isWithParts(record)) this.message(record, line, out);
      else if (isExport(record)) {
        reportUnreadMembers(this.file, line, record, EXPORT_KEYS, 'the export', out);
        for (const m of arr(record['messages'])) this.message(m, line, out);
      }
      else if (isObject(record) && 'data' in record) for (const m of Array.isArray(record['data']) ? record['data'] : [record['data']]) this.message(m, line, out);
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
    this.close(out);
    return out;
  }

  private message(m: unknown, line: number, out: RecordOutput): void {
    if (!isWithParts(m)) {
      out.errors.push(captureError(this.file, line, 'INVALID_RECORD', 'a message without info and parts is not an OpenCode message; skipped'));
      return;
    }
    const info = m['info'] as JsonObject;
    if (info['role'] !== 'assistant') return;
    const parts = emptyParts();
    for (const p of arr(m['parts'])) this.readPart(p, parts, line, out);
    const error = isObject(info['error']) ? str(info['error']['name']) : undefined;
    out.replies.push(
      partsReply(parts, contextAt(this.file, line, 'opencode'), { id: str(info['id']) ?? null, model: str(info['modelID']), finishReason: str(info['finish']), truncated: error === 'MessageOutputLengthError' }),
    );
  }

  /** A lone part: joins the group of its message, or closes it and opens its own. */
  private part(p: JsonObject, line: number, out: RecordOutput): void {
    const messageId = p['messageID'] as string;
    if (this.group && this.group.messageId !== messageId) this.close(out);
    this.group ??= { messageId, line, parts: emptyParts() };
    this.readPart(p, this.group.parts, line, out);
  }

  private readPart(p: unknown, parts: MessageParts, line: number, out: RecordOutput): void {
    if (!isObject(p)) return;
    const type = str(p['type']) ?? '';
    if (type === 'text') parts.text.add(str(p['text']) ?? '');
    else if (type === 'reasoning') {
      const t = str(p['text']);
      if (t) parts.reasoning.push(t);
    } else if (type === 'tool') {
      const name = str(p['tool']);
      const state = isObject(p['state']) ? p['state'] : {};
      if (!name) out.errors.push(captureError(this.file, line, 'INVALID_RECORD', 'a tool part has no tool name; it was skipped'));
      else {
        // a pending call (ToolStatePending) is still streaming: its input is `{}` and what the
        // model wrote so far is in `raw`, which is then read (parsed, or reported unreadable)
        const input = state['input'];
        const raw = str(state['raw']);
        const empty = isObject(input) && Object.keys(input).length === 0;
        const args = raw !== undefined && raw.trim() !== '' && (input === undefined || empty) ? raw : (input ?? raw);
        parts.toolCalls.push(makeToolCall(str(p['callID']), name, 'function', args, { entry: state, read: ['input', 'raw', 'time'] }));
      }
    } else if (!INERT_PARTS.has(type)) {
      out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `an OpenCode part of type ${JSON.stringify(type)} was not read (no text, reasoning or tool call guard knows): what they hold (a call, its arguments) is not judged`));
    }
  }

  private close(out: RecordOutput): void {
    const g = this.group;
    this.group = null;
    if (!g || (g.parts.text.text === '' && g.parts.reasoning.length === 0 && g.parts.toolCalls.length === 0)) return;
    out.replies.push(partsReply(g.parts, contextAt(this.file, g.line, 'opencode'), { id: g.messageId }));
  }
}
