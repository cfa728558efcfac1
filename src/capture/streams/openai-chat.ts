/**
 * Accumulates OpenAI Chat Completions stream chunks (`object:"chat.completion.chunk"`) into
 * replies, one per choice.
 *
 * Format and rules: the official SDK's chunk types and accumulation (openai-node
 * `src/resources/chat/completions/completions.ts` and `src/lib/ChatCompletionStream.ts`
 * `#accumulateChatCompletion`, https://github.com/openai/openai-node/blob/7b7d6ca71130d37ec09792c50056b47861f2eccf/src/lib/ChatCompletionStream.ts),
 * and `reasoning_content` / `reasoning` from DeepSeek, vLLM, SGLang, OpenRouter, Groq
 * (docs/sources.md "Reasoning fields").
 */

import { quotedKeys } from '../../base/json.js';
import { makeToolCall } from '../toolcall.js';
import { arr, listAt } from '../bodies/common.js';
import type { ToolCallKind } from '../types.js';
import { audioTranscript, chatContent, executedToolCall, mistypedMessage, mistypedMessageKeys, unreadMessageKeys } from '../bodies/openai-chat.js';
import {
  appendText,
  buildReply,
  continueName,
  describeApiError,
  emptyOutput,
  failedGenerationReply,
  invalidRecord,
  isObject,
  nonEmpty,
  streamError,
  truncatedStream,
  type StreamAccumulator,
  type StreamContext,
  type StreamOutput,
} from './common.js';

/** Where Groq's `executed_tools` indices start among a choice's calls (apart from `tool_calls` indices). */
const EXECUTED_INDEX_BASE = 1_000_000;

interface CallState {
  /** `tool_calls[].index` when the server sent one. */
  index: number | undefined;
  id: string | undefined;
  name: string | undefined;
  kind: ToolCallKind;
  args: string[];
}

interface ChoiceState {
  index: number;
  line: number;
  text: string[];
  reasoning: string[];
  calls: CallState[];
  finishReason: string | undefined;
}

interface ChatStream {
  id: string | undefined;
  model: string | undefined;
  choices: Map<number, ChoiceState>;
  /** Delta keys already reported as not read (once per stream, not per chunk). */
  reported: Set<string>;
}

/** The keys of a `tool_calls[]` entry beside its `function` / `custom` object that say which call it is. */
const CALL_ENTRY_KEYS = new Set(['index', 'id', 'type']);

/** How a stream ended: `[DONE]`, a new stream, an in-stream error, or the end of input. */
type CloseMode = 'done' | 'next' | 'error' | 'end';

/** Finds the call a `delta.tool_calls[pos]` entry continues, or creates it. */
function callFor(choice: ChoiceState, entry: Record<string, unknown>, pos: number, count: number): CallState {
  const id = nonEmpty(entry['id']);
  const index = typeof entry['index'] === 'number' ? entry['index'] : undefined;
  let found: CallState | undefined;
  if (index !== undefined) {
    // the latest call with this index; a different non-empty id at the same index is a new call
    // when the entry names one (Ollama sends parallel calls at one index), but a nameless entry
    // continues the call: a call opens with its name, and LM Studio sends a fresh id with every
    // argument piece (https://github.com/NousResearch/hermes-agent/pull/106943)
    for (const c of choice.calls) if (c.index === index) found = c;
    const fn = isObject(entry['function']) ? entry['function'] : isObject(entry['custom']) ? entry['custom'] : null;
    const named = nonEmpty(fn?.['name']) !== undefined;
    if (found && id !== undefined && found.id !== undefined && found.id !== id && (named || found.name === undefined)) found = undefined;
  } else if (id !== undefined) {
    found = choice.calls.find((c) => c.id === id);
  } else if (count === 1) {
    // no index and no id (reported for some servers, unconfirmed: docs/sources.md "Unconfirmed
    // shapes"): a lone entry continues the last call
    found = choice.calls.at(-1);
  } else {
    found = choice.calls[choice.calls.length - count + pos];
  }
  if (found) return found;
  const created: CallState = { index, id: undefined, name: undefined, kind: 'function', args: [] };
  choice.calls.push(created);
  return created;
}

