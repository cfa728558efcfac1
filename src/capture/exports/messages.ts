/**
 * Reading the model output that observability exports record, in whichever shape the
 * instrumentation wrote it: OpenTelemetry GenAI output messages
 * (`[{role, parts: [{type: "text" | "reasoning" | "tool_call", …}], finish_reason}]`, the schema
 * `gen-ai-output-messages.json` of open-telemetry/semantic-conventions v1.41.0,
 * https://github.com/open-telemetry/semantic-conventions/blob/v1.41.0/docs/gen-ai/gen-ai-output-messages.json),
 * OpenAI chat messages and completions, Anthropic content blocks, OpenAI Responses objects, the AI
 * SDK's tool calls (`[{toolCallId, toolName, input | args}]`) and content parts, and plain text;
 * any of them possibly serialised as a JSON string.
 */

import { advertisedTool, makeToolCall } from '../toolcall.js';
import type { AdvertisedTool, ToolCall } from '../types.js';
import { TextJoiner, arr, isObject, str } from '../bodies/common.js';
import { anthropicBlockClass, anthropicToolKind } from '../streams/anthropic.js';
import { readResponsesItem } from '../streams/responses-items.js';

/** What an output value holds. */
export interface OutputParts {
  text: TextJoiner;
  reasoning: string[];
  calls: ToolCall[];
  /** Part or block types that hold none of these (named in an INVALID_RECORD warning). */
  skipped: Set<string>;
  /** The value was in a shape read here (false: nothing was recognised). */
  found: boolean;
  finishReason?: string;
}

export function emptyParts(): OutputParts {
  return { text: new TextJoiner(), reasoning: [], calls: [], skipped: new Set(), found: false };
}

/** A JSON text parsed, when `v` is a string that holds a JSON object or array; else `v`. */
export function maybeJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** Part types that are inputs or results, never the model's output. */
const RESULT_TYPES = new Set(['tool_call_response', 'tool_result', 'tool-result', 'function_call_output', 'image', 'file', 'blob', 'uri']);

/** Reads one part or content block (OTel, Anthropic, AI SDK, OpenAI content parts). */
function readPart(p: unknown, into: OutputParts): void {
  if (typeof p === 'string') {
    into.text.add(p);
    return;
  }
  if (!isObject(p)) return;
  const type = str(p['type']);
  switch (type) {
    case 'text':
    case 'output_text':
      into.text.add(str(p['content']) ?? str(p['text']) ?? '');
      return;
    case 'reasoning':
    case 'thinking':
      into.reasoning.push(str(p['content']) ?? str(p['thinking']) ?? str(p['text']) ?? '');
      return;
    case 'tool_call': // OTel
      into.calls.push(makeToolCall(str(p['id']), str(p['name']) ?? '', 'function', p['arguments'], { entry: p, read: ['arguments'], optional: true }));
      return;
    case 'server_tool_call': // OTel: a tool the provider runs
      into.calls.push(makeToolCall(str(p['id']), str(p['name']) ?? '', 'server_tool_use', p['arguments'], { entry: p, read: ['arguments'], optional: true }));
      return;
    case 'tool-call': // AI SDK
      into.calls.push(makeToolCall(str(p['toolCallId']), str(p['toolName']) ?? '', 'function', p['input'] ?? p['args'], { entry: p, read: ['input', 'args', 'providerExecuted', 'providerOptions', 'providerMetadata'], optional: true }));
      return;
    case 'function': // OpenAI tool_calls entries
      if (isObject(p['function'])) into.calls.push(makeToolCall(str(p['id']), str(p['function']['name']) ?? '', 'function', p['function']['arguments'], { entry: p['function'], read: ['arguments'] }));
      return;
    default: {
      const kind = anthropicToolKind(type);
      if (kind) {
        into.calls.push(makeToolCall(str(p['id']), str(p['name']) ?? '', kind, p['input'], { entry: p, read: ['input'] }));
        return;
      }
      if (type === undefined && typeof p['text'] === 'string') into.text.add(p['text']);
      // Anthropic blocks that hold nothing the model wrote to judge (redacted thinking, a server tool's result, a container upload)
      else if (type !== undefined && !RESULT_TYPES.has(type) && anthropicBlockClass(type) !== 'inert') into.skipped.add(type);
    }
  }
}

