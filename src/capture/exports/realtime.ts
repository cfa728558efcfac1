/**
 * OpenAI Realtime API traffic kept as the WebSocket messages of a HAR entry (Chrome DevTools and
 * mitmproxy write them as `_webSocketMessages: [{type: "send" | "receive", time, opcode, data}]`).
 *
 * Events: the Realtime API reference (https://platform.openai.com/docs/api-reference/realtime-server-events,
 * client events https://platform.openai.com/docs/api-reference/realtime-client-events). A reply is the
 * `response` of a `response.done` server event: its `output[]` items are Responses-shaped
 * (`message` items whose content parts are `text` / `output_text`, or `audio` / `output_audio`
 * with the spoken `transcript`; `function_call` items `{name, call_id, arguments}`), read by the
 * Responses item reader. Tools are those of the last `session.update` the client sent
 * (`session.tools[]`, flat `{type: "function", name, parameters}`) or a `response.create`'s own
 * `response.tools`. The other server events (deltas, `session.*`, `conversation.*`,
 * `input_audio_buffer.*`, `rate_limits.updated`) repeat what `response.done` holds or hold no
 * reply; a server event of another type is reported. A response that was created but never done
 * is a TRUNCATED_STREAM error: the capture stopped before its output was complete.
 */

import { quotedKeys } from '../../base/json.js';
import { readResponsesObject } from '../bodies/openai-responses.js';
import { advertisedFromRequest } from '../toolcall.js';
import type { AdvertisedTool, CaptureFormat } from '../types.js';
import { arr, captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';

/** Server event types (and prefixes) that hold no reply of their own. */
const INERT_EVENT = /^(?:session\.|conversation\.|input_audio_buffer\.|output_audio_buffer\.|rate_limits\.updated$|transcription_session\.|response\.(?:created|output_item\.|content_part\.|output_text\.|text\.|audio\.|audio_transcript\.|output_audio\.|output_audio_transcript\.|function_call_arguments\.|mcp_call|mcp_call_arguments\.))/;

/** What {@link readRealtimeMessages} read; `known` is false when no message was a Realtime event. */
export interface RealtimeRead extends RecordOutput {
  known: boolean;
}

/** A Realtime message content part as the Responses item reader reads it: spoken and written text become `output_text`. */
function asOutputPart(p: unknown): unknown {
  if (!isObject(p)) return p;
  if (p['type'] === 'audio' || p['type'] === 'output_audio') return { type: 'output_text', text: typeof p['transcript'] === 'string' ? p['transcript'] : '' };
  if (p['type'] === 'text') return { type: 'output_text', text: p['text'] };
  return p;
}

function asOutputItem(item: unknown): unknown {
  if (!isObject(item) || item['type'] !== 'message' || !Array.isArray(item['content'])) return item;
  return { ...item, content: item['content'].map(asOutputPart) };
}

/**
 * Reads the WebSocket messages of one HAR entry as OpenAI Realtime events.
 *
 * @param messages the entry's `_webSocketMessages`.
 * @param ctx the HAR file, the entry's line, the format to stamp and a label of the entry for messages.
 * @returns one reply per `response.done`, errors for messages that are not JSON events, unknown
 *   server events (once per type), a created response that never finished; `known` false when
 *   no message was a Realtime event (the caller reports the entry). Never throws.
 */
export function readRealtimeMessages(messages: readonly unknown[], ctx: { file: string; line: number; format: CaptureFormat; what: string }): RealtimeRead {
  const out: RealtimeRead = { replies: [], errors: [], known: false };
  const error = (message: string) => out.errors.push(captureError(ctx.file, ctx.line, 'INVALID_RECORD', `HAR entry ${ctx.what}: ${message}`));
  let advertised: AdvertisedTool[] | null = null;
  const open = new Set<string>();
  const unknownTypes = new Set<string>();
  let notJson = 0;
  messages.forEach((m, i) => {
    if (!isObject(m) || typeof m['data'] !== 'string') {
      error(`WebSocket message ${i} has no text data; not read`);
      return;
    }
    // opcode 2: a binary frame (the Realtime API sends JSON text frames only)
    if (m['opcode'] === 2) {
      error(`WebSocket message ${i} is a binary frame; not read`);
      return;
    }
    let event: unknown;
    try {
      event = JSON.parse(m['data']);
    } catch {
      notJson++;
      return;
    }
    if (!isObject(event) || typeof event['type'] !== 'string') {
      notJson++;
      return;
    }
    const type = event['type'];
    if (m['type'] === 'send') {
      // client events: the tools offered
      const session = type === 'session.update' && isObject(event['session']) ? event['session'] : type === 'response.create' && isObject(event['response']) ? event['response'] : null;
      const tools = session ? advertisedFromRequest(session) : null;
      if (tools !== null) advertised = tools;
      out.known ||= /^(?:session|response|conversation|input_audio_buffer|transcription_session)\./.test(type);
      return;
    }
    const response = isObject(event['response']) ? (event['response'] as JsonObject) : null;
    const id = response ? str(response['id']) : undefined;
    if (type === 'response.created') {
      if (id !== undefined) open.add(id);
      out.known = true;
    } else if (type === 'response.done' && response) {
      out.known = true;
      if (id !== undefined) open.delete(id);
      const body: JsonObject = { object: 'response', id: id ?? null, status: response['status'] ?? 'completed', output: arr(response['output']).map(asOutputItem) };
      if (isObject(response['status_details']) && response['status'] === 'incomplete') body['incomplete_details'] = { reason: str(response['status_details']['reason']) ?? 'incomplete' };
      const r = readResponsesObject(body, { file: ctx.file, line: ctx.line, format: ctx.format, advertised });
      out.replies.push(...r.replies);
      out.errors.push(...r.errors);
    } else if (type === 'error') {
      out.known = true;
      const e = isObject(event['error']) ? event['error'] : {};
      out.errors.push(captureError(ctx.file, ctx.line, 'STREAM_ERROR', `HAR entry ${ctx.what}: Realtime error event: ${(str(e['message']) ?? 'no message').slice(0, 200)}`, 'warning'));
    } else if (INERT_EVENT.test(type)) out.known = true;
    else unknownTypes.add(type);
  });
  if (unknownTypes.size > 0) error(`server events of type ${quotedKeys([...unknownTypes])} are not Realtime events guard reads; what they hold (text, a call) is not judged`);
  if (notJson > 0 && out.known) error(`${notJson} WebSocket message${notJson === 1 ? ' is' : 's are'} not a JSON event; not read`);
  for (const id of open) {
    out.errors.push(captureError(ctx.file, ctx.line, 'TRUNCATED_STREAM', `HAR entry ${ctx.what}: Realtime response ${JSON.stringify(id.slice(0, 60))} was created but never done (no response.done): its output is not in the capture`));
  }
  return out;
}
