/**
 * Format detection: how a file is laid out (SSE text, JSON Lines, or JSON document), and what
 * kind of record each JSON value is (the format registry, ./formats.ts, in its sniffing order).
 */

import { isApiErrorBody } from './bodies/index.js';
import { isObject } from './bodies/common.js';
import { sniffRecordFormat, type RecordFormatSpec } from './formats.js';
import { isBareRequest } from './request-history.js';

/** How a file's content is laid out. */
export type Layout = 'sse' | 'jsonl' | 'document' | 'unknown';

/** A line that starts an SSE stream: a field name among data/event/id/retry then `:`, or a `:` comment. */
const SSE_LINE = /^(?:data|event|id|retry):|^:/;

/** True when `text` (one line) looks like an SSE line: a field or a `:` comment (HTML Living
 * Standard §9.2.5 Parsing an event stream). */
export function isSseLine(text: string): boolean {
  return SSE_LINE.test(text);
}

/** `text` parsed as JSON, or undefined when it does not parse. */
export function tryParseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** How many content lines after a first line that is not JSON on its own {@link sniffLayout} reads. */
export const SNIFF_LOOKAHEAD_LINES = 3;

/**
 * How many content lines after a first line that opens a JSON object but does not close it are
 * read for a JSON Lines record standing at the start of its line (a JSONL file whose first line
 * was cut or damaged: the lines right after it may be damaged too).
 */
export const SNIFF_RESYNC_LINES = 8;

/** True when `text` parses alone as a JSON object or array (a JSON Lines record). */
function isJsonRecordLine(text: string): boolean {
  const parsed = tryParseJson(text);
  return parsed !== undefined && typeof parsed.value === 'object' && parsed.value !== null;
}

/**
 * Decides a file's layout from its first non-blank line and, when that line is not a complete
 * JSON value on its own, the next few non-blank lines.
 *
 * - SSE: the first line is an SSE field (`data:`, `event:`, `id:`, `retry:`) or comment (`:`),
 *   unless, after at most {@link SNIFF_RESYNC_LINES} more such lines, the lines are JSON Lines (a
 *   JSONL file whose first lines were damaged into `:{"id":…` or `id: 5`; SSE lines are never
 *   complete JSON).
 * - JSON Lines: the first line is a complete JSON value; or it starts with `{` but is broken and
 *   the next line is a complete JSON object or array, or one of the next {@link SNIFF_RESYNC_LINES}
 *   lines is one starting at column 0 (a JSONL file with a damaged first line); or it
 *   is anything else that is not complete JSON (a log cut at the front, `x{"id":…`, or a broken
 *   line starting with `[`) and each of the next non-blank lines, up to
 *   {@link SNIFF_LOOKAHEAD_LINES} and at least one, is a complete JSON object or array. The
 *   broken first line is then an INVALID_JSON problem at its line and the rest is read.
 * - JSON document: a first line starting with `{` or `[` that is not complete on its own (a
 *   pretty-printed body, a JSON array, `jq .` output) and is not followed by JSON Lines as above.
 * - Otherwise unknown.
 *
 * @param first the first non-blank line's text.
 * @param next reads the next non-blank line's text on each call (the line after the one the
 *   previous call returned; undefined at end of input); called at most
 *   {@link SNIFF_RESYNC_LINES} times, only when the first line is not complete JSON.
 * @returns the layout and, for JSON Lines, the first line's parsed value (to avoid parsing twice).
 */
