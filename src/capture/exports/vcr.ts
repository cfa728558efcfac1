/**
 * VCR cassettes: the YAML files HTTP-recording test libraries write, one per test, holding every
 * exchange the test made (a text format of its own, formats.ts kind `text`).
 *
 * - vcrpy (Python; pytest-recording, pytest-vcr): `{interactions: [{request: {method, uri, body,
 *   headers}, response: {status: {code, message}, headers, body: {string}}}], version: 1}`,
 *   kevin1024/vcrpy @ cbf9b6dab37fad211d469e35daec335781d2761b `vcr/serializers/compat.py`
 *   (https://github.com/kevin1024/vcrpy/blob/cbf9b6dab37fad211d469e35daec335781d2761b/vcr/serializers/compat.py);
 *   a body vcrpy could not decode is a YAML `!!binary` (base64) scalar. pydantic-ai's serializer
 *   writes the parsed JSON body instead, as `parsed_body` (pydantic/pydantic-ai @
 *   4fda38988f2939fa6ea9cdefcf120693e10ef491 `tests/json_body_serializer.py`).
 * - VCR (Ruby): `{http_interactions: [{request: {method, uri, body: {encoding, string}, headers},
 *   response: {status: {code, message}, headers, body: {encoding, string}}, recorded_at}],
 *   recorded_with}`, vcr/vcr @ 4fe514925bca3c1cda8669a4861fc11ce424ab20 `lib/vcr/structs.rb`
 *   (https://github.com/vcr/vcr/blob/4fe514925bca3c1cda8669a4861fc11ce424ab20/lib/vcr/structs.rb);
 *   a binary body is a `!binary` (base64) scalar.
 *
 * Each interaction is one HTTP exchange, read as a HAR entry is (./har.ts: the request's tools, the
 * response body as JSON, SSE, NDJSON or an AWS event stream; other traffic, such as an OAuth token
 * call, named in one warning; an LLM call whose body cannot be read an error), at the line where
 * the interaction starts. A compressed binary body (`Content-Encoding` gzip, deflate, br) is
 * decompressed (../body-text.ts). A document that is not YAML, or holds no interactions, is an
 * error.
 *
 * JSON cassettes (format `vcr-json`, a record format: the document splitter hands their
 * interactions over one at a time, so they are read in bounded memory): vcrpy's `json` serializer
 * (`vcr/serializers/jsonserializer.py`: the same `{interactions, version}` written with
 * `json.dumps`), and Betamax (betamaxpy/betamax `betamax/cassette/cassette.py`,
 * `{http_interactions: [{request, response: {body: {string | base64_string, encoding}, status:
 * {code, message}, headers, url}, recorded_at}], recorded_with: "betamax/…"}`), read interaction by
 * interaction as the YAML ones are. Polly.JS recordings are HAR files (./har.ts).
 *
 * Memory: the YAML cassette is parsed whole once read, so it is held up to `maxDocumentBytes`; a larger
 * one is DOCUMENT_TOO_LARGE and not read. Directory walks do not take YAML files (most are no
 * cassettes): name a cassette, or a glob of them, to read it.
 */