/** What a merge could not read, for the accumulator to report at `line` (once per stream and kind). */
type Unread = (key: string, message: string) => void;

function mergeToolCall(choice: ChoiceState, entry: unknown, pos: number, count: number, unread: Unread): void {
  if (!isObject(entry)) {
    unread('tool_calls:not-object', `a delta.tool_calls entry that is ${entry === null ? 'null' : `a JSON ${Array.isArray(entry) ? 'array' : typeof entry}`}, not a call object, was not read: what it holds is not judged`);
    return;
  }
  if (!isObject(entry['function']) && !isObject(entry['custom'])) {
    // a call with its name and arguments beside it (`{index, id, name, arguments}`) is not the
    // API's shape: it is reported, never read as a nameless call with no arguments
    const other = Object.keys(entry).filter((k) => !CALL_ENTRY_KEYS.has(k) && entry[k] !== null && entry[k] !== undefined);
    if (other.length > 0) {
      unread('tool_calls:no-function', `a delta.tool_calls entry has no function object (keys ${quotedKeys(other)}): it was not read, and what it would run is not judged`);
      return;
    }
  }
  const call = callFor(choice, entry, pos, count);
  call.id ??= nonEmpty(entry['id']); // the first id stays (a continuing entry may bring another)
  const fn = isObject(entry['function']) ? entry['function'] : null;
  const custom = isObject(entry['custom']) ? entry['custom'] : null;
  if (entry['type'] === 'custom' || custom) call.kind = 'custom';
  const body = fn ?? custom;
  if (!body) return;
  // a name in pieces is joined, a repeated one kept (continueName); arguments (custom: input) are
  // appended; a server that sends the arguments as an object (not the API's JSON string) gets
  // them read as its JSON text, never dropped as "empty" (a call whose command would then pass
  // uninspected)
  call.name = continueName(call.name, body['name']);
  const args = fn ? body['arguments'] : body['input'];
  appendText(call.args, isObject(args) ? JSON.stringify(args) : args);
}

