/**
 * SARIF 2.1.0 output (OASIS SARIF 2.1.0,
 * https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html; GitHub code scanning's subset
 * per GitHub's SARIF support page at github/docs 4d15cab9,
 * https://github.com/github/docs/blob/4d15cab9/content/code-security/reference/code-scanning/sarif-files/sarif-support.md,
 * docs/sources.md "CLI conventions"): one run whose driver declares every enabled rule
 * (the compiled inspection rules, and recovery outcomes as `guard/leak-refused/<reason>` and
 * `guard/leak-recovered`), one result per finding with its level, message, capture file and line,
 * a line-independent `partialFingerprints` entry, and suppressions (`inSource` for an allow mark,
 * `external` for the baseline). Input problems go to `invocations[0].toolExecutionNotifications`;
 * `executionSuccessful` is false when any is an error. Streamed: results are written as they come,
 * the notifications and the end last (bounded memory at any input size).
 */

import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CaptureError } from '../capture/types.js';
import type { FindingRule } from '../verdict/catalogue.js';
import type { ScanSummary } from '../verdict/summary.js';
import type { Finding, JudgedReply } from '../verdict/findings.js';
import { baselineSentence, findingMessage, staleEntryLines } from './messages.js';
import type { Reporter } from './reporter.js';
import { jsonAt, NO_PAUSE, Spool, type Pause } from './spool.js';

/** The SARIF schema URI GitHub's documentation uses. */
export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
/** The uriBaseId of capture paths: the directory guard ran in. */
export const SRCROOT = '%SRCROOT%';
/** The `partialFingerprints` key of guard's fingerprint (src/report/findings.ts). */
export const FINGERPRINT_KEY = 'guardFingerprint/v1';

type Json = Record<string, unknown>;

/** SARIF caps shortDescription at 1024 characters for GitHub; keep every text bounded. */
function clip(s: string, max = 1000): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** The SARIF reportingDescriptor of a finding rule (SARIF 2.1.0 §3.49). */
function descriptor(rule: FindingRule, links: RuleLinks | null): Json {
  const inspection = rule.kind === 'rule-hit';
  const markdown = inspection ? `**${rule.id}** (${rule.category}, default action \`${rule.action}\`): ${rule.help}` : rule.help;
  return {
    id: rule.id,
    name: rule.name,
    shortDescription: { text: clip(rule.description) },
    fullDescription: { text: inspection ? clip(`${rule.description} ${rule.help}`, 4000) : rule.help },
    help: { text: inspection ? clip(rule.help, 4000) : rule.help, markdown: inspection ? clip(markdown, 4000) : markdown },
    ...(links ? { helpUri: links.helpUri(rule.id) } : {}),
    defaultConfiguration: { level: rule.level },
    properties: inspection
      ? { category: rule.category, tags: ['security', rule.category, ...(rule.custom ? ['custom'] : [])], action: rule.action }
      : { category: rule.category, tags: ['reliability', rule.category] },
  };
}

/**
 * The artifactLocation of a capture path: relative to `cwd` (posix, each segment URI-encoded)
 * with uriBaseId {@link SRCROOT}; an absolute `file:` URI for a path outside `cwd`; `stdin` for
 * `-`.
 */
