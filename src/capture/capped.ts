/**
 * Per-line problem reports with a cap, so that a file of a million bad records yields a bounded
 * number of error items and still says how many there were and where.
 */

import { captureError } from './bodies/common.js';
import type { CaptureError, CaptureErrorCode } from './types.js';

/** Problems of one kind reported line by line per file; the rest are summed up in one error. */
export const MAX_LINE_REPORTS = 100;

/**
 * Counts the problems of one kind in one file: the first `limit` are reported one by one, the
 * others are counted (with their first and last line) and reported by one {@link summary} error.
 */
export class CappedReports {
  private reported = 0;
  private skipped = 0;
  private firstSkipped = 0;
  private lastSkipped = 0;

  /**
   * @param file the path as given, copied into every error.
   * @param code the code of every error (and of the summary).
   * @param what the problem in the plural for the summary, e.g. "records in no known capture format".
   * @param limit how many are reported one by one (default {@link MAX_LINE_REPORTS}).
   */
  constructor(
    private readonly file: string,
    private readonly code: CaptureErrorCode,
    private readonly what: string,
    private readonly limit = MAX_LINE_REPORTS,
  ) {}

  /** How many problems were reported one by one so far. */
  get listed(): number {
    return this.reported;
  }

  /**
   * One problem at `line` (1-based): its error while under the cap, else null (it is counted for
   * the summary).
   */
  report(line: number, message: string): CaptureError | null {
    if (this.reported < this.limit) {
      this.reported++;
      return captureError(this.file, line, this.code, message);
    }
    this.skip(1, line, line);
    return null;
  }

  /** Counts `count` problems between lines `first` and `last` for the summary, listing none. */
  skip(count: number, first: number, last: number): void {
    if (count <= 0) return;
    if (this.skipped === 0) this.firstSkipped = first;
    this.skipped += count;
    this.lastSkipped = Math.max(this.lastSkipped, last);
  }

  /** The error that sums up the unlisted problems (at the first of their lines), or null if none. */
  summary(): CaptureError | null {
    if (this.skipped === 0) return null;
    const range = this.firstSkipped === this.lastSkipped ? `on line ${this.firstSkipped}` : `between lines ${this.firstSkipped} and ${this.lastSkipped}`;
    return captureError(
      this.file,
      this.firstSkipped,
      this.code,
      `${this.skipped} more ${this.what} ${range} (only the first ${this.reported} are reported one by one)`,
    );
  }
}
