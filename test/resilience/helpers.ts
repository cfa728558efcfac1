/** Running the capture reader and both engines in process on bytes, for the resilience tests. */

import { Readable } from 'node:stream';
import { readCapture, type ReadOptions } from '../../src/capture/read.js';
import type { CaptureError } from '../../src/capture/types.js';
import { resolveEngines } from '../../src/cli/engines.js';
import { loadConfig } from '../../src/config/load.js';
import type { JudgeOptions, ReplyVerdict } from '../../src/verdict/judge.js';
import { judgeSafely } from '../../src/scan/scan.js';
import { ROOT } from '../cli/helpers.js';

let engines: Promise<JudgeOptions> | null = null;

/** The default engines (built once per test file). */
export function defaultEngines(): Promise<JudgeOptions> {
  engines ??= loadConfig(undefined, ROOT).then((config) => resolveEngines(config, {}));
  return engines;
}

export interface ScanResult {
  verdicts: ReplyVerdict[];
  errors: CaptureError[];
  /** file-end items seen (exactly one per read). */
  ends: number;
  /** Wall time of the read and the judging, ms. */
  ms: number;
}

/**
 * Reads `bytes` as the capture `file` (split into chunks at `cuts`, byte offsets, to exercise
 * chunk boundaries) and judges every reply with the default engines.
 */
export async function scanBytes(file: string, bytes: Buffer, cuts: number[] = [], read: ReadOptions = {}): Promise<ScanResult> {
  const judge = await defaultEngines();
  const chunks: Buffer[] = [];
  let from = 0;
  for (const cut of [...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b)) {
    chunks.push(bytes.subarray(from, cut));
    from = cut;
  }
  chunks.push(bytes.subarray(from));
  const start = performance.now();
  const out: ScanResult = { verdicts: [], errors: [], ends: 0, ms: 0 };
  for await (const item of readCapture(file, Readable.from(chunks), read)) {
    if (item.kind === 'reply') {
      const ev = judgeSafely(item.reply, judge);
      if (ev.kind === 'reply') out.verdicts.push(ev.verdict);
      else if (ev.kind === 'error') out.errors.push(ev.error);
    } else if (item.kind === 'error') out.errors.push(item.error);
    else out.ends++;
  }
  out.ms = performance.now() - start;
  return out;
}

/** Problems that concern the whole input and so carry no line (src/capture/read.ts). */
export const WHOLE_FILE_CODES: ReadonlySet<string> = new Set(['BINARY_FILE', 'COMPRESSED_FILE', 'EMPTY_FILE', 'UNKNOWN_FORMAT', 'UNREADABLE', 'INVALID_RECORD']);
