/**
 * Helpers shared by the stream accumulators (OpenAI Chat, Anthropic Messages, OpenAI Responses):
 * value guards, the reply builder and the error records they report.
 */

import type { AdvertisedTool, CaptureError, CaptureFormat, Reply, ToolCall } from '../types.js';
import type { RecordOutput } from '../bodies/common.js';

export { emptyOutput, isObject } from '../bodies/common.js';

/** What every accumulator knows about its input. */
export interface StreamContext {
  /** The file path as given (or `-` for stdin), copied into every reply and error. */
  file: string;
  /** The format stamped on every reply (`openai-chat-sse`, `anthropic-chunks`, `pair-log`, ...). */
  format: CaptureFormat;
  /** Tools the request advertised, when the caller knows them; null otherwise. */
  advertised: AdvertisedTool[] | null;
}

/** What one accumulator step returns: replies completed by it, and input problems it found. */
export type StreamOutput = RecordOutput;

/** Turns a stream's events into replies; see src/capture/streams/index.ts for the contract. */
export interface StreamAccumulator {
  /**
   * Feeds one event.
   * @param payload the decoded `data` value (the OpenAI `[DONE]` sentinel as the string '[DONE]').
   * @param eventName the SSE `event:` field, if any.
   * @param line 1-based line where the event starts.
   * @returns the replies this event completed, and the problems it showed.
   */
  push(payload: unknown, eventName: string | undefined, line: number): StreamOutput;
  /** End of input: the replies still open (truncated when their end marker never came) and errors. */
  finish(): StreamOutput;
}

/** Appends `more` to `into` and returns `into`. */
export function mergeOutput(into: StreamOutput, more: StreamOutput): StreamOutput {
  for (const reply of more.replies) into.replies.push(reply);
  for (const error of more.errors) into.errors.push(error);
  return into;
}

