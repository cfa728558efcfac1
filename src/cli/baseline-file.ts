/** Reading and writing baseline files (format: ./baseline.ts). */

import { readFile } from 'node:fs/promises';
import { writeFileAtomically } from './files.js';
import { resolve } from 'node:path';
import { BaselineError, parseBaseline, serializeBaseline, type Baseline, type BaselineEntry } from '../verdict/baseline.js';

/** Largest baseline file read, in bytes (a baseline holds ~150 bytes per finding). */
export const MAX_BASELINE_BYTES = 64 * 1024 * 1024;

/**
 * Reads and parses a baseline file.
 *
 * @param path as the user gave it; resolved against `cwd`.
 * @throws BaselineError when it cannot be read, is larger than {@link MAX_BASELINE_BYTES}, or is
 *   not a valid baseline (see parseBaseline).
 */
export async function readBaselineFile(path: string, cwd: string): Promise<Baseline> {
  let text: string;
  try {
    const buf = await readFile(resolve(cwd, path));
    if (buf.length > MAX_BASELINE_BYTES) throw new BaselineError(`${path}: larger than ${MAX_BASELINE_BYTES} bytes`);
    text = buf.toString('utf8');
  } catch (e) {
    if (e instanceof BaselineError) throw e;
    throw new BaselineError(`cannot read baseline ${path}: ${(e as Error).message}`);
  }
  return parseBaseline(text, path);
}

/**
 * Writes a baseline file (sorted entries, see serializeBaseline).
 *
 * @throws BaselineError when it cannot be written.
 */
export async function writeBaselineFile(path: string, cwd: string, entries: readonly BaselineEntry[]): Promise<void> {
  try {
    await writeFileAtomically(path, cwd, serializeBaseline(entries));
  } catch (e) {
    throw new BaselineError(`cannot write baseline ${path}: ${(e as Error).message}`);
  }
}
