/**
 * Counting a scan: what the summary line and the JSON `stats` report, and what decides the exit
 * code. Pure.
 */

import type { BaselineEntry } from './baseline.js';
import type { CaptureError, CaptureFormat } from '../capture/types.js';
import type { FailOn } from './findings.js';
import { findingFails, findingsOf, isQuotationReason, type JudgedReply } from './findings.js';
import type { ReplyVerdict } from './judge.js';
import { blocksReply } from '../inspection/types.js';


/**
 * Does this reply count toward exit code 1 under `failOn`, with no suppression? See
 * `findingFails` (src/report/findings.ts) for each level, from strictest:
 * - `quoted`: any rule hit or any refusal, quotations included;
 * - `refused`: any rule hit, or leaked markup that could not be recovered: a refusal whose reason
 *   is not a quotation reason (QUOTATION_REASONS: `fenced`, `quoted`, `prose` do not count);
 * - `flag`: any rule hit;
 * - `block`: a rule hit graded `block` (it blocks the reply under enforce);
 * - `none`: never.
 * A recovered leak never fails a scan: guard read the call back out.
 */
export function isFailing(v: ReplyVerdict, failOn: FailOn): boolean {
  return findingsOf(v).some((f) => findingFails(f, failOn));
}

/** What `--baseline` did in a scan (see {@link ScanSummary.baseline}). */
export interface BaselineOutcome {
  file: string;
  matched: number;
  stale: BaselineEntry[];
  unchecked: number;
}

export interface FileSummary {
  file: string;
  formats: CaptureFormat[];
  replies: number;
  errors: number;
}

export interface ScanSummary {
  files: FileSummary[];
  replies: number;
  /**
   * Leaks: `refused` counts real refusals only (leaked markup guard would not read back out);
   * refusals whose markup guard judged a quotation are counted in {@link ScanSummary.quotations}.
   */
  leaks: { recovered: number; refused: number; refusedByReason: Record<string, number>; besideStructured: number };
  /** Markup judged a quotation (refused as `fenced`, `quoted` or `prose`): not a leak, kept visible. */
  quotations: { total: number; byReason: Record<string, number> };
  /** Rule hits: all, those that block their reply (blocksReply, ../inspection/types.ts), and per rule id. */
  hits: { total: number; blocked: number; byRule: Record<string, number> };
  /** Replies that count toward exit code 1. */
  failing: number;
  errors: number;
  warnings: number;
  errorsByCode: Record<string, number>;
  /** Findings not counted: allowed by a mark in the record's metadata, or in the baseline. */
  suppressed: { inline: number; baseline: number };
  /** Allow marks that matched no finding of their reply. */
  unusedAllows: number;
  /**
   * With `--baseline`: the file, entries used, entries no finding used (stale: their capture was
   * read, or no longer exists), and how many entries were not checked (their capture exists but
   * was not read by this scan).
   */
  baseline: BaselineOutcome | null;
}

function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

/** Accumulates a {@link ScanSummary} as results stream by. */
export class SummaryBuilder {
  private readonly s: ScanSummary = {
    files: [],
    replies: 0,
    leaks: { recovered: 0, refused: 0, refusedByReason: {}, besideStructured: 0 },
    quotations: { total: 0, byReason: {} },
    hits: { total: 0, blocked: 0, byRule: {} },
    failing: 0,
    errors: 0,
    warnings: 0,
    errorsByCode: {},
    suppressed: { inline: 0, baseline: 0 },
    unusedAllows: 0,
    baseline: null,
  };

  constructor(private readonly failOn: FailOn) {}

  /** Counts one judged reply with its findings unsuppressed; returns whether it fails the scan. */
  addVerdict(v: ReplyVerdict): boolean {
    const findings = findingsOf(v);
    return this.addReply({ verdict: v, findings, failing: findings.some((f) => findingFails(f, this.failOn)) });
  }

  /**
   * Counts one judged reply (leaks, hits, suppressed findings, and whether it fails, as
   * `judged.failing` says); returns whether it fails the scan.
   */
  addReply(judged: JudgedReply, unusedAllows = 0): boolean {
    const v = judged.verdict;
    this.s.replies++;
    if (v.recovery.outcome === 'recovered') this.s.leaks.recovered++;
    if (v.recovery.besideStructured === true) this.s.leaks.besideStructured++;
    if (v.recovery.outcome === 'refused' && isQuotationReason(v.recovery.reason)) {
      this.s.quotations.total++;
      bump(this.s.quotations.byReason, v.recovery.reason);
    } else if (v.recovery.outcome === 'refused') {
      this.s.leaks.refused++;
      bump(this.s.leaks.refusedByReason, v.recovery.reason);
    }
    for (const h of v.inspection.hits) {
      this.s.hits.total++;
      if (blocksReply(v.inspection.mode, h)) this.s.hits.blocked++;
      bump(this.s.hits.byRule, h.rule);
    }
    for (const f of judged.findings) if (f.suppressed) this.s.suppressed[f.suppressed.kind]++;
    this.s.unusedAllows += unusedAllows;
    if (judged.failing) this.s.failing++;
    return judged.failing;
  }

  /** Records the baseline's outcome at the end of a scan. */
  setBaseline(b: BaselineOutcome): void {
    this.s.baseline = b;
  }

  addError(e: CaptureError): void {
    if (e.severity === 'error') this.s.errors++;
    else this.s.warnings++;
    bump(this.s.errorsByCode, e.code);
  }

  addFile(f: FileSummary): void {
    this.s.files.push(f);
  }

  /**
   * Adds the counts of another summary of the same scan (a worker thread's, for events it
   * reported itself): replies, leaks, quotations, hits, failing, problems, suppressions and their
   * breakdowns. Its files are appended; its baseline, which a worker never has, is ignored.
   */
  merge(o: ScanSummary): void {
    const s = this.s;
    const add = (into: Record<string, number>, from: Record<string, number>) => {
      for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
    };
    s.files.push(...o.files);
    s.replies += o.replies;
    s.leaks.recovered += o.leaks.recovered;
    s.leaks.refused += o.leaks.refused;
    s.leaks.besideStructured += o.leaks.besideStructured;
    add(s.leaks.refusedByReason, o.leaks.refusedByReason);
    s.quotations.total += o.quotations.total;
    add(s.quotations.byReason, o.quotations.byReason);
    s.hits.total += o.hits.total;
    s.hits.blocked += o.hits.blocked;
    add(s.hits.byRule, o.hits.byRule);
    s.failing += o.failing;
    s.errors += o.errors;
    s.warnings += o.warnings;
    add(s.errorsByCode, o.errorsByCode);
    s.suppressed.inline += o.suppressed.inline;
    s.suppressed.baseline += o.suppressed.baseline;
    s.unusedAllows += o.unusedAllows;
  }

  get summary(): ScanSummary {
    return this.s;
  }

  /** 2 when any input could not be read, else 1 when a reply fails, else 0 (2 wins over 1). */
  exitCode(): number {
    if (this.s.errors > 0) return 2;
    return this.s.failing > 0 ? 1 : 0;
  }
}
