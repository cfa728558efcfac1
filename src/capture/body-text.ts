/**
 * Reading an HTTP response body kept as text inside another record (a HAR entry's
 * `content.text`, a pair log's `response.body_raw`): an SSE stream (WHATWG HTML "Server-sent
 * events", read by ./sse.ts), one JSON document, or NDJSON (one JSON value per line, Ollama's
 * streams: https://github.com/ollama/ollama/blob/main/docs/api.md "Streaming responses"), each
 * JSON value classified by the registry through the nested readers.
 */

import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { readNestedValues, type NestedRead, type NestedReaders } from './nested.js';
import { parseSseText } from './sse.js';
import type { AdvertisedTool, CaptureFormat } from './types.js';

/** Where the body sits and what its replies are stamped with. */
export interface BodyContext {
  file: string;
  /** 1-based line of the wrapping record: every reply and problem is placed there. */
  line: number;
  /** The wrapping record's format, stamped on every reply. */
  format: CaptureFormat;
  /** The tools the wrapping request offered (null: it did not say). */
  advertised: AdvertisedTool[] | null;
}

/** What a body text held: `sse` (read as a stream), `json` (values read by the registry; `known` says whether any was in a known format), or a body guard cannot parse. */
export type BodyRead =
  | (NestedRead & { layout: 'sse' | 'json' })
  | { layout: 'invalid-json'; message: string }
  | { layout: 'other' };

/** True when `text` holds SSE fields (`data:`, `event:`, `id:`, `retry:` at a line start) and is not JSON. */
export function looksLikeSseBody(text: string): boolean {
  const t = text.trimStart();
  return /^(?:data|event|id|retry):/m.test(text) && !t.startsWith('{') && !t.startsWith('[');
}

/**
 * Reads a response body held in a string.
 *
 * @param text the whole body (already decoded from base64 where the container encoded it).
 * @param nested the opener of nested readers (one fresh reader reads all of the body's values).
 * @returns the body's replies and problems, or why it could not be parsed (`invalid-json` with
 *   the parser's message, `other` for a body that is neither JSON nor SSE). Never throws.
 */
export function readBodyText(text: string, nested: NestedReaders, ctx: BodyContext): BodyRead {
  if (looksLikeSseBody(text)) {
    const r = parseSseText(text, ctx);
    return { ...r, known: r.replies.length > 0, layout: 'sse' };
  }
  const t = text.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return { layout: 'other' };
  let values: unknown[];
  try {
    values = [JSON.parse(text)];
  } catch {
    values = [];
    for (const l of text.split(/\r?\n/)) {
      if (l.trim() === '') continue;
      try {
        values.push(JSON.parse(l));
      } catch (e) {
        return { layout: 'invalid-json', message: (e as Error).message };
      }
    }
  }
  return { ...readNestedValues(nested, values, ctx.line, ctx.format, ctx.advertised), layout: 'json' };
}

/** The most bytes a compressed body is decompressed to. */
export const MAX_DECODED_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Decompresses a recorded response body by its `Content-Encoding` (RFC 9110 §8.4: `gzip`,
 * `x-gzip`, `deflate`, `br`; anything else, or none, is returned as it is), to at most
 * {@link MAX_DECODED_BODY_BYTES}.
 *
 * @throws when the bytes do not decompress as the encoding says, or decompress to more than the cap.
 */
export function decompressBody(bytes: Buffer, encoding: string | undefined): Buffer {
  const e = (encoding ?? '').toLowerCase().trim();
  const opts = { maxOutputLength: MAX_DECODED_BODY_BYTES };
  if (e === 'gzip' || e === 'x-gzip') return gunzipSync(bytes, opts);
  if (e === 'deflate') return inflateSync(bytes, opts);
  if (e === 'br') return brotliDecompressSync(bytes, opts);
  return bytes;
}

