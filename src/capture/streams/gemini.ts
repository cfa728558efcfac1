/**
 * Google Gemini API and Vertex AI responses: `generateContent` bodies, and the chunks of
 * `streamGenerateContent` (`?alt=sse` events, or the JSON array the endpoint returns without it).
 *
 * Schema: `GenerateContentResponse`, `Candidate`, `Content`, `Part`, `FunctionCall` of
 * https://ai.google.dev/api/generate-content and, for Vertex AI,
 * https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/GenerateContentResponse;
 * streamed function-call arguments (`partialArgs`, `willContinue`) as the AI SDK reads them,
 * vercel/ai `packages/google/src/google-language-model.ts` at ed857f50f112e23930b0c2dd8d532cc8bebbc911,
 * https://github.com/vercel/ai/blob/ed857f50f112e23930b0c2dd8d532cc8bebbc911/packages/google/src/google-language-model.ts.
 *
 * A body is a stream of one chunk: every chunk's `candidates[].content.parts[]` are appended to
 * its candidate (keyed by `index`): `text` parts are visible text, `thought: true` parts reasoning,
 * `functionCall {name, args, id?}` parts tool calls, `executableCode` parts the code Gemini runs
 * (a `server_tool_use` call named `code_execution`), `toolCall {id, toolType, args}` parts the
 * built-in tools Gemini 3 runs on its side when a request sets
 * `toolConfig.includeServerSideToolInvocations` (Google Search, URL context, File Search, ...,
 * https://ai.google.dev/gemini-api/docs/tool-combination): a `server_tool_use` call named by its
 * `toolType`, its `toolResponse` part the result (not read). A streamed call opens with
 * `functionCall {name, willContinue: true}`, gathers `partialArgs` (`{jsonPath, stringValue |
 * numberValue | boolValue | nullValue, willContinue?}`, a string continued while `willContinue`)
 * and closes with a `functionCall` that does not continue. A reply ends with the chunk in which
 * every candidate has its `finishReason` (no stream sends an end marker: `[DONE]` is not part of
 * it); the next chunk with candidates starts the next reply.
 */

import { makeToolCall } from '../toolcall.js';
import type { ToolCall } from '../types.js';
import { TextJoiner } from '../bodies/common.js';
import {
  buildReply,
  describeApiError,
  emptyOutput,
  invalidRecord,
  isObject,
  nonEmpty,
  streamError,
  truncatedStream,
  type StreamAccumulator,
  type StreamContext,
  type StreamOutput,
} from './common.js';

/** Finish reasons that mean the model was cut off by a length limit. */
const TRUNCATING = new Set(['MAX_TOKENS']);

/**
 * True for a `GenerateContentResponse` (a body or one stream chunk): a `candidates` array of
 * objects, or a `promptFeedback` object, or a `usageMetadata` object beside `modelVersion` /
 * `responseId` (a last chunk that only reports usage). Fields no other API uses.
 */
export function isGeminiResponse(v: unknown): boolean {
  if (!isObject(v)) return false;
  const candidates = v['candidates'];
  if (Array.isArray(candidates)) return candidates.every((c) => isObject(c));
  if (isObject(v['promptFeedback'])) return true;
  return isObject(v['usageMetadata']) && (typeof v['modelVersion'] === 'string' || typeof v['responseId'] === 'string');
}

interface StreamedCall {
  name: string;
  id: string | undefined;
  args: Record<string, unknown>;
  /** The path of a string value still continued by the next `partialArgs` entry. */
  openString: string | null;
}

interface Candidate {
  index: number;
  line: number;
  text: TextJoiner;
  /** The text part being streamed (consecutive text deltas form one part). */
  pending: string[];
  reasoning: string[];
  calls: ToolCall[];
  streamed: StreamedCall | null;
  finishReason: string | undefined;
  /** Kinds of parts that hold no text or call guard reads (`inlineData`, `fileData`, ...), for one warning. */
  skipped: Set<string>;
}

