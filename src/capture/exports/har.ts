/**
 * HTTP Archive files (HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/; written by browser
 * DevTools, mitmproxy, Charles, Polly.JS): `{log: {entries: [{request, response}]}}`.
 *
 * Each entry is one HTTP exchange: the request body (`request.postData.text`) gives the tools
 * the request advertised; the response body (`response.content.text`, base64 when
 * `content.encoding` is `"base64"`) is read as the LLM API it holds: a JSON body or JSON array
 * (by the registry's readers), an SSE stream, an NDJSON stream (Ollama), or a binary AWS event
 * stream (Bedrock). The document reader hands entries over one by one (the registry's envelope
 * `log.entries`, split by src/capture/json-values.ts; the rest of the document is not kept), so a
 * HAR of any size is read in bounded memory.
 *
 * An entry whose request is an LLM API call (by its path or its body) but whose response cannot
 * be read is an error at the entry's line; entries of other traffic (pages, scripts, images,
 * other JSON) are counted and named in one warning at the end.
 */

import { EventStreamDecoder, isEventStreamPrelude } from '../eventstream.js';
import type { NestedReader, NestedReaders } from '../nested.js';
import { readBodyText } from '../body-text.js';
import { readNestedValues } from '../nested.js';
import { mayHoldMessages } from '../agents/common.js';
import { advertisedFromRequest } from '../toolcall.js';
import { readRealtimeMessages } from './realtime.js';
import type { AdvertisedTool, CaptureError } from '../types.js';
import { arr, captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';

/** True for one HAR entry: `request {method, url}` and `response {status, content}`. */
export function isHarEntry(v: unknown): v is JsonObject {
  if (!isObject(v) || !isObject(v['request']) || !isObject(v['response'])) return false;
  const req = v['request'];
  const res = v['response'];
  return typeof req['method'] === 'string' && typeof req['url'] === 'string' && isObject(res['content']);
}

/** True for a whole HAR document: `log.entries` an array. */
export function isHarDocument(v: unknown): v is JsonObject {
  return isObject(v) && isObject(v['log']) && Array.isArray(v['log']['entries']);
}

/** URL paths of LLM API calls (OpenAI, Anthropic, Gemini / Vertex, Bedrock, Ollama, Cohere, compatible servers). */
// the Gemini Live API's WebSocket (`/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent`,
// Vertex AI `…LlmBidiService/BidiGenerateContent`) is one too: its calls are read nowhere, so such an
// entry is an error, never "other traffic"; so is the Gemini Interactions API (`/v1beta/interactions`,
// https://ai.google.dev/gemini-api/docs/interactions-overview), whose bodies guard does not read
const LLM_PATH = /\/(?:chat\/completions|completions|messages|responses|realtime|converse(?:-stream)?|invoke(?:-with-response-stream)?|api\/(?:chat|generate)|generate(?:_stream)?|v2\/chat|chat|v1(?:alpha|beta)?\/interactions)(?:[/?#]|$)|:(?:stream)?generateContent\b|[./]BidiGenerateContent\b/i;

/**
 * Server messages of the Gemini Live API (`BidiGenerateContentServerMessage`:
 * https://ai.google.dev/api/live#bidigeneratecontentservermessage), by their top-level keys.
 */
const GEMINI_LIVE_KEYS: ReadonlySet<string> = new Set(['setupComplete', 'serverContent', 'toolCall', 'toolCallCancellation']);

/** True when a WebSocket message of the entry is a Gemini Live server message (whatever its URL). */
function holdsGeminiLive(messages: readonly unknown[]): boolean {
  return messages.some((m) => {
    if (!isObject(m) || typeof m['data'] !== 'string' || !m['data'].startsWith('{')) return false;
    try {
      const v: unknown = JSON.parse(m['data']);
      return isObject(v) && Object.keys(v).some((k) => GEMINI_LIVE_KEYS.has(k));
    } catch {
      return false;
    }
  });
}

/** The request body parsed as JSON, or undefined. */
function requestJson(req: JsonObject): unknown {
  const post = isObject(req['postData']) ? req['postData'] : null;
  const text = post ? str(post['text']) : undefined;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Tools a request body advertises, in the shapes of the APIs guard reads (null: not said). */
export function advertisedOfRequestBody(body: unknown): AdvertisedTool[] | null {
  if (!isObject(body)) return null;
  const direct = advertisedFromRequest(body);
  // Gemini: tools[].functionDeclarations[]; Bedrock Converse: toolConfig.tools[].toolSpec
  const out: AdvertisedTool[] = [];
  for (const t of arr(body['tools'])) {
    if (isObject(t)) for (const fd of arr(t['functionDeclarations'] ?? t['function_declarations'])) {
      if (isObject(fd) && typeof fd['name'] === 'string') out.push(isObject(fd['parameters']) ? { name: fd['name'], schema: fd['parameters'] } : { name: fd['name'] });
    }
  }
  const config = isObject(body['toolConfig']) ? body['toolConfig'] : null;
  for (const t of arr(config?.['tools'])) {
    const spec = isObject(t) && isObject(t['toolSpec']) ? t['toolSpec'] : null;
    if (spec && typeof spec['name'] === 'string') {
      const schema = isObject(spec['inputSchema']) && isObject(spec['inputSchema']['json']) ? spec['inputSchema']['json'] : undefined;
      out.push(schema ? { name: spec['name'], schema } : { name: spec['name'] });
    }
  }
  if (out.length > 0) return [...(direct ?? []).filter((d) => !out.some((o) => o.name === d.name)), ...out];
  if (direct !== null) return direct;
  return ['messages', 'contents', 'input', 'prompt'].some((k) => k in body) ? [] : null;
}

/** True when the exchange is an LLM API call: its path, or a request body with a model's input. */
function isLlmCall(req: JsonObject, body: unknown): boolean {
  let path = str(req['url']) ?? '';
  try {
    path = new URL(path).pathname + new URL(path).search;
  } catch {
    // not an absolute URL: the string as it is
  }
  if (LLM_PATH.test(path)) return true;
  if (!isObject(body)) return false;
  // a model's input (chat messages, Gemini contents, a prompt: OpenAI completions, TGI `inputs`,
  // SGLang `text`) beside what runs it (a model, or generation parameters)
  const input = ['messages', 'contents', 'prompt', 'inputs'].some((k) => k in body) || (typeof body['text'] === 'string' && 'sampling_params' in body);
  return input && ['model', 'generationConfig', 'parameters', 'sampling_params'].some((k) => k in body);
}

/** What the exchanges are called in messages, and the format stamped on their replies (a HAR, or another recording read as HAR entries: ./nock.ts). */
export interface ExchangeNaming {
  format: 'har' | 'nock' | 'vcr' | 'vcr-json';
  /** One exchange: `HAR entry`. */
  entry: string;
  /** The file: `HAR`. */
  file: string;
}

const HAR_NAMING: ExchangeNaming = { format: 'har', entry: 'HAR entry', file: 'HAR' };

/**
 * True for an LLM provider's response body that holds no model reply: embeddings (OpenAI-style
 * `data[].embedding`, Bedrock Titan / Nova `embedding(s)`, Cohere `embeddings`), a token count
 * (Anthropic `count_tokens` `{input_tokens}`, Gemini `countTokens` `{totalTokens}`), a batch job's
 * status (Anthropic `type: "message_batch"`, OpenAI `object: "batch"`) and generated images
 * (`data[].b64_json | url`), when nothing in it may be a message or a call (agents/common.ts
 * `mayHoldMessages`). Such an exchange is LLM traffic without a reply, not an error.
 */
function isNonReplyBody(v: unknown): boolean {
  // whatever its shape, a body that may hold a message or a call is not passed over
  if (!isObject(v) || mayHoldMessages(v, 6)) return false;
  if (v['type'] === 'message_batch' || v['object'] === 'batch') return true;
  const keys = Object.keys(v);
  if (keys.length > 0 && keys.every((k) => TOKEN_COUNT_KEYS.has(k))) return true;
  if (Array.isArray(v['embedding']) || Array.isArray(v['embeddings']) || isObject(v['embeddings']) || isObject(v['embeddingsByType'])) return true;
  const data = arr(v['data']);
  return data.length > 0 && data.every((d) => isObject(d) && (d['object'] === 'embedding' || typeof d['b64_json'] === 'string' || (typeof d['url'] === 'string' && keys.includes('created'))));
}

/** `text` parsed as JSON, or undefined. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The members of a token-count answer (Anthropic `count_tokens`, Gemini `countTokens`). */
const TOKEN_COUNT_KEYS: ReadonlySet<string> = new Set(['input_tokens', 'context_management', 'totalTokens', 'totalBillableCharacters', 'cachedContentTokenCount', 'promptTokensDetails', 'cacheTokensDetails']);

/** Reads the HAR entries of one file. */
export class HarReader {
  private otherEntries = 0;
  private firstOther: { line: number; what: string } | null = null;
  /** Entries read as LLM API traffic (a call, or a response in a known API format). */
  private llmEntries = 0;

  constructor(
    private readonly file: string,
    private readonly nested: NestedReaders,
    private readonly naming: ExchangeNaming = HAR_NAMING,
  ) {}

  push(value: unknown, line: number): RecordOutput {
    if (isHarDocument(value)) {
      const out: RecordOutput = { replies: [], errors: [] };
      for (const entry of (value['log'] as JsonObject)['entries'] as unknown[]) {
        if (isHarEntry(entry)) {
          const r = this.entry(entry, line);
          out.replies.push(...r.replies);
          out.errors.push(...r.errors);
        } else out.errors.push(captureError(this.file, line, 'INVALID_RECORD', 'a log.entries element of the HAR is not an entry ({request, response}); skipped'));
      }
      return out;
    }
    return this.entry(value as JsonObject, line);
  }

  /** One element of `log.entries`, handed over by the document splitter (the registry's envelope). */
  element(_key: string, index: number, value: unknown, line: number): RecordOutput {
    if (isHarEntry(value)) return this.entry(value, line);
    return { replies: [], errors: [captureError(this.file, line, 'INVALID_RECORD', `element ${index} of the HAR's log.entries is not an entry ({request, response}); skipped`)] };
  }

  finish(): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (this.otherEntries > 0) {
      const n = this.otherEntries;
      // beside LLM traffic, other entries are a warning; a HAR with none at all is not a capture guard reads
      const none = this.llmEntries === 0;
      const message = none
        ? `no entry of this ${this.naming.file} holds LLM API traffic (${n} entr${n === 1 ? 'y' : 'ies'}, the first here: ${this.firstOther!.what}); nothing was read`
        : `${n} ${this.naming.file} entr${n === 1 ? 'y holds' : 'ies hold'} no LLM API traffic (the first, here: ${this.firstOther!.what}); not read`;
      out.errors.push(captureError(this.file, this.firstOther!.line, none ? 'UNKNOWN_FORMAT' : 'INVALID_RECORD', message, none ? 'error' : 'warning'));
    }
    return out;
  }

  /** One exchange in the shape of a HAR entry (`{request, response}`, see {@link isHarEntry}). */
  entry(entry: JsonObject, line: number): RecordOutput {
    const req = entry['request'] as JsonObject;
    const res = entry['response'] as JsonObject;
    const content = res['content'] as JsonObject;
    const body = requestJson(req);
    const llm = isLlmCall(req, body);
    const what = `${str(req['method'])} ${str(req['url'])?.slice(0, 120)}`;
    const advertised = advertisedOfRequestBody(body);
    const out: RecordOutput = { replies: [], errors: [] };
    if (llm) this.llmEntries++;
    const fail = (message: string, severity: CaptureError['severity'] = 'error'): RecordOutput => {
      if (!llm) return this.other(line, what);
      out.errors.push(captureError(this.file, line, severity === 'error' ? 'UNKNOWN_FORMAT' : 'INVALID_RECORD', `${this.naming.entry} ${what}: ${message}`, severity));
      return out;
    };
    const ws = entry['_webSocketMessages'];
    if (Array.isArray(ws) && ws.length > 0) {
      const read = readRealtimeMessages(ws, { file: this.file, line, format: 'har', what });
      if (!read.known) {
        // a Gemini Live session is LLM traffic guard does not read: an error, whatever its URL
        const live = holdsGeminiLive(ws);
        if (!llm && !live) return this.other(line, what);
        if (!llm) this.llmEntries++;
        const api = live ? 'Gemini Live API messages, which guard does not read' : 'in no API guard reads';
        out.errors.push(captureError(this.file, line, 'UNKNOWN_FORMAT', `${this.naming.entry} ${what}: its ${ws.length} WebSocket message${ws.length === 1 ? ' is' : 's are'} ${api} (it reads the OpenAI Realtime API); not read`));
        return out;
      }
      if (!llm) this.llmEntries++;
      return this.withTools(read, advertised);
    }
    const text = str(content['text']);
    if (text === undefined || text === '') {
      // an LLM call whose reply the archive did not keep (DevTools and Playwright leave out large
      // or skipped bodies): its reply was not judged, so the file does not pass
      if (!llm) return this.other(line, what);
      out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `${this.naming.entry} ${what}: the response body was not saved in the ${this.naming.file} (no content.text); its reply was not read or judged`));
      return out;
    }
    const mime = (str(content['mimeType']) ?? '').toLowerCase();
    const bytes = content['encoding'] === 'base64' ? Buffer.from(text, 'base64') : null;
    if (mime.includes('vnd.amazon.eventstream') || (bytes && isEventStreamPrelude(bytes))) {
      return this.withTools(this.eventStream(bytes ?? Buffer.from(text, 'latin1'), line, what), advertised);
    }
    const bodyText = bytes ? bytes.toString('utf8') : text;
    const read = readBodyText(bodyText, this.nested, { file: this.file, line, format: this.naming.format, advertised });
    const status = Number(res['status']);
    // an HTTP error whose body is in no API's error shape guard reads (`{"detail": …}`, plain
    // text): the call failed, there is no reply; a warning, never an unread reply
    if (status >= 400 && (read.layout !== 'json' || !read.known) && read.layout !== 'sse') {
      if (!llm) return this.other(line, what);
      out.errors.push(captureError(this.file, line, 'STREAM_ERROR', `${this.naming.entry} ${what}: HTTP ${status} error response (${JSON.stringify(bodyText.slice(0, 160))}): no reply`, 'warning'));
      return out;
    }
    if (read.layout === 'json' && !read.known) {
      const parsed = parseJson(bodyText);
      // a batch job that holds its results inline (Mistral `GET /v1/batch/jobs/{id}?inline=true`:
      // `outputs[]` in the OpenAI Batch output shape): each result read as its API
      if (isObject(parsed) && parsed['object'] === 'batch' && Array.isArray(parsed['outputs'])) {
        const inline = readNestedValues(this.nested, parsed['outputs'], line, this.naming.format, advertised);
        if (inline.known) {
          this.llmEntries++;
          return { replies: inline.replies, errors: [...read.errors, ...inline.errors] };
        }
      }
      if (isNonReplyBody(parsed)) {
        // an LLM API's answer that is no model reply (embeddings, a token count, a batch's status, images)
        if (llm) this.llmEntries++;
        return { replies: [], errors: read.errors };
      }
    }
    if (read.layout === 'invalid-json') return fail(`the response body is not valid JSON (${read.message}); not read`);
    if (read.layout === 'other') return fail(`the response body (${mime || 'no mime type'}) is neither JSON, an SSE stream nor an AWS event stream; not read`);
    // an SSE body of a request not recognised as an LLM call counts as LLM traffic only when it held a reply
    if (read.layout === 'sse' && !read.known && !llm) return this.other(line, what);
    if (read.layout === 'json' && !read.known) {
      out.errors.push(...read.errors);
      return fail('the response body is in no known API format; not read');
    }
    if (!llm) this.llmEntries++;
    return { replies: read.replies, errors: read.errors };
  }

  /** Reads a binary AWS event stream body: every frame as its SDK event object. */
  private eventStream(bytes: Buffer, line: number, what: string): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    const reader: NestedReader = this.nested();
    const decoder = new EventStreamDecoder();
    for (const item of [...decoder.push(bytes), ...decoder.end()]) {
      if (item.kind === 'event') {
        const step = reader.push(item.record, line);
        out.replies.push(...step.replies);
        out.errors.push(...step.errors);
        if (step.status === 'unknown') out.errors.push(captureError(this.file, line, 'UNKNOWN_FORMAT', `${this.naming.entry} ${what}: frame ${item.frame} (${Object.keys(item.record)[0]}) at byte offset ${item.offset} of the response body is in no known stream format; skipped`));
      } else if (item.kind === 'failure') out.errors.push(captureError(this.file, line, 'STREAM_ERROR', `${this.naming.entry} ${what}: frame ${item.frame} of the response body is an error frame: ${item.message}`, 'warning'));
      else out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `${this.naming.entry} ${what}: the response body's ${item.message}`));
    }
    const rest = reader.finish();
    out.replies.push(...rest.replies);
    out.errors.push(...rest.errors);
    return out;
  }

  /** Replies read from a body: the reader's format, and the request's tools where the body did not say. */
  private withTools(out: RecordOutput, advertised: AdvertisedTool[] | null): RecordOutput {
    for (const r of out.replies) {
      r.format = this.naming.format;
      if (r.advertised === null) r.advertised = advertised;
    }
    return out;
  }

  private other(line: number, what: string): RecordOutput {
    this.otherEntries++;
    this.firstOther ??= { line, what };
    return { replies: [], errors: [] };
  }
}
