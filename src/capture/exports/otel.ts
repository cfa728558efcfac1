/**
 * OpenTelemetry spans of LLM calls: OTLP JSON (`{resourceSpans: [{scopeSpans: [{spans: [...]}]}]}`,
 * https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding; attributes as `[{key, value:
 * {stringValue | intValue | doubleValue | boolValue | arrayValue | kvlistValue}}]`), and the span
 * dumps SDKs print (`{name, spanContext | context, attributes: {...}, events}`: the JavaScript
 * SDK's `ReadableSpan`, Python's `span.to_json()`).
 *
 * Attributes: the GenAI semantic conventions, open-telemetry/semantic-conventions at
 * 384d66161cb18704c729645fa8136a148df9571c `docs/registry/attributes/gen-ai.md`
 * (https://github.com/open-telemetry/semantic-conventions/blob/384d66161cb18704c729645fa8136a148df9571c/docs/registry/attributes/gen-ai.md):
 * `gen_ai.output.messages` (read by ./messages.ts), `gen_ai.response.id`, `gen_ai.response.model`,
 * `gen_ai.response.finish_reasons`, `gen_ai.tool.definitions`; the older `gen_ai.completion.N.*`
 * attributes (OpenLLMetry) and `gen_ai.choice` events; the AI SDK's `ai.response.text`,
 * `ai.response.toolCalls` and `ai.prompt.tools` on its `ai.*.doGenerate` / `ai.*.doStream` spans
 * (https://ai-sdk.dev/docs/ai-sdk-core/telemetry; the wrapper spans `ai.generateText` and
 * `ai.streamText` repeat their calls' output and are not read); OpenInference's
 * `llm.output_messages.N.message.*` (https://github.com/Arize-ai/openinference/blob/main/spec/semantic_conventions.md);
 * the Langfuse SDKs' own attributes, which their OpenTelemetry spans carry instead of `gen_ai.*`
 * (`langfuse.observation.type = generation`, its output in `langfuse.observation.output`, the
 * model in `langfuse.observation.model.name`: langfuse/langfuse-python
 * `langfuse/_client/attributes.py` `LangfuseOtelSpanAttributes`; litellm's `langfuse_otel`
 * integration writes the same, BerriAI/litellm
 * `tests/logging_callback_tests/langfuse_expected_request_body/completion_with_tags_stream.json`).
 *
 * OTLP logs (`{resourceLogs: [{scopeLogs: [{logRecords: [...]}]}]}`, the same JSON encoding;
 * `LogRecord{timeUnixNano, eventName, attributes, body, traceId, spanId}`): the GenAI events that
 * instrumentations emit as log records (the OpenTelemetry Python `openai-v2`, `vertexai` and
 * `google-genai` instrumentations; the Events API writes events as logs): a
 * `gen_ai.client.inference.operation.details` event (its `gen_ai.output.messages` attribute, as on
 * a span) and a `gen_ai.choice` event (its body `{index, finish_reason, message}`) are each one
 * reply (so is any record with a `gen_ai.output.messages` attribute); the event name is the
 * record's `eventName` or its `event.name` attribute (older SDKs). A `gen_ai.*` event of another
 * name is an INVALID_RECORD error (it may hold output guard does not read).
 * Other GenAI events (`gen_ai.user.message`, `gen_ai.system.message`, `gen_ai.assistant.message`
 * of the request's history, `gen_ai.tool.message`) and other log records hold no reply. Event
 * names and bodies: open-telemetry/semantic-conventions v1.41.0 `docs/gen-ai/gen-ai-events.md`,
 * https://github.com/open-telemetry/semantic-conventions/blob/v1.41.0/docs/gen-ai/gen-ai-events.md
 * (and, for the deprecated per-message events, v1.30.0 of the same page).
 *
 * One reply per LLM-call span. A span of a model call that records no output (content capture is
 * off by default in most instrumentations) is an INVALID_RECORD warning: there is nothing to judge.
 *
 * Tool executions: a span with `gen_ai.operation.name = execute_tool` (the "Execute tool span" of
 * open-telemetry/semantic-conventions v1.41.0, e018fe6f91862f5ed63c082f87697cddac596784,
 * `docs/gen-ai/gen-ai-spans.md`,
 * https://github.com/open-telemetry/semantic-conventions/blob/v1.41.0/docs/gen-ai/gen-ai-spans.md#execute-tool-span;
 * the registry at 384d661 above marks these attributes moved to open-telemetry/semantic-conventions-genai)
 * carries `gen_ai.tool.name` (required; else the span name after `execute_tool `),
 * `gen_ai.tool.call.id` (recommended) and the opt-in `gen_ai.tool.call.arguments` (an object, or
 * its JSON text) and `gen_ai.tool.call.result` (the tool's output, not read: it is no model output).
 * The AI SDK's legacy `ai.toolCall` spans (`ai.toolCall.name`, `ai.toolCall.id`, `ai.toolCall.args`;
 * vercel/ai `content/docs/03-ai-sdk-core/60-telemetry.mdx` at ed857f50f112e23930b0c2dd8d532cc8bebbc911,
 * "Legacy tool call spans") and OpenInference `TOOL` spans (`openinference.span.kind = TOOL`,
 * `tool.name`, `tool.id`, the arguments in `input.value`; Arize-ai/openinference
 * `spec/semantic_conventions.md` at 1fe497f1d9f45a07eee55d97fe185e020560f9c7) and the Langfuse SDKs'
 * `tool` observations (`langfuse.observation.type = tool`: the tool is the span's name, its
 * arguments `langfuse.observation.input`) are read the same way.
 * Its call is inspected unless a model-call span of the same trace already holds it (matched by
 * call id, or without an id by name and arguments: ./executions.ts); then it gives one reply of its
 * own, with no text and that call. Such a span without arguments is an INVALID_RECORD warning and
 * its call fails closed in inspection. Execute_tool spans are held until the file's end (spans come
 * in any order), at most MAX_HELD_WRAPPERS; past that they are read as they come.
 * Other spans (HTTP, agents, embeddings) hold no reply and are skipped.
 */