/** Part fields that are read, or that hold nothing of the model's output (results, signatures, metadata). */
// inlineData / fileData in a reply are media the model generated (an image): nothing to judge
const KNOWN_PART_KEYS = new Set(['text', 'thought', 'thoughtSignature', 'functionCall', 'executableCode', 'codeExecutionResult', 'toolCall', 'toolResponse', 'functionResponse', 'videoMetadata', 'partMetadata', 'mediaResolution', 'inlineData', 'fileData']);

/** The keys of a `FunctionCall` (Gemini API reference): anything else holds what guard does not read. */
/** Finish reasons of a call the model tried to make and Gemini could not take as a functionCall (https://ai.google.dev/api/generate-content#FinishReason). */
const FAILED_CALL: ReadonlySet<string> = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS']);

const FUNCTION_CALL_KEYS: ReadonlySet<string> = new Set(['name', 'id', 'args', 'partialArgs', 'willContinue']);

/** The keys of a JSONPath like `$.a.b[0].c` (`$` alone: the root). */
function pathKeys(path: string): (string | number)[] | null {
  if (!path.startsWith('$')) return null;
  const keys: (string | number)[] = [];
  const re = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/gy;
  re.lastIndex = 1;
  while (re.lastIndex < path.length) {
    const m = re.exec(path);
    if (!m) return null;
    keys.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? m[3] ?? m[4])!);
  }
  return keys;
}

/** The own property `k` of `node` (never one inherited: `__proto__`, `constructor`), or undefined. */
function own(node: Record<string | number, unknown>, k: string | number): unknown {
  return Object.prototype.hasOwnProperty.call(node, k) ? node[k] : undefined;
}

