/**
 * SARIF 2.1.0 output (OASIS SARIF 2.1.0; GitHub code scanning's subset per
 * ../shared/research/cli-conventions.md §4): one run whose driver declares every enabled rule
 * (the compiled inspection rules, and recovery outcomes as `guard/leak-refused/<reason>` and
 * `guard/leak-recovered`), one result per finding with its level, message, capture file and line,
 * a line-independent `partialFingerprints` entry, and suppressions (`inSource` for an allow mark,
 * `external` for the baseline). Input problems go to `invocations[0].toolExecutionNotifications`;
 * `executionSuccessful` is false when any is an error. Written once at the end.
 */

import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CaptureError } from '../capture/types.js';
import type { Rule } from '../inspection/rule.js';
import { REASON_CODES, REASON_OUTCOME } from '../recovery/types.js';
import type { ScanSummary } from '../scan/summary.js';
import { isQuotationReason, LEAK_RECOVERED_RULE, LEAK_REFUSED_PREFIX, refusedLevel, type Finding, type FindingLevel, type JudgedReply } from './findings.js';
import { findingMessage } from './messages.js';
import type { Reporter } from './reporter.js';

/** The SARIF schema URI GitHub's documentation uses. */
export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
/** The uriBaseId of capture paths: the directory guard ran in. */
export const SRCROOT = '%SRCROOT%';
/** The `partialFingerprints` key of guard's fingerprint (src/report/findings.ts). */
export const FINGERPRINT_KEY = 'guardFingerprint/v1';

/** Reason codes whose outcome is `refused`, from the recovery engine's list. */
export function refusedReasons(): string[] {
  return REASON_CODES.filter((c) => REASON_OUTCOME[c] === 'refused');
}

type Json = Record<string, unknown>;

/** SARIF caps shortDescription at 1024 characters for GitHub; keep every text bounded. */
function clip(s: string, max = 1000): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

function levelOfAction(action: Rule['action']): FindingLevel {
  return action === 'block' ? 'error' : 'warning';
}

/** A reportingDescriptor for an inspection rule. */
function inspectionDescriptor(rule: Rule): Json {
  const level = levelOfAction(rule.action);
  return {
    id: rule.id,
    name: rule.name,
    shortDescription: { text: clip(rule.description) },
    fullDescription: { text: clip(`${rule.description} ${rule.help}`, 4000) },
    help: { text: clip(rule.help, 4000), markdown: clip(`**${rule.id}** (${rule.category}, default action \`${rule.action}\`): ${rule.help}`, 4000) },
    defaultConfiguration: { level },
    properties: { category: rule.category, tags: ['security', rule.category, ...(rule.custom ? ['custom'] : [])], action: rule.action },
  };
}

/** A reportingDescriptor for a refused-leak reason. */
function refusedDescriptor(reason: string): Json {
  const quotation = isQuotationReason(reason);
  const text = quotation
    ? `Tool-call markup judged a quotation, not a leak: reason ${reason}.`
    : `Leaked tool-call markup was not recovered: reason ${reason}.`;
  const help = quotation
    ? `The reply's visible text holds tool-call markup that guard judged a quotation (reason code ${reason}; docs/reason-codes.md explains each code): the reply shows or explains the syntax rather than making a call, so nothing was recovered. Reported as a note; it fails a scan only under --fail-on quoted.`
    : `The reply's visible text holds tool-call markup that the endpoint did not parse, and guard refused to read the call back out (reason code ${reason}; docs/reason-codes.md explains each code). The agent lost this tool call: check the endpoint's tool-call parser for this model family.`;
  return {
    id: `${LEAK_REFUSED_PREFIX}${reason}`,
    name: `leak-refused-${reason}`,
    shortDescription: { text },
    fullDescription: { text: help },
    help: { text: help, markdown: help },
    defaultConfiguration: { level: refusedLevel(reason) },
    properties: { category: 'leaked-markup', tags: ['reliability', 'leaked-markup'] },
  };
}

