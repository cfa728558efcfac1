/**
 * NDJSON output (NDJSON 1.0 / JSON Lines): one record per reply, written as soon as the reply is
 * judged, and one per input problem. Summary totals go to stderr, never into the stream.
 */

import type { CaptureError } from '../capture/types.js';
import type { JudgedReply } from '../verdict/findings.js';
import { errorRecord, replyRecord, type RecordOptions } from './record.js';
import type { Reporter } from './reporter.js';
import { wellFormedJson } from '../base/json.js';

/** One JSON value on one line (JSON.stringify escapes every newline inside strings), always
 * well-formed UTF-8: a lone surrogate is written as U+FFFD ({@link wellFormedJson}). */
export function ndjsonLine(value: unknown): string {
  return `${wellFormedJson(value)}\n`;
}

export class NdjsonReporter implements Reporter {
  constructor(
    private readonly write: (s: string) => void,
    private readonly options: RecordOptions = {},
  ) {}
  reply(j: JudgedReply): void {
    this.write(ndjsonLine(replyRecord(j.verdict, j.findings, this.options)));
  }
  error(e: CaptureError): void {
    this.write(ndjsonLine(errorRecord(e)));
  }
  fileEnd(): void {}
  finish(): void {}
}
