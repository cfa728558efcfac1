/**
 * Request bodies logged without their responses (format `request-history`): a gateway or proxy
 * that logs only what it sends upstream keeps the model's earlier turns in each request's history,
 * and those are the only record of what the model said and called. Each assistant turn of the
 * history is read as a reply, once per file: every request repeats the whole conversation, so a
 * turn already read (by its tool call ids, else by a digest of its text) is not read again, and a
 * turn that the same file also holds as a response record is not read twice either
 * ({@link TurnLedger}).
 *
 * Shapes:
 * - OpenAI Chat Completions `messages[]` (openai-node `ChatCompletionMessageParam`:
 *   `{role: "assistant", content, tool_calls[]}`; https://platform.openai.com/docs/api-reference/chat/create)
 *   and Anthropic Messages `messages[]` (`MessageParam`, content blocks `text` / `tool_use`;
 *   https://docs.anthropic.com/en/api/messages): one reply per assistant message
 *   (../agents/common.ts reads either shape).
 * - OpenAI Responses `input[]` (openai-node `ResponseInputItem`;
 *   https://platform.openai.com/docs/api-reference/responses/create): one reply per run of the
 *   model's own items (an assistant `message`, `function_call` and the other call items,
 *   `reasoning`) between the other items (user messages, `function_call_output`).
 *
 * The advertised tools are the request's own `tools` (none offered when it has none): the tools of
 * the turn's own request were most likely the same, and a history turn's leaked markup is judged
 * against them.
 */

import { contextAt, emptyParts, partsReply, readMessageInto } from './agents/common.js';
import { arr, isObject, str, type JsonObject, type RecordContext, type RecordOutput } from './bodies/common.js';
import { readResponsesItem, unreadItemError } from './streams/responses-items.js';
import { advertisedFromRequest } from './toolcall.js';
import type { CaptureError, Reply } from './types.js';
import { hexDigest } from '../base/digest.js';

/**
 * The top-level fields of a request body (OpenAI Chat Completions and Responses, Anthropic
 * Messages, Ollama, Gemini-style generation options): a record with `model` and `messages` or
 * `input` and only these fields is a request. A record with any other field (`response`,
 * `completion`, `output` of a proxy's log) is not a bare request: it is classified as unknown and
 * reported, never skipped silently.
 */
const REQUEST_KEYS: ReadonlySet<string> = new Set([
  'model', 'messages', 'input', 'instructions', 'system', 'tools', 'tool_choice', 'functions', 'function_call', 'parallel_tool_calls',
  'temperature', 'top_p', 'top_k', 'min_p', 'max_tokens', 'max_completion_tokens', 'max_output_tokens', 'stop', 'stop_sequences',
  'n', 'seed', 'user', 'stream', 'stream_options', 'metadata', 'response_format', 'frequency_penalty', 'presence_penalty',
  'repetition_penalty', 'logprobs', 'top_logprobs', 'logit_bias', 'reasoning', 'reasoning_effort', 'thinking', 'previous_response_id',
  'store', 'text', 'truncation', 'include', 'service_tier', 'modalities', 'audio', 'prediction', 'web_search_options',
  'safety_identifier', 'prompt_cache_key', 'verbosity', 'background', 'conversation', 'prompt', 'max_tool_calls', 'extra_body',
  'extra_headers', 'anthropic_version', 'betas', 'container', 'mcp_servers', 'context_management', 'options', 'format', 'keep_alive',
  'think', 'suffix', 'echo', 'best_of', 'chat_template_kwargs', 'guided_json', 'guided_regex', 'guided_choice', 'skip_special_tokens',
]);

/** True for a bare request body: `model` plus `messages` or `input`, and no field a request does not have ({@link REQUEST_KEYS}). */
export function isBareRequest(v: unknown): v is JsonObject {
  if (!isObject(v) || typeof v['model'] !== 'string' || !(Array.isArray(v['messages']) || 'input' in v)) return false;
  return Object.keys(v).every((k) => REQUEST_KEYS.has(k));
}

/** Responses input item types the model itself produced (its output, sent back as history). */
const MODEL_ITEM_TYPES: ReadonlySet<string> = new Set([
  'function_call', 'custom_tool_call', 'mcp_call', 'mcp_approval_request', 'shell_call', 'local_shell_call', 'apply_patch_call', 'computer_call',
  'code_interpreter_call', 'reasoning', 'web_search_call', 'file_search_call', 'image_generation_call',
]);

/** True for a Responses input item the model produced: an assistant message or a call / reasoning item. */
function isModelItem(item: unknown): item is JsonObject {
  if (!isObject(item)) return false;
  if (item['role'] === 'assistant') return item['type'] === undefined || item['type'] === 'message';
  return typeof item['type'] === 'string' && MODEL_ITEM_TYPES.has(item['type']);
}

/** True for an assistant message of a `messages` history (either API's shape). */
function isAssistantMessage(m: unknown): m is JsonObject {
  return isObject(m) && m['role'] === 'assistant';
}

/** True for a request body (bare or not) whose `messages` or `input` history holds at least one assistant turn. */
export function hasHistoryTurns(v: unknown): v is JsonObject {
  return isObject(v) && (arr(v['messages']).some(isAssistantMessage) || arr(v['input']).some(isModelItem));
}

/** True for a bare request body whose history holds at least one assistant turn (the sniff of `request-history`). */
export function isRequestWithHistory(v: unknown): v is JsonObject {
  return isBareRequest(v) && hasHistoryTurns(v);
}

/** Keys kept per file before the ledger starts over (a turn read after that may be read again). */
const LEDGER_MAX_KEYS = 1 << 20;

