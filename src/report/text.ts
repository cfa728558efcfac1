/**
 * Human output of `guard scan`: grouped by file, one line per reply with its verdict, one indented
 * line per rule hit, problems where they occur. Colour comes from the chalk instance the CLI passes
 * (level 0 off a TTY or under NO_COLOR), so the text is the same with or without colour.
 */

import type { ChalkInstance } from 'chalk';
import type { CaptureError } from '../capture/types.js';
import { redactSecrets } from '../base/redact.js';
import type { ReplyVerdict } from '../verdict/judge.js';
import type { FileSummary, ScanSummary } from '../verdict/summary.js';
import { isQuotationReason, type Finding, type JudgedReply } from '../verdict/findings.js';
import { plural, printable as p } from './printable.js';
import type { Reporter } from './reporter.js';

/** Longest excerpt of recovered arguments shown on a reply line, in characters. */
const ARGS_EXCERPT = 80;

/**
 * The start of `s`, at most `max` characters with an ellipsis, whitespace collapsed and secrets
 * masked (unless `redact` is false). Secrets are masked on a wider prefix first, so a key cut by
 * the edge never shows in part.
 */
export function headExcerpt(s: string, max: number, redact = true): string {
  const head = s.slice(0, max + 400);
  const clean = (redact ? redactSecrets(head) : head).replace(/\s+/g, ' ');
  return clean.length <= max && s.length <= max + 400 ? clean : `${clean.slice(0, max - 1)}…`;
}

export class TextReporter implements Reporter {
  private currentFile: string | null = null;

  constructor(
    private readonly write: (s: string) => void,
    private readonly c: ChalkInstance,
    private readonly redact = true,
  ) {}

  private header(file: string): void {
    if (this.currentFile === file) return;
    if (this.currentFile !== null) this.write('\n');
    this.currentFile = file;
    this.write(`${this.c.underline(p(file))}\n`);
  }

  private verdictText(v: ReplyVerdict): string {
    const { c } = this;
    const r = v.recovery;
    const ratio = r.proseRatio === null ? '' : `, prose ${r.proseRatio.toFixed(2)}`;
    if (r.outcome === 'recovered') {
      const calls = r.calls.map((k) => `${p(k.name)} ${p(headExcerpt(JSON.stringify(k.arguments), ARGS_EXCERPT, this.redact))}`).join('; ');
      return `${c.yellow('leak recovered')} (${r.family}${ratio}) → ${calls}`;
    }
    if (r.outcome === 'refused' && isQuotationReason(r.reason)) {
      // refused, but judged a quotation of markup rather than a leak: visible, not alarming
      return `${c.yellow(`${r.reason} markup`)} (${r.family ?? 'unknown'}${ratio}): ${p(r.detail)}`;
    }
    if (r.outcome === 'refused') return `${c.red('leak refused')} ${c.bold(r.reason)} (${r.family ?? 'unknown'}${ratio}): ${p(r.detail)}`;
    const n = v.reply.toolCalls.length;
    const calls = n === 0 ? 'no tool calls' : `${plural(n, 'tool call', 'tool calls')} (${v.reply.toolCalls.map((k) => p(k.name)).join(', ')})`;
    // markup seen beside structured calls: not a leak, but keep it visible
    const seen = r.family !== null ? ` · ${c.yellow(`${r.family} markup`)} ${c.bold(r.reason)}${ratio ? ` (${ratio.slice(2)})` : ''}` : '';
    const reasoning = r.reasoningMarkup ? ` · ${c.yellow('markup in reasoning')}` : '';
    return `${c.green('no leak')} · ${calls}${seen}${reasoning}${v.reply.truncated ? c.yellow(' · truncated') : ''}`;
  }

  private suppressedText(f: Finding | undefined): string {
    const s = f?.suppressed;
    return s ? this.c.dim(` (suppressed: ${s.kind === 'inline' ? `allowed: ${p(s.justification)}` : 'baseline'})`) : '';
  }

