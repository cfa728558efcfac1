/**
 * Entry point used by bin/guard.js: binds `run` to the real process streams and signals.
 */

import { getEventListeners } from 'node:events';
import { run } from './program.js';

/** The exit code after Ctrl-C: 128 + SIGINT's number, as shells report it. */
const INTERRUPTED = 130;

/** Runs guard on the real process; returns the exit code for the launcher to set. */
export async function main(argv: string[]): Promise<number> {
  const stop = new AbortController();
  let finished = false;
  // Ctrl-C stops a scan at once (it prints what it saw and exits 130); a second one ends guard now
  // (a command that does not listen for it, replay or rules, ends at once)
  process.on('SIGINT', () => {
    if (stop.signal.aborted || finished || getEventListeners(stop.signal, 'abort').length === 0) process.exit(INTERRUPTED);
    stop.abort('interrupt');
  });
  // A reader that closes the pipe early (`guard scan … | head`) closed it on purpose: guard stops
  // quietly, with the exit code of what it had seen. Any other failure to write stdout (a full
  // disk: ENOSPC) means the output is incomplete: exit 2.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') {
      if (!stop.signal.aborted) stop.abort('closed');
      return;
    }
    process.stderr.write(`guard: cannot write to stdout (${e.message}); the output is incomplete; exit 2\n`);
    process.exit(2);
  });
  // stderr carries the summary, and replay's decisions by default: when it cannot be written
  // there is nowhere to say so, but the exit code still says something went wrong.
  process.stderr.on('error', () => process.exit(2));
  const code = await run(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    signal: stop.signal,
  });
  finished = true;
  if (stop.signal.aborted) {
    // workers and a pending read of stdin would keep the process alive: end it once stderr is out
    const exit = () => process.exit(code);
    if (process.stderr.writableLength > 0) process.stderr.once('drain', exit);
    else exit();
  }
  return code;
}
