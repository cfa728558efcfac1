/** Test helpers for the capture reader: run readCapture over a fixture or an in-memory input. */

import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { readCapture, type ReadOptions } from '../../src/capture/read.js';
import type { CaptureError, CaptureItem, Reply } from '../../src/capture/types.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/capture/', import.meta.url));

export interface ReadResult {
  items: CaptureItem[];
  replies: Reply[];
  errors: CaptureError[];
  end: Extract<CaptureItem, { kind: 'file-end' }>;
}

async function collect(gen: AsyncGenerator<CaptureItem>): Promise<ReadResult> {
  const items: CaptureItem[] = [];
  for await (const item of gen) items.push(item);
  const end = items[items.length - 1];
  if (!end || end.kind !== 'file-end') throw new Error('the reader did not end with file-end');
  return {
    items,
    replies: items.flatMap((i) => (i.kind === 'reply' ? [i.reply] : [])),
    errors: items.flatMap((i) => (i.kind === 'error' ? [i.error] : [])),
    end,
  };
}

/** Reads a fixture under fixtures/capture/ (the file name in items is the relative path). */
export function readFixture(rel: string, options?: ReadOptions): Promise<ReadResult> {
  return collect(readCapture(rel, createReadStream(FIXTURES + rel), options));
}

/** Reads in-memory content as file `name`. Strings are UTF-8 encoded; split into `chunk`-byte pieces. */
export function readText(content: string | Buffer, options?: ReadOptions, name = 'mem.jsonl', chunk = 7): Promise<ReadResult> {
  const buf = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const pieces: Buffer[] = [];
  for (let i = 0; i < buf.length; i += chunk) pieces.push(buf.subarray(i, i + chunk));
  return collect(readCapture(name, Readable.from(pieces), options));
}
