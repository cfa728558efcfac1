/**
 * Tool executions that observability exports record beside the model calls: OpenTelemetry GenAI
 * `execute_tool` spans (./otel.ts) and Langfuse `TOOL` observations (./langfuse.ts). An execution
 * is the call an agent ran; most of them are also in the output of the model call that asked for
 * them (a chat span's `gen_ai.output.messages`, a generation's `output`), where guard already
 * inspects them. This module decides which executions are such a repeat, so that each call is
 * inspected once, and the others are inspected on their own.
 *
 * The matching, within one trace (the file's spans or observations of the same trace id):
 * - an execution with a call id is a repeat of the model-output call with that id, when that call
 *   has the same name and (when the execution records them) the same arguments; with other
 *   arguments it is inspected as well (what ran is not what the model asked for);
 * - an execution without a call id, or whose id no model-output call of the trace has, is a repeat
 *   of the first call of the trace not yet matched (and without an id, when the execution has one)
 *   with the same name and (when the execution records them) the same arguments. Two calls
 *   of one name and arguments are inspected alike, so which of them an execution is taken for
 *   changes no verdict; an execution that records neither id nor arguments is taken for a call of
 *   its name, whose arguments guard did inspect;
 * - arguments are the same when their canonical JSON is (a JSON string is parsed first), or when
 *   the execution's are the call's wrapped in a single `input` key (LangSmith's OpenTelemetry
 *   bridge, the Claude Agent SDK's Langfuse traces) or in the `{args: [], kwargs}` of Langfuse's
 *   `@observe` decorator.
 *
 * Memory: at most {@link MAX_SEEN_CALLS} model-output calls are remembered per file; past that an
 * execution may find no call to match and is inspected again (counted twice, never missed).
 */

import { canonicalJson } from '../../base/json.js';
import { captureError, isObject, type RecordOutput } from '../bodies/common.js';
import { makeToolCall, unrecordedArgumentsCall } from '../toolcall.js';
import type { CaptureFormat, Reply, ToolCall } from '../types.js';
import { maybeJson } from './messages.js';

/** Most model-output calls remembered per file. */
export const MAX_SEEN_CALLS = 100_000;

/** A call of a model call's output, remembered for matching. */
interface SeenCall {
  id: string | null;
  name: string;
  /** Canonical JSON of its arguments (or the raw text when they are not JSON); null when there are none to compare. */
  args: string | null;
  matched: boolean;
}

/** A tool execution as an export records it. `args` undefined: the export records none. */
export interface ToolExecution {
  trace: string;
  id: string | null;
  name: string;
  args: unknown;
}

function canonical(v: unknown): string | null {
  try {
    return canonicalJson(v);
  } catch {
    return null; // nested too deep to compare: never a repeat
  }
}

/** The comparable forms of an execution's arguments: as recorded, and unwrapped from a single `input` key or `{args: [], kwargs}`. */
function argumentKeys(args: unknown): string[] {
  const v = maybeJson(args);
  const out: string[] = [];
  const add = (x: unknown): void => {
    const k = typeof x === 'string' ? x : canonical(x);
    if (k !== null) out.push(k);
  };
  add(v);
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === 'input') add(maybeJson(v['input']));
    if (isObject(v['kwargs']) && keys.every((k) => k === 'args' || k === 'kwargs') && (v['args'] === undefined || (Array.isArray(v['args']) && v['args'].length === 0))) add(v['kwargs']);
  }
  return out;
}

/** The comparable form of a model-output call's arguments. */
function callKey(call: ToolCall): string | null {
  if (call.arguments !== null) return canonical(call.arguments);
  return call.argumentsRaw === '' ? null : call.argumentsRaw;
}

/** True when an execution's arguments are absent (not recorded). */
export function argumentsAbsent(args: unknown): boolean {
  return args === undefined || args === null || (typeof args === 'string' && args.trim() === '');
}

/** The model-output calls of one file, and which executions repeat them. */
export class ExecutedCalls {
  private readonly seen = new Map<string, SeenCall[]>();
  private count = 0;

  /** Remembers the calls of one model call's output in `trace`. */
  record(trace: string, calls: readonly ToolCall[]): void {
    for (const c of calls) {
      if (this.count >= MAX_SEEN_CALLS) return;
      let list = this.seen.get(trace);
      if (!list) this.seen.set(trace, (list = []));
      list.push({ id: c.id, name: c.name, args: callKey(c), matched: false });
      this.count++;
    }
  }

  /** True when `exec` repeats a remembered call (see the module comment); the call is then marked matched. */
  repeats(exec: ToolExecution): boolean {
    const list = this.seen.get(exec.trace);
    if (!list) return false;
    const absent = argumentsAbsent(exec.args);
    const keys = absent ? [] : argumentKeys(exec.args);
    const same = (c: SeenCall): boolean => c.name === exec.name && (absent || (c.args !== null && keys.includes(c.args)));
    if (exec.id !== null) {
      const c = list.find((x) => x.id === exec.id);
      if (c) {
        c.matched = true;
        return same(c);
      }
      // no call with that id: a model output that gives its calls no id (ids are optional in the
      // GenAI messages; Gemini-style outputs have none) is matched by name and arguments below
    }
    const c = list.find((x) => !x.matched && (exec.id === null || x.id === null) && same(x));
    if (!c) return false;
    c.matched = true;
    return true;
  }
}

/**
 * The reply of an execution that repeats no model-output call: no text, the one call. An execution
 * without arguments is an INVALID_RECORD warning, and its call fails closed in inspection
 * (src/capture/toolcall.ts `ARGUMENTS_NOT_RECORDED`).
 *
 * @param what how the record is named in the warning (`span "execute_tool run_shell"`).
 */
export function executionReply(exec: ToolExecution, at: { file: string; line: number; format: CaptureFormat; id: string | null }, what: string): RecordOutput {
  const out: RecordOutput = { replies: [], errors: [] };
  const absent = argumentsAbsent(exec.args);
  const call = absent ? unrecordedArgumentsCall(exec.id, exec.name, 'function') : makeToolCall(exec.id, exec.name, 'function', exec.args);
  if (absent) {
    out.errors.push(captureError(at.file, at.line, 'INVALID_RECORD', `${what} records the execution of tool ${JSON.stringify(exec.name || '(no name)')} (call ${exec.id ?? '(no id)'}) without its arguments, and no model output in the file holds the call: it is inspected as unreadable`, 'warning'));
  }
  out.replies.push({
    source: { file: at.file, line: at.line },
    format: at.format,
    id: at.id,
    advertised: null,
    text: '',
    reasoning: '',
    toolCalls: [call],
    truncated: false,
  } satisfies Reply);
  return out;
}
