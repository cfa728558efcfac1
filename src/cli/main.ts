/**
 * Entry point used by bin/guard.js: binds `run` to the real process streams.
 */

import { run } from './program.js';

/** Runs guard on the real process; returns the exit code for the launcher to set. */
export async function main(argv: string[]): Promise<number> {
  // A reader that closes the pipe early (`guard scan … | head`): no stack trace, but the scan did
  // not finish, so it must not pass (exit 2), whatever it had found so far.
  // Any other failure to write stdout (a full disk: ENOSPC) is the same: the output is incomplete.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.stderr.write('guard: the output was closed before guard finished (EPIPE); exit 2\n');
    else process.stderr.write(`guard: cannot write to stdout (${e.message}); the output is incomplete; exit 2\n`);
    process.exit(2);
  });
  // stderr carries the summary, and replay's decisions by default: when it cannot be written
  // there is nowhere to say so, but the exit code still says something went wrong.
  process.stderr.on('error', () => process.exit(2));
  return run(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
  });
}
