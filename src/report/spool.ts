/**
 * Bounded-memory helpers of the document reports (JSON, SARIF): a {@link Spool} keeps records that
 * must be written after others (the `errors` of a JSON report after its `results`, SARIF's
 * notifications after its results) in memory up to a bound and in a private temporary file beyond
 * it, and replays them in order; {@link jsonAt} formats a value as `JSON.stringify(v, null, 2)`
 * would inside a document, at a given depth, so a streamed document reads like a whole one.
 */

import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { wellFormedJson } from '../base/json.js';

/** Characters a spool holds in memory before it moves to a temporary file: 1 Mi. */
export const SPOOL_MEMORY_CHARS = 1024 * 1024;

/** Bytes read back from a spool file at a time, and characters written between pauses. */
const CHUNK = 256 * 1024;

/** Waits until the destination wants more (the stream's drain); the reporters' writes are synchronous. */
export type Pause = () => Promise<void>;

/** `value` as `JSON.stringify(value, null, 2)`, every line after the first indented by `depth` levels. */
export function jsonAt(value: unknown, depth: number): string {
  const text = wellFormedJson(value, 2); // a lone surrogate written as U+FFFD (base/json.ts)
  return depth === 0 ? text : text.replace(/\n/g, `\n${'  '.repeat(depth)}`);
}

/** Strings kept in order, in memory up to a bound, then in a temporary file (mode 0600 in a 0700 folder). */
export class Spool {
  private parts: string[] = [];
  private chars = 0;
  private dir: string | null = null;
  private fd: number | null = null;
  private count = 0;

  constructor(private readonly memoryChars = SPOOL_MEMORY_CHARS) {}

  /** How many strings were added. */
  get size(): number {
    return this.count;
  }

  /** True once the spool moved to a file (for tests). */
  get onDisk(): boolean {
    return this.fd !== null;
  }

  add(s: string): void {
    this.count++;
    if (this.fd === null && this.chars + s.length <= this.memoryChars) {
      this.parts.push(s);
      this.chars += s.length;
      return;
    }
    if (this.fd === null) {
      this.dir = mkdtempSync(join(tmpdir(), 'guard-report-'));
      this.fd = openSync(join(this.dir, 'spool'), 'w+', 0o600);
      for (const part of this.parts) writeSync(this.fd, part);
      this.parts = [];
      this.chars = 0;
    }
    writeSync(this.fd, s);
  }

  /** Writes every string in order through `write`, pausing between chunks; then frees the spool. */
  async drain(write: (s: string) => void, pause: Pause): Promise<void> {
    try {
      if (this.fd === null) {
        let since = 0;
        for (const part of this.parts) {
          write(part);
          since += part.length;
          if (since >= CHUNK) {
            since = 0;
            await pause();
          }
        }
        return;
      }
      const decoder = new StringDecoder('utf8');
      const buf = Buffer.alloc(CHUNK);
      for (let pos = 0; ; ) {
        const n = readSync(this.fd, buf, 0, CHUNK, pos);
        if (n === 0) break;
        pos += n;
        write(decoder.write(buf.subarray(0, n)));
        await pause();
      }
      const rest = decoder.end();
      if (rest) write(rest);
    } finally {
      this.dispose();
    }
  }

  /** Removes the temporary file, if any. */
  dispose(): void {
    this.parts = [];
    this.chars = 0;
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        // already closed
      }
      this.fd = null;
    }
    if (this.dir !== null) {
      rmSync(this.dir, { recursive: true, force: true });
      this.dir = null;
    }
  }
}

/** A pause that does not wait (tests, and writers into memory). */
export const NO_PAUSE: Pause = () => Promise.resolve();
