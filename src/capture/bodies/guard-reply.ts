/**
 * guard's own reply record: one assistant reply per JSON line, for corpora and hand-made tests.
 *
 * Shape (guard's format, documented in the README):
 * `{"id"?, "tools": [name | tool definition], "text": "...", "tool_calls"?: [{"id"?, "name",
 * "arguments": object | JSON string}], "label"?: "leak" | "quotation", "reasoning"?,
 * "guard"?: {"allow": [{"rule", "reason"}]}}`; `guard` is metadata the harness writes, never
 * the model.
 * Other fields are metadata (`source`, `model`, notes) and ignored, except one that holds what
 * looks like a tool call (`toolCalls`, `function_call`, …): that is an INVALID_RECORD error, for
 * calls are read from `tool_calls` only. Tool definitions may take any shape `advertisedFromRequest` reads.
 */

import { quotedKeys } from '../../base/json.js';
import { advertisedFromRequest, advertisedTool, makeToolCall } from '../toolcall.js';
import type { AdvertisedTool, Reply, ToolCall } from '../types.js';
import { captureError, isObject, listAt, shapeOf, str, textAt, type JsonObject, type RecordContext, type RecordOutput } from './common.js';

/** Keys that belong to API bodies or transcripts; a record with any of them is not a guard reply. */
// `generation_id`, `event_type`, `is_finished`: Cohere v1 bodies and stream events, which also hold a `text`
const FOREIGN_KEYS = ['object', 'type', 'choices', 'content', 'message', 'payload', 'output', 'request', 'response', 'generation_id', 'event_type', 'is_finished'];

/** The keys of a guard reply record that are read. */
const READ_KEYS = new Set(['id', 'tools', 'text', 'tool_calls', 'label', 'reasoning', 'guard']);

/**
 * True for a value shaped like a tool call, or a list holding one: an object with a string `name`
 * and `arguments` / `args` / `input`, or a `function` / `functionCall` object. Tool definitions
 * (`name` and `parameters`) are not calls.
 */
function callLike(v: unknown): boolean {
  if (Array.isArray(v)) return v.some((e) => isObject(e) && callLike(e));
  if (!isObject(v)) return false;
  if (isObject(v['function']) || isObject(v['functionCall'])) return true;
  return typeof v['name'] === 'string' && ['arguments', 'args', 'input'].some((k) => v[k] !== undefined);
}

/**
 * True for a guard reply record: a string `text` and none of the keys that mark API bodies or
 * transcripts (`object`, `type`, `choices`, `content`, `message`, `payload`, `output`, `request`,
 * `response`; Cohere v1's `generation_id`, `event_type`, `is_finished`). `tools`, `tool_calls` and `label` are optional: a record without `tools` is a reply
 * whose advertised tools are unknown (`advertised: null`).
 */
export function isGuardReply(v: unknown): v is JsonObject {
  if (!isObject(v) || typeof v['text'] !== 'string') return false;
  return !FOREIGN_KEYS.some((k) => k in v);
}

/**
 * Reads a guard reply record into one {@link Reply}. `tools` becomes `advertised` (null when the
 * record has no `tools`); each `tool_calls[]` entry becomes a `function` tool call; an entry with
 * no name, or a `label` other than `leak` / `quotation`, is reported as INVALID_RECORD (the reply
 * is still yielded, without that call / label).
 *
 * @param record a value for which {@link isGuardReply} holds.
 * @returns the reply and any INVALID_RECORD problems; never throws.
 */
