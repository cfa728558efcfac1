/**
 * Ollama's native API: `/api/chat` and `/api/generate` responses, whole (`stream: false`) or as
 * their NDJSON streams (`application/x-ndjson`, one object per line, no `data:` prefix and no
 * `[DONE]`).
 *
 * Schema: ollama/ollama `api/types.go` (`ChatResponse`, `GenerateResponse`, `Message`, `ToolCall`,
 * `ToolCallFunction`) at fb30760996871fa9460115c753afd2c60d4ab0f7,
 * https://github.com/ollama/ollama/blob/fb30760996871fa9460115c753afd2c60d4ab0f7/api/types.go, and
 * https://github.com/ollama/ollama/blob/main/docs/api.md. A chat chunk carries `message.content`,
 * `message.thinking` and `message.tool_calls[]` (`{id?, function: {index?, name, arguments}}`,
 * `arguments` a JSON object; a streamed call arrives whole in one chunk); a generate chunk carries
 * top-level `response`, `thinking` and `tool_calls`. A reply is every object up to and including the
 * one with `done: true`: that is the only boundary between replies, so a file of several streams
 * back to back (or of pretty-printed objects one after another) reads as one reply per `done: true`.
 *
 * A reasoning model asked without `think` (or through an Ollama older than the `thinking` field)
 * writes its reasoning into the text itself: a reply whose text opens with a `<think>` … `</think>`
 * block (DeepSeek-R1, Qwen3, through `/api/generate` `response` as through `/api/chat`
 * `message.content`) has that block kept as reasoning, apart from the visible text, as the
 * `thinking` field is; an unclosed block stays in the text (the recovery engine reads it there).
 */

import { makeToolCall } from '../toolcall.js';
import type { ToolCall } from '../types.js';
import { captureError, isObject, listAt, str, textAt, type JsonObject, type RecordOutput } from './common.js';

/**
 * True for an Ollama `/api/chat` or `/api/generate` response object (whole or one stream chunk):
 * a string `model`, a boolean `done`, and an assistant `message` object or a string `response`
 * (or a string `created_at`, which every Ollama response has and no other API's does).
 */
export function isOllamaResponse(v: unknown): v is JsonObject {
  if (!isObject(v) || typeof v['done'] !== 'boolean' || typeof v['model'] !== 'string') return false;
  const message = v['message'];
  if (isObject(message)) return message['role'] === undefined || message['role'] === 'assistant';
  return typeof v['response'] === 'string' || typeof v['created_at'] === 'string';
}

/** A `<think>` block opening a text (after white space), and the text after its `</think>`. */
const THINK_BLOCK = /^\s*<think>([\s\S]*?)<\/think>\s*/;

/** Splits a leading `<think>` block off `text` (see the module header): the reasoning and the text left. */
function splitThinkBlock(text: string): { reasoning: string; text: string } {
  const m = THINK_BLOCK.exec(text);
  if (!m) return { reasoning: '', text };
  return { reasoning: m[1]!.trim(), text: text.slice(m[0].length) };
}

interface OpenReply {
  line: number;
  model: string | undefined;
  text: string[];
  reasoning: string[];
  calls: ToolCall[];
}

/**
 * Reads the Ollama objects of one file: text and thinking are appended chunk by chunk, tool calls
 * are taken whole, and the reply is yielded at `done: true` (`done_reason: "length"` marks it
 * truncated). A stream that ends before `done: true` is yielded truncated with a TRUNCATED_STREAM
 * error. A tool call without a function name is an INVALID_RECORD error (skipped).
 */
export class OllamaReader {
  private open: OpenReply | null = null;

  constructor(private readonly file: string) {}

  push(record: JsonObject, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    const r = (this.open ??= { line, model: undefined, text: [], reasoning: [], calls: [] });
    r.model = str(record['model']) ?? r.model;
    const message = isObject(record['message']) ? record['message'] : null;
    const src = message ?? record;
    const report = (m: string) => out.errors.push(captureError(this.file, line, 'INVALID_RECORD', m));
    const text = message ? textAt(message, 'content', report, 'message.content') : textAt(record, 'response', report);
    if (text) r.text.push(text);
    const thinking = textAt(src, 'thinking', report);
    if (thinking) r.reasoning.push(thinking);
    for (const entry of listAt(src, 'tool_calls', report)) {
      const fn = isObject(entry) && isObject(entry['function']) ? entry['function'] : null;
      const name = fn ? str(fn['name']) : undefined;
      if (!fn || !name) {
        out.errors.push(captureError(this.file, line, 'INVALID_RECORD', 'an Ollama tool call has no function name; it was skipped'));
        continue;
      }
      r.calls.push(makeToolCall(isObject(entry) ? str(entry['id']) : undefined, name, 'function', fn['arguments'], { entry: fn, read: ['arguments'] }));
    }
    if (record['done'] === true) this.close(out, str(record['done_reason']), false);
    return out;
  }

  finish(): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    const start = this.open?.line;
    if (this.close(out, undefined, true) && start !== undefined) {
      out.errors.push(captureError(this.file, start, 'TRUNCATED_STREAM', 'stream ended before an object with "done": true; the reply starting here is incomplete'));
    }
    return out;
  }

  /** Yields the open reply, if any; @returns whether there was one. */
  private close(out: RecordOutput, doneReason: string | undefined, cut: boolean): boolean {
    const r = this.open;
    this.open = null;
    if (!r) return false;
    const split = splitThinkBlock(r.text.join(''));
    const reasoning = [r.reasoning.join(''), split.reasoning].filter((x) => x !== '').join('\n');
    out.replies.push({
      source: { file: this.file, line: r.line },
      format: 'ollama',
      id: null,
      advertised: null,
      text: split.text,
      reasoning,
      toolCalls: r.calls,
      truncated: cut || doneReason === 'length',
      ...(r.model ? { model: r.model } : {}),
      ...(doneReason ? { finishReason: doneReason } : {}),
    });
    return true;
  }
}
