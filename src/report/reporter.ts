/**
 * The reporter interface every `guard scan` output format implements (the formats: ./formats.ts). A reporter receives events
 * in input order and writes through `write`, so formats that can stream (text, NDJSON, GitHub
 * annotations) do; document formats (JSON, SARIF, JUnit) write once in `finish`.
 */

import type { CaptureError } from '../capture/types.js';
import type { FileSummary, ScanSummary } from '../verdict/summary.js';
import type { JudgedReply } from '../verdict/findings.js';

export interface Reporter {
  /** One judged reply: its verdicts, findings (with suppressions) and whether it fails. */
  reply(judged: JudgedReply): void;
  error(error: CaptureError): void;
  fileEnd(file: FileSummary): void;
  /** Called once at the end with the totals. */
  finish(summary: ScanSummary): void;
}
