/**
 * OpenAI Chat Completions response bodies (`ChatCompletion`, non-streaming).
 *
 * Schema: openai-node `src/resources/chat/completions/completions.ts`
 * (https://github.com/openai/openai-node/blob/7b7d6ca71130d37ec09792c50056b47861f2eccf/src/resources/chat/completions/completions.ts);
 * `reasoning_content` / `reasoning` (DeepSeek, vLLM, SGLang, OpenRouter): DeepSeek's API docs,
 * https://api-docs.deepseek.com/guides/thinking_mode_api_example_streaming, and vLLM's rename,
 * https://github.com/vllm-project/vllm/issues/27755 (docs/sources.md "Reasoning fields").
 */

import { quotedKeys } from '../../base/json.js';
import { makeToolCall } from '../toolcall.js';
import type { Reply, ToolCall } from '../types.js';
import { arr, captureError, isObject, shapeOf, str, TextJoiner, type JsonObject, type RecordContext, type RecordOutput } from './common.js';

/**
 * True for a Chat Completions response body: `object: "chat.completion"`, or (servers that omit
 * `object`) a non-empty `choices[]` whose entries all carry a `message` object.
 */
export function isChatCompletion(v: unknown): v is JsonObject {
  if (!isObject(v)) return false;
  if (v['object'] === 'chat.completion') return true;
  if (v['object'] !== undefined) return false;
  const choices = v['choices'];
  return Array.isArray(choices) && choices.length > 0 && choices.every((c) => isObject(c) && isObject(c['message']));
}

/** What a Chat `content` holds: its visible text (with part boundaries), the thinking parts, and parts of other types. */
export interface ChatContent {
  text: TextJoiner;
  /** The text of `thinking` parts (Mistral's reasoning models), in order. */
  reasoning: string[];
  /** Types of the parts that hold neither (images, audio, unknown types), for an INVALID_RECORD warning. */
  skipped: string[];
}

/**
 * Reads a Chat `content`: a string, or an array of parts. `text` parts are the visible text;
 * `thinking` parts (Mistral, https://docs.mistral.ai/capabilities/reasoning/: `{"type": "thinking",
 * "thinking": [{"type": "text", "text": …}]}`) are reasoning; other part types are named in
 * `skipped`.
 */
export function chatContent(content: unknown): ChatContent {
  const out: ChatContent = { text: new TextJoiner(), reasoning: [], skipped: [] };
  if (typeof content === 'string') {
    out.text.add(content);
    return out;
  }
  for (const part of arr(content)) {
    if (typeof part === 'string') {
      out.text.add(part);
      continue;
    }
    if (!isObject(part)) {
      out.skipped.push(part === null ? 'null' : Array.isArray(part) ? 'array' : typeof part);
      continue;
    }
    const type = str(part['type']);
    if (type === 'thinking') {
      const t = part['thinking'];
      out.reasoning.push(typeof t === 'string' ? t : arr(t).map((x) => (isObject(x) ? (str(x['text']) ?? '') : typeof x === 'string' ? x : '')).join(''));
    } else if (type === undefined || type === 'text' || type === 'output_text') {
      if (typeof part['text'] === 'string') out.text.add(part['text']);
      else out.skipped.push(`${type ?? 'text'} (its text not a string)`);
    }
    else if (type === 'refusal') out.text.add(str(part['refusal']) ?? '');
    else out.skipped.push(type);
  }
  return out;
}

/** The text of a `content` that is a string or an array of parts. */
export function chatContentText(content: unknown): string {
  return chatContent(content).text.text;
}

/** `reasoning_content` and `reasoning` (docs/sources.md "Reasoning fields"), each kept once, joined
 * by a newline. */
export function chatReasoning(message: JsonObject): string {
  const parts: string[] = [];
  for (const key of ['reasoning_content', 'reasoning']) {
    const value = str(message[key]);
    if (value && !parts.includes(value)) parts.push(value);
  }
  // OpenRouter's reasoning_details (`reasoning.text` and `reasoning.summary` entries) hold the
  // reasoning when no `reasoning` string repeats it (https://openrouter.ai/docs/use-cases/reasoning-tokens)
  if (parts.length === 0) {
    for (const d of arr(message['reasoning_details'])) {
      if (!isObject(d)) continue;
      const value = d['type'] === 'reasoning.text' ? str(d['text']) : d['type'] === 'reasoning.summary' ? str(d['summary']) : undefined;
      if (value) parts.push(value);
    }
  }
  return parts.join('\n');
}

