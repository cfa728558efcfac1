/**
 * Text completions: the raw-generation endpoints, where a model's tool-call markup is the text
 * itself (the client parses it, or nobody does). Bodies and their streams share one shape per
 * API, so one accumulator reads both:
 * - OpenAI legacy Completions (`POST /v1/completions`, served by vLLM, SGLang, llama.cpp, TGI,
 *   LM Studio, Ollama's compatible API): `{id, object: "text_completion", model, choices: [{index,
 *   text, finish_reason}]}`; a stream sends the same object per chunk with pieces of `text`, and
 *   `data: [DONE]` (openai-node `src/resources/completions.ts`,
 *   https://platform.openai.com/docs/api-reference/completions/object).
 * - Hugging Face TGI `POST /generate` `{generated_text, details?: {finish_reason}}` and
 *   `/generate_stream` events `{index, token: {text, special}, generated_text: null | string,
 *   details}`, the last one holding the whole `generated_text`
 *   (https://huggingface.github.io/text-generation-inference/, schemas `GenerateResponse`,
 *   `StreamResponse`).
 * - SGLang native `POST /generate` `{text, meta_info: {id, finish_reason: {type} | null}}`; a
 *   stream repeats the object with the text so far (cumulative), the last with a finish reason
 *   (https://docs.sglang.ai/basic_usage/native_api.html).
 * A reply ends at its finish reason (TGI: the `generated_text`); one still open at the end of
 * input is truncated (TRUNCATED_STREAM). Advertised tools are unknown (the request, if any, holds
 * a prompt, not tool definitions).
 */

import {
  appendText,
  buildReply,
  describeApiError,
  emptyOutput,
  isObject,
  nonEmpty,
  streamError,
  truncatedStream,
  type StreamAccumulator,
  type StreamContext,
  type StreamOutput,
} from './common.js';

type Dialect = 'openai' | 'tgi' | 'sglang';

/**
 * The dialect of a text-completion body or stream payload, or null when it is none of them.
 * OpenAI: `object: "text_completion"`, or `choices[]` whose entries all hold a string `text` and
 * neither `message` nor `delta`; TGI: a string `generated_text`, or a `token` object beside a
 * `generated_text` key; SGLang: a string `text` beside a `meta_info` object.
 */
export function textCompletionDialect(v: unknown): Dialect | null {
  if (!isObject(v)) return null;
  if (v['object'] === 'text_completion') return 'openai';
  const choices = v['choices'];
  if (Array.isArray(choices) && choices.length > 0 && choices.every((c) => isObject(c) && typeof c['text'] === 'string' && !('message' in c) && !('delta' in c))) return 'openai';
  if (typeof v['generated_text'] === 'string' || (isObject(v['token']) && 'generated_text' in v)) return 'tgi';
  if (typeof v['text'] === 'string' && isObject(v['meta_info'])) return 'sglang';
  return null;
}

interface Choice {
  line: number;
  text: string[];
  finish: string | undefined;
}

interface Open {
  dialect: Dialect;
  id: string | undefined;
  model: string | undefined;
  choices: Map<number, Choice>;
}

/** The SGLang finish reason: `meta_info.finish_reason` is `{type: "stop" | "length" | "abort", …}` or null. */
function sglangFinish(meta: Record<string, unknown>): string | undefined {
  const f = meta['finish_reason'];
  if (isObject(f)) return nonEmpty(f['type']) ?? 'stop';
  return nonEmpty(f);
}