export function readGuardReply(record: JsonObject, ctx: RecordContext): RecordOutput {
  const out: RecordOutput = { replies: [], errors: [] };
  const toolCalls: ToolCall[] = [];
  const report = (m: string) => out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', m));
  for (const entry of listAt(record, 'tool_calls', report)) {
    const name = isObject(entry) ? str(entry['name']) : undefined;
    if (!isObject(entry) || !name) {
      out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', 'a tool_calls entry has no name; it was skipped'));
      continue;
    }
    toolCalls.push(makeToolCall(str(entry['id']), name, 'function', entry['arguments'], { entry, read: ['arguments'] }));
  }
  for (const [key, value] of Object.entries(record)) {
    if (READ_KEYS.has(key) || !callLike(value)) continue;
    out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `key ${quotedKeys([key])} holds what looks like a tool call, but a guard reply record keeps its calls in "tool_calls": it was not read, and what it holds is not judged`));
  }
  const rawId = record['id'];
  if (rawId !== undefined && rawId !== null && typeof rawId !== 'string' && typeof rawId !== 'number') {
    out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `id is ${shapeOf(rawId)}, not a string or a number; the reply has no id`, 'warning'));
  }
  const reply: Reply = {
    source: { file: ctx.file, line: ctx.line },
    format: ctx.format,
    id: typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : null,
    advertised: readTools(record, ctx, out),
    text: record['text'] as string,
    reasoning: textAt(record, 'reasoning', report) ?? '',
    toolCalls,
    truncated: false,
  };
  const label = record['label'];
  if (label === 'leak' || label === 'quotation') reply.label = label;
  else if (label !== undefined) {
    out.errors.push(
      captureError(ctx.file, ctx.line, 'INVALID_RECORD', `label must be "leak" or "quotation", got ${JSON.stringify(label)}; it was ignored`),
    );
  }
  const allow = readAllowMarks(record['guard'], ctx, out);
  if (allow.length) reply.allow = allow;
  out.replies.push(reply);
  return out;
}

/**
 * The advertised tools of a guard reply record: its `tools` list (names or tool definitions), or
 * `ctx.advertised` when it has none. A `tools` that is not a list is an INVALID_RECORD error and
 * the tools are unknown (null: recovery refuses rather than guess); an entry that is neither a
 * name nor a definition with a name is an INVALID_RECORD warning and left out (a call to that tool
 * is then refused as unadvertised).
 */
function readTools(record: JsonObject, ctx: RecordContext, out: RecordOutput): AdvertisedTool[] | null {
  const tools = record['tools'];
  if (tools === undefined || tools === null) return ctx.advertised;
  if (!Array.isArray(tools)) {
    out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `tools is ${shapeOf(tools)}, not a list of tool names or definitions; the advertised tools are unknown`));
    return null;
  }
  const bad = tools.flatMap((t, i) => (advertisedTool(t) ? [] : [i]));
  if (bad.length > 0) {
    out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `tools entries at index ${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ', ...' : ''} are neither a tool name nor a definition with a name; they were left out`, 'warning'));
  }
  return advertisedFromRequest({ tools });
}

/**
 * Reads the allow marks of a record's harness metadata: `"guard": {"allow": [{"rule": "<rule
 * id>", "reason": "<why>"}]}` (guard's format, docs/reports.md). A mark without a non-empty rule
 * id and reason, or a `guard` / `allow` of the wrong type, is reported as an INVALID_RECORD
 * warning and ignored.
 *
 * @param meta the record's `guard` value (undefined when absent).
 * @returns the valid marks; problems are pushed to `out.errors`.
 */
export function readAllowMarks(meta: unknown, ctx: RecordContext, out: RecordOutput): Array<{ rule: string; reason: string }> {
  if (meta === undefined) return [];
  const warn = (message: string) => out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', message, 'warning'));
  if (!isObject(meta)) {
    warn('"guard" must be an object; it was ignored');
    return [];
  }
  const list = meta['allow'];
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    warn('"guard.allow" must be a list of {rule, reason}; it was ignored');
    return [];
  }
  const marks: Array<{ rule: string; reason: string }> = [];
  list.forEach((m, i) => {
    const rule = isObject(m) ? str(m['rule'])?.trim() : undefined;
    const reason = isObject(m) ? str(m['reason'])?.trim() : undefined;
    if (!rule || !reason) warn(`guard.allow[${i}] needs a rule id and a reason; it was ignored`);
    else marks.push({ rule, reason });
  });
  return marks;
}
