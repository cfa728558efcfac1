/**
 * Opening the files a command names on its command line (a report, an events file, an input),
 * so that a path guard cannot open fails before any work, as a usage error (exit 2).
 */

import { createReadStream, createWriteStream, type ReadStream, type WriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './errors.js';

/** Resolves once `stream` is open; rejects with a UsageError `${what}: ${reason}` otherwise. */
function opened<T extends ReadStream | WriteStream>(stream: T, what: string): Promise<T> {
  const events = stream as unknown as NodeJS.EventEmitter;
  return new Promise<T>((ok, fail) => {
    events.once('open', () => ok(stream));
    events.once('error', (e: Error) => fail(new UsageError(`${what}: ${e.message}`)));
  });
}

/**
 * A report or events file being written. A write that fails (a full disk, a pipe closed by its
 * reader) is kept, not thrown by the stream: {@link check} and {@link close} turn it into a
 * UsageError (exit 2), so a report that was not written never passes.
 */
export class OutputFile {
  private failure: Error | null = null;

  constructor(
    readonly stream: WriteStream,
    private readonly what: string,
  ) {
    stream.on('error', (e: Error) => (this.failure ??= e));
  }

  /** The first write error, whether or not the stream has emitted it yet. */
  private failed(): Error | null {
    return this.failure ?? this.stream.errored ?? null;
  }

  /** @throws UsageError naming the file and the error once a write has failed. */
  check(): void {
    const e = this.failed();
    if (e) throw new UsageError(`${this.what}: ${e.message}; the output is incomplete`);
  }

  /**
   * Ends the file and waits until everything written reached it.
   * @throws UsageError when a write failed (before or while closing).
   */
  async close(): Promise<void> {
    if (!this.failed() && !this.stream.destroyed) {
      await new Promise<void>((done) => {
        // the end callback gets a write error before the stream emits it
        this.stream.end((e?: Error | null) => {
          if (e) this.failure ??= e;
          done();
        });
      });
    }
    this.check();
  }
}

/**
 * Creates (or truncates) `path`, relative to `cwd`, for writing.
 *
 * @param flag the option that named it (`--output`, `--events`), for the message.
 * @throws UsageError when the file cannot be created.
 */
export async function openOutputFile(path: string, cwd: string, flag: string): Promise<OutputFile> {
  const what = `cannot write ${flag} ${path}`;
  return new OutputFile(await opened(createWriteStream(resolve(cwd, path)), what), what);
}

/**
 * Opens `path`, relative to `cwd`, for reading.
 *
 * @throws UsageError when the file cannot be opened.
 */
export function openInputFile(path: string, cwd: string): Promise<ReadStream> {
  return opened(createReadStream(resolve(cwd, path)), `cannot read ${path}`);
}
