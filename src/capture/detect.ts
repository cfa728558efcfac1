/**
 * Format detection: how a file is laid out (SSE text, JSON Lines, or JSON document), and what
 * kind of record each JSON value is.
 *
 * Sniffing order follows capture-formats.md §0 ("Suggested order for sniffing a file"), narrowed
 * to the formats guard reads: transcript envelopes first (they wrap API shapes), then pair logs,
 * then bare API bodies, guard reply records, and stream event payloads.
 */

import { apiBodyFormat, isApiErrorBody, type ApiBodyFormat } from './bodies/index.js';
import { isObject } from './bodies/common.js';
import { isGuardReply } from './bodies/guard-reply.js';
import { isPairLog } from './bodies/pair-log.js';
import { fitsStreamApi, sniffStreamPayload, streamFormatApi, type StreamApi } from './streams/index.js';
import { isClaudeCodeLine } from './transcripts/claude-code.js';
import { isCodexLine } from './transcripts/codex.js';
import type { CaptureFormat } from './types.js';

/** How a file's content is laid out. */
export type Layout = 'sse' | 'jsonl' | 'document' | 'unknown';

/** A line that starts an SSE stream: a field name among data/event/id/retry then `:`, or a `:` comment. */
const SSE_LINE = /^(?:data|event|id|retry):|^:/;

/** True when `text` (one line) looks like an SSE line (§6: fields and comments). */
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

/**
 * Decides a file's layout from its first non-blank line (and, when that line is JSON-looking but
 * does not parse alone, the next non-blank line).
 *
 * - SSE: the first line is an SSE field (`data:`, `event:`, `id:`, `retry:`) or comment (`:`).
 * - JSON Lines: the first line is a complete JSON value; or it starts with `{` but is broken and
 *   the next line is a complete JSON object or array (a JSONL file with a bad first line).
 * - JSON document: a first line starting with `{` or `[` that is not complete on its own (a
 *   pretty-printed body, a JSON array, `jq .` output).
 * - Otherwise unknown.
 *
 * @param first the first non-blank line's text.
 * @param next reads the next non-blank line's text (undefined at end of input); called at most
 *   once, only in the broken-first-line case.
 * @returns the layout and, for JSON Lines, the first line's parsed value (to avoid parsing twice).
 */
export async function sniffLayout(
  first: string,
  next: () => Promise<string | undefined>,
): Promise<{ layout: Layout; parsed?: { value: unknown } }> {
  const t = first.trimStart();
  if (isSseLine(t)) return { layout: 'sse' };
  if (!t.startsWith('{') && !t.startsWith('[')) return { layout: 'unknown' };
  const parsed = tryParseJson(t);
  if (parsed) return { layout: 'jsonl', parsed };
  if (t.startsWith('[')) return { layout: 'document' };
  const second = await next();
  const secondParsed = second === undefined ? undefined : tryParseJson(second);
  if (secondParsed && typeof secondParsed.value === 'object' && secondParsed.value !== null) return { layout: 'jsonl' };
  return { layout: 'document' };
}

/** What one JSON record is. */
export type RecordKind =
  | { kind: 'codex-rollout' }
  | { kind: 'claude-code' }
  | { kind: 'pair-log' }
  | { kind: 'api-body'; format: ApiBodyFormat }
  | { kind: 'guard-reply' }
  | { kind: 'stream-event'; api: StreamApi }
  | { kind: 'api-error' }
  /** A known record that holds no reply (a request body, a user/system/tool message). */
  | { kind: 'skip' }
  | { kind: 'unknown' };

/** Roles of chat messages that are not assistant replies. */
const NON_ASSISTANT_ROLES: ReadonlySet<string> = new Set(['user', 'system', 'developer', 'tool', 'function']);

/**
 * True for a record that is known but holds no reply: a request body (`model` plus `messages` or
 * `input`, and no response fields), or a non-assistant message / input item (`role` user, system,
 * developer, tool).
 */
export function isNonReplyRecord(v: unknown): boolean {
  if (!isObject(v)) return false;
  const role = v['role'];
  if (typeof role === 'string' && NON_ASSISTANT_ROLES.has(role)) return true;
  const isRequest = typeof v['model'] === 'string' && (Array.isArray(v['messages']) || 'input' in v);
  return isRequest && !('choices' in v) && !('output' in v) && !('content' in v);
}

/**
 * Classifies one JSON record (one JSONL line, one array element, or one JSON document).
 *
 * @returns the record kind; `unknown` when it is in no format guard reads.
 */
export function classifyRecord(v: unknown): RecordKind {
  if (isCodexLine(v)) return { kind: 'codex-rollout' };
  if (isClaudeCodeLine(v)) return { kind: 'claude-code' };
  if (isPairLog(v)) return { kind: 'pair-log' };
  const body = apiBodyFormat(v);
  if (body !== null) return { kind: 'api-body', format: body };
  if (isGuardReply(v)) return { kind: 'guard-reply' };
  const api = sniffStreamPayload(v);
  if (api !== null && !(isApiErrorBody(v) && api === 'openai-chat')) return { kind: 'stream-event', api };
  if (isApiErrorBody(v)) return { kind: 'api-error' };
  if (isNonReplyRecord(v)) return { kind: 'skip' };
  return { kind: 'unknown' };
}

/**
 * Whether `v` can be read as the forced format `format` (`--input-format`). Looser than
 * {@link classifyRecord}: the user has said what the file is, so only the fields the reader needs
 * are checked; for a `-chunks` format, the payload must fit that API's stream
 * ({@link fitsStreamApi}: an event of another API never does).
 */
export function acceptsForced(format: CaptureFormat, v: unknown): boolean {
  if (!isObject(v)) return false;
  switch (format) {
    case 'openai-chat':
      return Array.isArray(v['choices']);
    case 'anthropic-messages':
      return Array.isArray(v['content']);
    case 'openai-responses':
      return Array.isArray(v['output']);
    case 'guard-reply':
      return typeof v['text'] === 'string';
    case 'pair-log':
      return isPairLog(v);
    case 'claude-code':
      return typeof v['type'] === 'string';
    case 'codex-rollout':
      return isCodexLine(v);
    default: {
      // stream formats: the payload must be an event of the forced API (see fitsStreamApi)
      const stream = streamFormatApi(format);
      return stream === null || fitsStreamApi(stream.api, v);
    }
  }
}
