/**
 * Opening the files a command names on its command line (a report, an events file, an input),
 * so that a path guard cannot open fails before any work, as a usage error (exit 2).
 */

import { createReadStream, createWriteStream, fstatSync, renameSync, statSync, unlinkSync, type ReadStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
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

  /**
   * @param commit when the stream writes a temporary file: moves it to its destination (after a
   *   successful close) or removes it (`ok` false).
   */
  constructor(
    readonly stream: WriteStream,
    private readonly what: string,
    private readonly commit: ((ok: boolean) => void) | null = null,
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
   * Waits until the stream asks for more writes (its `drain`).
   * @throws UsageError when a write failed meanwhile (`once` would reject with the bare error).
   */
  async drained(): Promise<void> {
    if (!this.failed()) await once(this.stream, 'drain').catch(() => undefined);
    this.check();
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
    if (this.commit) {
      const ok = !this.failed();
      try {
        this.commit(ok);
      } catch (e) {
        this.failure ??= e as Error;
      }
    }
    this.check();
  }
}

/** Temporary files being written, removed if the process ends before they are moved into place. */
const pendingTemps = new Set<string>();
let exitHook = false;

/** A temporary file beside `dest` (same folder, so a rename is atomic), created new (O_EXCL). */
function tempPathFor(dest: string): string {
  return join(dirname(dest), `.${basename(dest)}.guard-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

function forget(temp: string): void {
  pendingTemps.delete(temp);
  try {
    unlinkSync(temp);
  } catch {
    // already gone
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
  const abs = resolve(cwd, path);
  let existing: ReturnType<typeof statSync> | null = null;
  try {
    existing = statSync(abs);
  } catch {
    existing = null;
  }
  // a device or a pipe (`-o /dev/stderr`) is written in place: nothing of an input can be replaced there
  if (existing !== null && !existing.isFile()) return new OutputFile(await opened(createWriteStream(abs), what), what);
  // a file is written beside its destination and renamed over it at the end: a rename replaces the
  // directory entry (a link included, which is never followed), never an inode, so swapping the
  // destination for a link to an input (a race between the overwrite check and the open) cannot
  // make guard write into the input
  const dest = abs;
  const temp = tempPathFor(dest);
  const stream = await opened(createWriteStream(temp, { flags: 'wx' }), what);
  pendingTemps.add(temp);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const t of pendingTemps) forget(t);
    });
  }
  return new OutputFile(stream, what, (ok) => {
    if (!ok) return forget(temp);
    renameSync(temp, dest);
    pendingTemps.delete(temp);
  });
}

/**
 * Writes `text` to `path` (relative to `cwd`) through a temporary file renamed into place, so the
 * file is whole or unchanged, and a link swapped in at `path` is replaced, never followed.
 *
 * @throws the file system's error (the temporary file is removed).
 */
export function writeFileAtomically(path: string, cwd: string, text: string): Promise<void> {
  const abs = resolve(cwd, path);
  const temp = tempPathFor(abs);
  return new Promise<void>((ok, fail) => {
    const stream = createWriteStream(temp, { flags: 'wx' });
    stream.on('error', (e) => {
      forget(temp);
      fail(e);
    });
    stream.end(text, () => {
      try {
        renameSync(temp, abs);
        ok();
      } catch (e) {
        forget(temp);
        fail(e as Error);
      }
    });
  });
}

/**
 * Opens `path`, relative to `cwd`, for reading.
 *
 * @throws UsageError when the file cannot be opened, or is a directory.
 */
export async function openInputFile(path: string, cwd: string): Promise<ReadStream> {
  const stream = await opened(createReadStream(resolve(cwd, path)), `cannot read ${path}`);
  // a directory opens on Linux and fails only at its first read (EISDIR), as an internal error
  let directory = false;
  try {
    const fd = (stream as unknown as { fd?: unknown }).fd;
    directory = typeof fd === 'number' && fstatSync(fd).isDirectory();
  } catch {
    // fstat failed: the read reports it
  }
  if (directory) {
    stream.destroy();
    throw new UsageError(`cannot read ${path}: it is a directory`);
  }
  return stream;
}

/** Device and inode of a path, or null when it does not exist. */
function identity(path: string): string | null {
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}

/** Device and inode of the regular file behind a stream's descriptor (stdin redirected from a file), or null. */
function streamIdentity(stream: object): string | null {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return null;
  try {
    const st = fstatSync(fd);
    return st.isFile() ? `${st.dev}:${st.ino}` : null;
  } catch {
    return null;
  }
}

/**
 * Refuses an output file that is a file the command reads: one of its inputs (`-` is `stdin`,
 * when stdin is redirected from a file), or one of `others` (the configuration, a baseline), by
 * the same path or the same file through a link. Call it before the output is opened (opening
 * empties it).
 *
 * @param output the output path as given; `cwd` resolves it and the inputs.
 * @param inputs the expanded input paths (`-` for stdin).
 * @param stdin the stream `-` reads (its `fd`, when it has one, names the file behind it).
 * @param others other files read, each with what it is for the message (`path` null when none).
 * @param command what is running, for the message (`scan`, `baseline`).
 * @param flag the option that names the output, for the message (`--output`, `--cache-location`).
 * @throws UsageError naming the file.
 */
export function refuseOverwrite(
  output: string,
  cwd: string,
  inputs: readonly string[],
  stdin: object,
  others: ReadonlyArray<{ what: string; path: string | null }>,
  command: string,
  flag = '--output',
): void {
  const out = resolve(cwd, output);
  const outId = identity(out);
  const same = (path: string) => {
    const abs = resolve(cwd, path);
    return abs === out || (outId !== null && identity(abs) === outId);
  };
  for (const other of others) {
    if (other.path !== null && same(other.path)) throw new UsageError(`${flag} ${output} is the ${other.what} of this ${command} (${other.path}); refusing to overwrite it`);
  }
  for (const input of inputs) {
    if (input !== '-' && same(input)) throw new UsageError(`${flag} ${output} is an input of this ${command} (${input}); refusing to overwrite it`);
    // `guard scan - -o x.jsonl < x.jsonl`: the file would be emptied before stdin is read
    if (input === '-' && outId !== null && streamIdentity(stdin) === outId) throw new UsageError(`${flag} ${output} is the file read on stdin; refusing to overwrite it`);
  }
}