import { createRequire } from 'node:module';
import type { ScalarTag } from 'yaml';
import { decompressBody } from '../body-text.js';
import type { NestedReaders } from '../nested.js';
import { captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';
import { HarReader } from './har.js';

/** The first line of a cassette: its interactions key (vcrpy, Ruby VCR), or a YAML document start in a `.yaml` / `.yml` file. */
export function sniffVcrCassette(first: string, file: string): boolean {
  return /^(?:http_)?interactions:\s*(?:\[\]\s*)?$/.test(first) || (/^---\s*$/.test(first) && /\.ya?ml(?:\.gz)?$/i.test(file));
}

/** The YAML parser, loaded when the first cassette is read (start-up cost: docs/performance.md). */
let yamlModule: typeof import('yaml') | null = null;
function yaml(): typeof import('yaml') {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yamlModule;
}

/** Ruby's `!binary` tag (base64 bytes), beside YAML 1.1's `!!binary`. */
const rubyBinary: ScalarTag = {
  tag: '!binary',
  resolve: (value: string) => Buffer.from(value.replace(/\s+/g, ''), 'base64'),
  identify: () => false,
};

/** A header of a recorded request or response (`{Name: [value]}` or `{Name: value}`), by its lower-cased name. */
function header(headers: unknown, name: string): string | undefined {
  if (!isObject(headers)) return undefined;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return Array.isArray(v) ? str(v[0]) : str(v);
  return undefined;
}

/** Bytes from a YAML binary scalar (a Buffer or a Uint8Array), else null. */
const bytesOf = (v: unknown): Buffer | null => (Buffer.isBuffer(v) ? v : v instanceof Uint8Array ? Buffer.from(v) : null);

/** A recorded body: `{string}` (both libraries; a string or binary), Betamax's `{base64_string}`, vcrpy's plain string, or pydantic-ai's `parsed_body`. */
function bodyOf(side: JsonObject): { text?: string; bytes?: Buffer; json?: unknown } {
  if (side['parsed_body'] !== undefined) return { json: side['parsed_body'] };
  const b = side['body'];
  if (isObject(b) && typeof b['base64_string'] === 'string' && b['base64_string'] !== '') return { bytes: Buffer.from(b['base64_string'], 'base64') };
  const inner = isObject(b) && 'string' in b ? b['string'] : b;
  const bytes = bytesOf(inner);
  if (bytes) return { bytes };
  if (typeof inner === 'string') return { text: inner };
  return {};
}

/** Reads one VCR cassette (see the module header). */
export class VcrReader {
  private readonly lines: string[] = [];
  private bytes = 0;
  private tooLarge = false;
  private readonly har: HarReader;

  constructor(
    private readonly file: string,
    private readonly maxDocumentBytes: number,
    nested: NestedReaders,
  ) {
    this.har = new HarReader(file, nested, { format: 'vcr', entry: 'cassette interaction', file: 'cassette' });
  }

  /** One line of the cassette: held until the end (the document is parsed whole). */
  line(text: string, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (this.tooLarge) return out;
    this.bytes += Buffer.byteLength(text) + 1;
    if (this.bytes > this.maxDocumentBytes) {
      this.tooLarge = true;
      this.lines.length = 0;
      out.errors.push(captureError(this.file, line, 'DOCUMENT_TOO_LARGE', `the cassette is longer than ${this.maxDocumentBytes} bytes (it is parsed whole); not read`));
      return out;
    }
    this.lines.push(text);
    return out;
  }

  finish(): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (this.tooLarge) return out;
    const { isMap, isNode, isSeq, LineCounter, parseDocument } = yaml();
    const lineCounter = new LineCounter();
    const doc = parseDocument(this.lines.join('\n'), { lineCounter, version: '1.1', customTags: [rubyBinary], uniqueKeys: false, prettyErrors: false });
    this.lines.length = 0;
    const at = (offset: number | undefined): number => (offset === undefined ? 1 : lineCounter.linePos(offset).line);
    if (doc.errors.length > 0) {
      const e = doc.errors[0]!;
      out.errors.push(captureError(this.file, at(e.pos[0]), 'UNKNOWN_FORMAT', `the cassette is not valid YAML (${e.code}: ${e.message.split('\n')[0]}); not read`));
      return out;
    }
    const root = doc.contents;
    const list = isMap(root) ? (root.get('interactions', true) ?? root.get('http_interactions', true)) : undefined;
    if (!isSeq(list)) {
      out.errors.push(captureError(this.file, 1, 'UNKNOWN_FORMAT', 'the YAML document is no VCR cassette (no interactions or http_interactions list); not read'));
      return out;
    }
    for (const item of list.items) {
      const line = at((item as { range?: [number, number, number] }).range?.[0]);
      let value: unknown;
      try {
        // toJS, not toJSON: binary scalars stay bytes; aliases are capped (the yaml default, 100)
        value = isNode(item) ? item.toJS(doc) : item;
      } catch (e) {
        out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `an interaction of the cassette could not be read (${(e as Error).message}); skipped`));
        continue;
      }
      const r = this.interaction(value, line);
      out.replies.push(...r.replies);
      out.errors.push(...r.errors);
    }
    const rest = this.har.finish();
    out.replies.push(...rest.replies);
    out.errors.push(...rest.errors);
    return out;
  }

  /** One interaction, as the HAR entry it records. */
  private interaction(v: unknown, line: number): RecordOutput {
    return readCassetteInteraction(this.har, this.file, v, line);
  }
}

