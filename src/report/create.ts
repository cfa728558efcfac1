/** Choosing the reporter for an output format. */

import type { ChalkInstance } from 'chalk';
import type { FailOn } from '../verdict/findings.js';
import type { FindingRule } from '../verdict/catalogue.js';
import { GithubReporter } from './github.js';
import { JsonReporter } from './json.js';
import { JunitReporter } from './junit.js';
import { NdjsonReporter } from './ndjson.js';
import type { Reporter, ReportFormat } from './reporter.js';
import { SarifReporter } from './sarif.js';
import { TextReporter } from './text.js';

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
}

/** The reporter of `format`, writing through `write`. */
export function createReporter(format: ReportFormat, write: (s: string) => void, o: ReporterOptions): Reporter {
  switch (format) {
    case 'json':
      return new JsonReporter(write, o.version, { redact: o.redact });
    case 'ndjson':
      return new NdjsonReporter(write, { redact: o.redact });
    case 'sarif':
      return new SarifReporter(write, { version: o.version, rules: o.rules, cwd: o.cwd, redact: o.redact, baseline: o.baseline });
    case 'junit':
      return new JunitReporter(write, { failOn: o.failOn, redact: o.redact });
    case 'github':
      return new GithubReporter(write, { redact: o.redact });
    case 'text':
      return new TextReporter(write, o.chalk, o.redact);
  }
}
