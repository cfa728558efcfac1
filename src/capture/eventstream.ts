/**
 * The AWS event stream encoding (`application/vnd.amazon.eventstream`, the binary body of Bedrock's
 * ConverseStream and InvokeModelWithResponseStream): frames of a 12-byte prelude (total length,
 * headers length, CRC32 of those 8 bytes), headers, payload and a CRC32 of the whole message,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/RESTSelectObjectAppendix.html and
 * https://docs.aws.amazon.com/transcribe/latest/dg/streaming-setting-up.html#streaming-event-stream.
 *
 * Frames are decoded by the maintained codec, `@smithy/eventstream-codec` (smithy-lang/smithy-typescript,
 * https://github.com/smithy-lang/smithy-typescript/tree/main/packages/eventstream-codec), which checks
 * both CRCs. This module only finds frame boundaries: it holds at most one frame (capped at
 * {@link MAX_FRAME_BYTES}) plus the chunk being read. Each frame becomes the object SDKs yield for
 * it, `{"<:event-type>": payload}` (an `exception` frame `{"<:exception-type>": payload}`), so the
 * same record readers read the binary and the decoded form. A frame that does not decode (a bad
 * CRC, a length past the cap, a payload that is not JSON) is reported at its byte offset and the
 * decoder looks for the next valid prelude from the byte after it.
 */

import { createRequire } from 'node:module';
import type { EventStreamCodec } from '@smithy/eventstream-codec';

/** Largest frame read: the event stream encoding allows 16 MiB of payload plus 128 KiB of headers. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024 + 128 * 1024 + 16;

/** What the decoder found. */
export type EventStreamItem =
  /** A decoded frame (1-based `frame` number, `offset` its first byte) as the SDK event object. */
  | { kind: 'event'; frame: number; offset: number; record: Record<string, unknown> }
  /** An `error` frame (`:error-code`, `:error-message` headers): a failure the stream reports. */
  | { kind: 'failure'; frame: number; offset: number; message: string }
  /** Bytes that do not decode, from `offset`; `bytes` of them were skipped. */
  | { kind: 'corrupt'; frame: number; offset: number; bytes: number; message: string };

let crcTable: Uint32Array | null = null;

