/**
 * GitHub Actions workflow commands: one `::error|warning|notice file=…,line=…,title=…::message`
 * line per unsuppressed finding and per input problem, written as they come. Syntax and escaping
 * follow GitHub's "Workflow commands for GitHub Actions" and actions/toolkit
 * `packages/core/src/command.ts`: in the message, `%` → `%25`, CR → `%0D`, LF → `%0A`; in property
 * values additionally `:` → `%3A` and `,` → `%2C`. Suppressed findings are not annotated. At most
 * {@link ANNOTATIONS_PER_LEVEL} annotations of each level (what GitHub shows per step); with
 * `$GITHUB_STEP_SUMMARY` set, a Markdown summary (./markdown.ts) goes to the job summary.
 */

import type { CaptureError } from '../capture/types.js';
import type { FailOn, FindingLevel, JudgedReply } from '../verdict/findings.js';
import type { FindingRule } from '../verdict/catalogue.js';
import type { ScanSummary } from '../verdict/summary.js';
import { MarkdownSummary } from './markdown.js';
import { printable } from './printable.js';
import { baselineSentence, findingMessage, staleEntryLines } from './messages.js';
import type { Reporter, ScanEnd } from './reporter.js';

/** Escapes a workflow command's message (data). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** The annotation command for a SARIF-style level. */
export function commandOf(level: FindingLevel): 'error' | 'warning' | 'notice' {
  return level === 'note' ? 'notice' : level;
}

/**
 * One workflow command line (with its final LF).
 *
 * @param props property values in order (undefined ones are left out); escaped here.
 */
export function workflowCommand(command: string, props: Record<string, string | number | undefined>, message: string): string {
  const list = Object.entries(props)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',');
  return `::${command}${list ? ` ${list}` : ''}::${escapeData(message)}\n`;
}

/** An annotation title for a rule id: `guard/<id>` (leak ids already start with `guard/`). */
export function titleOf(ruleId: string): string {
  return ruleId.startsWith('guard/') ? ruleId : `guard/${ruleId}`;
}

export interface GithubOptions {
  /** Mask secrets in excerpts (default true). */
  redact?: boolean;
  /** What fails the scan, for the summary. */
  failOn?: FailOn;
  /** Receives the Markdown summary at the end (the CLI appends it to `$GITHUB_STEP_SUMMARY`), or null. */
  stepSummary?: ((markdown: string) => void) | null;
  /** The scan's finding rules, for the job summary's ATT&CK column. */
  rules?: readonly FindingRule[];
  /** Annotations of one level GitHub shows per step (default {@link ANNOTATIONS_PER_LEVEL}). */
  perLevel?: number;
}

/**
 * Annotations of each level (error, warning, notice) GitHub shows per step: "10 warning
 * annotations, 10 error annotations, and 10 notice annotations per step" (actions/toolkit
 * docs/problem-matchers.md "Limitations", at 457303960f03375db6f033e214b9f90d79c3fe5c).
 */
export const ANNOTATIONS_PER_LEVEL = 10;

type Level = 'error' | 'warning' | 'notice';

/**
 * Streams annotations, at most {@link ANNOTATIONS_PER_LEVEL} of each level: the first ones less one
 * as annotations, the rest as plain log lines (`guard: file:line: level title: message`, so the log
 * still has every finding), and at the end one more annotation of that level counting them.
 * Every string from a capture is escaped visibly ({@link printable}) before the workflow-command
 * escaping, so no control character reaches the log.
 */
export class GithubReporter implements Reporter {
  private readonly shown: Record<Level, number> = { error: 0, warning: 0, notice: 0 };
  private readonly hidden: Record<Level, number> = { error: 0, warning: 0, notice: 0 };
  /** The first annotation not shown of each level: alone, it takes the slot kept for the count. */
  private readonly firstHidden: Partial<Record<Level, string>> = {};
  private readonly summary: MarkdownSummary | null;

  constructor(
    private readonly write: (s: string) => void,
    private readonly options: GithubOptions = {},
  ) {
    this.summary = options.stepSummary ? new MarkdownSummary(options.redact ?? true, options.rules ?? []) : null;
  }

  private annotate(level: Level, props: { file: string; line?: number; title: string }, message: string): void {
    const file = printable(props.file);
    const text = printable(message);
    // one annotation of each level is kept for the count of those not shown
    if (this.shown[level] < (this.options.perLevel ?? ANNOTATIONS_PER_LEVEL) - 1) {
      this.shown[level]++;
      this.write(workflowCommand(level, { file, line: props.line, title: printable(props.title) }, text));
    } else {
      this.hidden[level]++;
      this.firstHidden[level] ??= workflowCommand(level, { file, line: props.line, title: printable(props.title) }, text);
      this.write(`guard: ${file}${props.line === undefined ? '' : `:${props.line}`}: ${level} ${printable(props.title)}: ${text}\n`);
    }
  }

  reply(j: JudgedReply): void {
    this.summary?.reply(j);
    const { file, line } = j.verdict.reply.source;
    for (const f of j.findings) {
      if (f.suppressed) continue;
      this.annotate(commandOf(f.level), { file, line, title: titleOf(f.ruleId) }, findingMessage(f, j.verdict, this.options.redact ?? true));
    }
  }

  error(e: CaptureError): void {
    this.summary?.error(e);
    this.annotate(e.severity === 'error' ? 'error' : 'warning', { file: e.file, ...(e.line !== null ? { line: e.line } : {}), title: `guard ${e.code}` }, e.message);
  }

  fileEnd(): void {}

  finish(s: ScanSummary, end?: ScanEnd): void {
    if (s.baseline) {
      // one notice per scan, outside the per-level count: the sentence, then the stale entries
      const { lines, more } = staleEntryLines(s.baseline);
      const text = [`${baselineSentence(s.baseline)}.`, ...lines.map((l) => `stale: ${l}`), ...(more ? [`… ${more} more stale entries (see --format json)`] : [])].map(printable).join('\n');
      this.write(workflowCommand('notice', { title: 'guard baseline' }, text));
    }
    for (const level of ['error', 'warning', 'notice'] as const) {
      const n = this.hidden[level];
      if (n === 0) continue;
      // a lone extra fits in the slot kept for the count: it is annotated as it was logged
      if (n === 1) this.write(this.firstHidden[level]!);
      else this.write(workflowCommand(level, { title: `guard ${n} more ${level}${n === 1 ? '' : 's'}` }, `${n} more ${level} annotation${n === 1 ? ' is' : 's are'} not shown (GitHub shows ${this.options.perLevel ?? ANNOTATIONS_PER_LEVEL} of each level per step): every finding is in this step's log above${this.summary ? ' and in the job summary' : ''}.`));
    }
    if (this.summary && this.options.stepSummary) this.options.stepSummary(this.summary.render(s, this.options.failOn ?? 'refused', end));
  }
}
