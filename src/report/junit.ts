/**
 * JUnit XML output, in the shape the common consumers read (Jenkins, GitLab, the
 * `junit-report` GitHub actions; gitleaks writes the same elements,
 * https://github.com/gitleaks/gitleaks/blob/b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b/testdata/expected/report/junit_simple.xml):
 * `<testsuites>` holding one `<testsuite>` per capture file, one `<testcase>` per reply. A reply
 * that fails the scan under `--fail-on` gets a `<failure>` whose `type` is the first failing rule
 * id (`curl-pipe-shell`, `guard/leak-refused/<reason>`) and whose text lists every finding;
 * findings that do not fail (recovered leaks, suppressed findings, hits below `--fail-on`) are
 * listed in `<system-out>`. An input problem of severity error is a testcase with an `<error>`;
 * warnings go to the suite's `<system-out>`. Each suite is written when its file ends, or when it
 * holds {@link SUITE_CASES} testcases or {@link SUITE_CHARS} characters: a file with more replies is
 * written as several `<testsuite>`s of the same name, so memory stays bounded at any input size.
 */

/** Testcases of one `<testsuite>` before it is written and another begins for the same file. */
export const SUITE_CASES = 1000;

/** Characters of testcases held for one suite before it is written. */
export const SUITE_CHARS = 1024 * 1024;

import type { CaptureError } from '../capture/types.js';
import type { FailOn } from '../verdict/findings.js';
import type { FileSummary, ScanSummary } from '../verdict/summary.js';
import { findingFails, type JudgedReply } from '../verdict/findings.js';
import { baselineSentence, findingMessage, staleEntryLines } from './messages.js';
import type { Reporter } from './reporter.js';

/**
 * Escapes text for XML 1.0 element content or a double-quoted attribute. `&`, `<`, `>` (so `]]>`
 * never appears), `"` and `'` become entities; in attributes, tab, CR and LF become character
 * references so attribute normalisation keeps them. Characters XML 1.0 forbids (C0 controls other
 * than tab/CR/LF, U+FFFE, U+FFFF, lone surrogates) cannot be written even as references, so they
 * become the visible text `\u` + 4 hex digits.
 */
export function xmlEscape(s: string, attribute = false): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      out += ch + s[i + 1]!;
      i++;
    } else if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffe || c === 0xffff || (c >= 0xd800 && c <= 0xdfff)) {
      out += `\\u${c.toString(16).padStart(4, '0')}`;
    } else if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (ch === "'") out += '&apos;';
    else if (attribute && c === 0x09) out += '&#9;';
    else if (attribute && c === 0x0a) out += '&#10;';
    else if (attribute && c === 0x0d) out += '&#13;';
    else out += ch;
  }
  return out;
}

function attrs(o: Record<string, string | number>): string {
  return Object.entries(o)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v), true)}"`)
    .join('');
}

interface SuiteBuffer {
  cases: string[];
  chars: number;
  tests: number;
  failures: number;
  errors: number;
  out: string[];
}

export interface JunitOptions {
  failOn: FailOn;
  /** Mask secrets in excerpts (default true). */
  redact?: boolean;
}

export class JunitReporter implements Reporter {
  private readonly suites = new Map<string, SuiteBuffer>();
  private started = false;

  constructor(
    private readonly write: (s: string) => void,
    private readonly options: JunitOptions,
  ) {}

  private suite(file: string): SuiteBuffer {
    let s = this.suites.get(file);
    if (!s) {
      s = { cases: [], chars: 0, tests: 0, failures: 0, errors: 0, out: [] };
      this.suites.set(file, s);
    }
    return s;
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="guard">\n');
  }

  reply(j: JudgedReply): void {
    const v = j.verdict;
    const { file, line } = v.reply.source;
    const s = this.suite(file);
    s.tests++;
    const redact = this.options.redact ?? true;
    const name = `line ${line}${v.reply.id !== null ? ` reply ${v.reply.id}` : ''}`;
    const failing = j.findings.filter((f) => findingFails(f, this.options.failOn));
    const describe = (f: (typeof j.findings)[number]) =>
      `${f.ruleId} [${f.level}${f.suppressed ? `, suppressed: ${f.suppressed.kind} (${f.suppressed.justification})` : ''}]: ${findingMessage(f, v, redact)}`;
    let body = '';
    if (failing.length) {
      s.failures++;
      const first = failing[0]!;
      body += `\n      <failure${attrs({ message: findingMessage(first, v, redact), type: first.ruleId })}>${xmlEscape(failing.map(describe).join('\n'))}</failure>`;
    }
    const others = j.findings.filter((f) => !failing.includes(f));
    if (others.length) body += `\n      <system-out>${xmlEscape(others.map(describe).join('\n'))}</system-out>`;
    this.add(file, s, `    <testcase${attrs({ classname: file, name, file, line })}>${body}${body ? '\n    ' : ''}</testcase>\n`);
  }

  /** Adds a testcase to a suite; a full suite is written at once. */
  private add(file: string, s: SuiteBuffer, testcase: string): void {
    s.cases.push(testcase);
    s.chars += testcase.length;
    if (s.cases.length >= SUITE_CASES || s.chars >= SUITE_CHARS) this.flush(file);
  }

  error(e: CaptureError): void {
    const s = this.suite(e.file);
    const where = e.line === null ? 'file' : `line ${e.line}`;
    if (e.severity === 'warning') {
      // warnings beyond the first hundred of a suite are counted, not listed (bounded memory)
      if (s.out.length < 100) s.out.push(`${where}: warning ${e.code}: ${e.message}`);
      else if (s.out.length === 100) s.out.push('further warnings of this file are not listed');
      return;
    }
    s.tests++;
    s.errors++;
    this.add(
      e.file,
      s,
      `    <testcase${attrs({ classname: e.file, name: `${where} ${e.code}`, file: e.file, ...(e.line !== null ? { line: e.line } : {}) })}>\n      <error${attrs({ message: e.message, type: e.code })}/>\n    </testcase>\n`,
    );
  }

  private flush(file: string): void {
    const s = this.suites.get(file);
    if (!s) return;
    this.suites.delete(file);
    this.start();
    const out = s.out.length ? `    <system-out>${xmlEscape(s.out.join('\n'))}</system-out>\n` : '';
    this.write(`  <testsuite${attrs({ name: file, tests: s.tests, failures: s.failures, errors: s.errors, skipped: 0 })}>\n${s.cases.join('')}${out}  </testsuite>\n`);
  }

  fileEnd(f: FileSummary): void {
    this.flush(f.file);
  }

  finish(summary: ScanSummary): void {
    for (const file of [...this.suites.keys()]) this.flush(file);
    this.start();
    const b = summary.baseline;
    if (b) {
      // a suite of its own: each stale entry a skipped testcase (it fails nothing), the sentence
      // in system-out
      const { lines, more } = staleEntryLines(b);
      const cases = lines.map((l, i) => `    <testcase${attrs({ classname: `baseline ${b.file}`, name: `stale ${l}`, file: b.stale[i]!.file, line: b.stale[i]!.line })}>\n      <skipped${attrs({ message: 'stale baseline entry: no finding of this scan matched it' })}/>\n    </testcase>\n`);
      const out = `${baselineSentence(b)}${more ? `; ${more} more stale entries not listed (see --format json)` : ''}`;
      this.write(`  <testsuite${attrs({ name: `baseline ${b.file}`, tests: lines.length, failures: 0, errors: 0, skipped: lines.length })}>\n${cases.join('')}    <system-out>${xmlEscape(out)}</system-out>\n  </testsuite>\n`);
    }
    this.write('</testsuites>\n');
  }
}
