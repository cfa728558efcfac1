/**
 * From scan events to a report and its totals: each reply's findings with suppressions applied
 * (src/report/findings.ts judgedReply), handed to a reporter and counted in a summary. The CLI's
 * main thread runs one; with `guard scan --jobs N` and a streaming format, each worker thread runs
 * one too and sends the text it wrote and the counts of what it saw, so the report of a reply is
 * built where the reply was judged (src/scan/worker.ts).
 */

import type { CaptureError, CaptureFormat } from '../capture/types.js';
import type { FailOn, JudgedReply } from '../verdict/findings.js';
import { allowMatches, judgedReply, type SuppressOptions } from '../verdict/findings.js';
import { Chalk } from 'chalk';
import { createReporter, reportFormat, type ReportFormat } from '../report/formats.js';
import type { Reporter } from '../report/reporter.js';
import { redactSecrets } from '../base/redact.js';
import { IdentifierRedactor } from '../report/redact-ids.js';
import { internalError, type ScanEvent } from './scan.js';
import { SummaryBuilder } from '../verdict/summary.js';

/** An allow mark of a record that matched no finding of its reply: where it is and what it names. */
export interface UnusedAllow {
  file: string;
  /** The line of the record that holds the mark. */
  line: number;
  rule: string;
  reason: string;
}

/** Unused allow marks listed by file and line; more are only counted (ScanSummary.unusedAllows). */
export const MAX_UNUSED_LISTED = 100;

/** Sends every event to a reporter and counts it in a summary, in the order given. */
export class ReportPipeline {
  /** Masks the identifiers of replies and problems (memoised: one file name for a whole file). */
  private readonly ids = new IdentifierRedactor();

  /** The first {@link MAX_UNUSED_LISTED} allow marks that matched no finding, in input order. */
  readonly unusedAllows: UnusedAllow[] = [];

  /**
   * @param reporter where the report goes.
   * @param summary the totals, updated as events arrive.
   * @param suppress how findings are suppressed (allow marks, baseline) and what fails the scan.
   * @param redact mask secrets in problem messages (capture-derived text: an API error event may
   *   quote a token) and in the identifiers of replies (file, id, model, call ids and names:
   *   src/report/redact-ids.ts); false under `--no-redact`.
   */
  constructor(
    readonly reporter: Reporter,
    readonly summary: SummaryBuilder,
    private readonly suppress: SuppressOptions,
    private readonly redact = true,
  ) {}

  /**
   * Reports and counts one event. A reply that guard cannot report (a bug) becomes an
   * INTERNAL_ERROR naming its file and line; it never ends the scan or passes silently.
   */
  handle(ev: ScanEvent): void {
    if (ev.kind === 'reply') {
      try {
        const { judged: real, unusedAllows } = judgedReply(ev.verdict, this.suppress);
        // findings and fingerprints come from the real values; what is written, masked
        const judged = this.redact ? this.ids.reply(real) : real;
        this.reporter.reply(judged);
        this.summary.addReply(judged, unusedAllows);
        if (unusedAllows > 0) this.noteUnused(judged);
      } catch (e) {
        this.error(internalError(ev.verdict.reply.source.file, ev.verdict.reply.source.line, e));
      }
    } else if (ev.kind === 'error') {
      this.error(ev.error);
    } else {
      const f = { file: this.redact ? this.ids.mask(ev.file) : ev.file, formats: ev.formats, replies: ev.replies, errors: ev.errors };
      this.summary.addFile(f);
      this.reporter.fileEnd(f);
    }
  }

  /** Lists the allow marks of a reply that matched none of its findings. */
  private noteUnused(judged: JudgedReply): void {
    const { reply } = judged.verdict;
    for (const mark of reply.allow ?? []) {
      if (this.unusedAllows.length >= MAX_UNUSED_LISTED) return;
      if (!judged.findings.some((f) => allowMatches(mark, f))) this.unusedAllows.push({ file: reply.source.file, line: reply.source.line, rule: mark.rule, reason: mark.reason });
    }
  }

