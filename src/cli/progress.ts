/**
 * The progress bar of `guard scan` on a terminal (stderr only; never in a pipe, a file or CI):
 * files done of all, bytes read of the total, MB/s, ETA and findings so far, drawn by cli-progress
 * (https://github.com/npkgz/cli-progress), then one closing line with the throughput.
 *
 * Progress is measured in bytes read, so one 1 GB file and 100 000 small files move the bar at the
 * same pace; the speed is averaged over the last few seconds, and cli-progress draws at most ten
 * times a second whatever the rate of events. It never touches stdin (no raw mode), so Ctrl-C stays
 * a signal.
 */

import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type cliProgressModule from 'cli-progress';
import { inCI, type CliIO, type OutStream } from './io.js';

/**
 * Whether the progress bar is shown: stderr is a terminal (of at least 40 columns, or of unknown
 * width: cli-progress then assumes 80), not CI, not TERM=dumb, not --quiet.
 */
export function progressWanted(io: CliIO, quiet: boolean): boolean {
  const columns = io.stderr.columns ?? 0;
  return io.stderr.isTTY === true && (columns === 0 || columns >= 40) && !inCI(io.env) && io.env['TERM'] !== 'dumb' && !quiet;
}

/** `12.3 MB` (decimal megabytes, as the speed). */
export function megabytes(bytes: number): string {
  const mb = bytes / 1e6;
  return mb >= 100 ? mb.toFixed(0) : mb >= 10 ? mb.toFixed(1) : mb.toFixed(2);
}

/** The parts of cli-progress's bar this module reaches beyond the typings (its terminal). */
interface BarInternals {
  terminal?: { cursorTo(x: number | null, y: number | null): void; clearRight(): void };
  lastDrawnString?: string | null;
}

/** Seconds of history the speed is averaged over. */
const SPEED_WINDOW_MS = 5000;

export class ScanProgress {
  private readonly bar: cliProgressModule.SingleBar;
  private readonly perFile = new Map<string, number>();
  private readonly sizes = new Map<string, number>();
  private doneBytes = 0;
  private readBytes = 0;
  private files = 0;
  private totalFiles: number;
  private totalBytes: number | null = null;
  private findings = 0;
  private readonly started = Date.now();
  private readonly samples: Array<[number, number]> = [];
  private last = 0;
  private stopped = false;

  /**
   * @param inputs the expanded inputs (`-` for stdin: its size is unknown).
   */
  constructor(
    private readonly stream: OutStream,
    inputs: readonly string[],
    cwd: string,
  ) {
    this.totalFiles = inputs.length;
    // loaded here, for a bar on a terminal only (~30 ms of module loading)
    const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule;
    this.bar = new cliProgress.SingleBar(
      {
        stream: stream as NodeJS.WritableStream,
        // payload keys only: cli-progress fills {total}, {eta}, {value}, {percentage} itself (its values win over a payload's)
        format: 'scanning {bar} {pct} | files {files}/{totalFiles} | {read}/{totalMb} MB | {speed} MB/s | ETA {etaText} | findings {findings}',
        barsize: 24,
        hideCursor: false,
        clearOnComplete: true,
        linewrap: false,
        fps: 10,
        etaBuffer: 50,
        etaAsynchronousUpdate: true,
        gracefulExit: false,
        autopadding: true,
      },
      cliProgress.Presets.shades_classic,
    );
    this.bar.start(1, 0, this.payload());
    // the total is summed in the background: the scan does not wait for 100 000 stats
    void (async () => {
      let sum = 0;
      for (const f of inputs) {
        if (this.stopped) return;
        if (f === '-') continue;
        const size = await stat(resolve(cwd, f)).then((s) => (s.isFile() ? s.size : 0), () => 0);
        this.sizes.set(f, size);
        sum += size;
      }
      this.totalBytes = sum;
      this.draw(true);
    })();
  }

  private payload(): Record<string, string | number> {
    const read = this.doneBytes + this.readBytes;
    const now = Date.now();
    this.samples.push([now, read]);
    while (this.samples.length > 2 && now - this.samples[0]![0] > SPEED_WINDOW_MS) this.samples.shift();
    const [t0, b0] = this.samples[0]!;
    const seconds = (now - t0) / 1000;
    const speed = seconds > 0.2 ? (read - b0) / 1e6 / seconds : 0;
    const total = this.totalBytes;
    const eta = total !== null && speed > 0 ? Math.max(0, (total - read) / 1e6 / speed) : null;
    return {
      files: this.files,
      totalFiles: this.totalFiles,
      read: megabytes(read),
      totalMb: total === null ? '?' : megabytes(total),
      speed: speed.toFixed(1),
      etaText: eta === null ? '?' : eta >= 3600 ? `${Math.floor(eta / 3600)}h${String(Math.floor((eta % 3600) / 60)).padStart(2, '0')}m` : eta >= 60 ? `${Math.floor(eta / 60)}m${String(Math.round(eta % 60)).padStart(2, '0')}s` : `${Math.ceil(eta)}s`,
      pct: total ? `${Math.min(100, Math.floor((100 * read) / total))}%` : '',
      findings: this.findings,
    };
  }

  /** Updates the bar at most every 100 ms (or now, with `force`). */
  private draw(force = false): void {
    if (this.stopped) return;
    const now = Date.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    const total = this.totalBytes ?? 0;
    const read = this.doneBytes + this.readBytes;
    this.bar.setTotal(Math.max(total, read, 1));
    this.bar.update(read, this.payload());
  }

  /** Bytes read so far of a file being read (cumulative for that file). */
  read(file: string, bytes: number): void {
    const before = this.perFile.get(file) ?? 0;
    this.perFile.set(file, bytes);
    this.readBytes += bytes - before;
    this.draw();
  }

  /** A file was read to its end (its size counts as read, when known). */
  fileDone(file: string): void {
    const read = Math.max(this.perFile.get(file) ?? 0, this.sizes.get(file) ?? 0);
    this.sizes.delete(file);
    this.perFile.delete(file);
    this.readBytes -= read;
    this.doneBytes += read;
    this.files++;
    this.draw();
  }

  /** Findings so far (unsuppressed). */
  setFindings(n: number): void {
    this.findings = n;
  }

  /** Wraps a writer to a stream that shares the terminal: the bar's line is cleared before each write and redrawn after. */
  around<T>(write: (s: T) => void): (s: T) => void {
    return (s) => {
      if (!this.stopped) {
        const internals = this.bar as unknown as BarInternals;
        internals.terminal?.cursorTo(0, null);
        internals.terminal?.clearRight();
        internals.lastDrawnString = null;
      }
      write(s);
    };
  }

  /** Removes the bar; with `summary`, writes the closing throughput line. */
  stop(summary?: { replies: number; files: number }): void {
    if (this.stopped) return;
    this.bar.stop();
    this.stopped = true;
    if (!summary) return;
    const bytes = this.doneBytes + this.readBytes;
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    this.stream.write(`guard: read ${megabytes(bytes)} MB in ${seconds.toFixed(1)} s (${(bytes / 1e6 / seconds).toFixed(1)} MB/s), ${summary.replies} replies in ${summary.files} files\n`);
  }
}
