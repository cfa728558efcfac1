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
 * Creates (or truncates) `path`, relative to `cwd`, for writing.
 *
 * @param flag the option that named it (`--output`, `--events`), for the message.
 * @throws UsageError when the file cannot be created.
 */
export function openOutputFile(path: string, cwd: string, flag: string): Promise<WriteStream> {
  return opened(createWriteStream(resolve(cwd, path)), `cannot write ${flag} ${path}`);
}

/**
 * Opens `path`, relative to `cwd`, for reading.
 *
 * @throws UsageError when the file cannot be opened.
 */
export function openInputFile(path: string, cwd: string): Promise<ReadStream> {
  return opened(createReadStream(resolve(cwd, path)), `cannot read ${path}`);
}
