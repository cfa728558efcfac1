/**
 * Cline and Roo Code task files (`tasks/<id>/api_conversation_history.json` and
 * `tasks/<id>/ui_messages.json`), and plain lists of chat messages.
 *
 * Schemas:
 * - `api_conversation_history.json`: a JSON array (Cline writes it on one line) of Anthropic
 *   `MessageParam`s plus Cline's keys: cline/cline `ClineStorageMessage` (`id`, `modelInfo`,
 *   `metrics`, `ts`) in apps/vscode/src/shared/messages/content.ts @
 *   21cb8d2525bcedf1f4b6890b27a74a14fe7451e4
 *   (https://github.com/cline/cline/blob/21cb8d2525bcedf1f4b6890b27a74a14fe7451e4/apps/vscode/src/shared/messages/content.ts);
 *   Roo Code's `ApiMessage` (`ts`, `isSummary`, `id`, `condenseId`, `condenseParent`,
 *   `truncationId`, `truncationParent`, `isTruncationMarker`, `messageId`, and stand-alone
 *   reasoning items `{type: "reasoning", summary, encrypted_content}`) in
 *   src/core/task-persistence/apiMessages.ts
 *   (https://github.com/RooCodeInc/Roo-Code/blob/main/src/core/task-persistence/apiMessages.ts).
 *   One reply per assistant message; its `tool_use` blocks are its calls, `thinking` its
 *   reasoning (src/capture/agents/common.ts). Cline's XML tool mode writes calls as text
 *   (`<read_file>…`): those stay text, for the recovery engine.
 * - `ui_messages.json`: an array of `ClineMessage` `{ts, type: "say"|"ask", say|ask, text, …}`
 *   (same file of cline/cline, apps/vscode/src/shared/ExtensionMessage.ts: `ClineMessage`,
 *   `ClineSay`, `ClineAsk`, `ClineSayTool`; Roo Code's `clineSays` / `clineAsks` in
 *   packages/types/src/message.ts,
 *   https://github.com/RooCodeInc/Roo-Code/blob/02785b962cd5d07467aea49e4a3f1b88ce1b40c8/packages/types/src/message.ts).
 *   One reply per `say: "api_req_started"` (one API
 *   request and what the model answered to it; empty when nothing followed, as after a failed
 *   request): `text` and completion / follow-up messages are
 *   its text, `reasoning` its reasoning, and each `tool` (name = the `tool` of its JSON text, a UI
 *   name such as `readFile` or `newFileCreated`), `command` (`execute_command {command}`),
 *   `use_mcp_server` and `browser_action` message its calls.
 * - A plain JSON array or JSON Lines of chat messages (`{"role": "assistant", "content": …}` in
 *   the Anthropic or the OpenAI shape, with `tool_calls`): format `chat-messages`, one reply per
 *   assistant message, advertised tools unknown.
 */

