/**
 * Amazon Bedrock streams, as the events SDKs yield (boto3, AWS SDK for JavaScript v3: one object
 * per event, `{"<:event-type>": payload}`) or decoded from the binary
 * `application/vnd.amazon.eventstream` body (../eventstream.ts turns each frame into that object).
 *
 * - ConverseStream, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html:
 *   `messageStart {role}`, `contentBlockStart {contentBlockIndex, start: {toolUse {toolUseId, name,
 *   type?}}}`, `contentBlockDelta {contentBlockIndex, delta: {text} | {reasoningContent: {text} |
 *   {signature} | {redactedContent}} | {toolUse: {input}} | {citation} | {toolResult}}` (tool input
 *   arrives as JSON string fragments), `contentBlockStop`, `messageStop {stopReason}`, `metadata`;
 *   errors as `internalServerException`, `modelStreamErrorException`, `throttlingException`,
 *   `validationException`, `serviceUnavailableException`. Payloads may carry a random `p`
 *   padding field. Types: vercel/ai `packages/amazon-bedrock/src/amazon-bedrock-api-types.ts` at
 *   ed857f50f112e23930b0c2dd8d532cc8bebbc911.
 * - InvokeModelWithResponseStream, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html:
 *   `chunk {bytes}`, `bytes` the base64 of the model provider's own stream event: Anthropic Messages
 *   events (read by the Anthropic accumulator), legacy Anthropic Text Completions `{completion,
 *   stop_reason}`, Amazon Nova's Converse-shaped events, OpenAI-compatible chunks, and the text
 *   chunks of the other providers' native APIs (Meta `generation`, Amazon Titan `outputText`,
 *   Mistral `outputs[].text`, Cohere `text` / `generations[]`), per the model parameters pages
 *   https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters.html.
 */

import { makeToolCall } from '../toolcall.js';
import type { ToolCall } from '../types.js';
import { TextJoiner } from '../bodies/common.js';
import { BEDROCK_TRUNCATING, bedrockToolKind } from '../bodies/bedrock.js';
import { ANTHROPIC_EVENT_TYPES, createAnthropicAccumulator } from './anthropic.js';
import {
  appendText,
  buildReply,
  describeApiError,
  emptyOutput,
  invalidRecord,
  isObject,
  mergeOutput,
  nonEmpty,
  streamError,
  truncatedStream,
  type StreamAccumulator,
  type StreamContext,
  type StreamOutput,
} from './common.js';
import { createOpenAIChatAccumulator } from './openai-chat.js';

/** The event types of a ConverseStream. */
export const CONVERSE_EVENT_TYPES: ReadonlySet<string> = new Set(['messageStart', 'contentBlockStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata']);

/** The exception events of Bedrock streams (both APIs). */
export const BEDROCK_EXCEPTIONS: ReadonlySet<string> = new Set([
  'internalServerException',
  'modelStreamErrorException',
  'modelTimeoutException',
  'throttlingException',
  'validationException',
  'serviceUnavailableException',
]);

