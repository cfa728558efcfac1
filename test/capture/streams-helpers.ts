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
  type StreamAccumulator,
  type StreamOutput,
} from '../../src/capture/streams/index.js';
import type { CaptureError, CaptureItem, Reply } from '../../src/capture/types.js';

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
    const step = acc.push(payload, undefined, l.line);
    out.replies.push(...step.replies);
    out.errors.push(...step.errors);
  }
  if (acc) {
    const end = acc.finish();
    out.replies.push(...end.replies);
    out.errors.push(...end.errors);
  }
  return out;
}

/** The parts of a tool call the tests compare. */
export function callSummary(r: Reply): { id: string | null; name: string; kind: string; argumentsRaw: string }[] {
  return r.toolCalls.map((c) => ({ id: c.id, name: c.name, kind: c.kind, argumentsRaw: c.argumentsRaw }));
}
