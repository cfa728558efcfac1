/**
 * `-f html -o report.html`: one self-contained page for triage in a browser. Styles and script are
 * inline and a Content-Security-Policy of `default-src 'none'` forbids every request, so the file
 * works offline and a capture cannot make it load anything.
 *
 * Streamed in bounded memory: the page's head is written at the first event; each reply with a
 * finding is written as it comes, in chunks of JSON data blocks (`<script type="application/json"
 * class="guard-data">`); a later reply whose findings are identical to an earlier one (same
 * fingerprints) is written as a short reference to it, so 19 058 hits of one call cost one entry and
 * 19 057 locations. Clean replies are only counted. The summary (model × outcome, family × reason,
 * rule × action, files, a histogram of prose ratios with the ceiling, problems; each rule's ATT&CK
 * technique) is written last, and
 * the page's script (./html-assets.ts) builds the tables, the filters (rule, family, reason, model,
 * file), the search and a paginated list of findings, and shows one finding at a time: the reply
 * text with its markup highlighted, the recovered or candidate calls, and the rule hits with their
 * excerpts.
 *
 * Every capture string is data (JSON, `<` escaped), rendered with textContent by the script, never
 * as HTML. Secrets are masked (unless `--no-redact`) in excerpts, in the reply text and in call
 * arguments: the page is for people, not a harness.
 */

import type { CaptureError } from '../capture/types.js';
import { redactSecrets } from '../base/redact.js';
import { attackUrl, type FindingRule } from '../verdict/catalogue.js';
import { isQuotationReason, type FailOn, type JudgedReply } from '../verdict/findings.js';
import type { FileSummary, ScanSummary } from '../verdict/summary.js';
import { HTML_SCRIPT, HTML_STYLE } from './html-assets.js';
import { baselineSentence, findingMessage, staleEntryLines } from './messages.js';
import type { Reporter, ScanEnd } from './reporter.js';
import type { RuleLinks } from './sarif.js';
import { wellFormedJson } from '../base/json.js';

/** Entries per JSON data block. */
const CHUNK = 200;
/** Characters of a reply's text kept for the page (around the markup). */
export const HTML_TEXT_CHARS = 6000;
/** Characters of a call's arguments kept. */
const ARGS_CHARS = 2000;
/** Distinct reply fingerprints remembered for grouping; beyond, every reply is its own entry. */
const MAX_GROUPS = 200_000;
/** Problems listed on the page. */
const MAX_PROBLEMS = 1000;
/** Findings listed in the page's static table; the rest are counted. */
const MAX_STATIC_ROWS = 5000;
/** Histogram bins over the prose ratio 0..1. */
export const HISTOGRAM_BINS = 50;
/** Distinct models, files, families counted in the tables (more are summed as "other"). */
const MAX_KEYS = 5000;

export interface HtmlOptions {
  version: string;
  rules: readonly FindingRule[];
  failOn: FailOn;
  redact?: boolean;
  /** The prose ceiling in force (drawn on the histogram), or null. */
  proseCeiling?: number | null;
  links?: RuleLinks | null;
}