import { arr, captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';
import { makeToolCall } from '../toolcall.js';
import type { CaptureFormat } from '../types.js';
import { contextAt, emptyParts, isChatMessage, partsReply, readMessageInto, type MessageParts } from './common.js';
import { miniSweAgentAction, textCommandCall } from './text-command.js';

/** Keys only Cline's and Roo Code's stored API messages carry. */
const CLINE_KEYS = ['modelInfo', 'metrics', 'ts', 'isSummary', 'condenseId', 'condenseParent', 'truncationId', 'truncationParent', 'isTruncationMarker', 'messageId'];

/** A Roo Code reasoning item stored between API messages. */
function isRooReasoningItem(v: JsonObject): boolean {
  return v['type'] === 'reasoning' && v['role'] === undefined && ('encrypted_content' in v || Array.isArray(v['summary']));
}

/** True for an element of a Cline / Roo Code `api_conversation_history.json`. */
export function isClineTaskMessage(v: unknown): v is JsonObject {
  if (!isObject(v)) return false;
  if (isRooReasoningItem(v)) return true;
  return isChatMessage(v) && (v['role'] === 'assistant' || v['role'] === 'user') && CLINE_KEYS.some((k) => k in v);
}

/** True for an assistant chat message in either API's shape (format `chat-messages`). */
export function isAssistantChatMessage(v: unknown): v is JsonObject {
  return isChatMessage(v) && v['role'] === 'assistant' && (v['type'] === undefined || v['type'] === 'message');
}

/** The model a Cline message names (`modelInfo.modelId`), or a `model` field. */
function modelOf(m: JsonObject): string | undefined {
  return (isObject(m['modelInfo']) ? str(m['modelInfo']['modelId']) : undefined) ?? str(m['model']);
}

/** mini-swe-agent's trajectory file name (`*.traj.json`). */
const MINI_TRAJ_NAME = /\.traj\.json$/i;

/**
 * Reads assistant chat messages one by one (formats `cline-task` and `chat-messages`); a Roo
 * Code reasoning item is held and becomes the reasoning of the next assistant message.
 */
export class ChatMessagesReader {
  private heldReasoning: string[] = [];
  /** Assistant messages read so far (a one-line list puts every message on line 1: problems name the message). */
  private messages = 0;

  constructor(
    private readonly file: string,
    private readonly format: Extract<CaptureFormat, 'cline-task' | 'chat-messages'>,
  ) {}

  push(record: unknown, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (!isObject(record)) return out;
    if (isRooReasoningItem(record)) {
      for (const s of arr(record['summary'])) if (isObject(s) && typeof s['text'] === 'string') this.heldReasoning.push(s['text']);
      if (typeof record['text'] === 'string') this.heldReasoning.push(record['text']);
      return out;
    }
    if (record['role'] !== 'assistant') return out; // user, system and tool messages hold no reply
    this.messages++;
    const ctx = { ...contextAt(this.file, line, this.format), where: `assistant message ${this.messages}` };
    const parts = emptyParts();
    parts.reasoning.push(...this.heldReasoning);
    this.heldReasoning = [];
    readMessageInto(record, parts, ctx, out);
    // a bare message list under mini-swe-agent's file name (its own test trajectories, early
    // saves): the agent ran each message's single command block, a text-command call
    if (this.format === 'chat-messages' && MINI_TRAJ_NAME.test(this.file) && parts.toolCalls.length === 0) {
      const command = miniSweAgentAction(parts.text.text);
      if (command !== null) parts.toolCalls.push(textCommandCall(command));
    }
    out.replies.push(partsReply(parts, ctx, { id: str(record['id']) ?? null, model: modelOf(record) }));
    return out;
  }

  finish(): RecordOutput {
    this.heldReasoning = [];
    return { replies: [], errors: [] };
  }
}

const SAYS: ReadonlySet<string> = new Set([
  'task', 'error', 'api_req_started', 'api_req_finished', 'text', 'reasoning', 'completion_result', 'plan_completion_result', 'user_feedback',
  'user_feedback_diff', 'command', 'command_output', 'tool', 'shell_integration_warning', 'shell_integration_warning_with_suggestion',
  'browser_action_launch', 'browser_action', 'browser_action_result', 'mcp_server_request_started', 'mcp_server_response', 'mcp_notification',
  'use_mcp_server', 'diff_error', 'deleted_api_reqs', 'clineignore_error', 'command_permission_denied', 'checkpoint_created',
  'load_mcp_documentation', 'info', 'task_progress', 'hook_status', 'hook_output_stream', 'subagent', 'use_subagents', 'subagent_usage',
  'conditional_rules_applied', 'compaction', 'generate_explanation', 'hook', 'hook_output', 'api_req_retried', 'error_retry', 'condense_context',
  'condense_context_error', 'codebase_search_result', 'user_edit_todos', 'too_many_tools_warning', 'rooignore_error', 'image', 'sliding_window_truncation',
  // Roo Code's (RooCodeInc/Roo-Code packages/types/src/message.ts `clineSays`)
  'api_req_retry_delayed', 'api_req_rate_limited', 'api_req_deleted', 'browser_session_status', 'subtask_result', 'checkpoint_saved',
]);
const ASKS: ReadonlySet<string> = new Set([
  'followup', 'plan_mode_respond', 'act_mode_respond', 'command', 'command_output', 'completion_result', 'tool', 'api_req_failed', 'resume_task',
  'resume_completed_task', 'mistake_limit_reached', 'browser_action_launch', 'use_mcp_server', 'new_task', 'condense', 'summarize_task',
  'report_bug', 'use_subagents', 'auto_approval_max_req_reached', 'interactive_app',
]);

/** True for a `ClineMessage` of `ui_messages.json`: numeric `ts`, `type` say/ask with its string `say`/`ask`. */
export function isClineUiMessage(v: unknown): v is JsonObject {
  if (!isObject(v) || typeof v['ts'] !== 'number') return false;
  return (v['type'] === 'say' && typeof v['say'] === 'string') || (v['type'] === 'ask' && typeof v['ask'] === 'string');
}

/** `text` parsed as a JSON object, or null. */
function jsonObject(text: unknown): JsonObject | null {
  if (typeof text !== 'string' || !text.trimStart().startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

interface UiTurn {
  line: number;
  parts: MessageParts;
  model: string | undefined;
  /** Opened by a model message before any api_req_started (yielded only if it holds something). */
  implicit?: boolean;
}

/** Calls of the model: before the first api_req_started (a file written without one) they open a turn of their own; text there is the user's task. */
const CALL_MESSAGES: ReadonlySet<string> = new Set(['say:command', 'ask:command', 'say:tool', 'ask:tool', 'say:use_mcp_server', 'ask:use_mcp_server', 'say:browser_action_launch', 'ask:browser_action_launch', 'say:browser_action', 'ask:new_task']);

/** Reads the `ClineMessage`s of one `ui_messages.json` (see the module header). */
export class ClineUiReader {
  private turn: UiTurn | null = null;

  constructor(private readonly file: string) {}

  push(record: unknown, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (!isClineUiMessage(record)) return out;
    const kind = record['type'] === 'say' ? `say:${String(record['say'])}` : `ask:${String(record['ask'])}`;
    const what = (record['say'] ?? record['ask']) as string;
    if (kind === 'say:api_req_started') {
      this.close(out);
      this.turn = { line, parts: emptyParts(), model: isObject(record['modelInfo']) ? str(record['modelInfo']['modelId']) : undefined };
      return out;
    }
    if (!(record['type'] === 'say' ? SAYS : ASKS).has(what)) {
      // an unknown ask is the UI asking to approve something of the model's (a call); an unknown say, most often a status line
      out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `a Cline message ${kind} is of no type guard knows; it was not read`, record['type'] === 'ask' ? 'error' : 'warning'));
      return out;
    }
    // the task text and the user's messages before the first request belong to no turn; a call
    // there (a file written without api_req_started lines) opens one of its own
    if (!this.turn && CALL_MESSAGES.has(kind)) this.turn = { line, parts: emptyParts(), model: undefined, implicit: true };
    const turn = this.turn;
    if (!turn) return out;
    const text = str(record['text']) ?? '';
    const json = jsonObject(record['text']);
    const call = (name: string, args: unknown): void => void turn.parts.toolCalls.push(makeToolCall(null, name, 'function', args));
    switch (kind) {
      case 'say:text':
      case 'say:completion_result':
      case 'ask:completion_result':
      case 'say:plan_completion_result':
        turn.parts.text.add(text);
        break;
      case 'ask:followup':
        turn.parts.text.add(str(json?.['question']) ?? text);
        break;
      case 'ask:plan_mode_respond':
      case 'ask:act_mode_respond':
        turn.parts.text.add(str(json?.['response']) ?? text);
        break;
      case 'say:reasoning':
        if (text || typeof record['reasoning'] === 'string') turn.parts.reasoning.push(text || (record['reasoning'] as string));
        break;
      case 'say:tool':
      case 'ask:tool':
        if (json && str(json['tool'])) call(str(json['tool'])!, json);
        else out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `a Cline ${kind} message has no JSON text naming its tool; it was not read`));
        break;
      case 'say:command':
      case 'ask:command':
        call('execute_command', { command: text });
        break;
      case 'say:use_mcp_server':
      case 'ask:use_mcp_server':
        call(str(json?.['toolName']) ?? 'use_mcp_tool', json ?? { text });
        break;
      case 'say:browser_action_launch':
      case 'ask:browser_action_launch':
        call('browser_action', { action: 'launch', url: text });
        break;
      case 'say:browser_action':
        call('browser_action', json ?? { text });
        break;
      case 'ask:new_task':
        call('new_task', { context: text });
        break;
      default:
        break; // outputs, checkpoints, progress, errors and feedback: not the model's
    }
    return out;
  }

  finish(): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    this.close(out);
    return out;
  }

  private close(out: RecordOutput): void {
    const t = this.turn;
    this.turn = null;
    if (!t) return;
    const p = t.parts;
    if (t.implicit && p.text.text === '' && p.reasoning.length === 0 && p.toolCalls.length === 0) return;
    // every request is one reply, an empty one when nothing of the model's followed it (a failed request)
    out.replies.push(partsReply(t.parts, contextAt(this.file, t.line, 'cline-ui'), { model: t.model }));
  }
}
