/**
 * Human output of `guard scan`, for triage (the default format whatever stdout is).
 *
 * - {@link TextReporter}: per file with findings or problems, a header with its counts, then one
 *   line per finding (file:line, reply id, model, the verdict or rule, its action, a short excerpt),
 *   identical findings of a file grouped (`×19058`, by fingerprint), problems below them; clean
 *   replies are counted, not listed. A coloured summary ends the report (findings by kind, top
 *   rules, top families, problems).
 * - {@link VerboseTextReporter} (`--verbose`): every reply on its own line as it is judged, one
 *   indented line per rule hit, then the same summary.
 *
 * Colour comes from the chalk instance the CLI passes (level 0 off a TTY or under NO_COLOR), so the
 * text is the same with or without colour. Every string that comes from a capture goes through
 * {@link p} (control characters escaped visibly).
 */

import type { ChalkInstance } from 'chalk';
import type { CaptureError } from '../capture/types.js';
import { redactSecrets } from '../base/redact.js';
import { blocksReply } from '../verdict/findings.js';
import type { ReplyVerdict } from '../verdict/judge.js';
import type { FileSummary, ScanSummary } from '../verdict/summary.js';
import { findingFails, isQuotationReason, type FailOn, type Finding, type JudgedReply } from '../verdict/findings.js';
import { plural, printable as p } from './printable.js';
import type { Reporter, ScanEnd } from './reporter.js';
import { baselineSentence, staleEntryLines, type BaselineTotals } from './messages.js';

/** Longest excerpt of recovered arguments shown on a reply line, in characters. */
const ARGS_EXCERPT = 80;

/** Longest excerpt on a finding line, in characters. */
export const FINDING_EXCERPT = 72;

/** Distinct findings listed per file; more are counted on one line (`-f ndjson` has them all). */
export const MAX_GROUPS_PER_FILE = 200;

/** Problems listed per file; more are counted on one line. */
export const MAX_PROBLEMS_PER_FILE = 20;

/** Entries shown in each "top" line of the summary. */
const TOP = 5;

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