/** Creates the text-completion accumulator (see the module comment). */
export function createTextCompletionAccumulator(ctx: StreamContext): StreamAccumulator {
  let open: Open | null = null;

  const close = (atEnd: boolean): StreamOutput => {
    const out = emptyOutput();
    const o = open;
    open = null;
    if (!o) return out;
    for (const [, ch] of [...o.choices.entries()].sort((a, b) => a[0] - b[0])) {
      const cut = ch.finish === undefined;
      out.replies.push(buildReply(ctx, { line: ch.line, id: o.id, model: o.model, text: ch.text.join(''), reasoning: '', toolCalls: [], truncated: cut || ch.finish === 'length', finishReason: ch.finish }));
      if (cut && atEnd) out.errors.push(truncatedStream(ctx, ch.line, 'a finish reason'));
    }
    return out;
  };

  const allFinished = (o: Open): boolean => o.choices.size > 0 && [...o.choices.values()].every((c) => c.finish !== undefined);

  /** The stream a payload continues; a new id, another dialect or a finished stream opens another. */
  const streamFor = (dialect: Dialect, id: string | undefined, out: StreamOutput): Open => {
    if (open && (open.dialect !== dialect || allFinished(open) || (id !== undefined && open.id !== undefined && id !== open.id))) {
      const done = close(false);
      out.replies.push(...done.replies);
      out.errors.push(...done.errors);
    }
    open ??= { dialect, id, model: undefined, choices: new Map() };
    open.id ??= id;
    return open;
  };

  const choiceOf = (o: Open, index: number, line: number): Choice => {
    let ch = o.choices.get(index);
    if (!ch) {
      ch = { line, text: [], finish: undefined };
      o.choices.set(index, ch);
    }
    return ch;
  };

  return {
    push(payload, _eventName, line) {
      const out = emptyOutput();
      if (payload === '[DONE]') {
        const done = close(false);
        // a stream that ends at [DONE] without a finish reason was cut by the server
        for (const r of done.replies) if (r.finishReason === undefined) done.errors.push(truncatedStream(ctx, r.source.line, 'a finish reason before [DONE]'));
        return done;
      }
      if (!isObject(payload)) return out;
      const err = payload['error'];
      if (err !== undefined && err !== null) {
        const done = close(true);
        done.errors.push(streamError(ctx, line, isObject(err) ? describeApiError(err) : `API error: ${String(err).slice(0, 200)}`));
        return done;
      }
      const dialect = textCompletionDialect(payload);
      if (dialect === null) {
        out.errors.push({ file: ctx.file, line, code: 'INVALID_RECORD', message: 'a payload that is no text completion (OpenAI text_completion, TGI, SGLang) in a text-completion stream; not read', severity: 'error' });
        return out;
      }
      if (dialect === 'openai') {
        const o = streamFor('openai', nonEmpty(payload['id']), out);
        o.model = nonEmpty(payload['model']) ?? o.model;
        (payload['choices'] as unknown[]).forEach((c, pos) => {
          const choice = c as Record<string, unknown>;
          const ch = choiceOf(o, typeof choice['index'] === 'number' ? choice['index'] : pos, line);
          appendText(ch.text, choice['text']);
          ch.finish = nonEmpty(choice['finish_reason']) ?? ch.finish;
        });
      } else if (dialect === 'tgi') {
        const o = streamFor('tgi', undefined, out);
        const ch = choiceOf(o, 0, line);
        const details = isObject(payload['details']) ? payload['details'] : null;
        if (typeof payload['generated_text'] === 'string') {
          // the whole text: a body, or a stream's last event
          ch.text = [payload['generated_text']];
          ch.finish = (details ? nonEmpty(details['finish_reason']) : undefined) ?? 'stop';
        } else if (isObject(payload['token']) && payload['token']['special'] !== true) appendText(ch.text, payload['token']['text']);
      } else {
        const meta = payload['meta_info'] as Record<string, unknown>;
        const o = streamFor('sglang', nonEmpty(meta['id']), out);
        const ch = choiceOf(o, typeof payload['index'] === 'number' ? payload['index'] : 0, line);
        // each streamed object holds the text so far
        ch.text = [payload['text'] as string];
        ch.finish = sglangFinish(meta) ?? ch.finish;
      }
      return out;
    },
    finish() {
      return close(true);
    },
  };
}