/**
 * The assistant turns one file has yielded, so that a request's history does not yield them again:
 * keyed by tool call id (`c:` + id) and, once the file has held a request history (or a reader that
 * will hold them called {@link watch}), by a SHA-1 of the reply's text and calls (`t:` + digest) and,
 * for a reply with reasoning, of its text, reasoning and calls (`r:` + digest). A history turn
 * without reasoning is known by the first (APIs do not send reasoning back: a Chat Completions
 * response's `reasoning_content` is dropped from the history that repeats it), one with reasoning by
 * the second. An empty history turn is never read. Text digests are taken only from then on: a file
 * with no request bodies pays nothing for them. Bounded: past {@link LEDGER_MAX_KEYS} keys it starts over.
 */
export class TurnLedger {
  private readonly keys = new Set<string>();
  private histories = false;

  /** Starts taking text digests now: a reader whose records carry request histories (a pair log) calls it before its first reply. */
  watch(): void {
    this.histories = true;
  }

  /** Records the replies a reader of the file yielded (any format). */
  note(replies: readonly Reply[]): void {
    for (const r of replies) for (const k of this.keysOf(r, 'note')) this.add(k);
  }

  /**
   * True when the history turn `reply` has not been yielded yet; it is recorded as yielded.
   * A turn with tool calls that all carry ids is known by them; any other turn by its text.
   */
  claim(reply: Reply): boolean {
    this.histories = true;
    // an empty turn (no text, reasoning or call) holds nothing to judge: read none of them
    if (reply.text === '' && reply.reasoning === '' && reply.toolCalls.length === 0) return false;
    const keys = this.keysOf(reply, 'claim');
    if (keys.length > 0 && keys.every((k) => this.keys.has(k))) return false;
    for (const k of this.keysOf(reply, 'note')) this.add(k);
    return true;
  }

  /** The keys of `r`: all of them when noting a yielded reply; the one a history turn is known by when claiming. */
  private keysOf(r: Reply, use: 'note' | 'claim'): string[] {
    const ids = r.toolCalls.map((c) => c.id);
    if (ids.length > 0 && ids.every((id) => id !== null && id !== '')) return ids.map((id) => `c:${id}`);
    if (!this.histories || (r.text === '' && r.reasoning === '' && r.toolCalls.length === 0)) return [];
    const calls = r.toolCalls.map((c) => `${c.name}\u0000${c.argumentsRaw}`);
    const plain = `t:${hexDigest('sha1', [r.text, ...calls].join('\u0000'))}`;
    if (r.reasoning === '') return [plain];
    const full = `r:${hexDigest('sha1', [r.text, r.reasoning, ...calls].join('\u0000'))}`;
    return use === 'claim' ? [full] : [plain, full];
  }

  private add(key: string): void {
    if (this.keys.size >= LEDGER_MAX_KEYS) this.keys.clear();
    this.keys.add(key);
  }
}

/**
 * Reads the assistant turns of one request body's history that `ledger` has not seen (see the
 * module header). Every reply is at the request's line, `where` naming the message or items.
 *
 * @param record a request body ({@link isRequestWithHistory}).
 * @param ctx where the record is (`format` `request-history`).
 * @param ledger the file's turns so far; updated.
 * @returns the new turns' replies, and warnings for content and items guard does not read.
 */
export function readRequestHistory(record: JsonObject, ctx: RecordContext, ledger: TurnLedger): RecordOutput {
  const out: RecordOutput = { replies: [], errors: [] };
  const base: RecordContext = { ...ctx, advertised: advertisedFromRequest(record) ?? [] };
  const model = str(record['model']);
  /** A turn the ledger has not seen is kept with the problems of its content; a seen one is dropped with them. */
  const keep = (reply: Reply, errors: readonly CaptureError[]) => {
    if (!ledger.claim(reply)) return;
    out.replies.push(reply);
    out.errors.push(...errors);
  };
  for (const [i, m] of arr(record['messages']).entries()) {
    if (!isAssistantMessage(m)) continue;
    const turn: RecordContext = { ...base, where: `messages[${i}]` };
    const parts = emptyParts();
    const own: RecordOutput = { replies: [], errors: [] };
    readMessageInto(m, parts, turn, own);
    keep(partsReply(parts, turn, { model }), own.errors);
  }
  const items = arr(record['input']);
  for (let i = 0; i < items.length; ) {
    if (!isModelItem(items[i])) {
      i++;
      continue;
    }
    const start = i;
    const parts = emptyParts();
    const unread: string[] = [];
    for (; i < items.length && isModelItem(items[i]); i++) {
      const item = items[i] as JsonObject;
      if (item['type'] === undefined && typeof item['content'] === 'string') {
        parts.text.add(item['content']); // an easy input message: `{role: "assistant", content: "…"}`
        continue;
      }
      const c = readResponsesItem(item);
      if (c.text) parts.text.add(c.text);
      if (c.reasoning) parts.reasoning.push(c.reasoning);
      if (c.toolCall) parts.toolCalls.push(c.toolCall);
      if (c.unread) unread.push(c.unread);
    }
    const turn: RecordContext = { ...base, where: i - start === 1 ? `input[${start}]` : `input[${start}..${i - 1}]` };
    keep(partsReply(parts, turn, { model }), unread.map((u) => unreadItemError(turn, `${u} (${turn.where})`)));
  }
  return out;
}

/** The record context of a request-history record at `line` of `file`. */
export function historyContext(file: string, line: number): RecordContext {
  return contextAt(file, line, 'request-history');
}
