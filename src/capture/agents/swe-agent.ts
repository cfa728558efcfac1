/**
 * SWE-agent trajectories (`<instance>.traj`) and mini-swe-agent trajectories (`*.traj.json`).
 *
 * SWE-agent: SWE-agent/SWE-agent @ 3ea751c087f32b16e039a2233dd6eefecef325d5 `sweagent/types.py`
 * (`TrajectoryStep`, `HistoryItem`, `AgentInfo`) and `sweagent/agent/agents.py`
 * (`DefaultAgent.get_trajectory_data`: `{trajectory, history, info, replay_config, environment}`;
 * `RetryAgent.get_trajectory_data`: `{attempts: [<one such object per attempt>], …the chosen
 * attempt's keys}`),
 * https://github.com/SWE-agent/SWE-agent/blob/3ea751c087f32b16e039a2233dd6eefecef325d5/sweagent/types.py.
 * One reply per `history` item with `role: "assistant"` that is not a demonstration
 * (`is_demo`). Its calls: the item's `tool_calls` (function-calling configurations, OpenAI
 * shape); else the command the agent ran from the text, a `text-command` call `bash
 * {command: <action>}` (the item's `action`, or when it has none the block SWE-agent's
 * `ThoughtActionParser` takes, src/capture/agents/text-command.ts). `trajectory` steps
 * (`TrajectoryStep`: `{action, observation, response, thought, …}`) repeat the history: a step
 * whose action no history reply ran (the history lacks it, or the file has no history) is read
 * from the step itself, one reply (`response`, else `thought`) with its action as a `text-command`
 * call, with a warning naming the steps. With `attempts`, every attempt's history is read and the
 * top-level copy of the chosen one is not.
 *
 * mini-swe-agent: SWE-agent/mini-swe-agent @ a83fcae82d2a08f0ee0c688f9d137b3566c097f8
 * `src/minisweagent/agents/default.py` (`DefaultAgent.serialize`: `{info{model_stats, config,
 * mini_version, exit_status, submission}, messages, trajectory_format}`),
 * https://github.com/SWE-agent/mini-swe-agent/blob/a83fcae82d2a08f0ee0c688f9d137b3566c097f8/src/minisweagent/agents/default.py.
 * One reply per `role: "assistant"` message (OpenAI shape; with the Responses models a Response
 * object). Its calls: `tool_calls` (2.x tool-calling models); else the commands the agent ran,
 * `extra.actions[].command` (2.x text models), else (1.x) the message's single ```` ```bash ````
 * block — each a `text-command` call `bash {command}`. Reasoning is the message's own and that
 * of the raw response kept in `extra.response`.
 *
 * Both are pretty-printed JSON documents; the document splitter reads their arrays one element
 * at a time (formats.ts `envelope`).
 */

