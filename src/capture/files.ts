/**
 * Expanding the CLI's path arguments into the list of captures to read.
 */

import type { Dirent, Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type FastGlob from 'fast-glob';
import { captureError } from './bodies/common.js';
import { CAPTURE_FILE_NAMES } from './formats.js';
import type { CaptureError } from './types.js';

/**
 * fast-glob, loaded when an argument is neither a file nor a directory (the only case that can be
 * a pattern): its ~60 ms of module loading is not paid by scans of paths, such as cached rescans.
 */
function fastGlob(): typeof FastGlob {
  return createRequire(import.meta.url)('fast-glob') as typeof FastGlob;
}

/**
 * File extensions read when walking a directory (explicit file arguments and glob matches are
 * read whatever their extension): JSON Lines, JSON, SSE bodies, and the `.txt` / `.log` names
 * captures are often saved under; HTTP Archives (`.har`) and raw AWS event stream bodies
 * (`.eventstream`, Bedrock's binary streams). Files named as a registered format's usual names
 * ({@link CAPTURE_FILE_NAMES}: `*.traj`, `.aider.chat.history.md`, …) are taken too, and any of
 * these compressed with gzip (`x.jsonl.gz`: read through zlib).
 */
export const CAPTURE_EXTENSIONS: readonly string[] = [
  '.jsonl', '.ndjson', '.json', '.sse', '.txt', '.log',
  '.har', '.eventstream',
];

/** A basename pattern of the registry (`*` any run of characters) as a case-insensitive regular expression. */
function namePattern(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i');
}

const FORMAT_NAMES = CAPTURE_FILE_NAMES.map(namePattern);
/** The dot-file names a format is kept under by design (`.aider.chat.history.md`): walked although dot-entries are skipped. */
const FORMAT_DOT_FILES = CAPTURE_FILE_NAMES.filter((n) => n.startsWith('.')).map(namePattern);

/**
 * The file-system calls {@link expandInputs} makes (promise forms of `fs.stat` — which follows
 * symbolic links —, `fs.readdir` with `withFileTypes`, and `fs.realpath`). Tests pass one that
 * fails on chosen paths.
 */
export interface InputFs {
  stat(path: string): Promise<Stats>;
  readdir(path: string): Promise<Dirent[]>;
  realpath(path: string): Promise<string>;
}

/** The real file system. */
export const NODE_INPUT_FS: InputFs = {
  stat: (path) => stat(path),
  readdir: (path) => readdir(path, { withFileTypes: true }),
  realpath: (path) => realpath(path),
};

/** Byte-order comparison (locale independent, so the order is the same on every machine). */
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const hasCaptureExtension = (name0: string): boolean => {
  // a gzip-compressed capture (`x.jsonl.gz`) is taken by the name under the `.gz`
  const name = /\.gz$/i.test(name0) ? name0.slice(0, -3) : name0;
  const lower = name.toLowerCase();
  return CAPTURE_EXTENSIONS.some((ext) => lower.endsWith(ext)) || FORMAT_NAMES.some((re) => re.test(name));
};

/** A dot-entry a directory walk still takes: a file named as a format's dot-file name. */
const isFormatDotFile = (name: string): boolean => FORMAT_DOT_FILES.some((re) => re.test(name));

const reason = (e: unknown): string => {
  const err = e as NodeJS.ErrnoException;
  return err?.code && !String(err.message).startsWith(err.code) ? `${err.code}: ${err.message}` : String(err?.message ?? err);
};

/** One directory walk: where files and errors go, and the real directories already walked. */
interface Walk {
  fs: InputFs;
  files: string[];
  errors: CaptureError[];
  /** Real paths of the directories walked: a symbolic-link loop or a second link is not walked again. */
  walked: Set<string>;
}

/**
 * Appends the capture files under directory `shown` (the path as the user sees it; `abs` is the
 * same directory absolute) to `w.files`, sorted by name, skipping `node_modules` and dot-entries,
 * following symbolic links. Each entry that cannot be read is one UNREADABLE error naming it;
 * its siblings are still walked.
 */
async function walk(shown: string, abs: string, w: Walk): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await w.fs.readdir(abs);
  } catch (e) {
    w.errors.push(captureError(shown, null, 'UNREADABLE', `cannot read directory ${shown}: ${reason(e)}`));
    return;
  }
  entries.sort((a, b) => byCodeUnit(a.name, b.name));
  for (const entry of entries) {
    if (entry.name === 'node_modules' || (entry.name.startsWith('.') && !(isFormatDotFile(entry.name) && !entry.isDirectory()))) continue;
    const path = join(shown, entry.name);
    const target = join(abs, entry.name);
    let isDirectory = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      try {
        const info = await w.fs.stat(target);
        isDirectory = info.isDirectory();
        isFile = info.isFile();
      } catch (e) {
        w.errors.push(captureError(path, null, 'UNREADABLE', `cannot follow the symbolic link ${path}: ${reason(e)}`));
        continue;
      }
    }
    if (isDirectory) {
      let real: string;
      try {
        real = await w.fs.realpath(target);
      } catch (e) {
        w.errors.push(captureError(path, null, 'UNREADABLE', `cannot read directory ${path}: ${reason(e)}`));
        continue;
      }
      if (w.walked.has(real)) continue; // a link back to a directory already walked (a loop): its files are listed once
      w.walked.add(real);
      await walk(path, target, w);
    } else if (isFile && hasCaptureExtension(entry.name)) {
      w.files.push(path);
    } else if (!isFile && hasCaptureExtension(entry.name)) {
      // a FIFO, socket or device named like a capture: reading it could block the scan forever
      // (a FIFO without a writer), so it is skipped, but said (name it on the command line to read it)
      w.errors.push(captureError(path, null, 'UNREADABLE', `${path} is not a regular file (a FIFO, socket or device); skipped in a directory walk: name it on the command line to read it`, 'warning'));
    }
  }
}