/** JSON for a `<script type="application/json">` element: `<` escaped, so `</script>` cannot end it. */
export function scriptJson(value: unknown): string {
  return wellFormedJson(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Text escaped for HTML element content and attributes. */
export function htmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The first characters of `s` (cut at a code point), marking the cut. */
function cap(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${s.slice(0, end)}…`;
}

/** Where the markup most likely starts (as the text report's excerpt does). */
const MARKUP_START = /<[|｜]|<\/?(?:tool_call|function|invoke|tool|minimax|arg_key)\b|\[TOOL_CALLS\]|<\|python_tag\|>/;

/** The part of a reply's text the page shows: all of it when short, else a window from just before the markup. */
function textWindow(text: string): { text: string; offset: number } {
  if (text.length <= HTML_TEXT_CHARS) return { text, offset: 0 };
  const at = Math.max(0, text.search(MARKUP_START));
  const start = Math.max(0, Math.min(at - 500, text.length - HTML_TEXT_CHARS));
  return { text: cap(text.slice(start), HTML_TEXT_CHARS), offset: start };
}

type Counts = Record<string, Record<string, number>>;

function bump2(m: Counts, a: string, b: string, n = 1): void {
  if (!m[a] && Object.keys(m).length >= MAX_KEYS) a = '(other)';
  const row = (m[a] ??= {});
  row[b] = (row[b] ?? 0) + n;
}

/** The outcome columns of the model table, for one reply. */
function outcomes(j: JudgedReply): string[] {
  const r = j.verdict.recovery;
  const out: string[] = [];
  if (j.verdict.inspection.hits.length) out.push(j.verdict.inspection.outcome === 'block' ? 'blocked' : 'rule hit');
  if (r.outcome === 'recovered') out.push('leak recovered');
  else if (r.outcome === 'refused') out.push(isQuotationReason(r.reason) ? 'quotation' : 'leak refused');
  else if (r.besideStructured === true) out.push('markup beside calls');
  if (out.length === 0) out.push('clean');
  return out;
}

export class HtmlReporter implements Reporter {
  private started = false;
  private chunk: unknown[] = [];
  private entries = 0;
  private readonly groups = new Map<string, number>();
  private readonly models: Counts = {};
  private readonly families: Counts = {};
  private readonly rules: Counts = {};
  private readonly files: Record<string, { findings: number; problems: number }> = {};
  private readonly histogram: Record<string, number[]> = {};
  private readonly problems: Array<{ file: string; line: number | null; code: string; severity: string; message: string }> = [];
  private moreProblems = 0;
  private staticShown = 0;
  private staticMore = 0;
  private readonly redact: boolean;

  constructor(
    private readonly write: (s: string) => void,
    private readonly options: HtmlOptions,
  ) {
    this.redact = options.redact ?? true;
  }

  private masked(s: string): string {
    return this.redact ? redactSecrets(s) : s;
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.write(
      '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
        // no request of any kind: the page is one file, and a capture cannot make it load anything
        `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">\n` +
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
        `<meta name="generator" content="guard ${htmlEscape(this.options.version)}">\n` +
        `<title>guard report</title>\n<style>${HTML_STYLE}</style>\n</head>\n<body>\n` +
        '<header><h1>guard report</h1><p id="status">The findings are listed below; the page\'s script adds the filters, the search and each finding\'s markup.</p></header>\n<main id="app"></main>\n' +
        // static HTML, read without the script (which hides it and builds its own tables): one row per finding as it comes
        '<section id="static-report"><h2>Findings</h2>\n<table id="static-findings"><thead><tr><th>level</th><th>where</th><th>rule</th><th>message</th></tr></thead><tbody>\n',
    );
  }

  private flushChunk(): void {
    if (this.chunk.length === 0) return;
    this.write(`<script type="application/json" class="guard-data">${scriptJson(this.chunk)}</script>\n`);
    this.chunk = [];
  }

  private push(entry: unknown): void {
    this.start();
    this.chunk.push(entry);
    if (this.chunk.length >= CHUNK) this.flushChunk();
  }

  /** The static rows of a reply's findings (at most {@link MAX_STATIC_ROWS} in the page; the rest counted). */
  private staticRows(j: JudgedReply): void {
    this.start();
    const v = j.verdict;
    let rows = '';
    for (const x of j.findings) {
      if (this.staticShown >= MAX_STATIC_ROWS) {
        this.staticMore++;
        continue;
      }
      this.staticShown++;
      const rule = `${x.ruleId}${x.suppressed ? ` (suppressed: ${x.suppressed.kind})` : ''}`;
      rows += `<tr class="level-${x.level}"><td>${x.level}</td><td>${htmlEscape(`${v.reply.source.file}:${v.reply.source.line}`)}</td><td>${htmlEscape(rule)}</td><td>${htmlEscape(findingMessage(x, v, this.redact))}</td></tr>\n`;
    }
    if (rows !== '') this.write(rows);
  }

  reply(j: JudgedReply): void {
    const v = j.verdict;
    const r = v.recovery;
    const { file, line } = v.reply.source;
    const model = v.reply.model ?? '-';
    for (const o of outcomes(j)) bump2(this.models, model, o);
    if (r.family !== null) bump2(this.families, r.family, r.reason);
    for (const h of v.inspection.hits) bump2(this.rules, h.rule, v.inspection.mode === 'enforce' && h.action === 'block' ? 'blocked' : h.action);
    if (r.proseRatio !== null) {
      const kind =
        r.outcome === 'recovered' ? 'recovered' : r.outcome === 'refused' ? (isQuotationReason(r.reason) ? 'quotation' : 'refused') : r.besideStructured === true ? 'beside calls' : 'none';
      const bins = (this.histogram[kind] ??= new Array<number>(HISTOGRAM_BINS).fill(0));
      bins[Math.min(HISTOGRAM_BINS - 1, Math.floor(r.proseRatio * HISTOGRAM_BINS))]!++;
    }
    if (j.findings.length === 0) return;
    this.staticRows(j);
    const f = (this.files[file] ??= { findings: 0, problems: 0 });
    f.findings += j.findings.filter((x) => !x.suppressed).length;
    const key = j.findings.map((x) => `${x.fingerprint}${x.suppressed ? `:${x.suppressed.kind}` : ''}`).join(',');
    const seen = this.groups.get(key);
    if (seen !== undefined) {
      this.push({ dup: seen, file, line, id: v.reply.id });
      return;
    }
    const index = this.entries++;
    if (this.groups.size < MAX_GROUPS) this.groups.set(key, index);
    const window = textWindow(v.reply.text);
    const args = (s: string) => this.masked(cap(s, ARGS_CHARS));
    this.push({
      i: index,
      file,
      line,
      id: v.reply.id,
      model: v.reply.model ?? null,
      format: v.reply.format,
      outcome: r.outcome,
      reason: r.reason,
      family: r.family,
      prose_ratio: r.proseRatio === null ? null : Math.round(r.proseRatio * 10_000) / 10_000,
      detail: r.detail,
      failing: j.failing,
      text: this.masked(window.text),
      text_offset: window.offset,
      text_length: v.reply.text.length,
      calls: r.calls.map((c) => ({ name: c.name, arguments: args(c.argumentsRaw) })),
      candidates: r.candidates.map((c) => ({ name: c.name, arguments: args(c.argumentsRaw), error: c.argumentsError })),
      tool_calls: v.reply.toolCalls.map((c) => ({ name: c.name, id: c.id, arguments: args(c.argumentsRaw) })),
      hits: v.inspection.hits.map((h, k) => {
        const hf = j.findings.filter((x) => x.kind === 'rule-hit')[k];
        return { rule: h.rule, action: h.action, category: h.category, tool: h.tool, call_id: h.callId, via: h.via, excerpt: this.redact ? h.excerpt : (hf?.rawExcerpt ?? h.excerpt) };
      }),
      findings: j.findings.map((x) => ({ rule_id: x.ruleId, kind: x.kind, level: x.level, fingerprint: x.fingerprint, suppressed: x.suppressed, message: findingMessage(x, v, this.redact) })),
    });
  }

  error(e: CaptureError): void {
    this.start();
    if (!this.files[e.file] && Object.keys(this.files).length < MAX_KEYS * 20) this.files[e.file] = { findings: 0, problems: 0 };
    const f = this.files[e.file];
    if (f) f.problems++;
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ file: e.file, line: e.line, code: e.code, severity: e.severity, message: this.masked(e.message) });
    else this.moreProblems++;
  }

  fileEnd(_f: FileSummary): void {}

  finish(s: ScanSummary, end?: ScanEnd): void {
    this.start();
    this.flushChunk();
    {
      const exit = end?.interrupted ? 130 : s.errors > 0 ? 2 : s.failing > 0 ? 1 : 0;
      const empty = this.staticShown === 0 ? '<tr><td colspan="4">no findings</td></tr>\n' : '';
      const more = this.staticMore ? `<p>… ${this.staticMore} more findings (see --format json)</p>` : '';
      const totals = `${s.replies} replies in ${s.files.length} files · rule hits ${s.hits.total}, refused leaks ${s.leaks.refused}, recovered ${s.leaks.recovered}, quotations ${s.quotations.total} · problems ${s.errors} errors, ${s.warnings} warnings · exit ${exit}${end?.interrupted ? ' · interrupted: partial results' : ''}`;
      this.write(`${empty}</tbody></table>${more}\n<p id="static-totals">${htmlEscape(totals)}</p></section>\n`);
    }
    const ruleInfo: Record<string, { description: string; category: string; help_uri: string | null; attack: string | null; attack_url: string | null }> = {};
    for (const r of this.options.rules) {
      ruleInfo[r.id] = { description: r.description, category: r.category, help_uri: this.options.links?.helpUri(r.id) ?? null, attack: r.attack, attack_url: r.attack ? attackUrl(r.attack) : null };
    }
    const summary = {
      version: this.options.version,
      generated: new Date().toISOString(),
      interrupted: end?.interrupted === true,
      fail_on: this.options.failOn,
      prose_ceiling: this.options.proseCeiling ?? null,
      redacted: this.redact,
      totals: {
        files: s.files.length,
        replies: s.replies,
        recovered: s.leaks.recovered,
        refused: s.leaks.refused,
        beside_structured: s.leaks.besideStructured,
        quotations: s.quotations.total,
        hits: s.hits.total,
        blocked: s.hits.blocked,
        failing: s.failing,
        errors: s.errors,
        warnings: s.warnings,
        suppressed: s.suppressed.inline + s.suppressed.baseline,
      },
      exit_code: end?.interrupted ? 130 : s.errors > 0 ? 2 : s.failing > 0 ? 1 : 0,
      models: this.models,
      families: this.families,
      rules: this.rules,
      rule_info: ruleInfo,
      files: s.files.slice(0, 100_000).map((f) => ({ file: f.file, formats: f.formats, replies: f.replies, findings: this.files[f.file]?.findings ?? 0, problems: this.files[f.file]?.problems ?? f.errors })),
      histogram: { bins: HISTOGRAM_BINS, series: this.histogram },
      baseline: s.baseline,
      problems: this.problems,
      more_problems: this.moreProblems,
    };
    if (s.baseline) {
      // static HTML: read without the script
      const { lines, more } = staleEntryLines(s.baseline);
      const items = [...lines.map((l) => `<li>stale: ${htmlEscape(l)}</li>`), ...(more ? [`<li>… ${more} more stale entries (see --format json)</li>`] : [])];
      this.write(`<section id="baseline"><h2>Baseline</h2><p>${htmlEscape(baselineSentence(s.baseline))}.</p>${items.length ? `<ul>${items.join('')}</ul>` : ''}</section>\n`);
    }
    this.write(`<script type="application/json" id="guard-summary">${scriptJson(summary)}</script>\n<script>${HTML_SCRIPT}</script>\n</body>\n</html>\n`);
  }
}
