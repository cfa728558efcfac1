/**
 * The reporter interface every `guard scan` output format implements. A reporter receives events
 * in input order and writes through `write`, so formats that can stream (text, NDJSON) do.
 */

import type { CaptureError } from '../capture/types.js';
import type { ReplyVerdict } from '../scan/judge.js';
import type { FileSummary, ScanSummary } from '../scan/summary.js';

export interface Reporter {
  reply(verdict: ReplyVerdict): void;
  error(error: CaptureError): void;
  fileEnd(file: FileSummary): void;
  /** Called once at the end with the totals. */
  finish(summary: ScanSummary): void;
}

/** Output formats of `guard scan`. */
export type ReportFormat = 'text' | 'json' | 'ndjson';

export const REPORT_FORMATS: readonly ReportFormat[] = ['text', 'json', 'ndjson'];
