/**
 * Building normalised tool calls and reading advertised tools, shared by every reader.
 */

import { ARGUMENTS_TOO_DEEP, jsonDepthExceeds, MAX_ARGUMENT_DEPTH, parseArguments, quotedKeys } from '../base/json.js';
import type { AdvertisedTool, JsonSchema, ToolCall, ToolCallKind } from './types.js';

export { ARGUMENTS_TOO_DEEP, jsonDepthExceeds, MAX_ARGUMENT_DEPTH, parseArguments };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True when `call` was refused because its arguments nest too deep (see {@link MAX_ARGUMENT_DEPTH}). */
export function argumentsTooDeep(call: ToolCall): boolean {
  return call.argumentsError === ARGUMENTS_TOO_DEEP;
}

/** How the `argumentsError` of a call whose arguments may sit under a key guard does not read starts. */
export const ARGUMENTS_UNDER_UNREAD_KEY = 'no arguments under the key guard reads; the call holds keys guard does not read:';

/**
 * True when `call` has no arguments where its format keeps them but holds other keys guard does
 * not read (a renamed or misspelt arguments key, such as `input` for Gemini CLI's `args`): what a
 * dispatcher would run may be there, so the call is reported and inspection fails closed on it.
 */
export function argumentsUnderUnreadKey(call: ToolCall): boolean {
  return call.argumentsError?.startsWith(ARGUMENTS_UNDER_UNREAD_KEY) ?? false;
}

/**
 * The `argumentsError` of a call that a capture records as made (an OpenTelemetry `execute_tool`
 * span, a Langfuse `TOOL` observation) without its arguments, and that no model output in the file
 * holds: what ran is unknown, so the reader reports it (an INVALID_RECORD warning) and inspection
 * fails closed on it.
 */
export const ARGUMENTS_NOT_RECORDED = 'the capture records this call as executed but not its arguments';

/** True when `call` was recorded without its arguments (see {@link ARGUMENTS_NOT_RECORDED}). */
export function argumentsNotRecorded(call: ToolCall): boolean {
  return call.argumentsError === ARGUMENTS_NOT_RECORDED;
}

/** A call recorded as executed without its arguments: `arguments` null, `argumentsError` {@link ARGUMENTS_NOT_RECORDED}. */
export function unrecordedArgumentsCall(id: string | null | undefined, name: string, kind: ToolCallKind): ToolCall {
  return { id: typeof id === 'string' && id !== '' ? id : null, name, kind, argumentsRaw: '', arguments: null, argumentsError: ARGUMENTS_NOT_RECORDED };
}

/** True when the arguments of `call` were not read at all: nested too deep, under a key guard does not read, or not recorded. */
export function argumentsUnread(call: ToolCall): boolean {
  return argumentsTooDeep(call) || argumentsUnderUnreadKey(call) || argumentsNotRecorded(call);
}

/**
 * Keys that name or describe a call in some format and never hold its arguments: ids, names,
 * types, state and the tool's result. A key outside these and outside the reader's own list,
 * on a call without arguments, is reported (see {@link makeToolCall} `from`).
 */
const CALL_METADATA_KEYS = new Set([
  'id', 'name', 'type', 'kind', 'index', 'status', 'call_id', 'callId', 'callID', 'tool_call_id', 'toolCallId',
  'toolUseId', 'tool_use_id', 'toolName', 'tool_name', 'displayName', 'display_name', 'description', 'timestamp',
  'created_at', 'createdAt', 'result', 'resultDisplay', 'output', 'error', 'state', 'title', 'cache_control',
  'caller', 'thoughtSignature', 'thought_signature', 'renderOutputAsMarkdown', 'metadata',
]);

/** The call object a reader took a call from, and the keys it reads on it (see {@link makeToolCall}). */
export interface CallSource {
  entry: Record<string, unknown>;
  read: readonly string[];
  /** The format may leave the arguments out of a call that takes none (Gemini `args`): absent arguments are `{}`. */
  optional?: boolean;
}

function unreadCallKeys(from: CallSource): string[] {
  return Object.keys(from.entry).filter((k) => {
    if (from.read.includes(k) || CALL_METADATA_KEYS.has(k)) return false;
    const v = from.entry[k];
    return v !== null && v !== undefined && v !== '' && typeof v !== 'boolean' && typeof v !== 'number';
  });
}