function recoveredDescriptor(): Json {
  const help =
    'The reply\'s visible text holds tool-call markup that the endpoint did not parse; guard read the call back out safely (every check of the recovery contract held). The endpoint still returned the call as text: check its tool-call parser for this model family.';
  return {
    id: LEAK_RECOVERED_RULE,
    name: 'leak-recovered',
    shortDescription: { text: 'Leaked tool-call markup was recovered.' },
    fullDescription: { text: help },
    help: { text: help, markdown: help },
    defaultConfiguration: { level: 'warning' },
    properties: { category: 'leaked-markup', tags: ['reliability', 'leaked-markup'] },
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
  /** The compiled inspection rules (every enabled rule is declared). */
  rules: readonly Rule[];
  /** Base of relative capture paths. */
  cwd: string;
  /** Mask secrets in excerpts (default true). */
  redact?: boolean;
  /** True when a baseline was applied: results then carry `baselineState`. */
  baseline?: boolean;
}

export class SarifReporter implements Reporter {
  private readonly results: Json[] = [];
  private readonly notifications: Json[] = [];
  private readonly refusedSeen = new Set<string>();
  private failed = false;

  constructor(
    private readonly write: (s: string) => void,
    private readonly options: SarifOptions,
  ) {}

  private result(f: Finding, j: JudgedReply): Json {
    const v = j.verdict;
    if (f.kind === 'leak-refused') this.refusedSeen.add(f.ruleId.slice(LEAK_REFUSED_PREFIX.length));
    return {
      ruleId: f.ruleId,
      level: f.level,
      message: { text: findingMessage(f, v, this.options.redact ?? true) },
      locations: [physical(v.reply.source.file, v.reply.source.line, this.options.cwd)],
      partialFingerprints: { [FINGERPRINT_KEY]: f.fingerprint },
      ...(f.suppressed ? { suppressions: [{ kind: f.suppressed.kind === 'inline' ? 'inSource' : 'external', status: 'accepted', justification: f.suppressed.justification }] } : {}),
      ...(this.options.baseline ? { baselineState: f.suppressed?.kind === 'baseline' ? 'unchanged' : 'new' } : {}),
      properties: {
        format: v.reply.format,
        ...(v.reply.id !== null ? { replyId: v.reply.id } : {}),
        ...(f.hit ? { tool: f.hit.tool, callId: f.hit.callId, via: f.hit.via } : { family: v.recovery.family, reason: v.recovery.reason }),
      },
    };
  }

  reply(j: JudgedReply): void {
    for (const f of j.findings) this.results.push(this.result(f, j));
  }

  error(e: CaptureError): void {
    if (e.severity === 'error') this.failed = true;
    this.notifications.push({
      level: e.severity === 'error' ? 'error' : 'warning',
      message: { text: e.message },
      descriptor: { id: e.code },
      locations: [physical(e.file, e.line, this.options.cwd)],
    });
  }

  fileEnd(): void {}

  /** The driver's rules: inspection rules, then refused reasons, then the recovered leak. */
  private descriptors(): Json[] {
    const reasons = [...new Set([...refusedReasons(), ...this.refusedSeen])];
    return [...this.options.rules.map(inspectionDescriptor), ...reasons.map(refusedDescriptor), recoveredDescriptor()];
  }

  finish(_summary: ScanSummary): void {
    const rules = this.descriptors();
    const index = new Map(rules.map((r, i) => [r['id'] as string, i]));
    for (const r of this.results) {
      // a hit of a rule missing from the set (cannot happen with one compiled set) gets a bare descriptor
      if (!index.has(r['ruleId'] as string)) {
        index.set(r['ruleId'] as string, rules.length);
        rules.push({ id: r['ruleId'], shortDescription: { text: String(r['ruleId']) } });
      }
      r['ruleIndex'] = index.get(r['ruleId'] as string);
    }
    const doc = {
      $schema: SARIF_SCHEMA,
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: { name: 'guard', version: this.options.version, semanticVersion: this.options.version, rules },
          },
          originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(this.options.cwd.endsWith(sep) ? this.options.cwd : this.options.cwd + sep).href } },
          invocations: [{ executionSuccessful: !this.failed, toolExecutionNotifications: this.notifications }],
          results: this.results,
          columnKind: 'utf16CodeUnits',
        },
      ],
    };
    this.write(`${JSON.stringify(doc, null, 2)}\n`);
  }
}