  reply(j: JudgedReply): void {
    const { c } = this;
    const v = j.verdict;
    this.header(v.reply.source.file);
    const where = c.dim(`${String(v.reply.source.line).padStart(5)}:`);
    const leak = j.findings.find((f) => f.kind !== 'rule-hit');
    this.write(`${where} ${c.cyan(v.reply.format.padEnd(23))} ${this.verdictText(v)}${this.suppressedText(leak)}\n`);
    const hitFindings = j.findings.filter((f) => f.kind === 'rule-hit');
    v.inspection.hits.forEach((h, i) => {
      const blocked = v.inspection.mode === 'enforce' && h.action === 'block';
      const tag = blocked ? c.red.bold('blocked') : c.magenta('flagged');
      // under observe a block-graded hit is reported, not blocked: say what enforce would do
      const action = h.action === 'block' && !blocked ? 'block, would block under enforce' : h.action;
      const call = h.callId ? `${p(h.tool)}#${p(h.callId)}` : p(h.tool);
      const f = hitFindings[i];
      const excerpt = this.redact ? h.excerpt : (f?.rawExcerpt ?? h.excerpt);
      this.write(`${' '.repeat(7)}${tag} ${c.bold(p(h.rule))} [${action}] ${call}: ${p(excerpt)}${h.via === 'raw' ? c.dim(' (raw-text match)') : ''}${this.suppressedText(f)}\n`);
    });
  }

  error(e: CaptureError): void {
    const { c } = this;
    this.header(e.file);
    const where = c.dim(`${e.line === null ? '    -' : String(e.line).padStart(5)}:`);
    const label = e.severity === 'error' ? c.red(`error ${e.code}`) : c.yellow(`warning ${e.code}`);
    this.write(`${where} ${label} ${p(e.message)}\n`);
  }

  fileEnd(f: FileSummary): void {
    this.header(f.file);
    const formats = f.formats.length ? f.formats.join(', ') : 'none recognised';
    this.write(this.c.dim(`       ${plural(f.replies, 'reply', 'replies')} · format: ${formats}${f.errors ? ` · ${plural(f.errors, 'problem', 'problems')}` : ''}\n`));
  }

  finish(): void {}
}

/**
 * The summary printed on stderr after every scan: files, replies, leaks recovered and refused
 * (by reason), markup judged quotations (by reason, only when there is some), rule hits, and
 * input problems.
 */
export function formatSummary(s: ScanSummary, c: ChalkInstance, configPath: string | null = null): string {
  const lines: string[] = [];
  const refused = Object.entries(s.leaks.refusedByReason).map(([k, n]) => `${k} ${n}`).join(', ');
  const quotations = Object.entries(s.quotations.byReason).map(([k, n]) => `${k} ${n}`).join(', ');
  lines.push(
    `${c.bold('guard')}: ${s.files.length} file${s.files.length === 1 ? '' : 's'}, ${s.replies} repl${s.replies === 1 ? 'y' : 'ies'}; ` +
      `leaks recovered ${s.leaks.recovered}, refused ${s.leaks.refused}${refused ? ` (${refused})` : ''}; ` +
      (s.quotations.total ? `markup judged quotations ${s.quotations.total} (${quotations}); ` : '') +
      `rule hits ${s.hits.total}${s.hits.blocked ? `, replies blocked ${s.hits.blocked}` : ''}; ` +
      `problems ${s.errors} error${s.errors === 1 ? '' : 's'}, ${s.warnings} warning${s.warnings === 1 ? '' : 's'}`,
  );
  const byRule = Object.entries(s.hits.byRule).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (byRule.length) lines.push(`  hits by rule: ${byRule.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  const byCode = Object.entries(s.errorsByCode).sort((a, b) => a[0].localeCompare(b[0]));
  if (byCode.length) lines.push(`  problems by code: ${byCode.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  // a file read whole with no reply (requests, user turns, tool results only) is fine, and said
  const empty = s.files.filter((f) => f.replies === 0 && f.errors === 0);
  if (empty.length) {
    const names = empty.slice(0, 3).map((f) => p(f.file)).join(', ');
    lines.push(`  ${plural(empty.length, 'file', 'files')} read whole with no assistant reply (only requests, user turns or tool results): ${names}${empty.length > 3 ? ', …' : ''}`);
  }
  const { inline, baseline } = s.suppressed;
  if (inline || baseline) lines.push(`  suppressed: ${inline} allowed in record metadata, ${baseline} in baseline (not counted)`);
  if (s.unusedAllows) lines.push(`  ${s.unusedAllows} allow mark${s.unusedAllows === 1 ? '' : 's'} matched no finding`);
  if (s.baseline) {
    const { file, matched, stale } = s.baseline;
    lines.push(`  baseline ${file}: ${matched} entr${matched === 1 ? 'y' : 'ies'} matched, ${stale.length} stale`);
    for (const e of stale.slice(0, 20)) lines.push(`    stale: ${p(e.rule_id || '?')} ${p(e.file)}:${e.line} (${p(e.fingerprint)})`);
    if (stale.length > 20) lines.push(`    … ${stale.length - 20} more stale entries (see --format json)`);
  }
  // a guard.config.yaml picked up from the working directory changes results: say so
  if (configPath !== null) lines.push(`  configuration: ${p(configPath)}`);
  return `${lines.join('\n')}\n`;
}