/** The single key of a `{"<event>": payload}` object whose payload is an object, or undefined. */
export function eventKey(v: unknown): string | undefined {
  if (!isObject(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length !== 1 || !isObject(v[keys[0]!])) return undefined;
  return keys[0];
}

/** True for one ConverseStream event as SDKs yield it. */
export function isConverseStreamEvent(v: unknown): boolean {
  const k = eventKey(v);
  return k !== undefined && CONVERSE_EVENT_TYPES.has(k);
}

/** True for one InvokeModelWithResponseStream event (`{"chunk": {"bytes": …}}`). */
export function isInvokeStreamEvent(v: unknown): boolean {
  const k = eventKey(v);
  return k === 'chunk' && 'bytes' in (v as Record<string, Record<string, unknown>>)['chunk']!;
}

/** True for a Bedrock stream exception event (`{"throttlingException": {"message": …}}`). */
export function isBedrockException(v: unknown): boolean {
  const k = eventKey(v);
  return k !== undefined && (BEDROCK_EXCEPTIONS.has(k) || /Exception$/.test(k));
}

function exceptionError(ctx: StreamContext, line: number, key: string, payload: Record<string, unknown>): ReturnType<typeof streamError> {
  return streamError(ctx, line, describeApiError({ ...payload, code: key, message: nonEmpty(payload['message']) ?? nonEmpty(payload['Message']) ?? key }));
}

interface Block {
  kind: 'text' | 'reasoning' | 'tool' | 'other';
  parts: string[];
  start: Record<string, unknown>;
}

/** ConverseStream start and delta members that hold nothing guard judges (a tool's result, a citation, an
 * image the model generated: `ContentBlockStart.image`, `ContentBlockDelta.image` of the AWS SDK for
 * JavaScript v3 `clients/client-bedrock-runtime/src/models/models_0.ts`, newer than the 3e92ce78 that
 * ../bodies/bedrock.ts cites). */
const INERT_STARTS: ReadonlySet<string> = new Set(['toolResult', 'image']);
const INERT_DELTAS: ReadonlySet<string> = new Set(['citation', 'toolResult', 'image']);

/** The INVALID_RECORD error of ConverseStream event members guard does not read (they may hold a call). */
function unreadPart(ctx: StreamContext, line: number, event: string, index: number, keys: string[]): StreamOutput {
  const out = emptyOutput();
  out.errors.push(invalidRecord(ctx, line, `a ${event} at contentBlockIndex ${index} holding ${keys.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')} is not read by guard: what it holds (a call, its input) is not judged`, 'error'));
  return out;
}

/**
 * The ConverseStream accumulator: blocks keyed by `contentBlockIndex` (text and reasoning blocks
 * start with their first delta), the reply yielded at `messageStop` (`max_tokens` marks it
 * truncated); a message open at the end of input or at the next `messageStart` is yielded
 * truncated with a TRUNCATED_STREAM error; an exception event closes it (truncated) with a
 * STREAM_ERROR warning. Events carry the event type as their only key.
 */
export function createConverseStreamAccumulator(ctx: StreamContext): StreamAccumulator {
  let msg: { line: number; blocks: Map<number, Block> } | null = null;

  const close = (mode: 'stop' | 'next' | 'error' | 'end', stop: string | undefined): StreamOutput => {
    const out = emptyOutput();
    const m = msg;
    msg = null;
    if (!m) return out;
    const text = new TextJoiner();
    const reasoning: string[] = [];
    const calls: ToolCall[] = [];
    for (const [, b] of [...m.blocks.entries()].sort((a, b) => a[0] - b[0])) {
      if (b.kind === 'text') text.add(b.parts.join(''));
      else if (b.kind === 'reasoning') reasoning.push(b.parts.join(''));
      else if (b.kind === 'tool') {
        const tu = isObject(b.start['toolUse']) ? b.start['toolUse'] : {};
        const args = b.parts.join('');
        calls.push(makeToolCall(nonEmpty(tu['toolUseId']), nonEmpty(tu['name']) ?? '', bedrockToolKind(tu['type']), args === '' ? '{}' : args));
      }
    }
    out.replies.push(
      buildReply(ctx, {
        line: m.line,
        id: undefined,
        model: undefined,
        text: text.text,
        ...text.breakField,
        reasoning: reasoning.join(''),
        toolCalls: calls,
        truncated: mode !== 'stop' || (stop !== undefined && BEDROCK_TRUNCATING.has(stop)),
        finishReason: stop,
      }),
    );
    if (mode === 'end' || mode === 'next') out.errors.push(truncatedStream(ctx, m.line, 'messageStop'));
    return out;
  };

  const block = (index: number, kind: Block['kind'], start: Record<string, unknown>): Block => {
    let b = msg!.blocks.get(index);
    if (!b) {
      b = { kind, parts: [], start };
      msg!.blocks.set(index, b);
    }
    return b;
  };

  return {
    push(payload, _eventName, line) {
      const key = eventKey(payload);
      if (key === undefined) return emptyOutput();
      const p = (payload as Record<string, Record<string, unknown>>)[key]!;
      const index = typeof p['contentBlockIndex'] === 'number' ? p['contentBlockIndex'] : 0;
      switch (key) {
        case 'messageStart': {
          const out = close('next', undefined);
          msg = { line, blocks: new Map() };
          return out;
        }
        case 'contentBlockStart': {
          msg ??= { line, blocks: new Map() };
          const start = isObject(p['start']) ? p['start'] : {};
          block(index, isObject(start['toolUse']) ? 'tool' : 'other', start);
          const unread = Object.keys(start).filter((k) => k !== 'toolUse' && !INERT_STARTS.has(k));
          return unread.length > 0 ? unreadPart(ctx, line, 'contentBlockStart', index, unread) : emptyOutput();
        }
        case 'contentBlockDelta': {
          msg ??= { line, blocks: new Map() };
          const delta = isObject(p['delta']) ? p['delta'] : {};
          if (typeof delta['text'] === 'string') appendText(block(index, 'text', {}).parts, delta['text']);
          else if (isObject(delta['reasoningContent'])) appendText(block(index, 'reasoning', {}).parts, delta['reasoningContent']['text']);
          else if (isObject(delta['toolUse'])) appendText(block(index, 'tool', {}).parts, delta['toolUse']['input']);
          else {
            // citation, toolResult: nothing guard judges; any other delta is not read
            const unread = Object.keys(delta).filter((k) => !INERT_DELTAS.has(k));
            if (unread.length > 0) return unreadPart(ctx, line, 'contentBlockDelta', index, unread);
          }
          return emptyOutput();
        }
        case 'messageStop':
          return msg ? close('stop', nonEmpty(p['stopReason'])) : emptyOutput();
        case 'contentBlockStop':
        case 'metadata':
          return emptyOutput();
        default: {
          if (!isBedrockException(payload)) return emptyOutput();
          const out = close('error', undefined);
          out.errors.push(exceptionError(ctx, line, key, p));
          return out;
        }
      }
    },
    finish() {
      return close('end', undefined);
    },
  };
}

/** A provider's native text-completion chunk: its text and stop reason (null while streaming). */
function textChunk(v: Record<string, unknown>): { text: string; stop: string | null } | null {
  const stopOf = (s: unknown): string | null => (typeof s === 'string' && s !== '' ? s : null);
  if (typeof v['completion'] === 'string') return { text: v['completion'], stop: stopOf(v['stop_reason']) }; // Anthropic Text Completions
  if (typeof v['generation'] === 'string') return { text: v['generation'], stop: stopOf(v['stop_reason']) }; // Meta Llama
  if (typeof v['outputText'] === 'string') return { text: v['outputText'], stop: stopOf(v['completionReason']) }; // Amazon Titan
  const outputs = v['outputs'];
  if (Array.isArray(outputs) && isObject(outputs[0]) && typeof outputs[0]['text'] === 'string') return { text: outputs[0]['text'], stop: stopOf(outputs[0]['stop_reason']) }; // Mistral
  const generations = v['generations'];
  if (Array.isArray(generations) && isObject(generations[0]) && typeof generations[0]['text'] === 'string') return { text: generations[0]['text'], stop: stopOf(generations[0]['finish_reason']) }; // Cohere Command
  if (typeof v['text'] === 'string' && ('is_finished' in v || 'finish_reason' in v)) return { text: v['text'], stop: v['is_finished'] === true ? (stopOf(v['finish_reason']) ?? 'finished') : stopOf(v['finish_reason']) }; // Cohere
  return null;
}

/** Decodes a `chunk.bytes` value: base64 of a JSON event (as on the wire), or already an object / JSON text (as some tools print it). */
function decodeBytes(bytes: unknown): { value: unknown } | { error: string } {
  if (isObject(bytes)) return { value: bytes };
  if (typeof bytes !== 'string') return { error: 'chunk.bytes is not a string' };
  const t = bytes.trim();
  const text = t.startsWith('{') ? t : Buffer.from(t, 'base64').toString('utf8');
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { error: `chunk.bytes does not decode to JSON (${(e as Error).message})` };
  }
}

