/** Fake process streams for running the CLI in process. */

import { PassThrough, Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { run } from '../../src/cli/program.js';
import type { CliIO } from '../../src/cli/io.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

class Sink extends Writable {
  text = '';
  isTTY: boolean;
  constructor(tty: boolean) {
    super();
    this.isTTY = tty;
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface FakeOptions {
  stdin?: string;
  stdinTTY?: boolean;
  stdoutTTY?: boolean;
  env?: Record<string, string>;
  cwd?: string;
  /** Passed as `io.signal` (abort it with `interrupt` or `closed`, as src/cli/main.ts does). */
  signal?: AbortSignal;
}

/** Runs `guard <argv>` in process with fake streams; cwd defaults to the repo root. */
export async function runGuard(argv: string[], opts: FakeOptions = {}): Promise<RunResult> {
  const stdout = new Sink(opts.stdoutTTY ?? false);
  const stderr = new Sink(false);
  let stdin: CliIO['stdin'];
  if (opts.stdin !== undefined) stdin = Readable.from([Buffer.from(opts.stdin)]);
  else {
    const p = new PassThrough();
    p.end();
    stdin = p;
  }
  (stdin as { isTTY?: boolean }).isTTY = opts.stdinTTY ?? false;
  const code = await run(argv, { stdout, stderr, stdin, env: { NO_COLOR: '1', ...(opts.env ?? {}) }, cwd: opts.cwd ?? ROOT, ...(opts.signal ? { signal: opts.signal } : {}) });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Parses NDJSON output into records. */
export function ndjson(text: string): Array<Record<string, any>> {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, any>);
}