/** The keys of a Chat Completions choice read here or holding no text or call (finish details, vendors' stop fields, content filters, logprobs). */
const CHOICE_KEYS = new Set(['index', 'message', 'finish_reason', 'logprobs', 'native_finish_reason', 'stop_reason', 'content_filter_results', 'content_filter_result', 'matched_stop', 'seed', 'token_ids', 'finish_details', 'provider_specific_fields', 'error', 'tool_calls', 'function_call']);

/**
 * Reads the tool calls of one assistant message: `tool_calls[]` of type `function` (arguments a
 * JSON string) or `custom` (`input` a raw string), and the legacy `function_call` (no id).
 * Entries without a name are reported as INVALID_RECORD and skipped.
 */
export function chatToolCalls(message: JsonObject, ctx: RecordContext, out: RecordOutput): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const entry of arr(message['executed_tools'])) {
    const call = executedToolCall(entry);
    if (call) calls.push(call);
    else out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `an executed_tools entry without a string "type" (${shapeOf(entry)}) is not read: what it ran is not judged`));
  }
  for (const entry of arr(message['tool_calls'])) {
    if (!isObject(entry)) {
      out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `a tool_calls entry that is ${entry === null ? 'null' : `a JSON ${typeof entry}`}, not a call object, is not read: what it holds is not judged`));
      continue;
    }
    const custom = isObject(entry['custom']) ? entry['custom'] : null;
    const fn = isObject(entry['function']) ? entry['function'] : null;
    const id = str(entry['id']);
    if (entry['type'] === 'custom' || (custom && !fn)) {
      const name = custom ? str(custom['name']) : undefined;
      if (!name) {
        out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', 'a custom tool call has no name; it was skipped'));
        continue;
      }
      calls.push(makeToolCall(id, name, 'custom', custom?.['input'], custom ? { entry: custom, read: ['input'] } : undefined));
      continue;
    }
    const name = fn ? str(fn['name']) : undefined;
    if (!name) {
      out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', 'a tool call has no function name; it was skipped'));
      continue;
    }
    calls.push(makeToolCall(id, name, 'function', fn?.['arguments'], fn ? { entry: fn, read: ['arguments'] } : undefined));
  }
  const legacy = message['function_call'];
  // a zero-valued function_call ({name: "", arguments: ""}, as Snowflake's compatible API writes
  // in every message) is no call; one with arguments but no name is reported
  if (isObject(legacy) && !isZeroFunctionCall(legacy)) {
    const name = str(legacy['name']);
    if (name) calls.push(makeToolCall(null, name, 'function', legacy['arguments'], { entry: legacy, read: ['arguments'] }));
    else out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', 'function_call has no name; it was skipped'));
  }
  return calls;
}

/** A stream delta that holds nothing: a role, and empty or null content. */
function isEmptyDelta(v: unknown): boolean {
  return isObject(v) && Object.entries(v).every(([k, x]) => (k === 'role' && typeof x === 'string') || x === '' || x === null);
}

/** A legacy `function_call` with nothing in it: every member an empty string, null or absent. */
function isZeroFunctionCall(fc: JsonObject): boolean {
  return Object.values(fc).every((v) => v === '' || v === null || v === undefined);
}

/** The keys of a Chat Completions message (or stream delta) read here (openai-node `ChatCompletionMessage`, `ChatCompletionChunk.Choice.Delta`, and the reasoning fields of docs/sources.md). */
const READ_MESSAGE_KEYS = new Set(['role', 'content', 'refusal', 'reasoning_content', 'reasoning', 'tool_calls', 'function_call', 'audio', 'executed_tools']);

/**
 * Message and delta keys that hold no text, reasoning or call guard judges: OpenRouter's
 * `reasoning_details` (the reasoning again, or encrypted), `annotations` (URL citations),
 * `logprobs`, LiteLLM's `provider_specific_fields`, `thinking_blocks` (Anthropic thinking through
 * LiteLLM, also in `reasoning_content`), Groq's harmony `channel` name, Azure On Your Data's `context` (citations and intent), `images`, `name`, ids,
 * and Gemini's OpenAI-compatible `thought_signature` (an opaque signature).
 */