/**
 * The InvokeModelWithResponseStream accumulator: each `chunk.bytes` is decoded and read by the
 * accumulator of the provider's own events (Anthropic Messages, OpenAI-compatible chunks, Nova's
 * Converse-shaped events) or as a text-completion chunk (the reply ends at the chunk with a stop
 * reason). An inner event in none of these shapes is an UNKNOWN_FORMAT error at its line; an
 * exception event a STREAM_ERROR warning.
 */
export function createInvokeStreamAccumulator(ctx: StreamContext): StreamAccumulator {
  let inner: { kind: string; acc: StreamAccumulator } | null = null;
  let completion: { line: number; text: string[] } | null = null;

  const innerFor = (kind: string, create: (c: StreamContext) => StreamAccumulator, out: StreamOutput): StreamAccumulator => {
    if (inner?.kind !== kind) {
      if (inner) mergeOutput(out, inner.acc.finish());
      inner = { kind, acc: create(ctx) };
    }
    return inner.acc;
  };

  const closeCompletion = (stop: string | null, out: StreamOutput): void => {
    const c = completion;
    completion = null;
    if (!c) return;
    out.replies.push(buildReply(ctx, { line: c.line, id: undefined, model: undefined, text: c.text.join(''), reasoning: '', toolCalls: [], truncated: stop === null || stop === 'error' || stop === 'max_tokens' || stop === 'length', finishReason: stop === 'error' ? undefined : (stop ?? undefined) }));
    if (stop === null) out.errors.push(truncatedStream(ctx, c.line, 'a chunk with a stop reason'));
  };

  return {
    push(payload, _eventName, line) {
      const out = emptyOutput();
      const key = eventKey(payload);
      if (key === undefined) return out;
      const p = (payload as Record<string, Record<string, unknown>>)[key]!;
      if (key !== 'chunk') {
        if (isBedrockException(payload)) {
          if (inner) mergeOutput(out, inner.acc.finish());
          inner = null;
          closeCompletion('error', out);
          out.errors.push(exceptionError(ctx, line, key, p));
        }
        return out;
      }
      const decoded = decodeBytes(p['bytes']);
      if ('error' in decoded) {
        out.errors.push(invalidRecord(ctx, line, `${decoded.error}; the event was skipped`, 'error'));
        return out;
      }
      const ev = decoded.value;
      if (!isObject(ev)) {
        out.errors.push(invalidRecord(ctx, line, 'chunk.bytes decodes to JSON that is not an object; skipped', 'error'));
        return out;
      }
      if (typeof ev['type'] === 'string' && ANTHROPIC_EVENT_TYPES.has(ev['type'])) return mergeOutput(out, innerFor('anthropic', createAnthropicAccumulator, out).push(ev, undefined, line));
      if (isConverseStreamEvent(ev)) return mergeOutput(out, innerFor('converse', createConverseStreamAccumulator, out).push(ev, undefined, line));
      if (ev['object'] === 'chat.completion.chunk' || (Array.isArray(ev['choices']) && ev['choices'].some((c) => isObject(c) && isObject(c['delta'])))) {
        return mergeOutput(out, innerFor('openai-chat', createOpenAIChatAccumulator, out).push(ev, undefined, line));
      }
      const chunk = textChunk(ev);
      if (chunk) {
        completion ??= { line, text: [] };
        appendText(completion.text, chunk.text);
        if (chunk.stop !== null) closeCompletion(chunk.stop, out);
        return out;
      }
      if (isObject(ev['error']) || ev['type'] === 'error') return mergeOutput(out, innerFor('anthropic', createAnthropicAccumulator, out).push(ev, undefined, line));
      const keys = Object.keys(ev).slice(0, 6).join(', ');
      out.errors.push({ file: ctx.file, line, code: 'UNKNOWN_FORMAT', message: `chunk.bytes holds an event in no model provider's stream format guard reads (keys ${keys}); skipped`, severity: 'error' });
      return out;
    },
    finish() {
      const out = emptyOutput();
      if (inner) mergeOutput(out, inner.acc.finish());
      inner = null;
      closeCompletion(null, out);
      return out;
    },
  };
}
