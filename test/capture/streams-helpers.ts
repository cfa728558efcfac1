/**
 * Test helpers for the stream readers: read a fixture through readSseLines, or feed a
 * JSONL-of-payloads fixture (`*.chunks.jsonl`) through createStreamAccumulator.
 */

import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readLines } from '../../src/capture/lines.js';
import { readSseLines } from '../../src/capture/sse.js';
import {
  CHUNKS_FORMAT,
  createStreamAccumulator,
  sniffStreamPayload,
  type CaptureStreamApi,
  type StreamAccumulator,
  type StreamApi,
  type StreamOutput,
} from '../../src/capture/streams/index.js';
import type { CaptureError, CaptureFormat, CaptureItem, Reply } from '../../src/capture/types.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/capture/', import.meta.url));
/** Deliberately broken inputs (truncated streams, bad JSON) live apart, so `guard scan fixtures/capture` stays a clean demo. */
export const BAD_INPUT = fileURLToPath(new URL('../../fixtures/bad-input/', import.meta.url));

/** `name` in fixtures/capture/<kind>/, or `bad-input:<name>` in fixtures/bad-input/<kind>/. */
function fixturePath(kind: 'sse' | 'chunks', name: string): string {
  return name.startsWith('bad-input:') ? `${BAD_INPUT}${kind}/${name.slice('bad-input:'.length)}` : `${FIXTURES}${kind}/${name}`;
}

/** Reads `fixtures/capture/sse/<name>` with readSseLines; keeps the item order too. */
export async function readSseFixture(name: string): Promise<{ items: CaptureItem[]; replies: Reply[]; errors: CaptureError[] }> {
  const file = fixturePath('sse', name);
  const items: CaptureItem[] = [];
  for await (const item of readSseLines(readLines(createReadStream(file)), { file, advertised: null })) items.push(item);
  return {
    items,
    replies: items.flatMap((i) => (i.kind === 'reply' ? [i.reply] : [])),
    errors: items.flatMap((i) => (i.kind === 'error' ? [i.error] : [])),
  };
}

/** Appends one accumulator step's replies and errors to `out`. */
function collect(out: StreamOutput, step: StreamOutput): void {
  out.replies.push(...step.replies);
  out.errors.push(...step.errors);
}

/**
 * Feeds in-memory payloads to a fresh accumulator of `api` (line = position + 1) and returns
 * everything its pushes and its finish() gave.
 */
export function feedPayloads(
  api: CaptureStreamApi,
  format: CaptureFormat,
  payloads: unknown[],
  advertised: { name: string }[] | null = null,
  file = 'payloads.jsonl',
): StreamOutput {
  const acc = createStreamAccumulator(api, { file, format, advertised });
  const out: StreamOutput = { replies: [], errors: [] };
  payloads.forEach((p, i) => collect(out, acc.push(p, undefined, i + 1)));
  collect(out, acc.finish());
  return out;
}

/** Feeds `fixtures/capture/chunks/<name>` line by line (API sniffed from the first payload). */
export async function readChunksFixture(name: string): Promise<StreamOutput> {
  const file = fixturePath('chunks', name);
  const out: StreamOutput = { replies: [], errors: [] };
  let acc: StreamAccumulator | null = null;
  for await (const l of readLines(createReadStream(file))) {
    if (l.text.trim() === '') continue;
    const payload: unknown = JSON.parse(l.text);
    if (!acc) {
      const api = sniffStreamPayload(payload);
      if (!api) throw new Error(`${name}:${l.line}: first payload not recognised`);
      acc = createStreamAccumulator(api, { file, format: CHUNKS_FORMAT[api], advertised: null });
    }
    collect(out, acc.push(payload, undefined, l.line));
  }
  if (acc) collect(out, acc.finish());
  return out;
}

/** The parts of a tool call the tests compare. */
export function callSummary(r: Reply): { id: string | null; name: string; kind: string; argumentsRaw: string }[] {
  return r.toolCalls.map((c) => ({ id: c.id, name: c.name, kind: c.kind, argumentsRaw: c.argumentsRaw }));
}
