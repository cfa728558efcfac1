/**
 * Entry point used by bin/guard.js: binds `run` to the real process streams.
 */

import { run } from './program.js';

/** Runs guard on the real process; returns the exit code for the launcher to set. */
export async function main(argv: string[]): Promise<number> {
  // A reader that closes the pipe early (`guard scan … | head`) is not an error worth a stack trace.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  return run(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
  });
}