import { isResponsesObject, readResponsesObject } from '../bodies/openai-responses.js';
import { chatReasoning } from '../bodies/openai-chat.js';
import { arr, captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';
import { contextAt, emptyParts, partsReply, readMessageInto, reportUnreadMembers } from './common.js';
import { miniSweAgentAction, sweAgentThoughtAction, textCommandCall } from './text-command.js';
import { quotedKeys } from '../../base/json.js';
import type { ToolCall } from '../types.js';

/** The top-level keys SWE-agent writes. */
const SWE_KEYS: ReadonlySet<string> = new Set(['environment', 'trajectory', 'history', 'info', 'replay_config', 'attempts']);

/** The top-level keys mini-swe-agent writes. */
const MINI_KEYS: ReadonlySet<string> = new Set(['info', 'messages', 'trajectory_format']);

const firstOf = (v: unknown): unknown => (Array.isArray(v) ? v[0] : undefined);

/**
 * True for a history item SWE-agent wrote (`HistoryItem`: a chat message with the `agent` that
 * sent it or its `message_type`, keys no chat API has).
 */
function isSweAgentHistoryItem(v: unknown): boolean {
  return isObject(v) && typeof v['role'] === 'string' && (typeof v['agent'] === 'string' || typeof v['message_type'] === 'string');
}

/**
 * True for a SWE-agent trajectory document (or the envelope left after its arrays were read); also
 * a demonstration, a document holding only the `history` SWE-agent replays into its prompt
 * (`trajectories/demonstrations/function_calling_simple.traj`: `{"history": [...]}`), when its
 * first item is SWE-agent's.
 */
export function isSweAgentTrajectory(v: unknown): v is JsonObject {
  if (!isObject(v)) return false;
  if (Array.isArray(v['attempts']) && isObject(v['info'])) return true;
  if (Array.isArray(v['history']) && Object.keys(v).length === 1) return isSweAgentHistoryItem(v['history'][0]);
  if (!Array.isArray(v['trajectory']) || !Array.isArray(v['history'])) return false;
  const step = firstOf(v['trajectory']);
  const item = firstOf(v['history']);
  return (step === undefined || (isObject(step) && 'action' in step && 'observation' in step)) && (item === undefined || (isObject(item) && typeof item['role'] === 'string'));
}

/** The envelope claim: SWE-agent's arrays, when the members before them are SWE-agent's. */
export function claimsSweAgent(key: string, head: JsonObject): boolean {
  if (!Object.keys(head).every((k) => SWE_KEYS.has(k))) return false;
  if (key === 'trajectory' || key === 'attempts') return true;
  return key === 'history' && 'trajectory' in head;
}

/** True for a mini-swe-agent trajectory: `messages[]` and an `info` with `mini_version` or `config`, or a `trajectory_format` naming it. */
export function isMiniSweAgentTrajectory(v: unknown): v is JsonObject {
  if (!isObject(v) || !Array.isArray(v['messages'])) return false;
  const format = str(v['trajectory_format']);
  return (format !== undefined && format.startsWith('mini-swe-agent')) || isMiniInfo(v['info']);
}

function isMiniInfo(info: unknown): boolean {
  return isObject(info) && (typeof info['mini_version'] === 'string' || (isObject(info['config']) && isObject(info['model_stats'])));
}

/** The envelope claim: `messages` after nothing but mini-swe-agent's `info`. */
export function claimsMiniSweAgent(key: string, head: JsonObject): boolean {
  return key === 'messages' && isMiniInfo(head['info']) && Object.keys(head).every((k) => k === 'info' || k === 'messages');
}

/** Trajectory steps kept per file to read against the history (each one action and text, at most {@link MAX_STEP_CHARS} characters each). */
const MAX_KEPT_STEPS = 10_000;
const MAX_STEP_CHARS = 64 * 1024;

/** An action without the line ends SWE-agent leaves after it. */
function trimAction(action: string): string {
  return action.replace(/\n+$/, '');
}

/** Reads one SWE-agent trajectory (see the module header). */
export class SweAgentReader {
  private sawAttempts = false;
  private historyItems = 0;
  /** Replies read from the history (assistant items that are not demonstrations). */
  private historyReplies = 0;
  private trajectorySteps = 0;
  private trajectoryLine = 0;
  /** The steps' actions and texts (at most {@link MAX_KEPT_STEPS}), read against the history at the end. */
  private readonly steps: Array<{ index: number; action: string; text: string }> = [];
  /** The actions the history's replies ran, by how many times. */
  private readonly historyActions = new Map<string, number>();

  constructor(private readonly file: string) {}

  /** A whole trajectory document, or the envelope left after the splitter read its arrays. */
  push(record: unknown, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (!isObject(record)) return out;
    reportUnreadMembers(this.file, line, record, SWE_KEYS, 'the trajectory', out);
    const attempts = arr(record['attempts']);
    for (const a of attempts) this.attempt(a, line, out);
    if (attempts.length === 0 && !this.sawAttempts) for (const h of arr(record['history'])) this.historyItem(h, line, out);
    for (const step of arr(record['trajectory'])) this.step(step, line);
    return out;
  }

  element(key: string, _index: number, value: unknown, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (key === 'attempts') this.attempt(value, line, out);
    else if (key === 'history') {
      if (!this.sawAttempts) this.historyItem(value, line, out);
    } else if (key === 'trajectory') this.step(value, line);
    return out;
  }

  /** Keeps one trajectory step's action and text (the history is read after the steps). */
  private step(step: unknown, line: number): void {
    if (this.trajectoryLine === 0) this.trajectoryLine = line;
    const index = this.trajectorySteps++;
    if (!isObject(step) || this.steps.length >= MAX_KEPT_STEPS) return;
    const action = typeof step['action'] === 'string' ? trimAction(step['action']) : '';
    const text = str(step['response']) ?? str(step['thought']) ?? '';
    this.steps.push({ index, action: action.slice(0, MAX_STEP_CHARS), text: text.slice(0, MAX_STEP_CHARS) });
  }

  /**
   * The steps no history reply accounts for, each read as a reply of its own (see the module
   * header), and a warning naming them; an error for steps past what guard keeps.
   */
  finish(): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (this.sawAttempts || this.trajectorySteps <= this.historyReplies) return out;
    const ran = new Map(this.historyActions);
    const unread: number[] = [];
    for (const step of this.steps) {
      const n = ran.get(step.action) ?? 0;
      if (n > 0) {
        ran.set(step.action, n - 1);
        continue;
      }
      if (step.action === '' && step.text === '') continue;
      unread.push(step.index);
      const ctx = contextAt(this.file, this.trajectoryLine, 'swe-agent');
      const parts = emptyParts();
      if (step.text) parts.text.add(step.text);
      if (step.action) parts.toolCalls.push(textCommandCall(step.action));
      out.replies.push(partsReply(parts, ctx));
    }
    if (unread.length > 0) {
      const which = unread.slice(0, 10).map((i) => `trajectory[${i}]`).join(', ') + (unread.length > 10 ? ', …' : '');
      const why = this.historyItems === 0 ? 'the file has no history' : `the history holds ${this.historyReplies} model replies`;
      out.errors.push(captureError(this.file, this.trajectoryLine, 'INVALID_RECORD', `${unread.length} trajectory step${unread.length === 1 ? '' : 's'} (${which}) ran an action no history reply holds (${why}): read from the steps`, 'warning'));
    }
    if (this.trajectorySteps > this.steps.length) {
      out.errors.push(captureError(this.file, this.trajectoryLine, 'INVALID_RECORD', `the trajectory has ${this.trajectorySteps} steps; guard keeps the first ${MAX_KEPT_STEPS} to read against the history, the others were not read`));
    }
    return out;
  }

  private attempt(a: unknown, line: number, out: RecordOutput): void {
    this.sawAttempts = true;
    if (!isObject(a)) {
      out.errors.push(captureError(this.file, line, 'INVALID_RECORD', 'an element of attempts is not an object; skipped'));
      return;
    }
    for (const h of arr(a['history'])) this.historyItem(h, line, out);
  }

  private historyItem(h: unknown, line: number, out: RecordOutput): void {
    this.historyItems++;
    if (!isObject(h) || typeof h['role'] !== 'string') {
      out.errors.push(captureError(this.file, line, 'INVALID_RECORD', 'a history item without a role is not a SWE-agent message; skipped'));
      return;
    }
    if (h['role'] !== 'assistant' || h['is_demo'] === true) return;
    this.historyReplies++;
    const ctx = contextAt(this.file, line, 'swe-agent');
    const parts = emptyParts();
    readMessageInto(h, parts, ctx, out);
    for (const b of arr(h['thinking_blocks'])) if (isObject(b) && typeof b['thinking'] === 'string') parts.reasoning.push(b['thinking']);
    const action = typeof h['action'] === 'string' ? h['action'] : 'action' in h ? null : sweAgentThoughtAction(parts.text.text);
    const command = action === null ? '' : trimAction(action);
    if (command) this.historyActions.set(command, (this.historyActions.get(command) ?? 0) + 1);
    if (parts.toolCalls.length === 0 && command) parts.toolCalls.push(textCommandCall(command));
    out.replies.push(partsReply(parts, ctx));
  }
}