function mergeChoice(stream: ChatStream, c: unknown, pos: number, line: number, unread: Unread): void {
  if (!isObject(c)) {
    unread('choice:not-object', 'a choices entry that is not an object was not read');
    return;
  }
  const index = typeof c['index'] === 'number' ? c['index'] : pos;
  let choice = stream.choices.get(index);
  if (!choice) {
    choice = { index, line, text: [], reasoning: [], calls: [], finishReason: undefined };
    stream.choices.set(index, choice);
  }
  let delta = c['delta'];
  if (!isObject(delta) && isObject(c['message'])) {
    // a whole message in a chunk (some servers end a stream this way): read as the choice's only
    // delta when nothing came before it; a repeat of what the deltas said is ignored; any other
    // is reported (reading it too would double the reply)
    const m = c['message'];
    if (choice.text.length === 0 && choice.reasoning.length === 0 && choice.calls.length === 0) delta = m;
    else if (!repeatsDeltas(choice, m)) unread('choice:message', 'a chunk choice carries a whole message besides the deltas before it, and they differ; the message was not read: what it holds is not judged');
  }
  if (isObject(delta)) {
    for (const key of unreadMessageKeys(delta)) {
      unread(`delta:${key}`, `delta key ${quotedKeys([key])} is not read (it is not in the Chat Completions chunk): what it holds (text, a call) is not judged`);
    }
    const mistyped = mistypedMessageKeys(delta);
    if (mistyped.length > 0) unread(`delta-type:${mistyped.join(';')}`, mistypedMessage('delta', mistyped));
    appendText(choice.text, audioTranscript(delta));
    const content = delta['content'];
    if (Array.isArray(content)) {
      // Mistral streams content as parts: text parts are visible text, thinking parts reasoning
      const parts = chatContent(content);
      appendText(choice.text, parts.text.text);
      for (const r of parts.reasoning) appendText(choice.reasoning, r);
      if (parts.skipped.length > 0) unread('delta:content-parts', `delta content parts of type ${[...new Set(parts.skipped)].map((t) => JSON.stringify(t)).join(', ')} were not read (not text): what they hold (a call, its arguments) is not judged`);
    } else appendText(choice.text, content);
    appendText(choice.text, delta['refusal']);
    appendText(choice.reasoning, delta['reasoning_content']);
    appendText(choice.reasoning, delta['reasoning']);
    const calls = delta['tool_calls'];
    if (Array.isArray(calls)) calls.forEach((entry, i) => mergeToolCall(choice, entry, i, calls.length, unread));
    // Groq's server-side tool runs come whole, and again with their output under the same index: read once
    arr(delta['executed_tools']).forEach((entry, i) => {
      const call = executedToolCall(entry);
      if (!call) return unread('delta:executed_tools', 'an executed_tools entry without a string "type" is not read: what it ran is not judged');
      const index = EXECUTED_INDEX_BASE + (isObject(entry) && typeof entry['index'] === 'number' ? entry['index'] : i);
      if (choice.calls.some((cs) => cs.index === index)) return;
      choice.calls.push({ index, id: undefined, name: call.name, kind: 'server_tool_use', args: [call.argumentsRaw] });
    });
    const legacy = delta['function_call'];
    if (isObject(legacy)) {
      let call = choice.calls.find((cs) => cs.index === -1);
      if (!call) {
        call = { index: -1, id: undefined, name: undefined, kind: 'function', args: [] };
        choice.calls.push(call);
      }
      call.name = continueName(call.name, legacy['name']);
      appendText(call.args, legacy['arguments']);
    }
  }
  choice.finishReason = nonEmpty(c['finish_reason']) ?? choice.finishReason;
}

/** True when a chunk's whole `message` says what the deltas of `choice` said: the same text and as many calls. */
function repeatsDeltas(choice: ChoiceState, m: Record<string, unknown>): boolean {
  const text = typeof m['content'] === 'string' ? m['content'] : m['content'] === null || m['content'] === undefined ? '' : null;
  const calls = Array.isArray(m['tool_calls']) ? m['tool_calls'].length : 0;
  return text === choice.text.join('') && calls === choice.calls.length;
}

/** True when a chunk opens a stream: one of its choices' deltas names the `role` (the first chunk does). */
function opensStream(payload: Record<string, unknown>): boolean {
  const choices = payload['choices'];
  return Array.isArray(choices) && choices.some((c) => isObject(c) && isObject(c['delta']) && typeof c['delta']['role'] === 'string');
}

/** The error object of an in-stream OpenAI error payload (`{"error":{...}}`), else null. */
function errorOf(payload: Record<string, unknown>, eventName: string | undefined): Record<string, unknown> | null {
  if (isObject(payload['error'])) return payload['error'];
  if ((eventName === 'error' || payload['type'] === 'error') && !Array.isArray(payload['choices'])) return payload;
  return null;
}

/**
 * Creates the OpenAI Chat accumulator.
 *
 * A stream ends at `[DONE]`. Chunk captures without `[DONE]` are complete when every choice got a
 * `finish_reason`; a choice without one at the end of input is a truncated reply (plus a
 * TRUNCATED_STREAM error). `finish_reason:"length"` also marks a reply truncated. After `[DONE]`, a
 * chunk with a new chunk id, or one that opens a stream (a delta with `role`) under any id, starts
 * a second stream in the same file; other chunks after `[DONE]` are ignored, as the SDK ignores
 * them (openai-node `src/core/streaming.ts` stops reading at `[DONE]`). A new chunk id after every
 * choice finished also starts a new stream.
 */