/** Defines `k` on `node` as an own data property, as JSON.parse would (a `__proto__` key is data, never the prototype). */
function define(node: Record<string | number, unknown>, k: string | number, value: unknown): void {
  Object.defineProperty(node, k, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Sets `value` at `keys` in `root`; `append` adds a string to the string already there. Keys are
 * own properties only: a path through `__proto__` writes a key of that name, as the JSON text
 * `{"__proto__": …}` would, never the object's prototype (red-team: `$.__proto__.command`
 * wrote to Object.prototype and the command was lost).
 */
function setPath(root: Record<string, unknown>, keys: (string | number)[], value: unknown, append: boolean): boolean {
  if (keys.length === 0) return false;
  let node: Record<string | number, unknown> = root;
  for (let i = 0; i < keys.length - 1; i++) {
    const k = keys[i]!;
    let next = own(node, k);
    if (typeof next !== 'object' || next === null) {
      next = typeof keys[i + 1] === 'number' ? [] : {};
      define(node, k, next);
    }
    node = next as Record<string | number, unknown>;
  }
  const last = keys[keys.length - 1]!;
  const before = own(node, last);
  define(node, last, append && typeof before === 'string' && typeof value === 'string' ? before + value : value);
  return true;
}

/** The value a `partialArgs` entry carries, or undefined when it carries none. */
function partialValue(p: Record<string, unknown>): { value: unknown; string: boolean } | undefined {
  if (typeof p['stringValue'] === 'string') return { value: p['stringValue'], string: true };
  if ('numberValue' in p) return { value: p['numberValue'], string: false };
  if ('boolValue' in p) return { value: p['boolValue'], string: false };
  if ('nullValue' in p) return { value: null, string: false };
  if ('structValue' in p) return { value: p['structValue'], string: false };
  if ('listValue' in p) return { value: p['listValue'], string: false };
  return undefined;
}

/**
 * Creates the Gemini accumulator (bodies and stream chunks alike). Candidates are keyed by
 * `index` (their position when absent); a reply is yielded per candidate once every candidate
 * seen has a `finishReason`; `MAX_TOKENS` marks it truncated. An `{"error": …}` payload closes
 * the open reply (truncated) with a STREAM_ERROR warning, and `promptFeedback.blockReason` with no
 * candidate is a STREAM_ERROR warning (the prompt was blocked: there is no reply). A streamed call
 * or reply open at the end of input is yielded truncated with a TRUNCATED_STREAM error.
 */
export function createGeminiAccumulator(ctx: StreamContext): StreamAccumulator {
  let candidates = new Map<number, Candidate>();
  let responseId: string | undefined;
  let model: string | undefined;

  const flushText = (c: Candidate): void => {
    if (c.pending.length > 0) c.text.add(c.pending.join(''));
    c.pending = [];
  };

  const closeStreamed = (c: Candidate): void => {
    const s = c.streamed;
    if (!s) return;
    c.streamed = null;
    c.calls.push(makeToolCall(s.id, s.name, 'function', s.args));
  };

  /** Yields the open candidates: `stop` (every one finished), `error` (an error payload), `end` (end of input). */
  const close = (mode: 'stop' | 'error' | 'end', out: StreamOutput): void => {
    const cut = mode !== 'stop';
    const list = [...candidates.values()].sort((a, b) => a.index - b.index);
    candidates = new Map();
    for (const c of list) {
      flushText(c);
      const open = c.streamed !== null;
      closeStreamed(c);
      const truncated = cut || open || (c.finishReason !== undefined && TRUNCATING.has(c.finishReason));
      out.replies.push(
        buildReply(ctx, {
          line: c.line,
          id: responseId,
          model,
          text: c.text.text,
          ...c.text.breakField,
          reasoning: c.reasoning.join(''),
          toolCalls: c.calls,
          truncated,
          finishReason: c.finishReason,
        }),
      );
      if (mode === 'end' && c.finishReason === undefined) out.errors.push(truncatedStream(ctx, c.line, 'a chunk with a finishReason'));
      if (c.skipped.size > 0) out.errors.push(invalidRecord(ctx, c.line, `parts of kind ${[...c.skipped].map((k) => JSON.stringify(k)).join(', ')} were not read (not text or a call): what they hold (a call, its arguments) is not judged`, 'error'));
    }
    responseId = undefined;
    model = undefined;
  };

  const readPart = (c: Candidate, part: unknown, line: number, out: StreamOutput): void => {
    if (!isObject(part)) {
      c.skipped.add(part === null ? 'null' : Array.isArray(part) ? 'array' : typeof part);
      return;
    }
    for (const k of Object.keys(part)) if (!KNOWN_PART_KEYS.has(k)) c.skipped.add(k);
    const fc = isObject(part['functionCall']) ? part['functionCall'] : null;
    if (fc) {
      flushText(c);
      const name = nonEmpty(fc['name']);
      const partial = Array.isArray(fc['partialArgs']) ? fc['partialArgs'] : null;
      if (name !== undefined && (c.streamed === null || c.streamed.name !== name || partial === null)) {
        closeStreamed(c);
        if (fc['willContinue'] === true || partial !== null) {
          c.streamed = { name, id: nonEmpty(fc['id']), args: isObject(fc['args']) ? { ...fc['args'] } : {}, openString: null };
        } else {
          // FunctionCall holds its arguments in `args` (absent for a call that takes none); a call
          // without them but with another key is reported by readCapture and inspected as unreadable
          c.calls.push(makeToolCall(nonEmpty(fc['id']), name, 'function', fc['args'], { entry: fc, read: [...FUNCTION_CALL_KEYS], optional: true }));
          return;
        }
      }
      const s = c.streamed;
      if (!s) {
        if (name === undefined && (partial !== null || Object.keys(fc).length > 0)) {
          out.errors.push(invalidRecord(ctx, line, 'a functionCall part continues no open call (it has no name); it was skipped', 'error'));
        }
        return;
      }
      for (const p of partial ?? []) {
        if (!isObject(p)) continue;
        const keys = typeof p['jsonPath'] === 'string' ? pathKeys(p['jsonPath']) : null;
        const v = partialValue(p);
        if (keys === null || v === undefined || !setPath(s.args, keys, v.value, v.string && s.openString === p['jsonPath'])) {
          out.errors.push(invalidRecord(ctx, line, `a partialArgs entry of ${s.name} could not be read (jsonPath ${JSON.stringify(p['jsonPath'] ?? null)}); it was skipped`, 'warning'));
          continue;
        }
        s.openString = v.string && p['willContinue'] === true ? (p['jsonPath'] as string) : null;
      }
      if (fc['willContinue'] !== true) closeStreamed(c);
      return;
    }
    if (isObject(part['executableCode'])) {
      flushText(c);
      const code = part['executableCode'];
      c.calls.push(makeToolCall(undefined, 'code_execution', 'server_tool_use', { language: code['language'] ?? null, code: code['code'] ?? '' }));
      return;
    }
    if (isObject(part['toolCall'])) {
      // a built-in tool Gemini ran itself (pydantic-ai's cassettes of gemini-3-flash-preview:
      // `{"toolCall": {"toolType": "GOOGLE_SEARCH_WEB", "args": {"queries": [...]}, "id": ...}}`,
      // `{"toolCall": {"id": ..., "toolType": "FILE_SEARCH"}}` without args)
      flushText(c);
      const call = part['toolCall'];
      c.calls.push(makeToolCall(nonEmpty(call['id']), nonEmpty(call['toolType']) ?? 'server_tool', 'server_tool_use', call['args'], { entry: call, read: ['id', 'toolType', 'args'], optional: true }));
      return;
    }
    const text = part['text'];
    if (typeof text !== 'string' || text === '') return;
    if (part['thought'] === true) c.reasoning.push(text);
    else c.pending.push(text);
  };

  return {
    push(payload, _eventName, line) {
      const out = emptyOutput();
      if (!isObject(payload)) return out;
      if (isObject(payload['error'])) {
        if (candidates.size > 0) close('error', out);
        out.errors.push(streamError(ctx, line, describeApiError({ ...payload['error'], code: payload['error']['status'] ?? payload['error']['code'] })));
        return out;
      }
      const list = Array.isArray(payload['candidates']) ? payload['candidates'] : [];
      responseId ??= nonEmpty(payload['responseId']);
      model = nonEmpty(payload['modelVersion']) ?? model;
      list.forEach((raw, pos) => {
        if (!isObject(raw)) return;
        const index = typeof raw['index'] === 'number' ? raw['index'] : pos;
        let c = candidates.get(index);
        if (!c) {
          c = { index, line, text: new TextJoiner(), pending: [], reasoning: [], calls: [], streamed: null, finishReason: undefined, skipped: new Set() };
          candidates.set(index, c);
        }
        const content = isObject(raw['content']) ? raw['content'] : null;
        if (content === null && raw['content'] !== undefined) c.skipped.add(`content that is ${Array.isArray(raw['content']) ? 'an array' : `a JSON ${typeof raw['content']}`}`);
        for (const part of Array.isArray(content?.['parts']) ? content['parts'] : []) readPart(c, part, line, out);
        const finish = nonEmpty(raw['finishReason']);
        c.finishReason = finish ?? c.finishReason;
        if (finish !== undefined && FAILED_CALL.has(finish)) {
          // the call the model tried to make, which Gemini could not parse: its only copy is the
          // finishMessage ("Malformed function call: print(default_api.bash(…))"), read as a block
          // of the reply's text so recovery and inspection judge it
          const message = nonEmpty(raw['finishMessage']);
          if (message !== undefined) c.text.add(message.replace(/^(?:Malformed function call|Unexpected tool call):\s*/i, ''));
          else out.errors.push(invalidRecord(ctx, line, `Gemini ended a candidate with ${finish} and kept no finishMessage: the call the model tried to make is not in the capture`, 'warning'));
        }
      });
      const feedback = isObject(payload['promptFeedback']) ? payload['promptFeedback'] : null;
      const blocked = feedback ? nonEmpty(feedback['blockReason']) : undefined;
      if (blocked !== undefined && list.length === 0) out.errors.push(streamError(ctx, line, `the prompt was blocked (${blocked}): there is no reply`));
      // the reply ends when every candidate has its finishReason (no end marker follows)
      if (candidates.size > 0 && [...candidates.values()].every((c) => c.finishReason !== undefined)) close('stop', out);
      return out;
    },
    finish() {
      const out = emptyOutput();
      if (candidates.size === 0) return out;
      close('end', out);
      return out;
    },
  };
}