export async function sniffLayout(
  first: string,
  next: () => Promise<string | undefined>,
): Promise<{ layout: Layout; parsed?: { value: unknown } }> {
  const t = first.trimStart();
  // a JSON Lines file whose first line (or first few) was damaged into SSE comments or fields
  // (`:{"id":…`, `id: 5`): a real stream holds only SSE lines, so the first other line decides
  if (isSseLine(t)) return { layout: (await recordsAfterSseLines(next)) ? 'jsonl' : 'sse' };
  const jsonStart = t.startsWith('{') || t.startsWith('[');
  const parsed = jsonStart ? tryParseJson(t) : undefined;
  if (parsed) return { layout: 'jsonl', parsed };
  if (t.startsWith('{')) {
    // a JSON Lines file with a damaged first line, unless no record line follows: a pretty-printed
    // document indents its inner objects, a JSON Lines record starts its line
    for (let k = 0; k < SNIFF_RESYNC_LINES; k++) {
      const line = await next();
      if (line === undefined) break;
      if ((k === 0 || line.startsWith('{') || line.startsWith('[')) && isJsonRecordLine(line)) return { layout: 'jsonl' };
    }
    return { layout: 'document' };
  }
  if (await nextLinesAreRecords(next)) return { layout: 'jsonl' };
  return { layout: jsonStart ? 'document' : 'unknown' };
}

/**
 * True when, after at most {@link SNIFF_RESYNC_LINES} more comment, `id:` or `retry:` lines, the
 * next non-blank line is a JSON object or array and so are the lines after it (up to
 * SNIFF_LOOKAHEAD_LINES - 1). A `data:` or `event:` line ends the look: the input is a stream.
 */
async function recordsAfterSseLines(next: () => Promise<string | undefined>): Promise<boolean> {
  for (let k = 0; k < SNIFF_RESYNC_LINES; k++) {
    const line = await next();
    if (line === undefined) return false;
    const t = line.trimStart();
    // a `data:` or `event:` line is a stream's own: decided without waiting for more input (a live stream)
    if (/^(?:data|event):/.test(t)) return false;
    if (isSseLine(t)) continue;
    return isJsonRecordLine(line) && (await nextLinesAreRecords(next, SNIFF_LOOKAHEAD_LINES - 1, 0));
  }
  return false;
}

/** True when the next non-blank lines (up to `max`, at least `atLeast` before the end of input) are each a JSON object or array. */
async function nextLinesAreRecords(next: () => Promise<string | undefined>, max = SNIFF_LOOKAHEAD_LINES, atLeast = 1): Promise<boolean> {
  let seen = 0;
  for (; seen < max; seen++) {
    const line = await next();
    if (line === undefined) break;
    if (!isJsonRecordLine(line)) return false;
  }
  return seen >= atLeast;
}

/**
 * What one JSON record is: a record of a registered format (./formats.ts), an API error body
 * (a failed call the capture recorded), a known record that holds no reply (skipped), or unknown.
 */
export type RecordKind =
  | { kind: 'format'; spec: RecordFormatSpec }
  | { kind: 'api-error' }
  /** A known record that holds no reply (a request body, a user/system/tool message). */
  | { kind: 'skip' }
  | { kind: 'unknown' };

/** Roles of chat messages that are not assistant replies. */
const NON_ASSISTANT_ROLES: ReadonlySet<string> = new Set(['user', 'system', 'developer', 'tool', 'function']);

/**
 * True for a record that is known but holds no reply: a request body (`model` plus `messages` or
 * `input`, and no field a request does not have: ./request-history.ts; one whose history holds
 * assistant turns is claimed by the `request-history` format first), or a non-assistant message /
 * input item (`role` user, system, developer, tool, function).
 */
export function isNonReplyRecord(v: unknown): boolean {
  if (!isObject(v)) return false;
  const role = v['role'];
  if (typeof role === 'string' && NON_ASSISTANT_ROLES.has(role)) return true;
  return isBareRequest(v);
}

/**
 * Classifies one JSON record (one JSONL line, one array element, or one JSON document): the
 * first registered record format whose sniff claims it, else an API error body, else a known
 * non-reply record, else unknown.
 *
 * @returns the record kind; `unknown` when it is in no format guard reads.
 */
export function classifyRecord(v: unknown): RecordKind {
  const spec = sniffRecordFormat(v);
  if (spec !== null) return { kind: 'format', spec };
  if (isApiErrorBody(v)) return { kind: 'api-error' };
  if (isNonReplyRecord(v)) return { kind: 'skip' };
  return { kind: 'unknown' };
}
