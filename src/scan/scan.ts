/**
 * Scanning inputs end to end: expand the path arguments, read each capture as a stream, judge
 * every reply as soon as it is read, and pass problems through in input order.
 */

import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { expandInputs } from '../capture/files.js';
import { readCapture, type ReadOptions } from '../capture/read.js';
import type { CaptureError, CaptureFormat } from '../capture/types.js';
import { judgeReply, type JudgeOptions, type ReplyVerdict } from './judge.js';

/** What {@link scanInputs} yields, in input order. */
export type ScanEvent =
  | { kind: 'reply'; verdict: ReplyVerdict }
  | { kind: 'error'; error: CaptureError }
  | { kind: 'file-end'; file: string; formats: CaptureFormat[]; replies: number; errors: number };

export interface ScanOptions {
  judge: JudgeOptions;
  read?: ReadOptions;
  /** Where `-` reads from. */
  stdin: Readable;
  /** Base for relative paths and globs. */
  cwd: string;
}

/**
 * Scans the captures named by `args` (files, directories, globs, `-` for stdin).
 *
 * @returns an async stream of events; a reply's verdict is yielded as soon as the reader has it,
 *   so memory stays bounded by the largest single reply.
 */
export async function* scanInputs(args: string[], options: ScanOptions): AsyncGenerator<ScanEvent> {
  const { inputs, errors } = await expandInputs(args, options.cwd);
  for (const error of errors) yield { kind: 'error', error };
  for (const file of inputs) {
    const input: Readable = file === '-' ? options.stdin : createReadStream(resolve(options.cwd, file));
    for await (const item of readCapture(file, input, options.read)) {
      if (item.kind === 'reply') yield { kind: 'reply', verdict: judgeReply(item.reply, options.judge) };
      else if (item.kind === 'error') yield { kind: 'error', error: item.error };
      else yield item;
    }
  }
}