const INERT_MESSAGE_KEYS = new Set(['reasoning_details', 'annotations', 'logprobs', 'provider_specific_fields', 'thinking_blocks', 'images', 'name', 'id', 'index', 'type', 'tool_call_id', 'reasoning_signature', 'obfuscation', 'channel', 'context', 'thought_signature']);

/** Keys of Gemini's OpenAI-compatible `extra_content.google` that hold no text or call (a thought flag and its opaque signature). */
const GOOGLE_SIGNATURE_KEYS: ReadonlySet<string> = new Set(['thought', 'thought_signature']);

/**
 * True for Gemini's OpenAI-compatible `extra_content` when it holds only thought signatures
 * (`{google: {thought, thought_signature}}`, https://ai.google.dev/gemini-api/docs/openai
 * "Thought signatures"); anything else in it is unread.
 */
function isSignatureOnly(v: unknown): boolean {
  return isObject(v) && Object.values(v).every((x) => isObject(x) && Object.keys(x).every((k) => GOOGLE_SIGNATURE_KEYS.has(k)));
}

/**
 * One entry of Groq's `executed_tools` (the tools its compound systems and `browser_search` /
 * `code_interpreter` ran server-side, https://console.groq.com/docs/compound and
 * https://console.groq.com/docs/browser-search: `{index, type: "search" | "python" |
 * "browser.search" | …, arguments: a JSON string, output, search_results?}`, as in the pydantic-ai
 * cassette test_groq/test_groq_model_web_search_tool.yaml) as a `server_tool_use` call named by its
 * `type`, with its `arguments`; its `output` is the tool's result and is not judged.
 *
 * @returns the call, or null for an entry without a string `type` (the caller reports it).
 */
export function executedToolCall(entry: unknown): ToolCall | null {
  if (!isObject(entry) || typeof entry['type'] !== 'string' || entry['type'] === '') return null;
  return makeToolCall(null, entry['type'], 'server_tool_use', entry['arguments'], { entry, read: ['arguments', 'output', 'search_results', 'index', 'type', 'code_results', 'browser_results'] });
}

/**
 * The keys of a Chat Completions message or stream delta that guard does not read and that hold
 * a value that could hold text or a call (a non-empty string, list or object): what they hold
 * would not be judged.
 *
 * @param message the `message` of a choice, or the `delta` of a chunk choice.
 * @returns the key names, in the object's order.
 */
export function unreadMessageKeys(message: JsonObject): string[] {
  return Object.keys(message).filter((k) => {
    if (READ_MESSAGE_KEYS.has(k) || INERT_MESSAGE_KEYS.has(k)) return false;
    const v = message[k];
    if (k === 'extra_content' && isSignatureOnly(v)) return false;
    // a number or a flag holds no text or call
    return (typeof v === 'string' && v !== '') || (Array.isArray(v) && v.length > 0) || isObject(v);
  });
}

/** What each read key of a Chat message or delta may hold (besides null): the API's types. */
const MESSAGE_KEY_TYPES: ReadonlyArray<[string, 'text' | 'content' | 'list' | 'object']> = [
  ['content', 'content'],
  ['refusal', 'text'],
  ['reasoning_content', 'text'],
  ['reasoning', 'text'],
  ['tool_calls', 'list'],
  ['function_call', 'object'],
  ['audio', 'object'],
];

/**
 * The read keys of a Chat Completions message or stream delta whose value has a type the API never
 * sends (`tool_calls` an object instead of a list, `content` an object or a number, `reasoning` a
 * number): guard reads none of them, so what they hold would pass unjudged without this.
 *
 * @param message the `message` of a choice, or the `delta` of a chunk choice.
 * @returns one description per such key (`"tool_calls" is an object with keys id, function`), in
 *   the order above; empty for a message of the API's shape.
 */
export function mistypedMessageKeys(message: JsonObject): string[] {
  const out: string[] = [];
  for (const [key, type] of MESSAGE_KEY_TYPES) {
    const v = message[key];
    if (v === undefined || v === null) continue;
    const fits = type === 'text' ? typeof v === 'string' : type === 'content' ? typeof v === 'string' || Array.isArray(v) : type === 'list' ? Array.isArray(v) : isObject(v);
    if (!fits) out.push(`${JSON.stringify(key)} is ${shapeOf(v)}`);
  }
  return out;
}

