/**
 * nock recordings: the HTTP fixtures Node test suites record with nock's recorder
 * (`nock.recorder.rec({output_objects: true})`) and nock back (`nock.back`, one JSON array of
 * definitions per fixture file). Format: nock/nock @ 24bb07712e8b2ee4f901c8b95f14fcb45dbdb44d
 * `lib/recorder.js` (`generateRequestAndResponseObject`: `{scope, method, path, body, status,
 * response, rawHeaders}`, `rawHeaders` the response's flat `[name, value, …]` list or its headers
 * object; `getBodyFromChunks`: a content-encoded body as an array of hex chunks, a binary one as
 * one hex string, JSON text parsed, other text kept),
 * https://github.com/nock/nock/blob/24bb07712e8b2ee4f901c8b95f14fcb45dbdb44d/lib/recorder.js
 * (older recordings name the headers `headers`); later nock versions add `responseIsBinary`, as
 * the recordings of open-telemetry/opentelemetry-js-contrib
 * `packages/instrumentation-openai/test/mock-responses/` show (nock 14).
 *
 * Each definition is one HTTP exchange, read as a HAR entry is (./har.ts: the request's tools, the
 * response body as JSON, SSE, NDJSON or an AWS event stream; other traffic named in one warning,
 * an LLM call whose body cannot be read an error). The response body is `response`: a JSON value
 * (nock parsed it), a string (the body's text: JSON, an SSE stream), or, when the body was binary
 * or compressed, hex: one hex string with `responseIsBinary: true`, or (older nock) an array of
 * hex strings, the body's chunks. A compressed body (`content-encoding` gzip, deflate or br in
 * `rawHeaders`, an object or nock's flat `[name, value, …]` list) is decompressed
 * (../body-text.ts `decompressBody`); one that does not decompress is an error.
 */

import type { NestedReaders } from '../nested.js';
import { decompressBody } from '../body-text.js';
import { captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';
import { HarReader } from './har.js';

/** True for one nock definition: an `http(s)://` `scope`, a `method`, a `path`, and a `status` or `response`. */
export function isNockDefinition(v: unknown): v is JsonObject {
  return (
    isObject(v) &&
    typeof v['scope'] === 'string' &&
    /^https?:\/\//i.test(v['scope']) &&
    typeof v['method'] === 'string' &&
    typeof v['path'] === 'string' &&
    ('status' in v || 'response' in v)
  );
}

/** A response header of the recording (`rawHeaders` or `headers`, an object or a flat name/value list), by its lower-cased name. */
function header(def: JsonObject, name: string): string | undefined {
  const raw = def['rawHeaders'] ?? def['headers'];
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) if (String(raw[i]).toLowerCase() === name) return str(raw[i + 1]);
    return undefined;
  }
  if (!isObject(raw)) return undefined;
  for (const [k, v] of Object.entries(raw)) if (k.toLowerCase() === name) return Array.isArray(v) ? str(v[0]) : str(v);
  return undefined;
}

const isHex = (v: unknown): v is string => typeof v === 'string' && v.length % 2 === 0 && /^[0-9a-f]*$/i.test(v);

/** The response body as bytes when the recording holds it as hex, else null. */
function hexBody(def: JsonObject): Buffer | null {
  const r = def['response'];
  if (Array.isArray(r) && r.length > 0 && r.every(isHex)) return Buffer.concat(r.map((c) => Buffer.from(c, 'hex')));
  // a binary body: one hex string (recordings before responseIsBinary say nothing)
  if (def['responseIsBinary'] !== false && isHex(r) && r !== '') return Buffer.from(r, 'hex');
  return null;
}


/** Reads the nock definitions of one file (see the module header). */
export class NockReader {
  private readonly har: HarReader;

  constructor(
    private readonly file: string,
    nested: NestedReaders,
  ) {
    this.har = new HarReader(file, nested, { format: 'nock', entry: 'nock recording', file: 'nock recording file' });
  }

  push(value: unknown, line: number): RecordOutput {
    if (!isNockDefinition(value)) return { replies: [], errors: [captureError(this.file, line, 'INVALID_RECORD', 'a record that is not a nock definition ({scope, method, path, status, response}); skipped')] };
    const def = value;
    const what = `${def['method']} ${def['scope']}${def['path']}`.slice(0, 160);
    const body = def['body'];
    const request: JsonObject = { method: def['method'], url: `${def['scope']}${def['path']}` };
    if (body !== undefined && body !== '') request['postData'] = { text: typeof body === 'string' ? body : JSON.stringify(body) };
    const content: JsonObject = { mimeType: header(def, 'content-type') ?? '' };
    let bytes = hexBody(def);
    if (bytes) {
      try {
        bytes = decompressBody(bytes, header(def, 'content-encoding'));
      } catch (e) {
        return { replies: [], errors: [captureError(this.file, line, 'INVALID_RECORD', `nock recording ${what}: the response body does not decompress as its content-encoding ${JSON.stringify(header(def, 'content-encoding'))} says (${(e as Error).message}); not read`)] };
      }
      content['text'] = bytes.toString('base64');
      content['encoding'] = 'base64';
    } else {
      const r = def['response'];
      if (typeof r === 'string') content['text'] = r;
      else if (r !== undefined && r !== null) content['text'] = JSON.stringify(r);
    }
    return this.har.entry({ request, response: { status: def['status'] ?? 200, content } }, line);
  }

  finish(): RecordOutput {
    return this.har.finish();
  }
}