/** Reads an OpenAI / Anthropic / OTel message object (its role already checked). */
function readMessage(m: Record<string, unknown>, into: OutputParts): void {
  into.found = true;
  if (Array.isArray(m['parts'])) for (const p of m['parts']) readPart(p, into);
  const content = m['content'];
  if (typeof content === 'string') into.text.add(content);
  else for (const p of arr(content)) readPart(p, into);
  for (const key of ['reasoning_content', 'reasoning']) if (typeof m[key] === 'string' && m[key] !== '') into.reasoning.push(m[key] as string);
  for (const tc of arr(m['tool_calls'])) {
    if (isObject(tc) && isObject(tc['function'])) into.calls.push(makeToolCall(str(tc['id']), str(tc['function']['name']) ?? '', 'function', tc['function']['arguments'], { entry: tc['function'], read: ['arguments'] }));
    else readPart(tc, into);
  }
  const finish = str(m['finish_reason']);
  if (finish) into.finishReason = finish;
}

const isAssistant = (m: Record<string, unknown>): boolean => m['role'] === undefined || m['role'] === 'assistant' || m['role'] === 'model';

/**
 * Reads an output value into `into` (see the module comment for the shapes).
 *
 * @param depth guards against a value nested in itself through JSON strings.
 */
export function readOutputValue(value: unknown, into: OutputParts, depth = 0): void {
  if (depth > 4) return;
  const v = maybeJson(value);
  if (typeof v === 'string') {
    if (v !== '') into.text.add(v);
    into.found = true;
    return;
  }
  if (Array.isArray(v)) {
    for (const el of v) {
      if (!isObject(el)) {
        if (typeof el === 'string') {
          into.text.add(el);
          into.found = true;
        }
        continue;
      }
      if (typeof el['toolCallId'] === 'string' || typeof el['toolName'] === 'string') {
        into.found = true;
        into.calls.push(makeToolCall(str(el['toolCallId']), str(el['toolName']) ?? '', 'function', el['input'] ?? el['args'], { entry: el, read: ['input', 'args', 'providerExecuted', 'providerOptions', 'providerMetadata'], optional: true }));
      } else if (Array.isArray(el['parts']) || 'role' in el) {
        if (isAssistant(el)) readMessage(el, into);
        else into.found = true;
      } else if (typeof el['type'] === 'string') {
        into.found = true;
        readPart(el, into);
      } else readOutputValue(el, into, depth + 1);
    }
    return;
  }
  if (!isObject(v)) return;
  if (Array.isArray(v['choices'])) {
    into.found = true;
    const c = v['choices'][0];
    if (isObject(c) && isObject(c['message'])) readMessage(c['message'], into);
    else if (isObject(c) && typeof c['text'] === 'string') into.text.add(c['text']);
    if (isObject(c) && typeof c['finish_reason'] === 'string') into.finishReason = c['finish_reason'];
    return;
  }
  if (v['object'] === 'response' && Array.isArray(v['output'])) {
    into.found = true;
    for (const item of v['output']) {
      const content = readResponsesItem(item);
      into.text.add(content.text, content.textBreaks);
      if (content.reasoning) into.reasoning.push(content.reasoning);
      if (content.toolCall) into.calls.push(content.toolCall);
      if (content.unread !== undefined) into.skipped.add(isObject(item) ? (str(item['type']) ?? '(no type)') : '(not an object)');
    }
    return;
  }
  if (Array.isArray(v['parts']) || Array.isArray(v['content']) || typeof v['content'] === 'string' || Array.isArray(v['tool_calls'])) {
    if (isAssistant(v)) readMessage(v, into);
    else into.found = true;
    return;
  }
  if (isObject(v['message'])) return readOutputValue(v['message'], into, depth + 1);
  for (const key of ['text', 'completion', 'output', 'response', 'messages']) {
    if (key in v) return readOutputValue(v[key], into, depth + 1);
  }
}

/** Advertised tools from a list of definitions that may each be a JSON string (AI SDK `ai.prompt.tools`), or null. */
export function advertisedFromList(list: unknown): AdvertisedTool[] | null {
  const v = maybeJson(list);
  if (!Array.isArray(v)) return null;
  const out: AdvertisedTool[] = [];
  for (const entry of v) {
    const tool = advertisedTool(maybeJson(entry));
    if (tool) out.push(tool);
  }
  return out;
}