/** Where leaked markup most likely starts in a reply's text: its first special token or tag. */
const MARKUP_START = /<[|｜]|<\/?(?:tool_call|function|invoke|tool|minimax|arg_key)\b|\[TOOL_CALLS\]|<\|python_tag\|>|\{"name"\s*:/;

/** Options of the text reporters. */
export interface TextOptions {
  /** Mask secrets in excerpts (default true). */
  redact?: boolean;
  /** What fails the scan, for the summary's last line (default `refused`). */
  failOn?: FailOn;
  /** The format `--input-format` forced, if any: a file with no record of it is labelled so. */
  inputFormat?: string | null;
  /**
   * `--quiet`, as ESLint's: only what fails the scan is listed (findings that count toward exit
   * code 1 under `failOn`, error-level input problems), with no summary. Default false.
   */
  quiet?: boolean;
}

/** A file's formats for its header: those read, else why there are none. */
function formatsLabel(formats: readonly string[], forced: string | null | undefined, none: string): string {
  if (formats.length) return formats.join(', ');
  return forced ? `--input-format ${forced}: no record of it read` : none;
}

/** Counters the text summary shows beside the scan's totals. */
class Tally {
  readonly kinds = { hits: 0, refused: 0, recovered: 0, quotations: 0, beside: 0, suppressed: 0 };
  readonly families = new Map<string, number>();
  readonly rules = new Map<string, number>();
  /** Refused leaks that count (not suppressed), by reason code. */
  readonly refusedBy = new Map<string, number>();
  filesWithFindings = 0;
  /** Files with problems (errors or warnings) and no finding: neither "with findings" nor clean. */
  filesWithProblemsOnly = 0;
  /** Paths that named no file (NO_MATCH alone): counted apart from the files read. */
  pathsNotFound = 0;

  /** Counts a file that ends with problems and no finding: a path that named nothing, or a file with problems only. */
  problemsOnly(codes: readonly string[]): void {
    if (codes.length > 0 && codes.every((code) => code === 'NO_MATCH')) this.pathsNotFound++;
    else this.filesWithProblemsOnly++;
  }

  add(j: JudgedReply): number {
    let counted = 0;
    for (const f of j.findings) {
      if (f.suppressed) {
        this.kinds.suppressed++;
        continue;
      }
      counted++;
      if (f.kind === 'rule-hit') {
        this.kinds.hits++;
        this.rules.set(f.ruleId, (this.rules.get(f.ruleId) ?? 0) + 1);
      } else {
        const family = j.verdict.recovery.family ?? 'unknown';
        this.families.set(family, (this.families.get(family) ?? 0) + 1);
        if (f.kind === 'leak-recovered') this.kinds.recovered++;
        else if (f.kind === 'leak-beside-structured') this.kinds.beside++;
        else if (isQuotationReason(j.verdict.recovery.reason)) this.kinds.quotations++;
        else {
          this.kinds.refused++;
          const reason = j.verdict.recovery.reason ?? 'unknown';
          this.refusedBy.set(reason, (this.refusedBy.get(reason) ?? 0) + 1);
        }
      }
    }
    return counted;
  }
}

function top(m: ReadonlyMap<string, number> | Record<string, number>, n = TOP): string {
  const entries = (m instanceof Map ? [...m] : Object.entries(m)).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const shown = entries.slice(0, n).map(([k, v]) => `${p(k)} ${v}`);
  return `${shown.join(', ')}${entries.length > n ? `, … ${entries.length - n} more` : ''}`;
}

/**
 * The hint of a summary when leaks were refused `no_advertised_tools` (the capture does not
 * record the request's tools, so no call can be checked against them): said once per scan, with
 * the option that supplies them. Null when there were none.
 */
export function noAdvertisedToolsHint(s: ScanSummary): string | null {
  const n = s.leaks.refusedByReason['no_advertised_tools'] ?? 0;
  if (n === 0) return null;
  return `  hint: ${plural(n, 'leak was', 'leaks were')} refused no_advertised_tools: the capture does not record the tools the request advertised; --tools NAME,... (or recovery.tools in the configuration) advertises them, so the calls can be recovered`;
}

/** The baseline's lines of a summary: {@link baselineSentence}, then the stale entries. */
function baselineLines(b: BaselineTotals): string[] {
  const { lines, more } = staleEntryLines(b);
  return [
    `  ${p(baselineSentence(b))}`,
    ...lines.map((l) => `    stale: ${p(l)}`),
    ...(more ? [`    … ${more} more stale entr${more === 1 ? 'y' : 'ies'} (see --format json)`] : []),
  ];
}

/**
 * The closing summary of the text report: replies and files, findings by kind, top rules, top
 * families, problems, suppressions, and what the exit code will say.
 */
function textSummary(s: ScanSummary, t: Tally, c: ChalkInstance, failOn: FailOn, end?: ScanEnd): string {
  const k = t.kinds;
  const findings = k.hits + k.refused + k.recovered + k.quotations + k.beside;
  const lines: string[] = [];
  const clean = s.files.length - t.filesWithFindings - t.filesWithProblemsOnly;
  const split = t.filesWithFindings > 0 || t.filesWithProblemsOnly > 0;
  lines.push(
    `${c.bold('guard')}: ${plural(s.replies, 'reply', 'replies')} in ${plural(s.files.length, 'file', 'files')}` +
      (end?.interrupted ? ` ${c.yellow.bold('(interrupted: partial results)')}` : '') +
      ` · ${findings ? c.bold(plural(findings, 'finding', 'findings')) : c.green('no findings')}` +
      (t.filesWithFindings ? ` in ${plural(t.filesWithFindings, 'file', 'files')}` : '') +
      (split && t.filesWithProblemsOnly ? `${t.filesWithFindings ? ',' : ' ·'} ${plural(t.filesWithProblemsOnly, 'file', 'files')} with problems only` : '') +
      (split && clean > 0 ? `, ${plural(clean, 'file', 'files')} clean` : '') +
      (t.pathsNotFound ? ` · ${plural(t.pathsNotFound, 'path', 'paths')} naming nothing to read` : ''),
  );
  const kinds: string[] = [];
  if (k.hits) kinds.push(c.red(`${plural(k.hits, 'rule hit', 'rule hits')}${s.hits.blocked ? ` (${s.hits.blocked} blocked)` : ''}`));
  if (k.refused) kinds.push(c.red(plural(k.refused, 'refused leak', 'refused leaks')));
  if (k.recovered) kinds.push(c.yellow(plural(k.recovered, 'recovered leak', 'recovered leaks')));
  if (k.beside) kinds.push(c.yellow(plural(k.beside, 'reply with markup beside structured calls', 'replies with markup beside structured calls')));
  if (k.quotations) kinds.push(c.yellow(plural(k.quotations, 'quotation of markup', 'quotations of markup')));
  if (kinds.length) lines.push(`  by kind:      ${kinds.join(', ')}`);
  if (t.rules.size) lines.push(`  top rules:    ${top(t.rules)}`);
  if (t.families.size) lines.push(`  top families: ${top(t.families)}`);
  // only the refusals counted above (a suppressed one is in the suppressed line)
  if (t.refusedBy.size) lines.push(`  refused by:   ${top(t.refusedBy)}`);
  const problems = s.errors + s.warnings;
  if (problems) {
    const label = s.errors ? c.red(`${plural(s.errors, 'error', 'errors')}`) : c.yellow('0 errors');
    lines.push(`  problems:     ${label}, ${plural(s.warnings, 'warning', 'warnings')} (${top(s.errorsByCode)})`);
  } else lines.push(`  problems:     ${c.green('none')}`);
  const empty = s.files.filter((f) => f.replies === 0 && f.errors === 0);
  if (empty.length) {
    const names = empty.slice(0, 3).map((f) => p(f.file)).join(', ');
    lines.push(`  ${plural(empty.length, 'file', 'files')} read whole with no assistant reply (only requests, user turns or tool results): ${names}${empty.length > 3 ? ', …' : ''}`);
  }
  if (k.suppressed) lines.push(c.dim(`  suppressed:   ${s.suppressed.inline} allowed in record metadata, ${s.suppressed.baseline} in baseline (not counted)`));
  if (s.unusedAllows) lines.push(c.yellow(`  ${plural(s.unusedAllows, 'allow mark', 'allow marks')} matched no finding (listed on stderr)`));
  if (s.baseline) lines.push(...baselineLines(s.baseline));
  const hint = noAdvertisedToolsHint(s);
  if (hint !== null) lines.push(c.dim(hint));
  lines.push(exitLine(s, c, failOn, end));
  return `${lines.join('\n')}\n`;
}

/** The summary's last line: the exit code and why (problems, replies failing under `failOn`, nothing). */
function exitLine(s: ScanSummary, c: ChalkInstance, failOn: FailOn, end?: ScanEnd): string {
  const exit = s.errors > 0 ? 2 : s.failing > 0 ? 1 : 0;
  const why =
    exit === 2
      ? 'some input could not be read'
      : exit === 1
        ? `${plural(s.failing, 'reply fails', 'replies fail')} under --fail-on ${failOn}`
        : `nothing fails under --fail-on ${failOn}`;
  return `  ${(exit === 0 ? c.green : c.red)(`exit ${end?.interrupted ? 130 : exit}`)}: ${end?.interrupted ? 'interrupted; ' : ''}${why}`;
}

/** One line of a finding group. */
interface Group {
  line: number;
  id: string | null;
  model: string | null;
  finding: Finding;
  verdict: ReplyVerdict;
  count: number;
  failing: boolean;
}

/** What the text report holds for the file being read (bounded by the MAX_ constants). */
class FileBuffer {
  readonly groups = new Map<string, Group>();
  overflow = 0;
  findings = 0;
  /** Replies with at least one counted finding. */
  replies = 0;
  readonly problems: CaptureError[] = [];
  moreProblems = 0;
  errors = 0;
  warnings = 0;
}

/** The verdict or rule of a finding, coloured, and its action. */
function findingLabel(f: Finding, v: ReplyVerdict, c: ChalkInstance): { what: string; action: string } {
  const r = v.recovery;
  const family = p(r.family ?? 'unknown');
  if (f.kind === 'rule-hit' && f.hit) {
    const blocked = blocksReply(v.inspection.mode, f.hit);
    const action = blocked ? c.red.bold('blocked') : f.hit.action === 'block' ? c.red('block') + c.dim(' (observe: would block)') : c.magenta('record');
    return { what: c.bold(p(f.ruleId)), action };
  }
  if (f.kind === 'leak-recovered') return { what: `${c.yellow('leak recovered')} ${c.dim(family)}`, action: c.yellow('recovered') };
  // markup the user saw beside the structured calls the endpoint did parse: its calls were inspected
  if (f.kind === 'leak-beside-structured') return { what: `${c.yellow('markup beside structured calls')} ${c.dim(family)}`, action: c.yellow('left in text') };
  if (isQuotationReason(r.reason)) return { what: `${c.yellow(`${r.reason} markup`)} ${c.dim(family)}`, action: c.dim('quotation') };
  return { what: `${c.red('leak refused')} ${c.bold(r.reason)} ${c.dim(family)}`, action: c.red('not recovered') };
}

/** A short excerpt for a finding: the hit's excerpt, the recovered or candidate call, or the markup. */
function findingExcerpt(f: Finding, v: ReplyVerdict, redact: boolean): string {
  if (f.kind === 'rule-hit' && f.hit) {
    // a hit's excerpt is already short (at most 120 characters) and masked, or raw under --no-redact
    const excerpt = redact ? f.hit.excerpt : (f.rawExcerpt ?? f.hit.excerpt);
    return `${f.hit.tool}: ${excerpt.replace(/\s+/g, ' ')}`;
  }
  const call = v.recovery.calls[0] ?? v.recovery.candidates[0];
  if (call) return headExcerpt(`${call.name || '?'} ${call.argumentsRaw}`, FINDING_EXCERPT, redact);
  const text = v.reply.text;
  const at = text.search(MARKUP_START);
  return headExcerpt(at > 0 ? text.slice(at) : text, FINDING_EXCERPT, redact);
}

export class TextReporter implements Reporter {
  private readonly tally = new Tally();
  private file: FileBuffer = new FileBuffer();
  private currentFile: string | null = null;
  private readonly redact: boolean;
  private readonly failOn: FailOn;
  private readonly inputFormat: string | null;
  private readonly quiet: boolean;

  constructor(
    private readonly write: (s: string) => void,
    private readonly c: ChalkInstance,
    options: TextOptions = {},
  ) {
    this.redact = options.redact ?? true;
    this.failOn = options.failOn ?? 'refused';
    this.inputFormat = options.inputFormat ?? null;
    this.quiet = options.quiet ?? false;
  }

  private at(file: string): FileBuffer {
    // events of one file come together; a file-end closes its buffer. A path that was never
    // opened (NO_MATCH, UNREADABLE before reading) has no file-end: its problems are listed when
    // the next path's events begin, so every problem is named
    if (this.currentFile !== null && this.currentFile !== file) {
      const b = this.file;
      this.fileEnd({ file: this.currentFile, formats: [], replies: b.replies, errors: b.errors + b.warnings });
    }
    if (this.currentFile !== file) {
      this.currentFile = file;
      this.file = new FileBuffer();
    }
    return this.file;
  }

  reply(j: JudgedReply): void {
    const v = j.verdict;
    const b = this.at(v.reply.source.file);
    if (this.tally.add(j) > 0) b.replies++;
    for (const f of j.findings) {
      if (f.suppressed) continue;
      b.findings++;
      const g = b.groups.get(f.fingerprint);
      if (g) {
        g.count++;
        continue;
      }
      if (b.groups.size >= MAX_GROUPS_PER_FILE) {
        b.overflow++;
        continue;
      }
      b.groups.set(f.fingerprint, { line: v.reply.source.line, id: v.reply.id, model: v.reply.model ?? null, finding: f, verdict: v, count: 1, failing: findingFails(f, this.failOn) });
    }
  }

  error(e: CaptureError): void {
    const b = this.at(e.file);
    if (e.severity === 'error') b.errors++;
    else b.warnings++;
    if (b.problems.length < MAX_PROBLEMS_PER_FILE) b.problems.push(e);
    else b.moreProblems++;
  }

  fileEnd(f: FileSummary): void {
    const b = this.at(f.file);
    this.currentFile = null;
    if (b.findings === 0 && b.problems.length === 0) return;
    if (b.findings) this.tally.filesWithFindings++;
    else this.tally.problemsOnly(b.problems.map((e) => e.code));
    // --quiet: only the failing findings and the error-level problems; a file with neither is not shown
    const groups = [...b.groups.values()].filter((g) => !this.quiet || g.failing);
    const problems = b.problems.filter((e) => !this.quiet || e.severity === 'error');
    if (this.quiet && groups.length === 0 && problems.length === 0) return;
    const { c } = this;
    const counts = [plural(f.replies, 'reply', 'replies')];
    if (b.findings) counts.push(c.bold(plural(b.findings, 'finding', 'findings')));
    if (b.errors) counts.push(c.red(plural(b.errors, 'error', 'errors')));
    if (b.warnings) counts.push(c.yellow(plural(b.warnings, 'warning', 'warnings')));
    const clean = f.replies - b.replies;
    const notFound = b.findings === 0 && b.problems.length > 0 && b.problems.every((e) => e.code === 'NO_MATCH');
    const formats = notFound ? 'nothing to read' : formatsLabel(f.formats, this.inputFormat, 'no format recognised');
    let out = `\n${c.underline(p(f.file))} ${c.dim(`(${formats})`)}  ${counts.join(' · ')}${clean > 0 && b.findings ? c.dim(` · ${clean} clean`) : ''}\n`;
    for (const g of groups) {
      const { what, action } = findingLabel(g.finding, g.verdict, c);
      const where = c.dim(`${p(f.file)}:${g.line}`);
      const who = `${c.cyan(g.id === null ? '-' : p(g.id))} ${c.dim(g.model === null ? '-' : p(g.model))}`;
      const times = g.count > 1 ? ` ${c.bold(`×${g.count.toLocaleString('en-US').replace(/,/g, ' ')}`)}` : '';
      const mark = g.failing ? c.red('✗') : c.dim('·');
      out += `  ${mark} ${where}  ${who}  ${what}  ${action}  ${c.dim(p(findingExcerpt(g.finding, g.verdict, this.redact)))}${times}\n`;
    }
    if (b.overflow) out += c.dim(`  … ${plural(b.overflow, 'more finding', 'more findings')} of other kinds in this file (-f ndjson lists every one)\n`);
    for (const e of problems) {
      const label = e.severity === 'error' ? c.red(`error ${e.code}`) : c.yellow(`warning ${e.code}`);
      out += `  ${c.dim(`${p(e.file)}${e.line === null ? '' : `:${e.line}`}`)}  ${label}  ${p(e.message)}\n`;
    }
    if (b.moreProblems) out += c.dim(`  … ${plural(b.moreProblems, 'more problem', 'more problems')} in this file\n`);
    this.write(out);
  }

  finish(summary: ScanSummary, end?: ScanEnd): void {
    // a file still open (an interrupted scan) is listed with what was seen of it
    if (this.currentFile !== null) {
      const b = this.file;
      this.fileEnd({ file: this.currentFile, formats: [], replies: b.replies, errors: b.errors + b.warnings });
    }
    if (this.quiet && !end?.interrupted) return;
    this.write(`\n${textSummary(summary, this.tally, this.c, this.failOn, end)}`);
  }
}

/**
 * `--verbose` text: grouped by file, one line per reply with its verdict, one indented line per
 * rule hit, problems where they occur, then the summary of {@link TextReporter}.
 */
export class VerboseTextReporter implements Reporter {
  private currentFile: string | null = null;
  private readonly tally = new Tally();
  private readonly redact: boolean;
  private readonly failOn: FailOn;
  private readonly inputFormat: string | null;
  private withFindings = new Set<string>();
  /** The problem codes of the file being listed (to tell a path that named nothing from a file with problems). */
  private readonly codes = new Map<string, string[]>();

  constructor(
    private readonly write: (s: string) => void,
    private readonly c: ChalkInstance,
    options: TextOptions = {},
  ) {
    this.redact = options.redact ?? true;
    this.failOn = options.failOn ?? 'refused';
    this.inputFormat = options.inputFormat ?? null;
  }

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
    const family = p(r.family ?? 'unknown');
    if (r.outcome === 'recovered') {
      const calls = r.calls.map((k) => `${p(k.name)} ${p(headExcerpt(JSON.stringify(k.arguments), ARGS_EXCERPT, this.redact))}`).join('; ');
      return `${c.yellow('leak recovered')} (${family}${ratio}) → ${calls}`;
    }
    if (r.outcome === 'refused' && isQuotationReason(r.reason)) {
      // refused, but judged a quotation of markup rather than a leak: visible, not alarming
      return `${c.yellow(`${r.reason} markup`)} (${family}${ratio}): ${p(r.detail)}`;
    }
    if (r.outcome === 'refused') return `${c.red('leak refused')} ${c.bold(r.reason)} (${family}${ratio}): ${p(r.detail)}`;
    const n = v.reply.toolCalls.length;
    const calls = n === 0 ? 'no tool calls' : `${plural(n, 'tool call', 'tool calls')} (${v.reply.toolCalls.map((k) => p(k.name)).join(', ')})`;
    // markup seen beside structured calls: a finding when it reached the user as text, else a mention kept visible
    const seen = r.family !== null ? ` · ${c.yellow(`${family} markup`)} ${c.bold(r.reason)}${ratio ? ` (${ratio.slice(2)})` : ''}` : '';
    const reasoning = r.reasoningMarkup ? ` · ${c.yellow('markup in reasoning')}` : '';
    return `${r.besideStructured === true ? c.yellow('markup beside structured calls') : c.green('no leak')} · ${calls}${seen}${reasoning}${v.reply.truncated ? c.yellow(' · truncated') : ''}`;
  }

  private suppressedText(f: Finding | undefined): string {
    const s = f?.suppressed;
    return s ? this.c.dim(` (suppressed: ${s.kind === 'inline' ? `allowed: ${p(s.justification)}` : 'baseline'})`) : '';
  }

  reply(j: JudgedReply): void {
    const { c } = this;
    const v = j.verdict;
    if (this.tally.add(j) > 0) this.withFindings.add(v.reply.source.file);
    this.header(v.reply.source.file);
    const where = c.dim(`${String(v.reply.source.line).padStart(5)}:`);
    const leak = j.findings.find((f) => f.kind !== 'rule-hit');
    this.write(`${where} ${c.cyan(v.reply.format.padEnd(23))} ${this.verdictText(v)}${this.suppressedText(leak)}\n`);
    const hitFindings = j.findings.filter((f) => f.kind === 'rule-hit');
    v.inspection.hits.forEach((h, i) => {
      const blocked = blocksReply(v.inspection.mode, h);
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
    this.codes.set(e.file, [...(this.codes.get(e.file) ?? []), e.code]);
    const { c } = this;
    this.header(e.file);
    const where = c.dim(`${e.line === null ? '    -' : String(e.line).padStart(5)}:`);
    const label = e.severity === 'error' ? c.red(`error ${e.code}`) : c.yellow(`warning ${e.code}`);
    this.write(`${where} ${label} ${p(e.message)}\n`);
  }

  fileEnd(f: FileSummary): void {
    this.header(f.file);
    if (f.errors > 0 && !this.withFindings.has(f.file)) this.tally.problemsOnly(this.codes.get(f.file) ?? []);
    this.codes.delete(f.file);
    const formats = formatsLabel(f.formats, this.inputFormat, 'none recognised');
    this.write(this.c.dim(`       ${plural(f.replies, 'reply', 'replies')} · format: ${formats}${f.errors ? ` · ${plural(f.errors, 'problem', 'problems')}` : ''}\n`));
  }

  finish(summary: ScanSummary, end?: ScanEnd): void {
    this.tally.filesWithFindings = this.withFindings.size;
    this.write(`\n${textSummary(summary, this.tally, this.c, this.failOn, end)}`);
  }
}

/**
 * The summary printed on stderr after a scan whose report is not text on stdout: files, replies,
 * leaks recovered and refused (by reason), markup judged quotations (by reason, only when there is
 * some), rule hits, and input problems; with `failOn`, last the exit code and why (as the text
 * report's own summary ends).
 */
export function formatSummary(s: ScanSummary, c: ChalkInstance, configPath: string | null = null, end?: ScanEnd, failOn?: FailOn): string {
  const lines: string[] = [];
  const refused = Object.entries(s.leaks.refusedByReason).map(([k, n]) => `${k} ${n}`).join(', ');
  const quotations = Object.entries(s.quotations.byReason).map(([k, n]) => `${k} ${n}`).join(', ');
  lines.push(
    `${c.bold('guard')}: ${end?.interrupted ? 'interrupted after ' : ''}${s.files.length} file${s.files.length === 1 ? '' : 's'}, ${s.replies} repl${s.replies === 1 ? 'y' : 'ies'}; ` +
      `leaks recovered ${s.leaks.recovered}, refused ${s.leaks.refused}${refused ? ` (${refused})` : ''}${s.leaks.besideStructured ? `, beside structured calls ${s.leaks.besideStructured}` : ''}; ` +
      (s.quotations.total ? `markup judged quotations ${s.quotations.total} (${quotations}); ` : '') +
      `rule hits ${s.hits.total}${s.hits.blocked ? ` (${s.hits.blocked} blocked)` : ''}; ` +
      `problems ${s.errors} error${s.errors === 1 ? '' : 's'}, ${s.warnings} warning${s.warnings === 1 ? '' : 's'}`,
  );
  const byRule = Object.entries(s.hits.byRule).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (byRule.length) lines.push(`  hits by rule: ${byRule.map(([k, n]) => `${p(k)} ${n}`).join(', ')}`);
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
  if (s.baseline) lines.push(...baselineLines(s.baseline));
  const hint = noAdvertisedToolsHint(s);
  if (hint !== null) lines.push(hint);
  // a guard.config.yaml picked up from the working directory changes results: say so
  if (configPath !== null) lines.push(`  configuration: ${p(configPath)}`);
  if (failOn !== undefined) lines.push(exitLine(s, c, failOn, end));
  return `${lines.join('\n')}\n`;
}