/** Reads one mini-swe-agent trajectory (see the module header). */
export class MiniSweAgentReader {
  constructor(private readonly file: string) {}

  push(record: unknown, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (!isObject(record)) return out;
    reportUnreadMembers(this.file, line, record, MINI_KEYS, 'the trajectory', out);
    for (const m of arr(record['messages'])) this.message(m, line, out);
    return out;
  }

  element(key: string, _index: number, value: unknown, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (key === 'messages') this.message(value, line, out);
    return out;
  }

  finish(): RecordOutput {
    return { replies: [], errors: [] };
  }

  /**
   * The commands of a message's `extra.actions` (mini-swe-agent 2.x: `[{command, tool_call_id?}]`)
   * as text-command calls; an entry without a string `command` is an INVALID_RECORD error (its
   * command may be under another key: it is not judged).
   */
  private actionCalls(actions: unknown, line: number, out: RecordOutput): ToolCall[] {
    const calls: ToolCall[] = [];
    arr(actions).forEach((a, i) => {
      if (isObject(a) && typeof a['command'] === 'string') calls.push(textCommandCall(a['command'], str(a['tool_call_id']) ?? null));
      else {
        const keys = isObject(a) ? `keys ${quotedKeys(Object.keys(a))}` : a === null ? 'null' : `a JSON ${Array.isArray(a) ? 'array' : typeof a}`;
        out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `extra.actions[${i}] has no string "command" (${keys}): it was not read, and what it would run is not judged`));
      }
    });
    return calls;
  }

  private message(m: unknown, line: number, out: RecordOutput): void {
    if (!isObject(m)) {
      out.errors.push(captureError(this.file, line, 'INVALID_RECORD', 'a message that is not an object; skipped'));
      return;
    }
    const ctx = contextAt(this.file, line, 'mini-swe-agent');
    const extra = isObject(m['extra']) ? m['extra'] : {};
    const response = isObject(extra['response']) ? extra['response'] : null;
    if (isResponsesObject(m)) {
      const r = readResponsesObject(m, ctx);
      for (const e of r.errors) out.errors.push(e);
      for (const reply of r.replies) {
        if (reply.toolCalls.length === 0) reply.toolCalls.push(...this.actionCalls(extra['actions'], line, out));
        out.replies.push(reply);
      }
      return;
    }
    if (typeof m['role'] !== 'string') {
      out.errors.push(captureError(this.file, line, 'INVALID_RECORD', 'a message without a role is not a mini-swe-agent message; skipped'));
      return;
    }
    if (m['role'] !== 'assistant') return;
    const parts = emptyParts();
    readMessageInto(m, parts, ctx, out);
    const choice = response ? firstOf(response['choices']) : undefined;
    if (isObject(choice) && isObject(choice['message'])) {
      const r = chatReasoning(choice['message']);
      if (r && !parts.reasoning.includes(r)) parts.reasoning.push(r);
    }
    if (parts.toolCalls.length === 0) {
      if (Array.isArray(extra['actions'])) parts.toolCalls.push(...this.actionCalls(extra['actions'], line, out));
      else {
        const command = miniSweAgentAction(parts.text.text);
        if (command !== null) parts.toolCalls.push(textCommandCall(command));
      }
    }
    out.replies.push(partsReply(parts, ctx, { id: response ? (str(response['id']) ?? null) : null, model: response ? str(response['model']) : undefined }));
  }
}
