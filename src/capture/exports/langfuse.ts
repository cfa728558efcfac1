/**
 * Langfuse exports: a trace with its observations (`{trace, observations: [...]}`, as
 * `GET /api/public/traces/{id}` returns it), observation lists (`{data: [...], meta}` of
 * `GET /api/public/observations`), or observations one per line. A trace export document is read
 * one observation at a time (the registry's envelope `observations`, split by
 * src/capture/json-values.ts; the rest of the document, `trace`, is not kept).
 *
 * Schema: langfuse/langfuse `packages/shared/src/domain/observations.ts` at
 * 62751446149b702b419a9292ddfc2280cdf74b8c
 * (https://github.com/langfuse/langfuse/blob/62751446149b702b419a9292ddfc2280cdf74b8c/packages/shared/src/domain/observations.ts;
 * `ObservationType`: SPAN, EVENT, GENERATION, AGENT, TOOL, CHAIN, RETRIEVER, EVALUATOR, EMBEDDING,
 * GUARDRAIL) and the public API reference https://api.reference.langfuse.com. A `GENERATION` is a
 * model call; its `output` is in the shape of the framework that traced it (Anthropic content,
 * OpenTelemetry GenAI messages, AI SDK tool calls, OpenAI messages, text), read by ./messages.ts.
 * Frameworks that wrap a call in a parent generation that repeats its output (the AI SDK's
 * `ai.generateText` around `ai.generateText.doGenerate`) give one reply: a generation whose parent
 * or child generation has the same output is read once.
 *
 * A `TOOL` observation is a tool the traced application ran: its `name` (or the OpenTelemetry
 * attributes it was ingested with, `metadata.attributes` `gen_ai.tool.name` / `ai.toolCall.name`),
 * its `input` the arguments (else `gen_ai.tool.call.arguments` / `ai.toolCall.args`), its call id
 * from `gen_ai.tool.call.id` / `ai.toolCall.id` when the tracer recorded one; its `output` is the
 * tool's result, not read. Its call is inspected unless a generation of the same trace already
 * holds it (matched by call id, or without an id by name and arguments: ./executions.ts); then it
 * gives one reply of its own, with no text and that call. A TOOL observation without input is an
 * INVALID_RECORD warning and its call fails closed in inspection. TOOL observations are held until
 * the file's end (observations come in any order), at most MAX_REMEMBERED. Other observation
 * types hold no reply.
 */

import { captureError, isObject, str, type JsonObject, type RecordOutput } from '../bodies/common.js';
import { canonicalJson } from '../../base/json.js';
import type { CaptureError, Reply } from '../types.js';
import { ExecutedCalls, executionReply, type ToolExecution } from './executions.js';
import { advertisedFromList, emptyParts, maybeJson, readOutputValue } from './messages.js';

const OBSERVATION_TYPES = new Set(['SPAN', 'EVENT', 'GENERATION', 'AGENT', 'TOOL', 'CHAIN', 'RETRIEVER', 'EVALUATOR', 'EMBEDDING', 'GUARDRAIL']);

/** True for one Langfuse observation: string `id` and `traceId`, and an observation `type` (upper case in the API; the SDKs' `as_type` writes it in lower case). */
export function isLangfuseObservation(v: unknown): v is JsonObject {
  return isObject(v) && typeof v['id'] === 'string' && typeof v['traceId'] === 'string' && typeof v['type'] === 'string' && OBSERVATION_TYPES.has(v['type'].toUpperCase());
}

/** True for a Langfuse export document: `{trace, observations: [...]}` or `{data: [observations], meta}`. */
export function isLangfuseExport(v: unknown): v is JsonObject {
  if (!isObject(v)) return false;
  if (Array.isArray(v['observations']) && (isObject(v['trace']) || v['observations'].some(isLangfuseObservation))) return true;
  return Array.isArray(v['data']) && isObject(v['meta']) && v['data'].length > 0 && v['data'].every(isLangfuseObservation);
}

