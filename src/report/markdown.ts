/**
 * A Markdown summary of a scan, for CI pages: GitHub's job summary (`-f github` appends it to
 * `$GITHUB_STEP_SUMMARY`), and `-f markdown` for any CI (GitLab, Buildkite annotations, a PR
 * comment). It holds counts and the first {@link MAX_ROWS} findings, so it stays small (GitHub
 * accepts at most 1 MiB per step) whatever the scan's size.
 *
 * Every string from a capture is escaped twice: control characters visibly ({@link printable}),
 * and Markdown and HTML punctuation with a backslash ({@link md}), so a capture cannot add links,
 * images, HTML or table cells to the page.
 */

import type { CaptureError } from '../capture/types.js';
import { attackUrl, type FindingRule } from '../verdict/catalogue.js';
import type { ScanSummary } from '../verdict/summary.js';
import { isQuotationReason, type FailOn, type JudgedReply } from '../verdict/findings.js';
import { baselineSentence, findingMessage, staleEntryLines } from './messages.js';
import { printable } from './printable.js';
import type { Reporter, ScanEnd } from './reporter.js';

/** Findings listed in the summary's table; the rest are counted. */
export const MAX_ROWS = 50;

/** Files listed in the summary's table of files. */
const MAX_FILES = 20;

/** Longest message in a table cell, in characters. */
const CELL = 300;

