/**
 * OpenAI Codex CLI rollout files (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`).
 *
 * Format: `RolloutLine` / `RolloutItem` in openai/codex codex-rs/protocol/src/protocol.rs,
 * https://github.com/openai/codex/blob/main/codex-rs/protocol/src/protocol.rs (no commit recorded;
 * docs/sources.md "Agent transcripts"). Each line is `{timestamp, type, payload}`; `response_item`
 * payloads are Responses-API items. One model sampling writes its reasoning, assistant message
 * and tool-call items one per line, so a run of consecutive assistant-side items (assistant
 * `message`, `reasoning`, `function_call`, `custom_tool_call`, `local_shell_call`, ...) forms one
 * reply. The run ends at a user/developer/system message, a tool output item
 * (`function_call_output`, ...) or a `turn_context` line. `event_msg` lines are ignored: their
 * `agent_message` duplicates the assistant `response_item`. Advertised tools are not persisted;
 * replies carry `session_meta.payload.dynamic_tools` when present, else null.
 */

import { captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';
import { readResponsesItem, unreadItemError } from '../streams/responses-items.js';
import { advertisedFromRequest } from '../toolcall.js';
import type { AdvertisedTool, CaptureError, Reply, ToolCall } from '../types.js';

/** The `RolloutItem` variants (the line `type`). */
const ROLLOUT_TYPES: ReadonlySet<string> = new Set([
  'session_meta',
  'turn_context',
  'response_item',
  'event_msg',
  'compacted',
  'world_state',
]);

/** Assistant-side `response_item` payload types that belong to a reply. */
const REPLY_ITEM_TYPES: ReadonlySet<string> = new Set([
  'reasoning',
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'shell_call',
  'apply_patch_call',
  'mcp_call',
]);

/**
 * True for a Codex rollout line: an object `payload` and a string `type` that is a known
 * `RolloutItem` variant (or any variant when the line also has a string `timestamp`).
 */
export function isCodexLine(v: unknown): v is JsonObject {
  if (!isObject(v) || !isObject(v['payload'])) return false;
  const type = v['type'];
  if (typeof type !== 'string') return false;
  return ROLLOUT_TYPES.has(type) || typeof v['timestamp'] === 'string';
}

/** `response_item` payload types Codex writes that hold no reply content (its own snapshots, its unparsed `other`). */
const CONTENTLESS_ITEMS: ReadonlySet<string> = new Set(['ghost_snapshot', 'compaction', 'compaction_summary', 'other']);

/**
 * The problem of a rollout line of a type this reader does not know (a newer Codex): an error when
 * its payload holds what a reply holds (an assistant message or a tool-call item, something with
 * a name and arguments), else a warning; either way the line is not read.
 */
function unknownLineProblem(file: string, line: number, type: string, payload: JsonObject): CaptureError {
  const t = str(payload['type']);
  const replyLike = payload['role'] === 'assistant' || (t !== undefined && REPLY_ITEM_TYPES.has(t)) || ('name' in payload && ('arguments' in payload || 'input' in payload));
  const what = `a Codex rollout line of type ${JSON.stringify(type.slice(0, 60))}`;
  return replyLike
    ? captureError(file, line, 'INVALID_RECORD', `${what} holds a reply item (${t ?? 'no payload type'}) but is not a line type guard reads; not judged`)
    : captureError(file, line, 'INVALID_RECORD', `${what} is not a line type guard reads; skipped`, 'warning');
}

interface Group {
  line: number;
  id: string | undefined;
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
}

/**
 * Stateful reader for one Codex rollout file. Feed every rollout line in order with
 * {@link CodexReader.push}, then call {@link CodexReader.finish}.
 */
export class CodexReader {
  private group: Group | null = null;
  private advertised: AdvertisedTool[] | null = null;
  private model: string | undefined;
  /** A line of a known rollout type was seen; the first of another type; a response_item was seen; the line of the first agent_message / exec_command_begin event. */
  private known = false;
  private firstUnknown: { line: number; type: string } | undefined;
  private items = false;
  private events: number | undefined;

  constructor(private readonly file: string) {}

  /**
   * Reads one rollout line (`isCodexLine` holds).
   *
   * @param line 1-based line number.
   * @returns the replies closed by this line.
   */
  push(record: JsonObject, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    const payload = record['payload'] as JsonObject;
    const type = record['type'] as string;
    if (ROLLOUT_TYPES.has(type)) this.known = true;
    else this.firstUnknown ??= { line, type };
    if (type === 'response_item') this.items = true;
    else if (type === 'event_msg' && (payload['type'] === 'agent_message' || payload['type'] === 'exec_command_begin')) this.events ??= line;
    switch (record['type']) {
      case 'session_meta': {
        const dynamic = payload['dynamic_tools'];
        this.advertised = Array.isArray(dynamic) ? advertisedFromRequest({ tools: dynamic }) : null;
        return out;
      }
      case 'turn_context':
        this.close(out);
        this.model = str(payload['model']) ?? this.model;
        return out;
      case 'response_item':
        this.item(payload, line, out);
        return out;
      default:
        if (!ROLLOUT_TYPES.has(record['type'] as string)) out.errors.push(unknownLineProblem(this.file, line, record['type'] as string, payload));
        return out;
    }
  }

  /** End of input: the reply of the open run, if any; a file of no known line type, or of events without response items, is reported. */
  finish(): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    this.close(out);
    if (!this.known && this.firstUnknown !== undefined) {
      const { line, type } = this.firstUnknown;
      out.errors.push(captureError(this.file, line, 'UNKNOWN_FORMAT', `no line of this file is of a Codex rollout type ({timestamp, type, payload} lines, the first of type ${JSON.stringify(type.slice(0, 60))}): not read`));
    } else if (!this.items && this.events !== undefined) {
      out.errors.push(captureError(this.file, this.events, 'INVALID_RECORD', 'the rollout records agent messages or commands as events but holds no response_item line, the only lines guard reads: they are not judged'));
    }
    return out;
  }

  private item(payload: JsonObject, line: number, out: RecordOutput): void {
    const type = str(payload['type']);
    const isAssistantMessage = type === 'message' && payload['role'] === 'assistant';
    if (!isAssistantMessage && !(type !== undefined && REPLY_ITEM_TYPES.has(type))) {
      // user/developer/system messages and tool outputs end the run; items without reply content
      // are skipped; an item of a type guard does not read is reported
      if (type === 'message' || (type !== undefined && type.endsWith('_output'))) this.close(out);
      else if (type === undefined || !CONTENTLESS_ITEMS.has(type)) {
        const unread = readResponsesItem(payload).unread;
        if (unread !== undefined) out.errors.push(unreadItemError({ file: this.file, line }, unread));
      }
      return;
    }
    const g = (this.group ??= { line, id: undefined, text: '', reasoning: '', toolCalls: [] });
    const content = readResponsesItem(payload);
    if (isAssistantMessage) g.id ??= str(payload['id']);
    g.text += content.text;
    g.reasoning += content.reasoning;
    if (content.toolCall) g.toolCalls.push(content.toolCall);
    if (content.unread !== undefined) out.errors.push(unreadItemError({ file: this.file, line }, content.unread));
  }

  private close(out: RecordOutput): void {
    const g = this.group;
    this.group = null;
    if (!g || (g.text === '' && g.reasoning === '' && g.toolCalls.length === 0)) return;
    const reply: Reply = {
      source: { file: this.file, line: g.line },
      format: 'codex-rollout',
      id: g.id ?? null,
      advertised: this.advertised,
      text: g.text,
      reasoning: g.reasoning,
      toolCalls: g.toolCalls,
      truncated: false,
    };
    if (this.model) reply.model = this.model;
    out.replies.push(reply);
  }
}
