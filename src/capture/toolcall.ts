/**
 * Building normalised tool calls and reading advertised tools, shared by every reader.
 */

import { ARGUMENTS_TOO_DEEP, jsonDepthExceeds, MAX_ARGUMENT_DEPTH, parseArguments } from '../base/json.js';
import type { AdvertisedTool, JsonSchema, ToolCall, ToolCallKind } from './types.js';

export { ARGUMENTS_TOO_DEEP, jsonDepthExceeds, MAX_ARGUMENT_DEPTH, parseArguments };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True when `call` was refused because its arguments nest too deep (see {@link MAX_ARGUMENT_DEPTH}). */
export function argumentsTooDeep(call: ToolCall): boolean {
  return call.argumentsError === ARGUMENTS_TOO_DEEP;
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
 * @returns the call. Never throws.
 */
export function makeToolCall(id: string | null | undefined, name: string, kind: ToolCallKind, args: unknown): ToolCall {
  const callId = typeof id === 'string' && id !== '' ? id : null;
  if (typeof args === 'string') {
    const { value, error } = parseArguments(args);
    return { id: callId, name, kind, argumentsRaw: args, arguments: value, argumentsError: error };
  }
  if (args === undefined || args === null) {
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