  /** Adds the unused allow marks a worker listed (in input order, as its events). */
  addUnused(list: readonly UnusedAllow[]): void {
    for (const u of list) if (this.unusedAllows.length < MAX_UNUSED_LISTED) this.unusedAllows.push(u);
  }

  /** Reports and counts one problem (its message with secrets masked unless `redact` is off). */
  error(error: CaptureError): void {
    this.summary.addError(error);
    this.reporter.error(this.redact ? { ...error, message: redactSecrets(error.message), file: this.ids.mask(error.file) } : error);
  }
}

/** A format a worker can write itself: its spec says each event's output is self-contained (src/report/formats.ts). */
export function isSelfContainedFormat(format: ReportFormat): boolean {
  return reportFormat(format).selfContained;
}

/**
 * What a worker needs to write the report of its replies itself: a streaming format and no
 * baseline (a baseline's entries are used up across files in input order, so it is applied in one
 * thread).
 */
export interface RenderSetup {
  /** A format whose spec is `selfContained`. */
  format: ReportFormat;
  /** Mask secrets in excerpts. */
  redact: boolean;
  failOn: FailOn;
  /** Honour allow marks in records' metadata. */
  inlineAllow: boolean;
}

/**
 * Report text a worker wrote for a run of events of one file, with the counts of those events
 * (`summary` holds no files and no baseline: `file-end` events and the baseline stay with the main
 * thread). Written and merged in input order, it gives the same report and totals as the events.
 */
export interface RenderedEvent {
  kind: 'rendered';
  file: string;
  /** The report text; as UTF-8 bytes when replayed from the cache (src/scan/cache.ts), which writes them as they are. */
  text: string | Uint8Array;
  summary: SummaryBuilder['summary'];
  /** Capture formats of the replies in the run (for a `file-end` made up after a worker died). */
  formats: CaptureFormat[];
  /** Allow marks of the run that matched no finding. */
  unused: UnusedAllow[];
}

/** A pipeline writing into strings, for a worker thread: {@link render} turns runs of events into report text. */
export class RenderingPipeline {
  private text: string[] = [];
  private pipeline: ReportPipeline;
  private formats = new Set<CaptureFormat>();
  private events = 0;

  constructor(private readonly setup: RenderSetup) {
    this.pipeline = this.fresh();
  }

  private fresh(): ReportPipeline {
    const write = (s: string): void => void this.text.push(s);
    const reporter = createReporter(this.setup.format, write, {
      version: '',
      rules: [],
      failOn: this.setup.failOn,
      cwd: '',
      redact: this.setup.redact,
      baseline: false,
      chalk: new Chalk({ level: 0 }),
    });
    return new ReportPipeline(reporter, new SummaryBuilder(this.setup.failOn), { failOn: this.setup.failOn, inlineAllow: this.setup.inlineAllow, baseline: null }, this.setup.redact);
  }

  /** Reports and counts a reply or a problem (a `file-end` is sent as it is). */
  private handle(ev: ScanEvent): void {
    if (ev.kind === 'reply') this.formats.add(ev.verdict.reply.format);
    this.events++;
    this.pipeline.handle(ev);
  }

  /**
   * A run of events as the main thread should receive it: replies and problems rendered (one
   * {@link RenderedEvent} per stretch between `file-end`s), `file-end`s as they are.
   */
  render(events: ScanEvent[], file: string): (ScanEvent | RenderedEvent)[] {
    const out: (ScanEvent | RenderedEvent)[] = [];
    for (const ev of events) {
      if (ev.kind !== 'file-end') this.handle(ev);
      else {
        if (this.events > 0) out.push(this.take(file));
        out.push(ev);
      }
    }
    if (this.events > 0) out.push(this.take(file));
    return out;
  }

  /** The text and counts gathered since the last call, as one event; the pipeline starts afresh. */
  private take(file: string): RenderedEvent {
    const ev: RenderedEvent = { kind: 'rendered', file, text: this.text.join(''), summary: this.pipeline.summary.summary, formats: [...this.formats], unused: this.pipeline.unusedAllows };
    this.text = [];
    this.formats.clear();
    this.events = 0;
    this.pipeline = this.fresh();
    return ev;
  }
}
