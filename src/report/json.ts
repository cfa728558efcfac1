/**
 * JSON output: one document `{version, results, errors, stats}` written at the end. The results
 * are held until then, so prefer NDJSON for very large scans.
 */

import type { CaptureError } from '../capture/types.js';
import type { ReplyVerdict } from '../scan/judge.js';
import type { ScanSummary } from '../scan/summary.js';
import { errorRecord, replyRecord, type ErrorRecord, type ReplyRecord } from './record.js';
import type { Reporter } from './reporter.js';

export class JsonReporter implements Reporter {
  private readonly results: ReplyRecord[] = [];
  private readonly errors: ErrorRecord[] = [];

  constructor(
    private readonly write: (s: string) => void,
    private readonly version: string,
  ) {}

  reply(v: ReplyVerdict): void {
    this.results.push(replyRecord(v));
  }
  error(e: CaptureError): void {
    this.errors.push(errorRecord(e));
  }
  fileEnd(): void {}
  finish(summary: ScanSummary): void {
    const doc = { version: this.version, results: this.results, errors: this.errors, stats: summary };
    this.write(`${JSON.stringify(doc, null, 2)}\n`);
  }
}