/** The INVALID_RECORD message for {@link mistypedMessageKeys}' descriptions of a `message` or `delta`. */
export function mistypedMessage(what: 'message' | 'delta', keys: readonly string[]): string {
  return `${what} keys of a type the Chat Completions API never sends (${keys.join('; ')}) are not read: what they hold (text, a call) is not judged`;
}

/** The spoken text of a message's or delta's `audio` (`{id, data, transcript}`): what the user heard, read as visible text. */
export function audioTranscript(message: JsonObject): string {
  const audio = message['audio'];
  return isObject(audio) && typeof audio['transcript'] === 'string' ? audio['transcript'] : '';
}

/**
 * Reads a Chat Completions response body: one {@link Reply} per `choices[]` entry (`n > 1` gives
 * several). Text is `message.content` (plus `message.refusal` when present); reasoning is
 * `reasoning_content` / `reasoning`; `finish_reason: "length"` marks the reply truncated.
 *
 * @param body a value for which {@link isChatCompletion} holds.
 * @param ctx where the record starts, the format to stamp and the advertised tools.
 * @returns replies in choice order and any INVALID_RECORD problems; never throws.
 */
export function readChatCompletion(body: JsonObject, ctx: RecordContext): RecordOutput {
  const out: RecordOutput = { replies: [], errors: [] };
  const choices = arr(body['choices']);
  if (choices.length === 0) {
    out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', 'chat.completion has no choices'));
    return out;
  }
  for (const choice of choices) {
    if (!isObject(choice) || !isObject(choice['message'])) {
      out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', 'a choice has no message object; it was skipped'));
      continue;
    }
    const message = choice['message'];
    const refusal = str(message['refusal']) ?? '';
    const parts = chatContent(message['content']);
    const spoken = audioTranscript(message);
    if (spoken !== '') parts.text.add(spoken);
    const unread = unreadMessageKeys(message);
    const mistyped = mistypedMessageKeys(message);
    if (mistyped.length > 0) out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', mistypedMessage('message', mistyped)));
    if (unread.length > 0) out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `message keys ${quotedKeys(unread)} are not read (not in the Chat Completions message): what they hold (text, a call) is not judged`));
    const content = parts.text.text;
    const breaks = refusal && content ? [...parts.text.breaks, content.length + 1] : parts.text.breaks;
    if (parts.skipped.length > 0) {
      out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `content parts of type ${[...new Set(parts.skipped)].map((t) => JSON.stringify(t)).join(', ')} were not read (not text): what they hold (a call, its arguments) is not judged`));
    }
    const reasoning = [chatReasoning(message), ...parts.reasoning].filter((r) => r !== '').join('\n');
    // a choice key guard does not read that holds text (a completion's `text` beside the message)
    // Perplexity writes an empty `delta` ({role, content: ""}) beside the message of a whole body
    const other = Object.keys(choice).filter((k) => !CHOICE_KEYS.has(k) && !(k === 'delta' && isEmptyDelta(choice[k])) && (typeof choice[k] === 'string' ? choice[k] !== '' : isObject(choice[k]) || (Array.isArray(choice[k]) && (choice[k] as unknown[]).length > 0)));
    if (other.length > 0) out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `choice keys ${quotedKeys(other)} are not read (not in the Chat Completions choice): what they hold (text, a call) is not judged`));
    // calls belong in the message; a shape that puts them beside it is not read
    for (const key of ['tool_calls', 'function_call']) {
      if (choice[key] !== undefined && choice[key] !== null) out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `a choice holds ${key} outside its message: not read, what it holds is not judged`));
    }
    const finishReason = str(choice['finish_reason']);
    const reply: Reply = {
      source: { file: ctx.file, line: ctx.line },
      format: ctx.format,
      id: str(body['id']) ?? null,
      advertised: ctx.advertised,
      text: refusal && content ? `${content}\n${refusal}` : content || refusal,
      ...(breaks.length > 0 ? { textBreaks: breaks } : {}),
      reasoning,
      toolCalls: chatToolCalls(message, ctx, out),
      truncated: finishReason === 'length',
    };
    const model = str(body['model']);
    if (model) reply.model = model;
    if (finishReason) reply.finishReason = finishReason;
    out.replies.push(reply);
  }
  return out;
}
