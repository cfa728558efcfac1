/**
 * The process boundary of the CLI, injected so tests can run commands in process with fake
 * streams: `run(argv, io)` never touches `process` itself.
 */

import type { Readable, Writable } from 'node:stream';
import { Chalk, type ChalkInstance } from 'chalk';

/** A writable stream that may be a terminal. */
export type OutStream = Writable & { isTTY?: boolean; columns?: number };

export interface CliIO {
  stdout: OutStream;
  stderr: OutStream;
  stdin: Readable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /**
   * Aborted when the command should stop at once: reason `interrupt` (Ctrl-C, SIGINT) or `closed`
   * (stdout's reader went away, EPIPE). src/cli/main.ts wires it to the process; tests abort it.
   */
  signal?: AbortSignal;
}

/**
 * Chooses the colour level for one stream, per clig.dev and no-color.org: `--color` / `--no-color`
 * decide first (a command-line argument overrides `NO_COLOR`, as no-color.org asks); then a
 * non-empty `NO_COLOR` turns colour off and `FORCE_COLOR` (not `0`) turns it on; else colour only
 * on a TTY whose `TERM` is not `dumb`. chalk's own detection ignores NO_COLOR, hence
 * this function.
 *
 * @param flag the `--color` / `--no-color` choice, undefined when neither was given.
 * @returns a chalk instance of level 0 (no colour) or 1 (16 colours).
 */
export function chalkFor(stream: OutStream, env: CliIO['env'], flag: boolean | undefined): ChalkInstance {
  let on: boolean;
  if (flag !== undefined) on = flag; // a flag of this run overrides the environment (no-color.org)
  else if ((env['NO_COLOR'] ?? '') !== '') on = false;
  else if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '') on = env['FORCE_COLOR'] !== '0' && env['FORCE_COLOR'] !== 'false';
  else on = stream.isTTY === true && env['TERM'] !== 'dumb';
  return new Chalk({ level: on ? 1 : 0 });
}

/** True when CI is set in the environment (any CI vendor sets it). */
export function inCI(env: CliIO['env']): boolean {
  const v = env['CI'];
  return v !== undefined && v !== '' && v !== '0' && v !== 'false';
}