export function createOpenAIChatAccumulator(ctx: StreamContext): StreamAccumulator {
  let current: ChatStream | null = null;
  /** Set after `[DONE]` or an error: the id of the stream that ended (payloads with it are ignored). */
  let ended: { id: string | undefined } | null = null;

  const close = (mode: CloseMode): StreamOutput => {
    const out = emptyOutput();
    const stream = current;
    current = null;
    if (!stream) return out;
    const choices = [...stream.choices.values()].sort((a, b) => a.index - b.index);
    for (const ch of choices) {
      const cut = ch.finishReason === undefined && mode !== 'done' && mode !== 'next';
      out.replies.push(
        buildReply(ctx, {
          line: ch.line,
          id: stream.id,
          model: stream.model,
          text: ch.text.join(''),
          reasoning: ch.reasoning.join(''),
          toolCalls: ch.calls.map((c) => makeToolCall(c.id, c.name ?? '', c.kind, c.args.join(''))),
          truncated: cut || ch.finishReason === 'length',
          finishReason: ch.finishReason,
        }),
      );
      if (cut && mode === 'end') out.errors.push(truncatedStream(ctx, ch.line, 'data: [DONE] or a finish_reason'));
    }
    return out;
  };

  /** A chunk after `[DONE]` is ignored, as a client ignores it; one that carries text or a call is said (a warning: nothing ran it). */
  const afterDone = (payload: Record<string, unknown>, line: number): StreamOutput => {
    const out = emptyOutput();
    const carries = Array.isArray(payload['choices']) && payload['choices'].some((c) => isObject(c) && isObject(c['delta']) && Object.values(c['delta']).some((v) => v !== null && v !== undefined && v !== ''));
    if (carries) out.errors.push(invalidRecord(ctx, line, 'a chunk after data: [DONE] carries content; it was not read, as a client stops reading at [DONE]', 'warning'));
    return out;
  };

  const allFinished = (s: ChatStream): boolean =>
    s.choices.size > 0 && [...s.choices.values()].every((c) => c.finishReason !== undefined);

  return {
    push(payload, eventName, line) {
      if (payload === '[DONE]') {
        if (ended) return emptyOutput();
        ended = { id: current?.id };
        return close('done');
      }
      if (!isObject(payload)) return emptyOutput();
      const err = errorOf(payload, eventName);
      if (err) {
        if (!ended) ended = { id: current?.id };
        const out = close('error');
        out.errors.push(streamError(ctx, line, describeApiError(err)));
        const failed = failedGenerationReply(err, ctx, line);
        if (failed) out.replies.push(failed);
        return out;
      }
      const id = nonEmpty(payload['id']);
      if (ended) {
        // after [DONE], chunks of the ended stream are ignored, as a client ignores them; but a
        // chunk that opens a stream (a choice's delta carries `role`, as every stream's first
        // chunk does) starts the next one, even under the same id: a proxy that appends streams
        // to one file, behind a server that reuses ids, would otherwise lose every later reply
        if (!opensStream(payload) && (id === undefined || id === ended.id)) return afterDone(payload, line);
        ended = null;
      }
      let out = emptyOutput();
      if (current && id !== undefined && current.id !== undefined && id !== current.id && allFinished(current)) {
        out = close('next');
      }
      if (!current) current = { id, model: undefined, choices: new Map(), reported: new Set() };
      current.id = current.id ?? id;
      current.model = nonEmpty(payload['model']) ?? current.model;
      const stream = current;
      const unread: Unread = (key, message) => {
        if (stream.reported.has(key)) return;
        stream.reported.add(key);
        out.errors.push(invalidRecord(ctx, line, message, 'error'));
      };
      listAt(payload, 'choices', (m) => unread('choices:not-list', `a chunk's ${m}`)).forEach((c, pos) => mergeChoice(stream, c, pos, line, unread));
      return out;
    },
    finish() {
      return close('end');
    },
  };
}