/** Most generations remembered for the repeated-output check (a bounded map per file). */
const MAX_REMEMBERED = 100_000;

/** Observation types that wrap generations and may record their output (ObservationType). */
const WRAPPER_TYPES: ReadonlySet<string> = new Set(['AGENT', 'CHAIN', 'SPAN', 'EVENT']);

/** Reads Langfuse observations; one reply per GENERATION (wrappers that repeat a child's output once). */
export class LangfuseReader {
  /** Generations read: id → output fingerprint, and parent id → fingerprints of its children. */
  private readonly outputs = new Map<string, string>();
  private readonly children = new Map<string, Set<string>>();
  /** Traces holding a generation, and wrapper observations (agents, chains) whose output holds tool calls. */
  private readonly generationTraces = new Set<string>();
  private readonly held: Array<{ o: JsonObject; line: number }> = [];
  /** The calls of the generations read, and TOOL observations none of them held yet (read at the file's end). */
  private readonly executed = new ExecutedCalls();
  private readonly heldTools: Array<{ exec: ToolExecution; line: number; id: string; name: string }> = [];

  constructor(private readonly file: string) {}

  push(value: unknown, line: number): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    if (isLangfuseExport(value)) {
      const list = Array.isArray(value['observations']) ? value['observations'] : (value['data'] as unknown[]);
      list.forEach((o, index) => {
        if (isLangfuseObservation(o)) this.observation(o, line, out);
        else out.errors.push(this.notObservation(index, line));
      });
      return out;
    }
    this.observation(value as JsonObject, line, out);
    return out;
  }

  /** One element of an export's `observations`, handed over by the document splitter (the registry's envelope). */
  element(_key: string, index: number, value: unknown, line: number): RecordOutput {
    if (isLangfuseObservation(value)) return this.push(value, line);
    return { replies: [], errors: [this.notObservation(index, line)] };
  }

  private notObservation(index: number, line: number): CaptureError {
    return captureError(this.file, line, 'INVALID_RECORD', `element ${index} of the export's observations is not a Langfuse observation ({id, traceId, type}); skipped`);
  }

  finish(): RecordOutput {
    const out: RecordOutput = { replies: [], errors: [] };
    for (const { o, line } of this.held.splice(0)) if (!this.generationTraces.has(String(o['traceId']))) this.generation(o, line, out);
    // a TOOL observation whose call no generation of its trace holds is the only record of it
    for (const t of this.heldTools.splice(0)) if (!this.executed.repeats(t.exec)) this.toolReply(t, out);
    return out;
  }

  /** A TOOL observation: its call is inspected unless a generation of its trace holds it (./executions.ts). */
  private tool(o: JsonObject, line: number, out: RecordOutput): void {
    const meta = isObject(maybeJson(o['metadata'])) ? (maybeJson(o['metadata']) as JsonObject) : {};
    const attrs = isObject(meta['attributes']) ? meta['attributes'] : {};
    const input = o['input'];
    const exec: ToolExecution = {
      trace: String(o['traceId']),
      id: str(attrs['gen_ai.tool.call.id']) || str(attrs['ai.toolCall.id']) || null,
      name: str(attrs['gen_ai.tool.name']) ?? str(attrs['ai.toolCall.name']) ?? str(o['name']) ?? '',
      // pydantic-ai records the arguments as `tool_arguments`
      args: input !== undefined && input !== null ? input : (attrs['gen_ai.tool.call.arguments'] ?? attrs['ai.toolCall.args'] ?? attrs['tool_arguments']),
    };
    if (this.executed.repeats(exec)) return;
    const held = { exec, line, id: o['id'] as string, name: str(o['name']) ?? (o['id'] as string) };
    if (this.heldTools.length < MAX_REMEMBERED) this.heldTools.push(held);
    else this.toolReply(held, out); // too many to hold: inspected now (counted twice at worst, never missed)
  }

  private toolReply(t: { exec: ToolExecution; line: number; id: string; name: string }, out: RecordOutput): void {
    const o = executionReply(t.exec, { file: this.file, line: t.line, format: 'langfuse', id: t.id }, `TOOL observation ${JSON.stringify(t.name)}`);
    out.replies.push(...o.replies);
    out.errors.push(...o.errors);
  }

  private observation(o: JsonObject, line: number, out: RecordOutput): void {
    const type = String(o['type']).toUpperCase();
    if (type === 'TOOL') return this.tool(o, line, out);
    if (type !== 'GENERATION') {
      // an agent or chain whose output holds tool calls repeats its generations' output; it is
      // the only record of them when its trace holds no generation (read at the end of the file)
      if (WRAPPER_TYPES.has(type) && this.held.length < MAX_REMEMBERED) {
        const parts = emptyParts();
        readOutputValue(maybeJson(o['output']), parts);
        if (parts.calls.length > 0) this.held.push({ o, line });
      }
      return;
    }
    if (this.generationTraces.size < MAX_REMEMBERED) this.generationTraces.add(String(o['traceId']));
    this.generation(o, line, out);
  }

  /** Reads a generation (or a wrapper standing in for its trace's missing generations). */
  private generation(o: JsonObject, line: number, out: RecordOutput): void {
    const name = str(o['name']) ?? (o['id'] as string);
    const output = maybeJson(o['output']);
    if (output === null || output === undefined) {
      const failed = o['level'] === 'ERROR';
      out.errors.push(
        failed
          ? captureError(this.file, line, 'STREAM_ERROR', `generation ${JSON.stringify(name)} failed: ${str(o['statusMessage']) ?? 'no status message'}; it holds no reply`, 'warning')
          : captureError(this.file, line, 'INVALID_RECORD', `generation ${JSON.stringify(name)} records no output; nothing to judge`, 'warning'),
      );
      return;
    }
    const id = o['id'] as string;
    let key: string;
    try {
      key = canonicalJson(output);
    } catch {
      key = `\u0000${id}`; // nested too deep to compare: never taken for a repeat
    }
    const parent = str(o['parentObservationId']);
    const repeated = (parent !== undefined && this.outputs.get(parent) === key) || this.children.get(id)?.has(key) === true;
    if (this.outputs.size < MAX_REMEMBERED) {
      this.outputs.set(id, key);
      if (parent !== undefined) {
        if (!this.children.has(parent)) this.children.set(parent, new Set());
        this.children.get(parent)!.add(key);
      }
    }
    if (repeated) return;
    const parts = emptyParts();
    readOutputValue(output, parts);
    if (!parts.found) {
      out.errors.push(captureError(this.file, line, 'UNKNOWN_FORMAT', `the output of generation ${JSON.stringify(name)} is in no shape guard reads; not read`));
      return;
    }
    if (parts.skipped.size > 0) out.errors.push(captureError(this.file, line, 'INVALID_RECORD', `output parts of type ${[...parts.skipped].map((t) => JSON.stringify(t)).join(', ')} in generation ${JSON.stringify(name)} were not read: what they hold (a call, its arguments) is not judged`));
    const meta = isObject(maybeJson(o['metadata'])) ? (maybeJson(o['metadata']) as JsonObject) : {};
    const attrs = isObject(meta['attributes']) ? meta['attributes'] : {};
    const advertised = advertisedFromList(o['toolDefinitions']) ?? advertisedFromList(meta['tools']) ?? advertisedFromList(attrs['gen_ai.tool.definitions']) ?? null;
    const reply: Reply = {
      source: { file: this.file, line },
      format: 'langfuse',
      id,
      advertised: advertised && advertised.length > 0 ? advertised : null,
      text: parts.text.text,
      ...parts.text.breakField,
      reasoning: parts.reasoning.join(''),
      toolCalls: parts.calls,
      truncated: parts.finishReason === 'length' || parts.finishReason === 'max_tokens',
    };
    const model = str(o['model']);
    if (model) reply.model = model;
    if (parts.finishReason) reply.finishReason = parts.finishReason;
    out.replies.push(reply);
    this.executed.record(String(o['traceId']), parts.calls);
  }
}