/**
 * One cassette interaction (YAML or JSON, any library above), read as the HAR entry it records by
 * `har` (its naming says what the file is).
 *
 * @param v the interaction (`{request, response}`).
 * @param line where it starts (1-based).
 * @returns the replies and problems; an interaction without a request and a response is an
 *   INVALID_RECORD error, a body that does not decompress as its content-encoding says too.
 */
export function readCassetteInteraction(har: HarReader, file: string, v: unknown, line: number): RecordOutput {
  if (!isObject(v) || !isObject(v['request']) || !isObject(v['response'])) {
    return { replies: [], errors: [captureError(file, line, 'INVALID_RECORD', 'an interaction of the cassette without a request and a response; skipped')] };
  }
  const req = v['request'];
  const res = v['response'];
  const method = (str(req['method']) ?? 'GET').toUpperCase();
  const url = str(req['uri']) ?? '';
  const request: JsonObject = { method, url };
  const rb = bodyOf(req);
  const requestText = rb.json !== undefined ? JSON.stringify(rb.json) : rb.text ?? rb.bytes?.toString('utf8');
  if (requestText) request['postData'] = { text: requestText };
  const status = isObject(res['status']) ? res['status']['code'] : res['status'];
  const content: JsonObject = { mimeType: header(res['headers'], 'content-type') ?? '' };
  const body = bodyOf(res);
  if (body.json !== undefined) content['text'] = JSON.stringify(body.json);
  else if (body.text !== undefined) content['text'] = body.text;
  else if (body.bytes) {
    const encoding = header(res['headers'], 'content-encoding');
    try {
      content['text'] = decompressBody(body.bytes, encoding).toString('base64');
      content['encoding'] = 'base64';
    } catch (e) {
      return { replies: [], errors: [captureError(file, line, 'INVALID_RECORD', `cassette interaction ${method} ${url.slice(0, 120)}: the response body does not decompress as its content-encoding ${JSON.stringify(encoding)} says (${(e as Error).message}); not read`)] };
    }
  }
  return har.entry({ request, response: { status: status ?? 200, content } }, line);
  }

/** The interactions key of a JSON cassette (vcrpy's `interactions`, Betamax's `http_interactions`), or null. */
function interactionsKey(v: JsonObject): 'interactions' | 'http_interactions' | null {
  for (const key of ['interactions', 'http_interactions'] as const) if (Array.isArray(v[key])) return key;
  return null;
}

/** The top-level keys of a JSON cassette. */
const JSON_CASSETTE_KEYS: ReadonlySet<string> = new Set(['interactions', 'http_interactions', 'version', 'recorded_with']);

/**
 * True for a JSON cassette document: an `interactions` or `http_interactions` list whose first
 * element has a `request` and a `response` object, beside only `version` / `recorded_with`.
 */
export function isJsonCassette(v: unknown): v is JsonObject {
  if (!isObject(v) || !Object.keys(v).every((k) => JSON_CASSETTE_KEYS.has(k))) return false;
  const key = interactionsKey(v);
  if (key === null) return false;
  const first = (v[key] as unknown[])[0];
  return first === undefined ? 'version' in v || 'recorded_with' in v : isObject(first) && isObject(first['request']) && isObject(first['response']);
}

/** The envelope claim of a JSON cassette: its interactions list, when nothing but cassette keys came before it. */
export function claimsJsonCassette(_key: string, head: JsonObject): boolean {
  return Object.keys(head).every((k) => JSON_CASSETTE_KEYS.has(k));
}

/** Reads JSON cassettes (see the module header), an interaction at a time. */
export class JsonCassetteReader {
  private readonly har: HarReader;

  constructor(
    private readonly file: string,
    nested: NestedReaders,
  ) {
    this.har = new HarReader(file, nested, { format: 'vcr-json', entry: 'cassette interaction', file: 'cassette' });
  }

  /** A whole cassette document (one line), or the envelope left after its interactions were read. */
  push(record: unknown, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (!isObject(record)) return out;
    const key = interactionsKey(record);
    for (const item of key ? (record[key] as unknown[]) : []) {
      const r = this.element(key!, 0, item, line);
      out.replies.push(...r.replies);
      out.errors.push(...r.errors);
    }
    return out;
  }

  element(_key: string, _index: number, value: unknown, line: number): RecordOutput {
    return readCassetteInteraction(this.har, this.file, value, line);
  }

  finish(): RecordOutput {
    return this.har.finish();
  }
}
