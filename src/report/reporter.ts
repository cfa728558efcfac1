/**
 * The reporter interface every `guard scan` output format implements. A reporter receives events
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

/** Output formats of `guard scan`. */
export type ReportFormat = 'text' | 'json' | 'ndjson' | 'sarif' | 'junit' | 'github';

export const REPORT_FORMATS: readonly ReportFormat[] = ['text', 'json', 'ndjson', 'sarif', 'junit', 'github'];

/**
 * The format a report file's name implies: `.sarif` / `.sarif.json` → sarif, `.json` → json,
 * `.jsonl` / `.ndjson` → ndjson, `.xml` → junit, `.txt` → text (case-insensitive).
 *
 * @returns the format, or null for any other name.
 */
export function formatFromFileName(file: string): ReportFormat | null {
  const f = file.toLowerCase();
  if (f.endsWith('.sarif') || f.endsWith('.sarif.json')) return 'sarif';
  if (f.endsWith('.json')) return 'json';
  if (f.endsWith('.jsonl') || f.endsWith('.ndjson')) return 'ndjson';
  if (f.endsWith('.xml')) return 'junit';
  if (f.endsWith('.txt')) return 'text';
  return null;
}
