/**
 * Reading OpenAI Responses output items (`response.output[]`): text, reasoning and tool calls.
 * Shared by the Responses stream accumulator and usable by the non-streaming body reader.
 *
 * Item shapes: openai-node `src/resources/responses/responses.ts`
 * (https://github.com/openai/openai-node/blob/7b7d6ca71130d37ec09792c50056b47861f2eccf/src/resources/responses/responses.ts).
 */

import { advertisedTool, makeToolCall } from '../toolcall.js';
import type { AdvertisedTool, CaptureError, ToolCall } from '../types.js';
import { TextJoiner } from '../bodies/common.js';
import { isObject, nonEmpty } from './common.js';

/** What one output item contributes to a reply. */
export interface ItemContent {
  text: string;
  /** Boundaries between the item's text parts (offsets in `text`). */
  textBreaks?: number[];
  reasoning: string;
  toolCall: ToolCall | null;
  /** What of the item guard does not read (`an output item of type "computer_call"`, a message
   * part of an unknown type: a call it cannot inspect, a type newer than its reader): the caller
   * reports it, never drops it silently. */
  unread?: string;
}

/** Output item types that hold no text and no call guard could inspect: skipped without a word. */
const CONTENTLESS_ITEMS = new Set(['web_search_call', 'file_search_call', 'image_generation_call', 'mcp_list_tools', 'item_reference', 'compaction']);

/** Parts of an assistant message that hold no reply content of their own (input parts a proxy echoed). */
const IGNORED_MESSAGE_PARTS: ReadonlySet<string> = new Set(['input_text', 'input_image', 'input_file', 'input_audio']);

function joinParts(parts: unknown, types: readonly string[], field: (p: Record<string, unknown>) => unknown): string {
  if (!Array.isArray(parts)) return '';
  let out = '';
  for (const p of parts) {
    if (!isObject(p) || !types.includes(p['type'] as string)) continue;
    const v = field(p);
    if (typeof v === 'string') out += v;
  }
  return out;
}

/**
 * Reads one Responses output item.
 *
 * - `message`: `content[type=output_text].text` and `content[type=refusal].refusal` → text.
 * - `reasoning`: `content[type=reasoning_text].text`, else `summary[type=summary_text].text` →
 *   reasoning.
 * - Tool calls (id = `call_id`, else the item `id`), arguments kept as captured so the inspection
 *   engine sees the command text:
 *   `function_call` (name, `arguments` string), `custom_tool_call` (name, `input` raw string),
 *   `mcp_call` (name, `arguments` string), `shell_call` (name `shell`, the `action` object with
 *   `commands[]`), `local_shell_call` (name `local_shell`, the `action` object with the
 *   `command` argv), `apply_patch_call` (name `apply_patch`, the `operation` object).
 * - `mcp_approval_request` (the MCP call the model asks approval for) is read as an `mcp_call`.
 * - A named call item whose name is missing keeps its call and is reported (`unread`).
 * - Items without text or a command (web_search_call, file_search_call, image_generation_call,
 *   mcp_list_tools, ...) contribute nothing; any other type (computer_call, code_interpreter_call,
 *   a type newer than this reader) is returned as `unread`, for the caller to report.
 *
 * @param item one element of `response.output` (or an `output_item.*` event's `item`).
 */
export function readResponsesItem(item: unknown): ItemContent {
  const c = readItem(item);
  if (c.toolCall !== null && c.toolCall.name === '' && c.unread === undefined) {
    return { ...c, unread: `a ${String((item as Record<string, unknown>)['type'])} item with no name` };
  }
  return c;
}

