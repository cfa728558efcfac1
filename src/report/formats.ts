/**
 * The registry of `guard scan` report formats: one record per format says how its reporter is
 * created, whether each event's output stands alone (so a worker thread can write it), and which
 * file names imply it. `--format` choices, `--output` extension inference and the worker's
 * rendering all read this list.
 */

import type { ChalkInstance } from 'chalk';
import type { FindingRule } from '../verdict/catalogue.js';
import type { FailOn } from '../verdict/findings.js';
import { GithubReporter } from './github.js';
import { JsonReporter } from './json.js';
import { JunitReporter } from './junit.js';
import { NdjsonReporter } from './ndjson.js';
import type { Reporter } from './reporter.js';
import { SarifReporter } from './sarif.js';
import { TextReporter, VerboseTextReporter } from './text.js';
import { HtmlReporter } from './html.js';
import { MarkdownReporter } from './markdown.js';
import type { RuleLinks } from './sarif.js';
import type { Pause } from './spool.js';

/** What the reporters need besides the stream they write to. */
export interface ReporterOptions {
  version: string;
  /** Every finding rule of the scan (src/verdict/catalogue.ts findingRules; SARIF declares them all). */
  rules: readonly FindingRule[];
  failOn: FailOn;
  /** Base of relative capture paths (SARIF URIs). */
  cwd: string;
  /** Mask secrets in excerpts (`--no-redact` sets false). */
  redact: boolean;
  /** True when a baseline is applied. */
  baseline: boolean;
  /** Colour for the text format. */
  chalk: ChalkInstance;
  /** Text: list every reply (`--verbose`), not only findings. */
  verbose?: boolean;
  /** Text: `--quiet`, only what fails the scan and no summary (TextOptions.quiet). */
  quiet?: boolean;
  /** The format `--input-format` forced, if any (text: a file in which no record was of it says so). */
  inputFormat?: string | null;
  /** The prose ceiling in force (the HTML report draws it on its histogram). */
  proseCeiling?: number;
  /** The project's home and the rules' documentation (SARIF `informationUri`, `helpUri`). */
  links?: RuleLinks | null;
  /** Waits until the destination drains; document formats await it while writing what they spooled. */
  pause?: Pause;
  /** GitHub: receives the Markdown job summary (the CLI appends it to `$GITHUB_STEP_SUMMARY`). */
  stepSummary?: ((markdown: string) => void) | null;
}

/** One report format. */
export interface ReportFormatSpec<N extends string = string> {
  name: N;
  /** File-name endings (lower case) that imply the format for `--output`; the longest match wins. */
  extensions: readonly string[];
  /**
   * True when the output of each reply and problem is a self-contained piece of text, with
   * nothing written around the records (NDJSON lines, GitHub workflow commands): a worker thread
   * can then write its replies' report itself (src/scan/report-pipeline.ts).
   */
  selfContained: boolean;
  /** The reporter, writing through `write`. */
  create(write: (s: string) => void, options: ReporterOptions): Reporter;
}

function define<const N extends string>(spec: ReportFormatSpec<N>): ReportFormatSpec<N> {
  return spec;
}

/** Every report format, in the order `--format` lists them. */
export const REPORT_FORMAT_SPECS = [
  define({
    name: 'text',
    extensions: ['.txt'],
    selfContained: false,
    create: (write, o) => {
      const t = { redact: o.redact, failOn: o.failOn, inputFormat: o.inputFormat ?? null, quiet: o.quiet === true };
      return o.verbose ? new VerboseTextReporter(write, o.chalk, t) : new TextReporter(write, o.chalk, t);
    },
  }),
  define({ name: 'json', extensions: ['.json'], selfContained: false, create: (write, o) => new JsonReporter(write, o.version, { redact: o.redact }, o.pause) }),
  define({ name: 'ndjson', extensions: ['.jsonl', '.ndjson'], selfContained: true, create: (write, o) => new NdjsonReporter(write, { redact: o.redact }) }),
  define({
    name: 'sarif',
    extensions: ['.sarif', '.sarif.json'],
    selfContained: false,
    create: (write, o) =>
      new SarifReporter(write, { version: o.version, rules: o.rules, cwd: o.cwd, redact: o.redact, baseline: o.baseline, links: o.links ?? null, ...(o.pause ? { pause: o.pause } : {}) }),
  }),
  define({ name: 'junit', extensions: ['.xml'], selfContained: false, create: (write, o) => new JunitReporter(write, { failOn: o.failOn, redact: o.redact }) }),
  // not self-contained: the annotations per level are capped across the whole scan
  define({ name: 'github', extensions: [], selfContained: false, create: (write, o) => new GithubReporter(write, { redact: o.redact, failOn: o.failOn, stepSummary: o.stepSummary ?? null, rules: o.rules }) }),
  define({ name: 'markdown', extensions: ['.md'], selfContained: false, create: (write, o) => new MarkdownReporter(write, { failOn: o.failOn, redact: o.redact, rules: o.rules }) }),
  define({
    name: 'html',
    extensions: ['.html', '.htm'],
    selfContained: false,
    create: (write, o) => new HtmlReporter(write, { version: o.version, rules: o.rules, failOn: o.failOn, redact: o.redact, proseCeiling: o.proseCeiling ?? null, links: o.links ?? null }),
  }),
] as const;

/** Output formats of `guard scan`. */
export type ReportFormat = (typeof REPORT_FORMAT_SPECS)[number]['name'];

/** Every format name, in registry order. */
export const REPORT_FORMATS: readonly ReportFormat[] = REPORT_FORMAT_SPECS.map((f) => f.name);

/** The spec of a format. */
export function reportFormat(name: ReportFormat): ReportFormatSpec<ReportFormat> {
  return REPORT_FORMAT_SPECS.find((f) => f.name === name)!;
}

/** The reporter of `format`, writing through `write`. */
export function createReporter(format: ReportFormat, write: (s: string) => void, options: ReporterOptions): Reporter {
  return reportFormat(format).create(write, options);
}

/**
 * The format a report file's name implies: the format with the longest extension that ends the
 * name, case-insensitive (`.sarif.json` → sarif, `.json` → json).
 *
 * @returns the format, or null when no format claims the name.
 */
export function formatFromFileName(file: string): ReportFormat | null {
  const f = file.toLowerCase();
  let best: { name: ReportFormat; length: number } | null = null;
  for (const spec of REPORT_FORMAT_SPECS) {
    for (const ext of spec.extensions) if (f.endsWith(ext) && (best === null || ext.length > best.length)) best = { name: spec.name, length: ext.length };
  }
  return best?.name ?? null;
}

/** Every extension any format claims, for messages (`.txt, .json, …`). */
export function reportExtensions(): string[] {
  return REPORT_FORMAT_SPECS.flatMap((f) => f.extensions);
}
