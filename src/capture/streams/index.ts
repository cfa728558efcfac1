/**
 * Stream accumulation for guard's capture layer: turns the decoded event payloads of an OpenAI
 * Chat, Anthropic Messages or OpenAI Responses stream into normalised replies.
 *
 * Callers: src/capture/sse.ts (raw `text/event-stream` bodies) and the JSONL-of-payloads readers
 * (`*-chunks` formats, where each line is one event's `data` value). Formats: the stream types and
 * accumulation of the official SDKs (openai-node, anthropic-sdk-typescript) and the reasoning
 * fields of OpenAI-compatible servers, with their sources in docs/sources.md "API bodies and
 * streams" and "Reasoning fields".
 */

import type { CaptureFormat } from '../types.js';
import { ANTHROPIC_EVENT_TYPES, createAnthropicAccumulator } from './anthropic.js';
import { emptyOutput, invalidRecord, isObject, type StreamAccumulator, type StreamContext } from './common.js';
import { COHERE_EVENT_TYPES, createCohereAccumulator } from './cohere.js';
import { createGeminiAccumulator, isGeminiResponse } from './gemini.js';
import { createOpenAIChatAccumulator } from './openai-chat.js';
import { createResponsesAccumulator } from './responses.js';
import { createTextCompletionAccumulator, textCompletionDialect } from './text-completion.js';

export type { StreamAccumulator, StreamContext, StreamOutput } from './common.js';
export { anthropicToolKind } from './anthropic.js';
export { advertisedFromResponse, readResponsesItem, type ItemContent } from './responses-items.js';
export { textCompletionDialect } from './text-completion.js';

/** The streaming APIs guard replays (src/replay) as well as reads. */
export type StreamApi = 'openai-chat' | 'anthropic' | 'openai-responses';

/** Every streaming API guard reads: the keys of {@link STREAM_APIS}. */
export type CaptureStreamApi = StreamApi | 'gemini' | 'cohere' | 'text-completion';

/** One streaming API: its name for people, its two capture formats, and its accumulator. */
export interface StreamApiSpec {
  title: string;
  /** The raw-SSE capture format (what {@link readSseLines} stamps on replies). */
  sseFormat: CaptureFormat;
  /** The JSONL-of-payloads capture format. */
  chunksFormat: CaptureFormat;
  /** True when the API ends a stream with the `data: [DONE]` sentinel (which alone never names the API). */
  doneSentinel: boolean;
  /** A fresh accumulator for one stream (or several back to back). */
  create(ctx: StreamContext): StreamAccumulator;
  /** The sniff of an API {@link sniffStreamPayload} does not know (the APIs guard reads but does not replay). */
  sniff?(payload: Record<string, unknown>, eventName: string | undefined): boolean;
}

/** The registry of stream APIs (the compiler checks it names every {@link CaptureStreamApi}). */
export const STREAM_APIS = {
  'openai-chat': { title: 'OpenAI Chat Completions', sseFormat: 'openai-chat-sse', chunksFormat: 'openai-chat-chunks', doneSentinel: true, create: createOpenAIChatAccumulator },
  anthropic: { title: 'Anthropic Messages', sseFormat: 'anthropic-sse', chunksFormat: 'anthropic-chunks', doneSentinel: false, create: createAnthropicAccumulator },
  'openai-responses': { title: 'OpenAI Responses', sseFormat: 'openai-responses-sse', chunksFormat: 'openai-responses-chunks', doneSentinel: false, create: createResponsesAccumulator },
  // Gemini bodies and stream chunks share one shape: its chunks format is the body format
  gemini: { title: 'Google Gemini / Vertex AI', sseFormat: 'gemini-sse', chunksFormat: 'gemini', doneSentinel: false, create: createGeminiAccumulator, sniff: (p) => isGeminiResponse(p) },
  cohere: {
    title: 'Cohere v2 chat',
    sseFormat: 'cohere-chat-sse',
    chunksFormat: 'cohere-chat-chunks',
    doneSentinel: true,
    create: createCohereAccumulator,
    sniff: (p, eventName) => COHERE_EVENT_TYPES.has(typeof p['type'] === 'string' ? p['type'] : (eventName ?? '')),
  },
  // bodies and stream chunks share one shape (as Gemini's): its chunks format is the body format
  'text-completion': {
    title: 'text completions (OpenAI /v1/completions, TGI, SGLang)',
    sseFormat: 'text-completion-sse',
    chunksFormat: 'text-completion',
    doneSentinel: true,
    create: createTextCompletionAccumulator,
    // TGI reports errors as `{error: string, error_type}` (its `ErrorResponse`)
    sniff: (p) => textCompletionDialect(p) !== null || (typeof p['error'] === 'string' && typeof p['error_type'] === 'string'),
  },
} as const satisfies Record<CaptureStreamApi, StreamApiSpec>;

