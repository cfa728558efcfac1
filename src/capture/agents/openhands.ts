/**
 * OpenHands (v0) event trajectories: a JSON array (or JSON Lines, or one event per file as the
 * event store writes them) of serialised events.
 *
 * Schema: All-Hands-AI/OpenHands @ 156d0686c46aafb0fa9d291da6421fb6f64dddc0
 * `openhands/events/serialization/event.py` (`event_to_dict`: `{id, timestamp, source, message,
 * action | observation, args | content + extras, cause?, tool_call_metadata?, llm_metrics?}`)
 * and `openhands/events/tool.py` (`ToolCallMetadata{function_name, tool_call_id, model_response,
 * total_calls_in_response}`, `model_response` a LiteLLM `ModelResponse`, i.e. a whole chat
 * completion),
 * https://github.com/All-Hands-AI/OpenHands/blob/156d0686c46aafb0fa9d291da6421fb6f64dddc0/openhands/events/tool.py.
 *
 * Replies: one per distinct `model_response.id` among the agent's action events (a response with
 * N parallel calls gives N actions, each carrying the whole response; the paired observations
 * repeat it and are never replies), read as the chat completion it is
 * (src/capture/bodies/openai-chat.ts): its content is the text, its `tool_calls` the calls. An
 * agent action without `tool_call_metadata` is one reply of its own: a `message` (`args.content`),
 * a `finish` (`args.final_thought`), a `think` (reasoning); a `run` / `run_ipython` of the older
 * text-mode agents (CodeAct before function calling parsed `<execute_bash>` from the text) is a
 * `text-command` call `bash {command}` / `execute_ipython_cell {code}`, and any other action a
 * `text-command` call named after the action with its `args`. Bookkeeping actions
 * (`change_agent_state`, `system`, `recall`, `condensation`, …) and events of the user or the
 * environment are not replies. One response id per reply is remembered (bounded by the replies);
 * across separate event files a response of parallel calls is read once per file.
 *
 * The evaluation harness writes one line per instance to `output.jsonl` (same commit,
 * `evaluation/utils/shared.py` `EvalOutput{instance_id, test_result, instruction, metadata,
 * history, metrics, error, instance}`, `history` the events above, or in the older layout
 * `[action, observation]` pairs of them; real lines:
 * `evaluation/benchmarks/multi_swe_bench/examples/output.jsonl`): each line's `history` is read
 * as a trajectory. Its `error` (the run's, "Agent reached maximum iteration …") is no API error:
 * the events before it are all there.
 */

