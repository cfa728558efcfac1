/**
 * Building normalised tool calls and reading advertised tools, shared by every reader.
 */

import type { AdvertisedTool, JsonSchema, ToolCall, ToolCallKind } from './types.js';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Deepest nesting of objects and arrays accepted in tool-call arguments. Real arguments nest a
 * handful of levels; JSON.stringify and the recursive walks of later stages overflow the call
 * stack somewhere past a few thousand, so anything deeper than this is refused before it is
 * serialised or handed on.
 */
export const MAX_ARGUMENT_DEPTH = 512;

/** The `argumentsError` of a call whose arguments nest deeper than {@link MAX_ARGUMENT_DEPTH}. */
export const ARGUMENTS_TOO_DEEP = `arguments are nested deeper than ${MAX_ARGUMENT_DEPTH} levels; not read`;

/**
 * Whether a JSON value nests objects/arrays more than `limit` levels deep, measured without
 * recursion (an explicit stack), so it is safe on any depth. A scalar has depth 0, `{}` and `[]`
 * depth 1, `{"a":[1]}` depth 2. Stops at the first path deeper than `limit`; a cyclic value is
 * reported as too deep rather than looping.
 *
 * @param value a parsed JSON value (or any value: non-plain objects are walked by their own keys).
 * @param limit the deepest nesting allowed (levels, >= 0).
 * @returns true when some path is deeper than `limit`. Time O(values visited); memory O(width).
 */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  // a flat object or array (most tool-call arguments) has depth 1: no walk needed
  if (limit >= 1 && !hasObjectChild(value)) return false;
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > limit) return true;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) if (typeof c === 'object' && c !== null) stack.push({ v: c, depth: depth + 1 });
  }
  return false;
}

/** True when some child of `v` (an element, or an own enumerable property value) is an object or array. */
function hasObjectChild(v: object): boolean {
  const children = Array.isArray(v) ? v : Object.values(v);
  for (const c of children) if (typeof c === 'object' && c !== null) return true;
  return false;
}

/** True when `call` was refused because its arguments nest too deep (see {@link MAX_ARGUMENT_DEPTH}). */
export function argumentsTooDeep(call: ToolCall): boolean {
  return call.argumentsError === ARGUMENTS_TOO_DEEP;
}

/**
 * Parses an arguments string the way a client would: JSON, and it must be an object.
 *
 * @param raw the argument text exactly as captured.
 * @returns the object, or the reason it is not one. An empty string is an error (the capture
 *   carried no arguments at all); callers that follow the Anthropic rule "empty buffer is `{}`"
 *   pass '{}' themselves. Arguments nested deeper than {@link MAX_ARGUMENT_DEPTH} levels are
 *   refused with {@link ARGUMENTS_TOO_DEEP}.
 */
export function parseArguments(raw: string): { value: Record<string, unknown> | null; error: string | null } {
  if (raw.trim() === '') return { value: null, error: 'arguments are empty' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    return { value: null, error: `arguments are not valid JSON: ${(e as Error).message}` };
  }
  if (jsonDepthExceeds(parsed, MAX_ARGUMENT_DEPTH)) return { value: null, error: ARGUMENTS_TOO_DEEP };
  if (!isPlainObject(parsed)) {
    const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`;
    return { value: null, error: `arguments are ${kind}, not a JSON object` };
  }
  return { value: parsed, error: null };
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
 * Accepts the shapes of capture-formats.md §1.1, §2.1, §3.1: OpenAI Chat
 * `{type:"function", function:{name, parameters}}` and `{type:"custom", custom:{name}}`, legacy
 * `functions[]`, Anthropic `{name, input_schema}` and versioned built-ins `{type:"bash_20250124",
 * name}`, Responses flat `{type:"function", name, parameters}`, and guard reply records' plain
 * names. Entries without a usable name are skipped.
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