/**
 * Makes a {@link ToolCall} from captured arguments.
 *
 * @param args a JSON string (kept byte for byte in `argumentsRaw`, then parsed) or an already
 *   decoded value (serialised with `JSON.stringify` into `argumentsRaw`; must be an object to
 *   count as parsed). `undefined`/`null` are treated as no arguments: raw '' and an error.
 *   Arguments nested deeper than {@link MAX_ARGUMENT_DEPTH} levels are not serialised or parsed:
 *   `arguments` null, `argumentsError` {@link ARGUMENTS_TOO_DEEP}, and `argumentsRaw` the string
 *   as captured, or '' for a decoded value (readCapture also reports such a call as INVALID_RECORD).
 * @param from the call object `args` was taken from and the keys the reader reads on it. When
 *   `args` is absent and the object holds other keys (outside {@link CALL_METADATA_KEYS}) with a
 *   value, the arguments may be under one of them: `argumentsError` starts with
 *   {@link ARGUMENTS_UNDER_UNREAD_KEY} and names them, readCapture reports the call as
 *   INVALID_RECORD and inspection fails closed on it. `argumentsRaw` then holds the JSON of those
 *   keys and their values, so the raw-text rules still read them.
 * @returns the call. Never throws.
 */
export function makeToolCall(id: string | null | undefined, name: string, kind: ToolCallKind, args: unknown, from?: CallSource): ToolCall {
  const callId = typeof id === 'string' && id !== '' ? id : null;
  if (typeof args === 'string') {
    const { value, error } = parseArguments(args);
    return { id: callId, name, kind, argumentsRaw: args, arguments: value, argumentsError: error };
  }
  if (args === undefined || args === null) {
    const unread = from ? unreadCallKeys(from) : [];
    if (unread.length > 0) {
      const held = Object.fromEntries(unread.map((k) => [k, from!.entry[k]]));
      const raw = jsonDepthExceeds(held, MAX_ARGUMENT_DEPTH) ? '' : JSON.stringify(held);
      return { id: callId, name, kind, argumentsRaw: raw, arguments: null, argumentsError: `${ARGUMENTS_UNDER_UNREAD_KEY} ${quotedKeys(unread)}` };
    }
    if (from?.optional) return { id: callId, name, kind, argumentsRaw: '{}', arguments: {}, argumentsError: null };
    return { id: callId, name, kind, argumentsRaw: '', arguments: null, argumentsError: 'no arguments captured' };
  }
  // measured before JSON.stringify, which would overflow the stack on a very deep value
  if (jsonDepthExceeds(args, MAX_ARGUMENT_DEPTH)) {
    return { id: callId, name, kind, argumentsRaw: '', arguments: null, argumentsError: ARGUMENTS_TOO_DEEP };
  }
  const raw = JSON.stringify(args);
  if (isPlainObject(args)) return { id: callId, name, kind, argumentsRaw: raw, arguments: args, argumentsError: null };
  return { id: callId, name, kind, argumentsRaw: raw, arguments: null, argumentsError: 'arguments are not a JSON object' };
}

/**
 * Reads the advertised tools from a request body (or a Responses object that echoes `tools`).
 *
 * Accepts the request `tools` shapes of the official SDKs (openai-node `ChatCompletionTool` and
 * Responses `Tool`, anthropic-sdk-typescript `ToolUnion`; docs/sources.md "API bodies and
 * streams"): OpenAI Chat `{type:"function", function:{name, parameters}}` and `{type:"custom",
 * custom:{name}}`, legacy `functions[]`, Anthropic `{name, input_schema}` and versioned built-ins
 * `{type:"bash_20250124", name}`, Responses flat `{type:"function", name, parameters}`, and guard
 * reply records' plain names. Entries without a usable name are skipped.
 *
 * @param body the request body (or any object with `tools` / `functions`).
 * @returns the tools, or null when the body has neither `tools` nor `functions`.
 */
export function advertisedFromRequest(body: unknown): AdvertisedTool[] | null {
  if (!isPlainObject(body)) return null;
  const lists = [body['tools'], body['functions']].filter(Array.isArray) as unknown[][];
  if (lists.length === 0) return null;
  const out: AdvertisedTool[] = [];
  for (const list of lists) for (const entry of list) {
    const tool = advertisedTool(entry);
    if (tool) out.push(tool);
  }
  return out;
}

/** One advertised tool definition in any of the shapes {@link advertisedFromRequest} accepts. */
export function advertisedTool(entry: unknown): AdvertisedTool | null {
  if (typeof entry === 'string') return entry === '' ? null : { name: entry };
  if (!isPlainObject(entry)) return null;
  const nested = isPlainObject(entry['function']) ? entry['function'] : isPlainObject(entry['custom']) ? entry['custom'] : null;
  const src = nested ?? entry;
  const name = src['name'];
  if (typeof name !== 'string' || name === '') return null;
  const schema = src['parameters'] ?? src['input_schema'] ?? src['inputSchema'];
  return isPlainObject(schema) ? { name, schema: schema as JsonSchema } : { name };
}