/** Every stream API guard reads, in registry order. */
export const CAPTURE_STREAM_API_NAMES = Object.keys(STREAM_APIS) as CaptureStreamApi[];

/** The stream APIs guard also replays (src/replay), in registry order. */
export const STREAM_API_NAMES: readonly StreamApi[] = CAPTURE_STREAM_API_NAMES.filter((a): a is StreamApi => a === 'openai-chat' || a === 'anthropic' || a === 'openai-responses');

/** The raw-SSE capture format of each API. */
export const SSE_FORMAT: Readonly<Record<CaptureStreamApi, CaptureFormat>> = Object.fromEntries(CAPTURE_STREAM_API_NAMES.map((a) => [a, STREAM_APIS[a].sseFormat])) as Record<CaptureStreamApi, CaptureFormat>;

/** The JSONL-of-payloads capture format of each API. */
export const CHUNKS_FORMAT: Readonly<Record<CaptureStreamApi, CaptureFormat>> = Object.fromEntries(CAPTURE_STREAM_API_NAMES.map((a) => [a, STREAM_APIS[a].chunksFormat])) as Record<CaptureStreamApi, CaptureFormat>;

/**
 * {@link sniffStreamPayload} over every API guard reads: the replayable APIs first, then the
 * registered sniffs of the others (Gemini chunks, Cohere events).
 */
export function sniffCaptureStreamPayload(payload: unknown, eventName?: string): CaptureStreamApi | null {
  const api = sniffStreamPayload(payload, eventName);
  if (api !== null || !isObject(payload)) return api;
  for (const name of CAPTURE_STREAM_API_NAMES) {
    const spec: StreamApiSpec = STREAM_APIS[name];
    if (spec.sniff?.(payload, eventName)) return name;
  }
  return null;
}

/**
 * Says which API a decoded SSE event payload belongs to.
 *
 * Recognises chunk objects (`object:"chat.completion.chunk"`, or any
 * object with `choices[].delta`) → `openai-chat`; Anthropic event types (`message_start`,
 * `content_block_*`, `message_delta`, `message_stop`, `ping`, and `error` with a nested
 * `error` object) → `anthropic`; `response.*` types, and `type:"error"` with a top-level
 * `code`/`message`/`sequence_number` → `openai-responses`; a bare `{"error":{...}}` (OpenAI and
 * OpenAI-compatible servers) → `openai-chat`. When the payload has no `type`, the SSE event name
 * is used the same way.
 *
 * @param payload the JSON-parsed `data` value ('[DONE]' as a string).
 * @param eventName the SSE `event:` field, if any.
 * @returns the API, or null when the payload says nothing about it.
 */
export function sniffStreamPayload(payload: unknown, eventName?: string): StreamApi | null {
  // `[DONE]` ends OpenAI Chat streams, but Cohere's and other vendors' too: a lone sentinel
  // never decides a stream's API
  if (!isObject(payload)) return null;
  if (payload['object'] === 'chat.completion.chunk') return 'openai-chat';
  const type = typeof payload['type'] === 'string' ? payload['type'] : eventName;
  if (type !== undefined) {
    if (type.startsWith('response.')) return 'openai-responses';
    if (type === 'error') {
      if (isObject(payload['error'])) return payload['type'] === 'error' ? 'anthropic' : 'openai-chat';
      if ('sequence_number' in payload || 'code' in payload || 'message' in payload) return 'openai-responses';
    } else if (ANTHROPIC_EVENT_TYPES.has(type)) {
      return 'anthropic';
    }
  }
  const choices = payload['choices'];
  if (Array.isArray(choices) && choices.some((c) => isObject(c) && isObject(c['delta']))) return 'openai-chat';
  if (isObject(payload['error'])) return 'openai-chat';
  return null;
}

/**
 * Whether an event payload is one the stream of `api` defines: its own events, an error payload,
 * the `ping` keep-alive, or the `[DONE]` sentinel. Stricter than {@link fitsStreamApi}: once a
 * stream's API is known, an event it does not define is reported, never silently dropped by the
 * accumulator.
 */