/** Escapes Markdown and inline HTML punctuation (CommonMark §2.4 backslash escapes) and control characters. */
export function md(s: string): string {
  const one = printable(s).replace(/\s+/g, ' ');
  const cut = one.length > CELL ? `${one.slice(0, CELL - 1)}…` : one;
  return cut.replace(/[\\`*_{}[\]()<>#+\-!|~"'&.:=$@^]/g, (c) => `\\${c}`);
}

interface Row {
  level: string;
  where: string;
  rule: string;
  message: string;
}

/** Accumulates what the summary shows, event by event. */
export class MarkdownSummary {
  private readonly rows: Row[] = [];
  private more = 0;
  private readonly rules = new Map<string, number>();
  private readonly families = new Map<string, number>();
  private readonly files = new Map<string, { findings: number; problems: number }>();
  /** Replies with at least one unsuppressed finding, and the files they are in. */
  private findingReplies = 0;
  private findingFiles = 0;
  private lastFindingFile: string | null = null;
  private readonly kinds = { hits: 0, refused: 0, recovered: 0, quotations: 0, beside: 0 };
  private readonly problems: Row[] = [];
  private moreProblems = 0;
  /** The ATT&CK technique of each rule that has one. */
  private readonly attack = new Map<string, string>();

  /**
   * @param redact mask secrets in messages.
   * @param rules the scan's finding rules, for the ATT&CK technique of each rule in the rule table.
   */
  constructor(
    private readonly redact = true,
    rules: readonly FindingRule[] = [],
  ) {
    for (const r of rules) if (r.attack) this.attack.set(r.id, r.attack);
  }

  private file(name: string): { findings: number; problems: number } {
    let f = this.files.get(name);
    if (!f) {
      f = { findings: 0, problems: 0 };
      // counts for every file with findings would grow with the input: keep the first ones only
      if (this.files.size < 10_000) this.files.set(name, f);
    }
    return f;
  }

  reply(j: JudgedReply): void {
    const v = j.verdict;
    if (j.findings.some((f) => !f.suppressed)) {
      this.findingReplies++;
      // replies arrive file by file, in input order: a new file name is a new file with findings
      if (v.reply.source.file !== this.lastFindingFile) this.findingFiles++;
      this.lastFindingFile = v.reply.source.file;
    }
    for (const f of j.findings) {
      if (f.suppressed) continue;
      if (f.kind === 'rule-hit') {
        this.kinds.hits++;
        this.rules.set(f.ruleId, (this.rules.get(f.ruleId) ?? 0) + 1);
      } else {
        const family = v.recovery.family ?? 'unknown';
        this.families.set(family, (this.families.get(family) ?? 0) + 1);
        if (f.kind === 'leak-recovered') this.kinds.recovered++;
        else if (f.kind === 'leak-beside-structured') this.kinds.beside++;
        else if (isQuotationReason(v.recovery.reason)) this.kinds.quotations++;
        else this.kinds.refused++;
      }
      this.file(v.reply.source.file).findings++;
      if (this.rows.length < MAX_ROWS) this.rows.push({ level: f.level, where: `${v.reply.source.file}:${v.reply.source.line}`, rule: f.ruleId, message: findingMessage(f, v, this.redact) });
      else this.more++;
    }
  }

  error(e: CaptureError): void {
    this.file(e.file).problems++;
    if (this.problems.length < MAX_ROWS) this.problems.push({ level: e.severity, where: `${e.file}${e.line === null ? '' : `:${e.line}`}`, rule: e.code, message: e.message });
    else this.moreProblems++;
  }

  /** The Markdown text (ends with a newline). */
  render(s: ScanSummary, failOn: FailOn, end?: ScanEnd): string {
    const k = this.kinds;
    const total = k.hits + k.refused + k.recovered + k.quotations + k.beside;
    const exit = end?.interrupted ? 130 : s.errors > 0 ? 2 : s.failing > 0 ? 1 : 0;
    const icon = exit === 0 ? '✅' : exit === 1 ? '❌' : '⚠️';
    const out: string[] = [];
    const replies = (n: number) => `${n} repl${n === 1 ? 'y' : 'ies'}`;
    const fileCount = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
    const where = total === 0 ? '' : ` in ${replies(this.findingReplies)} of ${fileCount(this.findingFiles)}`;
    out.push(`## ${icon} guard: ${total} finding${total === 1 ? '' : 's'}${where} (${replies(s.replies)} in ${fileCount(s.files.length)} scanned)`, '');
    if (end?.interrupted) out.push('**Interrupted**: these are partial results.', '');
    out.push(
      `Exit code **${exit}**: ${exit === 2 ? 'some input could not be read' : exit === 1 ? `${s.failing} repl${s.failing === 1 ? 'y fails' : 'ies fail'} under \`--fail-on ${failOn}\`` : exit === 130 ? 'interrupted' : `nothing fails under \`--fail-on ${failOn}\``}.`,
      '',
    );
    out.push('| findings | count |', '|---|---:|');
    out.push(`| rule hits | ${k.hits} |`, `| refused leaks | ${k.refused} |`, `| recovered leaks | ${k.recovered} |`, `| markup beside structured calls | ${k.beside} |`, `| quotations of markup | ${k.quotations} |`);
    out.push(`| suppressed (allow marks, baseline) | ${s.suppressed.inline + s.suppressed.baseline} |`, `| input problems (errors, warnings) | ${s.errors}, ${s.warnings} |`, '');
    const table = (title: string, m: Map<string, number>) => {
      if (!m.size) return;
      out.push(`| ${title} | count |`, '|---|---:|');
      for (const [key, n] of [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10)) out.push(`| ${md(key)} | ${n} |`);
      out.push('');
    };
    if (this.rules.size) {
      // the ATT&CK column only when a rule of the table has a technique
      const rows = [...this.rules].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10);
      const withAttack = rows.some(([id]) => this.attack.has(id));
      out.push(withAttack ? '| rule | ATT&CK | count |' : '| rule | count |', withAttack ? '|---|---|---:|' : '|---|---:|');
      for (const [id, n] of rows) {
        const t = this.attack.get(id);
        const url = t ? attackUrl(t) : null;
        out.push(withAttack ? `| ${md(id)} | ${t ? (url ? `[${md(t)}](${url})` : md(t)) : ''} | ${n} |` : `| ${md(id)} | ${n} |`);
      }
      out.push('');
    }
    table('markup family', this.families);
    const files = [...this.files].filter(([, f]) => f.findings || f.problems).sort((a, b) => b[1].findings - a[1].findings || b[1].problems - a[1].problems || a[0].localeCompare(b[0]));
    if (files.length) {
      out.push('| file | findings | problems |', '|---|---:|---:|');
      for (const [name, f] of files.slice(0, MAX_FILES)) out.push(`| ${md(name)} | ${f.findings} | ${f.problems} |`);
      if (files.length > MAX_FILES) out.push(`| … ${files.length - MAX_FILES} more | | |`);
      out.push('');
    }
    if (this.rows.length) {
      out.push('<details open><summary>Findings</summary>', '', '| level | where | rule | message |', '|---|---|---|---|');
      for (const r of this.rows) out.push(`| ${r.level} | ${md(r.where)} | ${md(r.rule)} | ${md(r.message)} |`);
      if (this.more) out.push(`| | … ${this.more} more (see the full report) | | |`);
      out.push('', '</details>', '');
    }
    if (s.baseline) {
      const { lines, more } = staleEntryLines(s.baseline);
      out.push(`${md(baselineSentence(s.baseline))}.`, '');
      if (lines.length) {
        out.push('<details><summary>Stale baseline entries</summary>', '');
        for (const l of lines) out.push(`- ${md(l)}`);
        if (more) out.push(`- … ${more} more (see \`--format json\`)`);
        out.push('', '</details>', '');
      }
    }
    if (this.problems.length) {
      out.push('<details><summary>Input problems</summary>', '', '| severity | where | code | message |', '|---|---|---|---|');
      for (const r of this.problems) out.push(`| ${r.level} | ${md(r.where)} | ${md(r.rule)} | ${md(r.message)} |`);
      if (this.moreProblems) out.push(`| | … ${this.moreProblems} more | | |`);
      out.push('', '</details>', '');
    }
    return `${out.join('\n')}\n`;
  }
}

export interface MarkdownOptions {
  failOn: FailOn;
  redact?: boolean;
  /** The scan's finding rules (their ATT&CK techniques go in the rule table). */
  rules?: readonly FindingRule[];
}

/** `-f markdown`: the summary alone, written at the end. */
export class MarkdownReporter implements Reporter {
  private readonly summary: MarkdownSummary;

  constructor(
    private readonly write: (s: string) => void,
    private readonly options: MarkdownOptions,
  ) {
    this.summary = new MarkdownSummary(options.redact ?? true, options.rules ?? []);
  }

  reply(j: JudgedReply): void {
    this.summary.reply(j);
  }
  error(e: CaptureError): void {
    this.summary.error(e);
  }
  fileEnd(): void {}
  finish(s: ScanSummary, end?: ScanEnd): void {
    this.write(this.summary.render(s, this.options.failOn, end));
  }
}