import { isChatCompletion, readChatCompletion } from '../bodies/openai-chat.js';
import { jsonDigest } from '../../base/digest.js';
import { arr, captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';
import { makeToolCall } from '../toolcall.js';
import { contextAt, emptyParts, partsReply } from './common.js';
import { textCommandCall } from './text-command.js';

const SOURCES: ReadonlySet<string> = new Set(['agent', 'user', 'environment']);

/** Agent actions that are no model output. */
const BOOKKEEPING_ACTIONS: ReadonlySet<string> = new Set(['change_agent_state', 'system', 'recall', 'condensation', 'condensation_request', 'null', 'reject', 'delegate', 'mcp_list_tools']);

/** True for an OpenHands event: `source` agent/user/environment and a string `action` or `observation`. */
export function isOpenHandsEvent(v: unknown): v is JsonObject {
  return isObject(v) && typeof v['source'] === 'string' && SOURCES.has(v['source']) && (typeof v['action'] === 'string' || typeof v['observation'] === 'string');
}

/** True for a line of an evaluation `output.jsonl`: an `instance_id` or `instruction` and a `history` of OpenHands events. */
export function isOpenHandsEvalOutput(v: unknown): v is JsonObject {
  if (!isObject(v) || !('instance_id' in v || 'instruction' in v) || !Array.isArray(v['history'])) return false;
  const first: unknown = v['history'][0];
  return isOpenHandsEvent(first) || (Array.isArray(first) && isOpenHandsEvent(first[0]));
}

/** An OpenHands event or an evaluation output line (see the module header). */
export function isOpenHandsRecord(v: unknown): v is JsonObject {
  return isOpenHandsEvent(v) || isOpenHandsEvalOutput(v);
}

/** Under `--input-format openhands`: an object with a string `action` or `observation`, or an evaluation output line. */
export function acceptsOpenHands(v: unknown): boolean {
  return isObject(v) && (typeof v['action'] === 'string' || typeof v['observation'] === 'string' || isOpenHandsEvalOutput(v));
}

/** Reads the events of one trajectory (see the module header). */
export class OpenHandsReader {
  private readonly responses = new Set<string>();

  constructor(private readonly file: string) {}

  push(record: unknown, line: number): RecordOutput {
    if (isOpenHandsEvalOutput(record)) {
      const out: RecordOutput = { replies: [], errors: [] };
      // events, or (the older layout EvalOutput still types) [action, observation] pairs
      for (const item of record['history'] as unknown[]) {
        for (const event of Array.isArray(item) ? item : [item]) {
          const r = this.event(event, line);
          out.replies.push(...r.replies);
          out.errors.push(...r.errors);
        }
      }
      return out;
    }
    return this.event(record, line);
  }

  /** One event (never an evaluation output line: a history nested in a history is not read). */
  private event(record: unknown, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (!isObject(record) || record['source'] !== 'agent' || typeof record['action'] !== 'string') return out;
    const action = record['action'];
    const metadata = record['tool_call_metadata'];
    const response = isObject(metadata) ? metadata['model_response'] : undefined;
    const ctx = contextAt(this.file, line, 'openhands');
    if (isObject(response)) {
      const callId = isObject(metadata) ? str(metadata['tool_call_id']) : undefined;
      const known = isChatCompletion(response);
      // an action whose call the response does not hold ran something the response does not show
      const holdsCall = !known || callId === undefined || arr(response['choices']).some((c) => isObject(c) && isObject(c['message']) && arr(c['message']['tool_calls']).some((t) => isObject(t) && t['id'] === callId));
      // the response is repeated on each of its actions and their observations: read once per id and content
      const key = `${str(response['id']) ?? ''}\u0000${jsonDigest(response)}`;
      if (!this.responses.has(key)) {
        this.responses.add(key);
        if (known) {
          const r = readChatCompletion(response, ctx);
          out.replies.push(...r.replies);
          out.errors.push(...r.errors);
        }
        else out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `the model_response of this ${action} action is not a chat completion; the action is read on its own`));
      }
      if (known && holdsCall) return out;
      if (!holdsCall) out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `this ${action} action (tool_call_id ${JSON.stringify(callId)}) is not among the calls of its model_response: what ran is read on its own`));
    }
    if (BOOKKEEPING_ACTIONS.has(action)) return out;
    const args = isObject(record['args']) ? record['args'] : {};
    const parts = emptyParts();
    const thought = str(args['thought']) ?? '';
    switch (action) {
      case 'message':
        parts.text.add(str(args['content']) ?? str(record['message']) ?? '');
        break;
      case 'finish':
        parts.text.add(str(args['final_thought']) ?? str(args['message']) ?? thought);
        break;
      case 'think':
        if (thought) parts.reasoning.push(thought);
        break;
      case 'run':
        parts.text.add(thought);
        parts.toolCalls.push(textCommandCall(str(args['command']) ?? ''));
        break;
      case 'run_ipython':
        parts.text.add(thought);
        parts.toolCalls.push(makeToolCall(null, 'execute_ipython_cell', 'text-command', { code: str(args['code']) ?? '' }));
        break;
      default: {
        parts.text.add(thought);
        const { thought: _t, ...rest } = args;
        void _t;
        parts.toolCalls.push(makeToolCall(null, action, 'text-command', rest));
      }
    }
    out.replies.push(partsReply(parts, ctx, { id: typeof record['id'] === 'number' || typeof record['id'] === 'string' ? String(record['id']) : null }));
    return out;
  }

  finish(): RecordOutput {
    return { replies: [], errors: [] };
  }
}