export function knownStreamEvent(api: CaptureStreamApi, payload: unknown, eventName?: string): boolean {
  if (payload === '[DONE]') return true; // a terminator (some proxies append one to any stream): nothing in it is lost
  if (!isObject(payload)) return true; // not an event at all: the accumulator reports it (INVALID_RECORD)
  if (isObject(payload['error']) || payload['type'] === 'error' || payload['type'] === 'ping') return true;
  const sniffed = sniffCaptureStreamPayload(payload, eventName);
  if (sniffed !== null) return sniffed === api;
  // a chunk with no delta (a usage chunk, `choices: []`) is still a Chat chunk
  return api === 'openai-chat' && Array.isArray(payload['choices']);
}

/**
 * The stream API and framing of a `-sse` or `-chunks` capture format.
 *
 * @returns e.g. `{api:'anthropic', framing:'sse'}` for `anthropic-sse`; null for a format that is
 *   not a stream format.
 */
export function streamFormatApi(format: CaptureFormat | undefined): { api: CaptureStreamApi; framing: 'sse' | 'chunks' } | null {
  for (const api of CAPTURE_STREAM_API_NAMES) {
    if (STREAM_APIS[api].sseFormat === format) return { api, framing: 'sse' };
    if (STREAM_APIS[api].chunksFormat === format) return { api, framing: 'chunks' };
  }
  return null;
}

/**
 * Whether an event payload can belong to a stream of `api` when the user forced that API
 * (`--input-format`). Fits: a payload {@link sniffStreamPayload} assigns to `api`; an error
 * payload (`{"error":{...}}` or `type:"error"`: every accumulator reads those); the `ping`
 * keep-alive; and a payload it assigns to no API but that has the API's minimal shape (Chat:
 * a `choices` array; Anthropic and Responses: a string `type` or an SSE event name); and the
 * `[DONE]` sentinel for an API that sends it. Anything else, notably an event of another API or an
 * object with none of those fields, does not fit.
 *
 * @param api the forced API.
 * @param payload the decoded `data` value ('[DONE]' as a string).
 * @param eventName the SSE `event:` field, if any.
 */
export function fitsStreamApi(api: CaptureStreamApi, payload: unknown, eventName?: string): boolean {
  if (payload === '[DONE]') return STREAM_APIS[api].doneSentinel;
  const sniffed = sniffCaptureStreamPayload(payload, eventName);
  if (sniffed === api) return true;
  if (!isObject(payload)) return false;
  if (isObject(payload['error']) || payload['type'] === 'error' || payload['type'] === 'ping') return true;
  if (sniffed !== null) return false;
  if (api === 'openai-chat') return Array.isArray(payload['choices']);
  if (api === 'gemini') return false; // no type field: only what the sniff claims
  return typeof payload['type'] === 'string' || eventName !== undefined;
}

/**
 * Creates the accumulator for one stream (or several back to back: a new message/response/chunk
 * id after the previous one ended starts a new reply).
 *
 * Contract: `push` takes each event in order (payload already JSON-parsed, '[DONE]' as a string,
 * `line` = 1-based line where the event starts) and returns the replies that event completed and
 * the problems found; `finish` returns what is still open. A reply whose stream never reached its
 * end marker is returned with `truncated: true` plus an 'error' TRUNCATED_STREAM naming the
 * line where the reply started. API error events are 'warning' STREAM_ERROR records. A payload
 * that is neither an object nor '[DONE]' is an 'error' INVALID_RECORD. Never throws.
 *
 * @param api which API the events belong to (see {@link sniffStreamPayload}).
 * @param ctx file name, the format stamped on replies, and the request's advertised tools.
 */
export function createStreamAccumulator(api: CaptureStreamApi, ctx: StreamContext): StreamAccumulator {
  const inner = STREAM_APIS[api].create(ctx);
  return {
    push(payload, eventName, line) {
      if (payload !== '[DONE]' && !isObject(payload)) {
        const out = emptyOutput();
        const shown = JSON.stringify(payload) ?? String(payload);
        out.errors.push(
          invalidRecord(ctx, line, `stream event is not a JSON object: ${shown.slice(0, 80)}`, 'error'),
        );
        return out;
      }
      return inner.push(payload, eventName, line);
    },
    finish() {
      return inner.finish();
    },
  };
}