/** CRC-32 (IEEE 802.3, the one the prelude checksum uses) of `b`. */
function crc32(b: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * True when `b` starts with a valid event stream prelude: total length 16 bytes or more and at most
 * {@link MAX_FRAME_BYTES}, headers fitting in it, the prelude CRC right, and (when there are headers)
 * a first header name starting with `:` as every AWS header name does. Needs 14 bytes.
 */
export function isEventStreamPrelude(b: Uint8Array, at = 0): boolean {
  if (b.length - at < 14) return false;
  const view = new DataView(b.buffer, b.byteOffset + at, 12);
  const total = view.getUint32(0);
  const headers = view.getUint32(4);
  if (total < 16 || total > MAX_FRAME_BYTES || headers > total - 16) return false;
  if (crc32(b.subarray(at, at + 8)) !== view.getUint32(8)) return false;
  return headers === 0 || (b[at + 12]! > 0 && b[at + 13] === 0x3a);
}

let loaded: EventStreamCodec | null = null;

/**
 * The event stream decoder, loaded on first use: @smithy's packages cost ~100 ms of module
 * loading, paid only by scans that meet an AWS event stream.
 */
function codec(): EventStreamCodec {
  if (loaded === null) {
    const require = createRequire(import.meta.url);
    const { EventStreamCodec: Codec } = require('@smithy/eventstream-codec') as typeof import('@smithy/eventstream-codec');
    const { fromUtf8, toUtf8 } = require('@smithy/util-utf8') as typeof import('@smithy/util-utf8');
    loaded = new Codec(toUtf8, fromUtf8);
  }
  return loaded;
}

function headerString(headers: Record<string, { type: string; value: unknown }>, name: string): string | undefined {
  const h = headers[name];
  return h && typeof h.value === 'string' ? h.value : undefined;
}

/** Decodes an event stream fed chunk by chunk. */
export class EventStreamDecoder {
  private buf: Buffer = Buffer.alloc(0);
  /** Offset in the stream of `buf[0]`. */
  private base = 0;
  private frames = 0;
  /** Bytes being skipped after a corrupt frame (start offset), until a valid prelude is found. */
  private skipping: { offset: number; message: string; frame: number } | null = null;

  /** Feeds the next bytes; @returns the items they complete. */
  push(chunk: Uint8Array): EventStreamItem[] {
    this.buf = this.buf.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.buf, chunk]);
    return this.drain(false);
  }

  /** End of input: what is left is a cut frame (or bytes that never made one). */
  end(): EventStreamItem[] {
    return this.drain(true);
  }

  private drain(end: boolean): EventStreamItem[] {
    const out: EventStreamItem[] = [];
    let at = 0;
    for (;;) {
      const left = this.buf.length - at;
      if (this.skipping) {
        // look for the next valid prelude
        let found = -1;
        for (let i = at; i + 14 <= this.buf.length; i++) {
          if (isEventStreamPrelude(this.buf, i)) {
            found = i;
            break;
          }
        }
        if (found === -1) {
          if (end) {
            out.push(this.corrupt(this.base + this.buf.length));
            at = this.buf.length;
          } else at = Math.max(at, this.buf.length - 13);
          break;
        }
        at = found;
        out.push(this.corrupt(this.base + at));
        continue;
      }
      if (left < 14) {
        if (end && left > 0) {
          out.push({ kind: 'corrupt', frame: this.frames + 1, offset: this.base + at, bytes: left, message: `the stream ends inside a frame's prelude (${left} bytes at byte offset ${this.base + at})` });
          at = this.buf.length;
        }
        break;
      }
      const offset = this.base + at;
      if (!isEventStreamPrelude(this.buf, at)) {
        this.frames++;
        this.skipping = { offset, frame: this.frames, message: `frame ${this.frames} at byte offset ${offset} has no valid prelude (an impossible length or a prelude CRC mismatch)` };
        at++;
        continue;
      }
      const total = this.buf.readUInt32BE(at);
      if (left < total) {
        if (end) {
          this.frames++;
          out.push({ kind: 'corrupt', frame: this.frames, offset, bytes: left, message: `frame ${this.frames} at byte offset ${offset} is cut: the stream ends ${total - left} bytes before its end` });
          at = this.buf.length;
        }
        break;
      }
      this.frames++;
      const bytes = this.buf.subarray(at, at + total);
      let decoded: ReturnType<EventStreamCodec['decode']>;
      try {
        decoded = codec().decode(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      } catch (e) {
        this.skipping = { offset, frame: this.frames, message: `frame ${this.frames} at byte offset ${offset} does not decode: ${(e as Error).message}` };
        at++;
        continue;
      }
      at += total;
      out.push(this.item(decoded, offset));
    }
    if (at > 0) {
      this.base += at;
      this.buf = this.buf.subarray(at);
    }
    return out;
  }

  /** The `corrupt` item for the bytes skipped since the bad frame, up to `to`. */
  private corrupt(to: number): EventStreamItem {
    const s = this.skipping!;
    this.skipping = null;
    const bytes = to - s.offset;
    return { kind: 'corrupt', frame: s.frame, offset: s.offset, bytes, message: `${s.message}; ${bytes} bytes skipped` };
  }

  private item(m: ReturnType<EventStreamCodec['decode']>, offset: number): EventStreamItem {
    const headers = m.headers as Record<string, { type: string; value: unknown }>;
    const frame = this.frames;
    const type = headerString(headers, ':message-type') ?? 'event';
    const body = Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength).toString('utf8');
    if (type === 'error') {
      const code = headerString(headers, ':error-code') ?? 'error';
      return { kind: 'failure', frame, offset, message: `${code}: ${headerString(headers, ':error-message') ?? body}` };
    }
    const name = (type === 'exception' ? headerString(headers, ':exception-type') : headerString(headers, ':event-type')) ?? type;
    let payload: unknown;
    try {
      payload = body.trim() === '' ? {} : JSON.parse(body);
    } catch (e) {
      if (type === 'exception') payload = { message: body };
      else return { kind: 'corrupt', frame, offset, bytes: m.body.byteLength, message: `the payload of frame ${frame} (${name}) at byte offset ${offset} is not JSON: ${(e as Error).message}` };
    }
    return { kind: 'event', frame, offset, record: { [name]: payload } };
  }
}