export function artifactLocation(file: string, cwd: string): Json {
  if (file === '-') return { uri: 'stdin', uriBaseId: SRCROOT };
  const abs = resolve(cwd, file);
  const rel = relative(cwd, abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return { uri: pathToFileURL(abs).href };
  return { uri: rel.split(sep).map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

function physical(file: string, line: number | null, cwd: string): Json {
  return { physicalLocation: { artifactLocation: artifactLocation(file, cwd), ...(line !== null && line > 0 ? { region: { startLine: line } } : {}) } };
}

export interface SarifOptions {
  version: string;
  /** Every finding rule of the scan (src/verdict/catalogue.ts findingRules): all are declared. */
  rules: readonly FindingRule[];
  /** Base of relative capture paths. */
  cwd: string;
  /** Mask secrets in excerpts (default true). */
  redact?: boolean;
  /** True when a baseline was applied: results then carry `baselineState`. */
  baseline?: boolean;
  /** The project's home page (`tool.driver.informationUri`) and the rules' documentation (`helpUri`). */
  links?: RuleLinks | null;
  /** Waits for the destination to drain (between chunks of spooled notifications). */
  pause?: Pause;
}

/** Where guard's documentation lives (package.json `repository`, src/cli/version.ts). */
export interface RuleLinks {
  /** The project's home page. */
  home: string;
  /** The URL of a rule's section in docs/rules.md. */
  helpUri(ruleId: string): string;
}

/**
 * Streams one SARIF log: the opening with the driver and every declared rule at the first event,
 * each result as it comes, then `invocations` (input problems, spooled in memory or a temporary
 * file until then) and the end. A result whose rule is not declared (cannot happen with one
 * compiled rule set) carries its `ruleId` without a `ruleIndex`.
 */
export class SarifReporter implements Reporter {
  private readonly notifications = new Spool();
  private readonly index = new Map<string, number>();
  private failed = false;
  private started = false;
  private results = 0;

  constructor(
    private readonly write: (s: string) => void,
    private readonly options: SarifOptions,
  ) {}

  private start(): void {
    if (this.started) return;
    this.started = true;
    const rules = this.options.rules.map((r) => descriptor(r, this.options.links ?? null));
    rules.forEach((r, i) => this.index.set(r['id'] as string, i));
    const links = this.options.links;
    const driver = { name: 'guard', version: this.options.version, semanticVersion: this.options.version, ...(links ? { informationUri: links.home } : {}), rules };
    const cwd = this.options.cwd;
    const head = {
      tool: { driver },
      originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(cwd.endsWith(sep) ? cwd : cwd + sep).href } },
      columnKind: 'utf16CodeUnits',
    };
    // the run object without its closing brace, then the results array opened
    const run = jsonAt(head, 2).replace(/\n {4}\}$/, '');
    this.write(`{\n  "$schema": ${JSON.stringify(SARIF_SCHEMA)},\n  "version": "2.1.0",\n  "runs": [\n    ${run},\n      "results": [`);
  }

  private result(f: Finding, j: JudgedReply): Json {
    const v = j.verdict;
    const ruleIndex = this.index.get(f.ruleId);
    return {
      ruleId: f.ruleId,
      ...(ruleIndex !== undefined ? { ruleIndex } : {}),
      level: f.level,
      message: { text: findingMessage(f, v, this.options.redact ?? true) },
      locations: [physical(v.reply.source.file, v.reply.source.line, this.options.cwd)],
      partialFingerprints: { [FINGERPRINT_KEY]: f.fingerprint },
      ...(f.suppressed ? { suppressions: [{ kind: f.suppressed.kind === 'inline' ? 'inSource' : 'external', status: 'accepted', justification: f.suppressed.justification }] } : {}),
      ...(this.options.baseline ? { baselineState: f.suppressed?.kind === 'baseline' ? 'unchanged' : 'new' } : {}),
      properties: {
        format: v.reply.format,
        ...(v.reply.id !== null ? { reply_id: v.reply.id } : {}),
        ...(f.hit ? { tool: f.hit.tool, call_id: f.hit.callId, via: f.hit.via } : { family: v.recovery.family, reason: v.recovery.reason }),
      },
    };
  }

  reply(j: JudgedReply): void {
    this.start();
    for (const f of j.findings) this.write(`${this.results++ ? ',' : ''}\n        ${jsonAt(this.result(f, j), 4)}`);
  }

  error(e: CaptureError): void {
    if (e.severity === 'error') this.failed = true;
    const n = {
      level: e.severity === 'error' ? 'error' : 'warning',
      message: { text: e.message },
      descriptor: { id: e.code },
      locations: [physical(e.file, e.line, this.options.cwd)],
    };
    this.notifications.add(`${this.notifications.size ? ',' : ''}\n            ${jsonAt(n, 6)}`);
  }

  fileEnd(): void {}

  async finish(summary: ScanSummary): Promise<void> {
    this.start();
    const b = summary.baseline;
    if (b) {
      // the baseline's sentence, then each stale entry (at most MAX_STALE_LISTED) as a note at the
      // place its finding had; invocations[0].properties.baseline holds the full list
      const { lines, more } = staleEntryLines(b);
      const notes: Json[] = [{ level: 'note', message: { text: `${baselineSentence(b)}${more ? ` (${more} stale entries not listed here)` : ''}.` }, descriptor: { id: 'guard/baseline' } }];
      lines.forEach((text, i) => notes.push({ level: 'note', message: { text: `Stale baseline entry: ${text}.` }, descriptor: { id: 'guard/baseline-stale' }, locations: [physical(b.stale[i]!.file, b.stale[i]!.line, this.options.cwd)] }));
      for (const note of notes) this.notifications.add(`${this.notifications.size ? ',' : ''}\n            ${jsonAt(note, 6)}`);
    }
    const n = this.notifications.size;
    this.write(`${this.results ? '\n      ' : ''}],\n      "invocations": [\n        {\n          "executionSuccessful": ${!this.failed},\n          "toolExecutionNotifications": [`);
    await this.notifications.drain(this.write, this.options.pause ?? NO_PAUSE);
    const props = b ? `,\n          "properties": ${jsonAt({ baseline: b }, 5)}` : '';
    this.write(`${n ? '\n          ' : ''}]${props}\n        }\n      ]\n    }\n  ]\n}\n`);
  }
}