/** The value when it is a non-empty string, else undefined (servers send `""` and null for "unset"). */
export function nonEmpty(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * A streamed call's name after one more delta's `name`: the first non-empty piece sets it, a piece
 * equal to the name so far is a repeat and is dropped, any other piece continues it.
 *
 * OpenAI sends the name once, in the call's first delta, but documents it as a delta: the
 * openai-python SDK appends every string field of a tool-call delta (`accumulate_delta`,
 * https://github.com/openai/openai-python/blob/1004d2b2c5892b13a7519becffca6f22c73c9359/src/openai/lib/streaming/_deltas.py)
 * and an OpenAI maintainer describes `get_` then `weather`
 * (https://github.com/openai/openai-agents-python/issues/326). Gemini's OpenAI-compatible endpoint
 * splits names (`edit_ex` + `isting_file`, https://github.com/continuedev/continue/pull/5849),
 * while MiniMax through NVIDIA NIM and Anthropic through compatible proxies resend the whole name
 * in every delta (https://github.com/NousResearch/hermes-agent/pull/12230, same continue PR); a
 * plain set (openai-node) keeps only the last piece of a split name, a plain append doubles a
 * repeated one. Left ambiguous: a name whose pieces are equal halves (`ba` + `ba`) reads as `ba`.
 */
export function continueName(name: string | undefined, piece: unknown): string | undefined {
  const p = nonEmpty(piece);
  if (p === undefined || p === name) return name;
  return name === undefined ? p : name + p;
}

/** Pushes `v` onto `parts` when it is a non-empty string. */
export function appendText(parts: string[], v: unknown): void {
  if (typeof v === 'string' && v !== '') parts.push(v);
}

/** The fields of a reply an accumulator fills in; the rest comes from the {@link StreamContext}. */
export interface ReplyFields {
  line: number;
  id: string | undefined;
  model: string | undefined;
  text: string;
  /** Block boundaries in `text` (Reply.textBreaks), when it was joined from several blocks. */
  textBreaks?: number[];
  reasoning: string;
  toolCalls: ToolCall[];
  truncated: boolean;
  finishReason: string | undefined;
  /** Overrides `ctx.advertised` (Responses streams echo the request's tools). */
  advertised?: AdvertisedTool[] | null;
}

/** Builds a normalised {@link Reply}; `model`/`finishReason` are set only when known. */
export function buildReply(ctx: StreamContext, f: ReplyFields): Reply {
  const reply: Reply = {
    source: { file: ctx.file, line: f.line },
    format: ctx.format,
    id: f.id ?? null,
    advertised: f.advertised !== undefined ? f.advertised : ctx.advertised,
    text: f.text,
    ...(f.textBreaks !== undefined && f.textBreaks.length > 0 ? { textBreaks: f.textBreaks } : {}),
    reasoning: f.reasoning,
    toolCalls: f.toolCalls,
    truncated: f.truncated,
  };
  if (f.model !== undefined) reply.model = f.model;
  if (f.finishReason !== undefined) reply.finishReason = f.finishReason;
  return reply;
}

/** A 'warning' STREAM_ERROR: the capture records an API error event at `line`. */
export function streamError(ctx: StreamContext, line: number, message: string): CaptureError {
  return { file: ctx.file, line, code: 'STREAM_ERROR', message, severity: 'warning' };
}

/**
 * An 'error' TRUNCATED_STREAM: the reply that started at `line` never reached its end marker.
 * The reply is still yielded (marked truncated) and judged, but the capture is cut short, so the
 * scan exits 2: a half capture never passes.
 */
export function truncatedStream(ctx: StreamContext, line: number, endMarker: string): CaptureError {
  return {
    file: ctx.file,
    line,
    code: 'TRUNCATED_STREAM',
    message: `stream ended before ${endMarker}; the reply starting here is incomplete`,
    severity: 'error',
  };
}

/** An INVALID_RECORD problem at `line` (an event guard could not use, or inconsistent values). */
export function invalidRecord(
  ctx: StreamContext,
  line: number,
  message: string,
  severity: 'error' | 'warning',
): CaptureError {
  return { file: ctx.file, line, code: 'INVALID_RECORD', message, severity };
}

/**
 * A one-line description of an API error object, e.g. OpenAI `{message, type, code}`, Anthropic
 * `{type:"overloaded_error", message}`, Responses `{code, message}`. Groq's
 * `failed_generation` (the model's raw output that failed validation) is appended because it is
 * often the only copy of a broken tool call.
 */
export function describeApiError(err: Record<string, unknown>): string {
  const kind = nonEmpty(err['code']) ?? nonEmpty(err['type']) ?? 'error';
  const message = nonEmpty(err['message']) ?? JSON.stringify(err);
  const failed = nonEmpty(err['failed_generation']);
  return `API error (${kind}): ${message}${failed !== undefined ? `; failed_generation: ${failed}` : ''}`;
}

/**
 * The model's raw output that an OpenAI-compatible server failed to parse as a tool call, kept in
 * the error (Groq's `tool_use_failed` error with `failed_generation`,
 * https://console.groq.com/docs/tool-use): the only copy of the call the model tried to make, read
 * as a reply of its own so recovery and inspection judge it (it reached no client as text, but a
 * harness that retries or shows it may run it).
 *
 * @param err the API error object.
 * @param ctx where the error is, the format to stamp and the request's advertised tools.
 * @returns the reply (text = `failed_generation`, finish reason the error code), or null when the
 *   error holds none.
 */
export function failedGenerationReply(err: Record<string, unknown>, ctx: StreamContext, line: number): Reply | null {
  const text = nonEmpty(err['failed_generation']);
  if (text === undefined) return null;
  return buildReply(ctx, { line, id: undefined, model: undefined, text, reasoning: '', toolCalls: [], truncated: false, finishReason: nonEmpty(err['code']) ?? 'tool_use_failed' });
}
