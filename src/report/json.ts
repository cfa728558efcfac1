/**
 * JSON output: one document `{version, results, errors, stats}`, streamed: the opening and each
 * result are written as they arrive, input problems are kept in a {@link Spool} (memory, then a
 * temporary file) and written after the results, the stats last. Memory stays bounded at any input
 * size; the text is what `JSON.stringify(doc, null, 2)` of the whole document would be. With
 * `--baseline`, `stats.baseline` lists the stale entries.
 */

import type { CaptureError } from '../capture/types.js';
import type { ScanSummary } from '../verdict/summary.js';
import type { JudgedReply } from '../verdict/findings.js';
import { errorRecord, replyRecord, summaryRecord, type RecordOptions } from './record.js';
import type { Reporter } from './reporter.js';
import { jsonAt, NO_PAUSE, Spool, type Pause } from './spool.js';

export class JsonReporter implements Reporter {
  private started = false;
  private results = 0;
  private readonly errors = new Spool();

  constructor(
    private readonly write: (s: string) => void,
    private readonly version: string,
    private readonly options: RecordOptions = {},
    private readonly pause: Pause = NO_PAUSE,
  ) {}

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.write(`{\n  "version": ${JSON.stringify(this.version)},\n  "results": [`);
  }

  reply(j: JudgedReply): void {
    this.start();
    this.write(`${this.results++ ? ',' : ''}\n    ${jsonAt(replyRecord(j.verdict, j.findings, this.options), 2)}`);
  }

  error(e: CaptureError): void {
    this.errors.add(`${this.errors.size ? ',' : ''}\n    ${jsonAt(errorRecord(e), 2)}`);
  }

  fileEnd(): void {}

  async finish(summary: ScanSummary): Promise<void> {
    this.start();
    this.write(`${this.results ? '\n  ' : ''}],\n  "errors": [`);
    const errors = this.errors.size;
    await this.errors.drain(this.write, this.pause);
    this.write(`${errors ? '\n  ' : ''}],\n  "stats": ${jsonAt(summaryRecord(summary), 1)}\n}\n`);
  }
}