function readItem(item: unknown): ItemContent {
  const none: ItemContent = { text: '', reasoning: '', toolCall: null };
  if (!isObject(item)) return none;
  const id = nonEmpty(item['call_id']) ?? nonEmpty(item['id']);
  const name = nonEmpty(item['name']) ?? '';
  switch (item['type']) {
    case 'message': {
      const text = new TextJoiner();
      // an assistant message holds output_text and refusal parts; another type there (a tool_use
      // block a proxy translated in, a newer part) is reported; input parts of other roles are not read
      const assistant = item['role'] === undefined || item['role'] === 'assistant';
      let unread: string | undefined;
      const content = item['content'];
      // an input-style message (EasyInputMessage) holds its text as a string
      if (typeof content === 'string') text.add(content);
      for (const p of Array.isArray(content) ? content : []) {
        if (!isObject(p) || (p['type'] !== 'output_text' && p['type'] !== 'refusal')) {
          if (assistant && (!isObject(p) || !IGNORED_MESSAGE_PARTS.has(p['type'] as string))) unread ??= `a message item's content part ${isObject(p) ? `of type ${JSON.stringify(typeof p['type'] === 'string' ? p['type'].slice(0, 60) : '(no type)')}` : `that is a JSON ${typeof p}`}`;
          continue;
        }
        const v = p['type'] === 'refusal' ? p['refusal'] : p['text'];
        if (typeof v === 'string') text.add(v);
        else if (assistant) unread ??= `a message item's ${String(p['type'])} part whose ${p['type'] === 'refusal' ? 'refusal' : 'text'} is not a string`;
      }
      // calls do not sit on a message item; a shape that puts them there is not read
      for (const key of ['tool_calls', 'function_call']) if (assistant && item[key] !== undefined) unread ??= `a message item's ${key}`;
      return { ...none, text: text.text, ...text.breakField, ...(unread !== undefined ? { unread } : {}) };
    }
    case 'reasoning': {
      const content = joinParts(item['content'], ['reasoning_text'], (p) => p['text']);
      return { ...none, reasoning: content !== '' ? content : joinParts(item['summary'], ['summary_text'], (p) => p['text']) };
    }
    case 'function_call':
      return { ...none, toolCall: makeToolCall(id, name, 'function', item['arguments'], { entry: item, read: ['arguments'] }) };
    case 'custom_tool_call':
      return { ...none, toolCall: makeToolCall(id, name, 'custom_tool_call', item['input'], { entry: item, read: ['input'] }) };
    case 'mcp_call':
    // the model's MCP call waiting for the user's approval: the call it asks to make, inspected like one
    case 'mcp_approval_request':
      return { ...none, toolCall: makeToolCall(nonEmpty(item['id']) ?? id, name, 'mcp_call', item['arguments'], { entry: item, read: ['arguments', 'server_label', 'approval_request_id'] }) };
    case 'shell_call':
      return { ...none, toolCall: makeToolCall(id, 'shell', 'shell_call', item['action'], { entry: item, read: ['action'] }) };
    case 'local_shell_call':
      return { ...none, toolCall: makeToolCall(id, 'local_shell', 'local_shell_call', item['action'], { entry: item, read: ['action'] }) };
    case 'apply_patch_call':
      return { ...none, toolCall: makeToolCall(id, 'apply_patch', 'apply_patch_call', item['operation'], { entry: item, read: ['operation'] }) };
    default: {
      const type = typeof item['type'] === 'string' ? item['type'] : '(no type)';
      return CONTENTLESS_ITEMS.has(type) ? none : { ...none, unread: `an output item of type ${JSON.stringify(type.slice(0, 60))}` };
    }
  }
}

/** The INVALID_RECORD error of an output item guard does not read ({@link readResponsesItem}'s `unread`). */
export function unreadItemError(ctx: { file: string; line: number }, unread: string): CaptureError {
  return { file: ctx.file, line: ctx.line, code: 'INVALID_RECORD', severity: 'error', message: `${unread} is not read by guard: what it holds (a call, its command) is not judged` };
}

/**
 * The tools a Responses object echoes in `tools[]`. Function and custom tools keep their names;
 * built-in tools without a name (`{type:"shell"}`, `{type:"apply_patch"}`, `{type:"local_shell"}`,
 * `{type:"web_search"}`...) are listed under their type, which is the name
 * {@link readResponsesItem} gives their calls.
 *
 * @returns the tools, or null when `response.tools` is absent.
 */
export function advertisedFromResponse(response: Record<string, unknown>): AdvertisedTool[] | null {
  const tools = response['tools'];
  if (!Array.isArray(tools)) return null;
  const out: AdvertisedTool[] = [];
  for (const t of tools) {
    const tool = advertisedTool(t);
    if (tool) out.push(tool);
    else if (isObject(t) && nonEmpty(t['type']) !== undefined) out.push({ name: t['type'] as string });
  }
  return out;
}