/**
 * fast-glob's `fs` option built on `fs.readdir` of {@link InputFs}, recording every directory it
 * cannot read (fast-glob itself is told to go on: `suppressErrors`). ELOOP (a symbolic-link loop,
 * whose files are reached by the shorter path) is not recorded.
 */
function recordingGlobFs(fs: InputFs, failures: { path: string; error: unknown }[]): { readdir: (...args: unknown[]) => void } {
  return {
    readdir: (...args: unknown[]) => {
      const path = args[0] as string;
      const done = args[args.length - 1] as (err: unknown, entries?: Dirent[]) => void;
      fs.readdir(path).then(
        (entries) => done(null, entries),
        (error: unknown) => {
          if ((error as NodeJS.ErrnoException)?.code !== 'ELOOP') failures.push({ path, error });
          done(error);
        },
      );
    },
  };
}

/**
 * Expands CLI path arguments into input paths.
 *
 * - `-` is stdin (kept as `-`).
 * - A glob pattern (fast-glob syntax; dot-files and `node_modules` excluded; symbolic links
 *   followed) expands to its matching files, sorted; a pattern that matches nothing is a
 *   NO_MATCH error; each directory it cannot read is an UNREADABLE error naming that directory.
 * - A directory is walked recursively, entries sorted by name, skipping `node_modules` and
 *   dot-directories / dot-files (a format's dot-file name, `.aider.chat.history.md`, is taken);
 *   only files with a capture extension ({@link CAPTURE_EXTENSIONS}) or a format's usual name
 *   ({@link CAPTURE_FILE_NAMES}: `*.traj`, …) are taken. Symbolic links to files and directories are followed; a directory reached again
 *   (a link loop, or two links to one directory) is walked once. Each entry that cannot be read
 *   (a subdirectory without permission, a dangling link) is one UNREADABLE error naming that
 *   entry, and the rest of the directory is still taken. An entry with a capture extension that
 *   is not a regular file (a FIFO, a socket, a device) is skipped with an UNREADABLE warning.
 * - A file is taken as given, whatever its extension.
 * - A path that does not exist is a NO_MATCH error (a path that cannot be inspected for another
 *   reason is UNREADABLE).
 *
 * Paths are returned as given (relative arguments stay relative to `cwd`), in argument order,
 * each real file once (the first mention wins, links resolved).
 *
 * @param args the path arguments.
 * @param cwd the directory relative paths and globs are resolved against.
 * @param fs the file system (default {@link NODE_INPUT_FS}; tests inject failures).
 * @returns the inputs, and the errors (one per argument that yields nothing, one per unreadable
 *   entry). Never throws.
 */
export async function expandInputs(
  args: string[],
  cwd: string,
  fs: InputFs = NODE_INPUT_FS,
): Promise<{ inputs: string[]; errors: CaptureError[] }> {
  const inputs: string[] = [];
  const errors: CaptureError[] = [];
  const seen = new Set<string>();
  const add = async (path: string): Promise<void> => {
    let key = path === '-' ? '-' : resolve(cwd, path);
    if (key !== '-') key = await fs.realpath(key).catch(() => key);
    if (seen.has(key)) return;
    seen.add(key);
    inputs.push(path);
  };
  for (const arg of args) {
    if (arg === '-') {
      await add('-');
      continue;
    }
    const absolute = resolve(cwd, arg);
    let info: Stats | null = null;
    try {
      info = await fs.stat(absolute);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        errors.push(captureError(arg, null, 'UNREADABLE', `cannot read ${arg}: ${reason(e)}`));
        continue;
      }
    }
    if (info?.isDirectory()) {
      const w: Walk = { fs, files: [], errors, walked: new Set() };
      const before = errors.length;
      w.walked.add(await fs.realpath(absolute).catch(() => absolute));
      await walk(arg, absolute, w);
      if (w.files.length === 0 && errors.length === before) {
        errors.push(captureError(arg, null, 'NO_MATCH', `directory ${arg} holds no capture files (${CAPTURE_EXTENSIONS.join(', ')}, or a format's file name: guard formats)`));
      }
      for (const f of w.files) await add(f);
      continue;
    }
    if (info) {
      await add(arg);
      continue;
    }
    const fg = fastGlob();
    if (fg.isDynamicPattern(arg)) {
      const failures: { path: string; error: unknown }[] = [];
      let matches: string[] = [];
      try {
        matches = await fg(arg, {
          cwd,
          dot: false,
          onlyFiles: true,
          followSymbolicLinks: true,
          ignore: ['**/node_modules/**'],
          suppressErrors: true,
          fs: recordingGlobFs(fs, failures) as never,
        });
      } catch (e) {
        errors.push(captureError(arg, null, 'UNREADABLE', `cannot expand the pattern ${arg}: ${reason(e)}`));
      }
      matches.sort(byCodeUnit);
      // a directory of the pattern that does not exist is no match, not an unreadable input
      const unreadable = failures.filter(({ error }) => (error as NodeJS.ErrnoException | null)?.code !== 'ENOENT');
      for (const { path, error } of unreadable) {
        errors.push(captureError(path, null, 'UNREADABLE', `cannot read directory ${path} (matching ${arg}): ${reason(error)}`));
      }
      if (matches.length === 0 && unreadable.length === 0) errors.push(captureError(arg, null, 'NO_MATCH', `no file matches the pattern ${arg}`));
      for (const m of matches) await add(m);
      continue;
    }
    errors.push(captureError(arg, null, 'NO_MATCH', `no such file or directory: ${arg}`));
  }
  return { inputs, errors };
}
