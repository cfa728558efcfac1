/**
 * Scanning inputs end to end: expand the path arguments, read each capture as a stream, judge
 * every reply as soon as it is read, and pass problems through in input order.
 */

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { expandInputs } from '../capture/files.js';
import { readCaptureBatches, type ReadOptions } from '../capture/read.js';
import type { CaptureError, CaptureFormat, Reply } from '../capture/types.js';
import { hasLoneSurrogate } from '../base/json.js';
import { duplicatedKeys } from '../verdict/judge.js';
import { judgeReply, type JudgeOptions, type ReplyVerdict } from '../verdict/judge.js';

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
  /**
   * Told the bytes read so far of a file (cumulative, after each chunk of replies), for progress;
   * files read by worker threads report through the same hook (src/scan/parallel.ts).
   */
  onRead?: (file: string, bytes: number) => void;
}

/**
 * Judges one reply; a failure of guard's own code on it (a bug, or an input that exhausts the
 * stack) becomes an INTERNAL_ERROR naming the reply's file and line, and the scan goes on.
 */
export function judgeSafely(reply: Reply, options: JudgeOptions): ScanEvent {
  try {
    return { kind: 'reply', verdict: judgeReply(reply, options) };
  } catch (e) {
    return { kind: 'error', error: internalError(reply.source.file, reply.source.line, e) };
  }
}

/**
 * The LONE_SURROGATE note of a reply whose strings (text, reasoning, model, tool-call ids, names,
 * argument values and keys) hold a UTF-16 surrogate with no partner, as a `\ud800` escape in JSON
 * text decodes to: guard reads it, but writes it as U+FFFD in every report (base/json.ts
 * wellFormedJson), so the report is not the capture byte for byte there (`arguments_raw` too: a
 * JSON report must be valid UTF-8); the capture holds the original. Null when every string is
 * well-formed.
 */
export function loneSurrogateNote(reply: Reply): CaptureError | null {
  const calls = reply.toolCalls.map((c) => [c.id, c.name, c.arguments]);
  if (!hasLoneSurrogate([reply.text, reply.reasoning, reply.model ?? '', calls])) return null;
  return {
    file: reply.source.file,
    line: reply.source.line,
    code: 'LONE_SURROGATE',
    message: 'a string of this reply holds a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape); it is read, and written as U+FFFD in the report (JSON output must be valid UTF-8; the capture itself holds the original)',
    severity: 'warning',
  };
}

/**
 * The DUPLICATE_KEY note of a reply whose tool-call arguments, as sent, hold a top-level key more
 * than once (`{"command":"rm -rf /","command":"ls"}`): guard reads the last value, as JSON.parse
 * does, and inspection also judges the first (inspection/readings.ts), but a dispatcher may run
 * either, so the capture is ambiguous and said so, naming each call and key. Null when no call's
 * arguments repeat a key.
 */
export function duplicateKeyNote(reply: Reply): CaptureError | null {
  const parts: string[] = [];
  for (const c of reply.toolCalls) {
    const keys = c.argumentsRaw === null ? [] : duplicatedKeys(c.argumentsRaw);
    if (keys.length > 0) parts.push(`${c.name}${c.id ? ` (call ${c.id})` : ''}: ${keys.map((k) => JSON.stringify(k)).join(', ')}`);
  }
  if (parts.length === 0) return null;
  return {
    file: reply.source.file,
    line: reply.source.line,
    code: 'DUPLICATE_KEY',
    message: `tool-call arguments repeat a key, so a dispatcher may read either value (guard reads the last and inspects both): ${parts.join('; ')}`,
    severity: 'warning',
  };
}

/** The events of one reply, in order: its LONE_SURROGATE and DUPLICATE_KEY notes (if any), then its verdict. */
export function replyEvents(reply: Reply, options: JudgeOptions): ScanEvent[] {
  const notes = [loneSurrogateNote(reply), duplicateKeyNote(reply)].filter((n): n is CaptureError => n !== null);
  const verdict = judgeSafely(reply, options);
  return [...notes.map((error): ScanEvent => ({ kind: 'error', error })), verdict];
}

/**
 * The event with the texts (`text`, `reasoning`) of a reply that has no finding dropped, when
 * `slim`: no report reads them, and they are most of the bytes a worker clones and the scan cache
 * stores (src/scan/worker-protocol.ts WorkerSetup.slim, src/scan/cache.ts). A reply keeps them
 * when recovery found markup (outcome other than `none`), when markup was left beside structured
 * calls (that finding's fingerprint and the text report's excerpt read the text), or when a rule
 * hit (the HTML report shows the text of every reply with a finding). Any other event is returned
 * as it is.
 */
export function slimmed(ev: ScanEvent, slim = true): ScanEvent {
  if (!slim || ev.kind !== 'reply') return ev;
  const v = ev.verdict;
  if (v.recovery.outcome !== 'none' || v.recovery.besideStructured === true || v.inspection.hits.length > 0) return ev;
  return { kind: 'reply', verdict: { ...ev.verdict, reply: { ...ev.verdict.reply, text: '', reasoning: '' } } };
}

/** An INTERNAL_ERROR problem: guard failed on this record; the message names what failed. */
export function internalError(file: string, line: number | null, e: unknown): CaptureError {
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return { file, line, code: 'INTERNAL_ERROR', message: `guard failed on this record (${what}); please report it`, severity: 'error' };
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
  for (const file of inputs) yield* scanFile(file, options);
}

/**
 * Reads and judges one capture in this thread: every reply's verdict and every problem in input
 * order, then the file's `file-end`.
 *
 * @param file a path (relative to `options.cwd`) or `-` for `options.stdin`.
 */
export async function* scanFile(file: string, options: ScanOptions): AsyncGenerator<ScanEvent> {
  const abs = file === '-' ? '' : resolve(options.cwd, file);
  const input: Readable = file === '-' ? options.stdin : createReadStream(abs, { highWaterMark: await readChunkBytes(abs) });
  const bytesRead = (): number => (input as { bytesRead?: number }).bytesRead ?? 0;
  for await (const batch of readCaptureBatches(file, input, options.read)) {
    options.onRead?.(file, bytesRead());
    for (const item of batch) {
      if (item.kind === 'reply') yield* replyEvents(item.reply, options.judge);
      else if (item.kind === 'error') yield { kind: 'error', error: item.error };
      else yield item;
    }
  }
}

/**
 * Bytes read from a capture file at a time (the stream's chunk size): large enough that reading
 * costs few async steps, small enough that one chunk's replies are little memory.
 */
export const READ_CHUNK_BYTES = 256 * 1024;

/** The smallest chunk size {@link readChunkBytes} gives. */
export const MIN_READ_CHUNK_BYTES = 16 * 1024;

/**
 * The chunk size for reading a file: {@link READ_CHUNK_BYTES}, or for a smaller file its size and
 * one byte (at least {@link MIN_READ_CHUNK_BYTES}). A read stream allocates a buffer of its chunk
 * size for every read, outside V8's heap: 256 KiB for each of 10 000 files of 2 KB was 2.5 GB of
 * allocations, and the garbage collections they set off were a fifth of such a scan's time. Only
 * the chunk size depends on the size seen here: a file that grows meanwhile is read to its end.
 */
export async function readChunkBytes(abs: string): Promise<number> {
  const size = await stat(abs).then((s) => (s.isFile() ? s.size : READ_CHUNK_BYTES), () => READ_CHUNK_BYTES);
  return Math.min(READ_CHUNK_BYTES, Math.max(MIN_READ_CHUNK_BYTES, size + 1));
}
