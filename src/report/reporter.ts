/**
 * The reporter interface every `guard scan` output format implements (the formats: ./formats.ts).
 * A reporter receives events in input order and writes through `write` as they arrive: NDJSON and
 * GitHub annotations write each record, the document formats (JSON, SARIF, JUnit, HTML) write
 * their opening at once, each record as it comes and their summary in `finish`, so no format holds
 * the whole report in memory (docs/reports.md "Bounded memory").
 */

import type { CaptureError } from '../capture/types.js';
import type { FileSummary, ScanSummary } from '../verdict/summary.js';
import type { JudgedReply } from '../verdict/findings.js';

/** How a scan ended, for the formats that say so. */
export interface ScanEnd {
  /** True when the scan was stopped (Ctrl-C) before it read every input: the report is partial. */
  interrupted: boolean;
}

export interface Reporter {
  /** One judged reply: its verdicts, findings (with suppressions) and whether it fails. */
  reply(judged: JudgedReply): void;
  error(error: CaptureError): void;
  fileEnd(file: FileSummary): void;
  /** Called once at the end with the totals (also after an interrupted scan, with what was seen). */
  finish(summary: ScanSummary, end?: ScanEnd): void;
}