import { quotedKeys } from '../../base/json.js';
import { makeToolCall } from '../toolcall.js';
import type { Reply } from '../types.js';
import { arr, captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';
import { ExecutedCalls, executionReply, type ToolExecution } from './executions.js';
import { advertisedFromList, emptyParts, maybeJson, readOutputValue, type OutputParts } from './messages.js';

/** True for a whole OTLP traces request: a `resourceSpans` array. */
export function isOtlpTraces(v: unknown): v is JsonObject {
  return isObject(v) && Array.isArray(v['resourceSpans']);
}

/** True for a whole OTLP logs request: a `resourceLogs` array. */
export function isOtlpLogs(v: unknown): v is JsonObject {
  return isObject(v) && Array.isArray(v['resourceLogs']);
}

/** The GenAI event a log record holds: its `eventName`, else its `event.name` attribute (older SDKs). */
function logEventName(record: JsonObject, attrs: Record<string, unknown>): string | undefined {
  return str(record['eventName']) || str(attrs['event.name']);
}

/**
 * One OTLP log record as the span the reader reads, or null when it is no GenAI event that holds a
 * reply: a `gen_ai.client.inference.operation.details` event carries the messages in its
 * attributes, like a span; a `gen_ai.choice` event is a span event with the record's body.
 */
function logRecordAsSpan(record: JsonObject): JsonObject | 'unknown-event' | null {
  const attrs = attributeMap(record['attributes']);
  const event = logEventName(record, attrs);
  const ids = { traceId: str(record['traceId']) ?? '', spanId: str(record['spanId']) ?? '' };
  if (event === 'gen_ai.client.inference.operation.details' || attrs['gen_ai.output.messages'] !== undefined) return { name: event ?? 'log record', ...ids, attributes: attrs };
  if (event === 'gen_ai.choice') return { name: event, ...ids, attributes: attrs, events: [{ name: event, attributes: attrs, body: anyValue(record['body']) }] };
  if (event !== undefined && event.startsWith('gen_ai.') && !REQUEST_EVENTS.has(event)) return 'unknown-event';
  return null;
}

/** GenAI events that hold the request (its messages, an evaluation), no reply. */
const REQUEST_EVENTS: ReadonlySet<string> = new Set(['gen_ai.system.message', 'gen_ai.user.message', 'gen_ai.assistant.message', 'gen_ai.tool.message', 'gen_ai.evaluation.result']);

/** True for one span: a string `name`, `attributes` (a map or an OTLP key/value list) and a span id (`spanId`, `spanContext`, `context`). */
export function isSpan(v: unknown): v is JsonObject {
  if (!isObject(v) || typeof v['name'] !== 'string') return false;
  const attrs = v['attributes'];
  if (!(isObject(attrs) || Array.isArray(attrs))) return false;
  return typeof v['spanId'] === 'string' || isObject(v['spanContext']) || isObject(v['context']) || typeof v['span_id'] === 'string';
}

/** An OTLP `AnyValue` as a plain value. */
function anyValue(v: unknown): unknown {
  if (!isObject(v)) return v;
  if ('stringValue' in v) return v['stringValue'];
  if ('boolValue' in v) return v['boolValue'];
  if ('intValue' in v) return Number(v['intValue']);
  if ('doubleValue' in v) return v['doubleValue'];
  if (isObject(v['arrayValue'])) return arr(v['arrayValue']['values']).map(anyValue);
  if (isObject(v['kvlistValue'])) return attributeMap(v['kvlistValue']['values']);
  if ('bytesValue' in v) return v['bytesValue'];
  return undefined;
}

/** Attributes as a plain map, from a map or an OTLP `[{key, value}]` list. */
export function attributeMap(attrs: unknown): Record<string, unknown> {
  if (isObject(attrs)) return attrs;
  const out: Record<string, unknown> = {};
  for (const kv of arr(attrs)) if (isObject(kv) && typeof kv['key'] === 'string') out[kv['key']] = anyValue(kv['value']);
  return out;
}

/** Groups flattened attributes `<prefix>.<N>.<rest>` by N: `{N: {rest: value}}`. */
function indexed(attrs: Record<string, unknown>, prefix: string): Map<number, Record<string, unknown>> {
  const out = new Map<number, Record<string, unknown>>();
  for (const [k, v] of Object.entries(attrs)) {
    if (!k.startsWith(prefix)) continue;
    const m = /^(\d+)\.(.+)$/.exec(k.slice(prefix.length));
    if (!m) continue;
    const n = Number(m[1]);
    if (!out.has(n)) out.set(n, {});
    // an own data property, whatever the name (`__proto__` too)
    Object.defineProperty(out.get(n)!, m[2]!, { value: v, writable: true, enumerable: true, configurable: true });
  }
  return new Map([...out.entries()].sort((a, b) => a[0] - b[0]));
}

/**
 * The keys of one flattened message that {@link readFlattened} reads, after its base: OpenLLMetry
 * `role`, `content`, `finish_reason`, `tool_calls.N.*` and the legacy `function_call.*`;
 * OpenInference `message.role`, `message.content`, `message.contents.N.*`, `message.tool_calls.N.*`,
 * `message.function_call_name` / `message.function_call_arguments_json`. Reasoning and refusal keys
 * some instrumentations add are read as reasoning and text.
 */
const FLATTENED_KEY = /^(?:role|content|finish_reason|tool_calls\.\d+\..+|function_call\.(?:name|arguments)|function_call_name|function_call_arguments_json|contents\.\d+\..+|reasoning|reasoning_content|refusal|name|tool_call_id)$/;

/** Reads flattened messages (`gen_ai.completion.N.*`, `llm.output_messages.N.message.*`); a key it does not know is an unread attribute. */
function readFlattened(groups: Map<number, Record<string, unknown>>, prefix: string, base: string, callBase: string, parts: OutputParts): void {
  for (const [n, g] of groups) {
    const role = g[`${base}role`];
    if (role !== undefined && role !== 'assistant') continue;
    parts.found = true;
    if (typeof g[`${base}content`] === 'string') parts.text.add(g[`${base}content`] as string);
    else for (const [k, v] of Object.entries(g)) {
      // OpenInference content parts: `message.contents.N.message_content.text`
      if (k.startsWith(`${base}contents.`) && k.endsWith('.text') && typeof v === 'string') parts.text.add(v);
    }
    if (typeof g[`${base}refusal`] === 'string') parts.text.add(g[`${base}refusal`] as string);
    for (const key of ['reasoning', 'reasoning_content']) if (typeof g[`${base}${key}`] === 'string') parts.reasoning.push(g[`${base}${key}`] as string);
    if (typeof g[`${base}finish_reason`] === 'string') parts.finishReason = g[`${base}finish_reason`] as string;
    const calls = indexed(g, `${base}tool_calls.`);
    for (const c of calls.values()) {
      const name = str(c[`${callBase}name`]) ?? str(c[`${callBase}function.name`]) ?? '';
      const args = c[`${callBase}arguments`] ?? c[`${callBase}function.arguments`] ?? '';
      parts.calls.push(makeToolCall(str(c[`${callBase}id`]), name, 'function', args));
    }
    // the legacy single function call
    const legacyName = str(g[`${base}function_call.name`]) ?? str(g[`${base}function_call_name`]);
    if (legacyName !== undefined) parts.calls.push(makeToolCall(null, legacyName, 'function', g[`${base}function_call.arguments`] ?? g[`${base}function_call_arguments_json`] ?? ''));
    for (const k of Object.keys(g)) {
      if (!k.startsWith(base) || !FLATTENED_KEY.test(k.slice(base.length))) parts.skipped.add(`attribute ${prefix}${n}.${k}`);
    }
  }
}

/** The output a span records, or null when it is not an LLM-call span. `call`: it is a model call even with no output recorded. */
function spanOutput(span: JsonObject, attrs: Record<string, unknown>, wrapperAsCall = false): { parts: OutputParts; call: boolean } | null {
  const parts = emptyParts();
  const op = str(attrs['ai.operationId']) ?? '';
  const aiSpan = op.startsWith('ai.');
  const aiCall = /\.do(?:Generate|Stream)$/.test(op) || (wrapperAsCall && aiSpan);
  if (aiSpan && !aiCall) return null; // an AI SDK wrapper span: its doGenerate / doStream child is the call
  if (attrs['gen_ai.output.messages'] !== undefined) readOutputValue(attrs['gen_ai.output.messages'], parts);
  else if (Object.keys(attrs).some((k) => k.startsWith('gen_ai.completion.'))) readFlattened(indexed(attrs, 'gen_ai.completion.'), 'gen_ai.completion.', '', '', parts);
  else if (Object.keys(attrs).some((k) => k.startsWith('llm.output_messages.'))) readFlattened(indexed(attrs, 'llm.output_messages.'), 'llm.output_messages.', 'message.', 'tool_call.', parts);
  // OpenInference without output messages: `output.value`, the raw response as JSON text
  else if (attrs['openinference.span.kind'] === 'LLM' && typeof attrs['output.value'] === 'string') readOutputValue(attrs['output.value'], parts);
  // the Langfuse SDKs (v3+, built on OpenTelemetry): a generation's output as JSON text or a value
  else if (attrs['langfuse.observation.type'] === 'generation' && attrs['langfuse.observation.output'] !== undefined) readOutputValue(attrs['langfuse.observation.output'], parts);
  else if (aiCall && (attrs['ai.response.text'] !== undefined || attrs['ai.response.toolCalls'] !== undefined)) {
    parts.found = true;
    if (typeof attrs['ai.response.text'] === 'string') parts.text.add(attrs['ai.response.text']);
    if (typeof attrs['ai.response.reasoning'] === 'string') parts.reasoning.push(attrs['ai.response.reasoning']);
    if (attrs['ai.response.toolCalls'] !== undefined) readOutputValue(attrs['ai.response.toolCalls'], parts);
  }
  for (const ev of arr(span['events'])) {
    if (!isObject(ev)) continue;
    // semantic conventions v1.37+: the messages move to one event's attributes when content capture goes to events
    if (ev['name'] === 'gen_ai.client.inference.operation.details') {
      const ea = attributeMap(ev['attributes']);
      if (ea['gen_ai.output.messages'] !== undefined) readOutputValue(ea['gen_ai.output.messages'], parts);
      continue;
    }
    if (ev['name'] !== 'gen_ai.choice') continue;
    const ea = attributeMap(ev['attributes']);
    const body = maybeJson(ev['body'] ?? ea['message'] ?? ea['gen_ai.event.content']);
    if (body === undefined) continue;
    // the choice body `{index, finish_reason, message}`; its finish reason is the reply's
    const choice = isObject(body) && 'message' in body ? body : null;
    readOutputValue(choice ? choice['message'] : body, parts);
    if (choice && typeof choice['finish_reason'] === 'string') parts.finishReason ??= choice['finish_reason'];
  }
  const modelCall = aiCall || typeof attrs['gen_ai.operation.name'] === 'string' || (attrs['gen_ai.request.model'] !== undefined && (attrs['gen_ai.system'] !== undefined || attrs['gen_ai.provider.name'] !== undefined)) || attrs['openinference.span.kind'] === 'LLM' || attrs['langfuse.observation.type'] === 'generation';
  if (!parts.found && !modelCall) return null;
  const opName = str(attrs['gen_ai.operation.name']);
  if (!parts.found && opName !== undefined && !['chat', 'text_completion', 'generate_content', 'invoke_agent'].includes(opName)) return null; // embeddings, tool execution
  return { parts, call: modelCall };
}

/** Reads OTLP requests and spans; one reply per LLM-call span. */
export function otelReader(file: string) {
  /** AI SDK wrapper spans holding a response, held until the file shows whether their trace has a doGenerate / doStream span. */
  const wrappers: Array<{ span: JsonObject; line: number; trace: string }> = [];
  /** Traces that hold an AI SDK model-call span. */
  const calledTraces = new Set<string>();
  const traceOf = (span: JsonObject): string => str(span['traceId']) ?? (isObject(span['spanContext']) ? str(span['spanContext']['traceId']) : undefined) ?? (isObject(span['context']) ? str(span['context']['trace_id']) : undefined) ?? '';
  /** The calls of the file's model-call spans, and the `execute_tool` spans none of them held yet (read at the file's end). */
  const executed = new ExecutedCalls();
  const heldExecutions: Array<{ exec: ToolExecution; line: number; span: JsonObject }> = [];
  const spanIdOf = (span: JsonObject): string | null => str(span['spanId']) ?? (isObject(span['spanContext']) ? str(span['spanContext']['spanId']) : undefined) ?? (isObject(span['context']) ? str(span['context']['span_id']) : undefined) ?? str(span['span_id']) ?? null;
  const executionOut = (h: { exec: ToolExecution; line: number; span: JsonObject }): RecordOutput =>
    executionReply(h.exec, { file, line: h.line, format: 'otel-genai', id: spanIdOf(h.span) }, `span ${JSON.stringify(h.span['name'])}`);
  /** An `execute_tool` span: inspected unless a model-call span of its trace holds its call. */
  const readExecution = (span: JsonObject, attrs: Record<string, unknown>, line: number, out: RecordOutput): void => {
    const spanName = String(span['name']);
    const trace = traceOf(span);
    const exec: ToolExecution =
      attrs['gen_ai.operation.name'] === 'execute_tool' || isToolSpanWithoutOperation(attrs)
        ? {
            trace,
            id: str(attrs['gen_ai.tool.call.id']) || null,
            name: str(attrs['gen_ai.tool.name']) ?? (spanName.startsWith('execute_tool ') ? spanName.slice('execute_tool '.length).trim() : ''),
            // pydantic-ai / Logfire's `running tool` spans name the arguments `tool_arguments`
            args: attrs['gen_ai.tool.call.arguments'] ?? attrs['tool_arguments'],
          }
        : attrs['ai.operationId'] === 'ai.toolCall'
          ? { trace, id: str(attrs['ai.toolCall.id']) || null, name: str(attrs['ai.toolCall.name']) ?? '', args: attrs['ai.toolCall.args'] }
          : attrs['langfuse.observation.type'] === 'tool'
            ? // a Langfuse SDK tool observation: the tool is the span's name, its arguments the input
              { trace, id: null, name: spanName, args: attrs['langfuse.observation.input'] }
            : // an OpenInference TOOL span
            { trace, id: str(attrs['tool.id']) || str(attrs['tool_call.id']) || null, name: str(attrs['tool.name']) ?? str(attrs['tool_call.function.name']) ?? spanName, args: attrs['input.value'] ?? attrs['tool_call.function.arguments'] };
    if (executed.repeats(exec)) return;
    const held = { exec, line, span };
    if (heldExecutions.length < MAX_HELD_WRAPPERS) heldExecutions.push(held);
    else {
      // too many to hold until the file's end: inspected now (a call a later span holds is counted twice, never missed)
      const o = executionOut(held);
      out.replies.push(...o.replies);
      out.errors.push(...o.errors);
    }
  };
  const readSpan = (span: JsonObject, line: number, out: RecordOutput, wrapperAsCall = false, label = `span ${JSON.stringify(span['name'])}`): void => {
    const attrs = attributeMap(span['attributes']);
    if (isExecution(attrs)) return readExecution(span, attrs, line, out);
    const op = str(attrs['ai.operationId']) ?? '';
    if (/\.do(?:Generate|Stream)$/.test(op)) calledTraces.add(traceOf(span));
    else if (!wrapperAsCall && op.startsWith('ai.') && (attrs['ai.response.text'] !== undefined || attrs['ai.response.toolCalls'] !== undefined)) {
      // a wrapper's response repeats its child call's: read it only if the file holds no child
      if (wrappers.length < MAX_HELD_WRAPPERS) wrappers.push({ span, line, trace: traceOf(span) });
      else out.errors.push(captureError(file, line, 'INVALID_RECORD', `span ${JSON.stringify(span['name'])} (an AI SDK wrapper) was not read: more than ${MAX_HELD_WRAPPERS} wrapper spans wait for their model-call spans`));
      return;
    }
    const o = spanOutput(span, attrs, wrapperAsCall);
    if (!o) return;
    if (!o.parts.found) {
      out.errors.push(captureError(file, line, 'INVALID_RECORD', `${label} is a model call but records no output (content capture was off?); nothing to judge`, 'warning'));
      return;
    }
    const p = o.parts;
    const unreadAttributes = [...p.skipped].filter((t) => t.startsWith('attribute ')).map((t) => t.slice('attribute '.length));
    const unreadTypes = [...p.skipped].filter((t) => !t.startsWith('attribute '));
    if (unreadTypes.length > 0) out.errors.push(captureError(file, line, 'INVALID_RECORD', `output parts of type ${unreadTypes.map((t) => JSON.stringify(t)).join(', ')} in ${label} were not read: what they hold (a call, its arguments) is not judged`));
    if (unreadAttributes.length > 0) out.errors.push(captureError(file, line, 'INVALID_RECORD', `output attributes ${quotedKeys(unreadAttributes)} of ${label} are not read: what they hold (a call, its arguments) is not judged`));
    const finishReasons = maybeJson(attrs['gen_ai.response.finish_reasons']);
    const finish = p.finishReason ?? (Array.isArray(finishReasons) && typeof finishReasons[0] === 'string' ? finishReasons[0] : undefined) ?? str(attrs['ai.response.finishReason']);
    const advertised = advertisedFromList(attrs['gen_ai.tool.definitions']) ?? advertisedFromList(attrs['ai.prompt.tools']);
    const reply: Reply = {
      source: { file, line },
      format: 'otel-genai',
      id: str(attrs['gen_ai.response.id']) ?? str(attrs['ai.response.id']) ?? null,
      advertised,
      text: p.text.text,
      ...p.text.breakField,
      reasoning: p.reasoning.join(''),
      toolCalls: p.calls,
      truncated: finish === 'length' || finish === 'max_tokens' || finish === 'MAX_TOKENS',
    };
    const model = str(attrs['gen_ai.response.model']) ?? str(attrs['gen_ai.request.model']) ?? str(attrs['langfuse.observation.model.name']);
    if (model) reply.model = model;
    if (finish) reply.finishReason = finish;
    out.replies.push(reply);
    executed.record(traceOf(span), p.calls);
  };
  return {
    push(value: unknown, line: number): RecordOutput {
      const out: RecordOutput = { replies: [], errors: [] };
      if (isOtlpTraces(value)) {
        for (const rs of arr(value['resourceSpans'])) {
          if (!isObject(rs)) continue;
          for (const ss of [...arr(rs['scopeSpans']), ...arr(rs['instrumentationLibrarySpans'])]) {
            if (isObject(ss)) for (const span of arr(ss['spans'])) if (isSpan(span) || (isObject(span) && typeof span['name'] === 'string')) readSpan(span as JsonObject, line, out);
          }
        }
      } else if (isOtlpLogs(value)) {
        for (const rl of arr(value['resourceLogs'])) {
          if (!isObject(rl)) continue;
          for (const sl of [...arr(rl['scopeLogs']), ...arr(rl['instrumentationLibraryLogs'])]) {
            if (!isObject(sl)) continue;
            for (const record of arr(sl['logRecords'])) {
              const span = isObject(record) ? logRecordAsSpan(record) : null;
              if (span === 'unknown-event') {
                const name = logEventName(record as JsonObject, attributeMap((record as JsonObject)['attributes']));
                out.errors.push(captureError(file, line, 'INVALID_RECORD', `a log record of GenAI event ${JSON.stringify(name)} was not read (guard reads gen_ai.client.inference.operation.details and gen_ai.choice): what it holds (a reply, a call) is not judged`));
              } else if (span) readSpan(span, line, out, false, `log record ${JSON.stringify(span['name'])}`);
            }
          }
        }
      } else readSpan(value as JsonObject, line, out);
      return out;
    },
    finish(): RecordOutput {
      // a wrapper whose trace holds no doGenerate / doStream span is the only record of its call
      const out: RecordOutput = { replies: [], errors: [] };
      for (const w of wrappers.splice(0)) if (!calledTraces.has(w.trace)) readSpan(w.span, w.line, out, true);
      // an execute_tool span whose call no model-call span of its trace holds is the only record of it
      for (const h of heldExecutions.splice(0)) {
        if (executed.repeats(h.exec)) continue;
        const o = executionOut(h);
        out.replies.push(...o.replies);
        out.errors.push(...o.errors);
      }
      return out;
    },
  };
}

/** AI SDK wrapper spans held per file until its end (each is a few attributes; more are reported, not held). */
const MAX_HELD_WRAPPERS = 10_000;

/**
 * A span without `gen_ai.operation.name` that names a tool (`gen_ai.tool.name`): an execution in
 * conventions before the operation name was required (pydantic-ai / Logfire `running tool` spans).
 */
function isToolSpanWithoutOperation(attrs: Record<string, unknown>): boolean {
  return attrs['gen_ai.operation.name'] === undefined && typeof attrs['gen_ai.tool.name'] === 'string' && attrs['gen_ai.request.model'] === undefined;
}

/** A span recording one tool execution (execute_tool, the AI SDK's ai.toolCall, OpenInference TOOL, a Langfuse SDK `tool` observation, or {@link isToolSpanWithoutOperation}). */
function isExecution(attrs: Record<string, unknown>): boolean {
  if (attrs['gen_ai.operation.name'] === undefined && attrs['langfuse.observation.type'] === 'tool') return true;
  return attrs['gen_ai.operation.name'] === 'execute_tool' || attrs['ai.operationId'] === 'ai.toolCall' || attrs['openinference.span.kind'] === 'TOOL' || isToolSpanWithoutOperation(attrs);
}
