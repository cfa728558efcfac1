/**
 * JSON output: one document `{version, results, errors, stats}` written at the end. The results
 * are held until then, so prefer NDJSON for very large scans. With `--baseline`, `stats.baseline`
 * lists the stale entries.
 */

import type { CaptureError } from '../capture/types.js';
import type { ScanSummary } from '../verdict/summary.js';
import type { JudgedReply } from '../verdict/findings.js';
import { errorRecord, replyRecord, summaryRecord, type ErrorRecord, type RecordOptions, type ReplyRecord } from './record.js';
import type { Reporter } from './reporter.js';
import { wellFormedJson } from '../base/json.js';

export class JsonReporter implements Reporter {
  private readonly results: ReplyRecord[] = [];
  private readonly errors: ErrorRecord[] = [];

  constructor(
    private readonly write: (s: string) => void,
    private readonly version: string,
    private readonly options: RecordOptions = {},
  ) {}

  reply(j: JudgedReply): void {
    this.results.push(replyRecord(j.verdict, j.findings, this.options));
  }
  error(e: CaptureError): void {
    this.errors.push(errorRecord(e));
  }
  fileEnd(): void {}
  finish(summary: ScanSummary): void {
    const doc = { version: this.version, results: this.results, errors: this.errors, stats: summaryRecord(summary) };
    this.write(`${wellFormedJson(doc, 2)}\n`);
  }
}
