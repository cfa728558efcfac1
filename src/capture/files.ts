/**
 * Expanding the CLI's path arguments into the list of captures to read.
 */

import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fg from 'fast-glob';
import { captureError } from './bodies/common.js';
import type { CaptureError } from './types.js';

/**
 * File extensions read when walking a directory (explicit file arguments and glob matches are
 * read whatever their extension): JSON Lines, JSON, SSE bodies, and the `.txt` / `.log` names
 * captures are often saved under.
 */
export const CAPTURE_EXTENSIONS: readonly string[] = ['.jsonl', '.ndjson', '.json', '.sse', '.txt', '.log'];

/** Byte-order comparison (locale independent, so the order is the same on every machine). */
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const hasCaptureExtension = (name: string): boolean => {
  const lower = name.toLowerCase();
  return CAPTURE_EXTENSIONS.some((ext) => lower.endsWith(ext));
};

/** Files under `dir` (path as given), sorted, skipping `node_modules` and dot-entries. */
async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => byCodeUnit(a.name, b.name));
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(path)));
    else if (entry.isFile() && hasCaptureExtension(entry.name)) out.push(path);
  }
  return out;
}

/**
 * Expands CLI path arguments into input paths.
 *
 * - `-` is stdin (kept as `-`).
 * - A glob pattern (fast-glob syntax; dot-files and `node_modules` excluded) expands to its
 *   matching files, sorted; a pattern that matches nothing is a NO_MATCH error.
 * - A directory is walked recursively, entries sorted by name, skipping `node_modules` and
 *   dot-directories / dot-files; only files with a capture extension ({@link CAPTURE_EXTENSIONS})
 *   are taken.
 * - A file is taken as given, whatever its extension.
 * - A path that does not exist is a NO_MATCH error (a path that cannot be inspected for another
 *   reason is UNREADABLE).
 *
 * Paths are returned as given (relative arguments stay relative to `cwd`), in argument order,
 * each file once (the first mention wins).
 *
 * @param args the path arguments.
 * @param cwd the directory relative paths and globs are resolved against.
 * @returns the inputs, and one error per argument that yields nothing. Never throws.
 */
export async function expandInputs(args: string[], cwd: string): Promise<{ inputs: string[]; errors: CaptureError[] }> {
  const inputs: string[] = [];
  const errors: CaptureError[] = [];
  const seen = new Set<string>();
  const add = (path: string): void => {
    const key = path === '-' ? '-' : resolve(cwd, path);
    if (seen.has(key)) return;
    seen.add(key);
    inputs.push(path);
  };
  for (const arg of args) {
    if (arg === '-') {
      add('-');
      continue;
    }
    const absolute = resolve(cwd, arg);
    let info: Awaited<ReturnType<typeof stat>> | null = null;
    try {
      info = await stat(absolute);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        errors.push(captureError(arg, null, 'UNREADABLE', `cannot read ${arg}: ${(e as Error).message}`));
        continue;
      }
    }
    if (info?.isDirectory()) {
      try {
        const files = await walk(absolute);
        if (files.length === 0) errors.push(captureError(arg, null, 'NO_MATCH', `directory ${arg} holds no capture files (${CAPTURE_EXTENSIONS.join(', ')})`));
        // keep paths as the user wrote them: arg + the path below it
        for (const f of files) add(join(arg, f.slice(absolute.length + 1)));
      } catch (e) {
        errors.push(captureError(arg, null, 'UNREADABLE', `cannot read directory ${arg}: ${(e as Error).message}`));
      }
      continue;
    }
    if (info) {
      add(arg);
      continue;
    }
    if (fg.isDynamicPattern(arg)) {
      const matches = await fg(arg, { cwd, dot: false, onlyFiles: true, ignore: ['**/node_modules/**'] });
      matches.sort(byCodeUnit);
      if (matches.length === 0) errors.push(captureError(arg, null, 'NO_MATCH', `no file matches the pattern ${arg}`));
      for (const m of matches) add(m);
      continue;
    }
    errors.push(captureError(arg, null, 'NO_MATCH', `no such file or directory: ${arg}`));
  }
  return { inputs, errors };
}
