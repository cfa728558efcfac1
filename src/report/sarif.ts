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
 * `executionSuccessful` is false when any is an error. Written once at the end.
 */

import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CaptureError } from '../capture/types.js';
import { refusedFindingRule, type FindingRule } from '../verdict/catalogue.js';
import type { ScanSummary } from '../verdict/summary.js';
import { LEAK_REFUSED_PREFIX, type Finding, type JudgedReply } from '../verdict/findings.js';
import { findingMessage } from './messages.js';
import type { Reporter } from './reporter.js';
import { wellFormedJson } from '../base/json.js';

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
function descriptor(rule: FindingRule): Json {
  const inspection = rule.kind === 'rule-hit';
  const markdown = inspection ? `**${rule.id}** (${rule.category}, default action \`${rule.action}\`): ${rule.help}` : rule.help;
  return {
    id: rule.id,
    name: rule.name,
    shortDescription: { text: clip(rule.description) },
    fullDescription: { text: inspection ? clip(`${rule.description} ${rule.help}`, 4000) : rule.help },
    help: { text: inspection ? clip(rule.help, 4000) : rule.help, markdown: inspection ? clip(markdown, 4000) : markdown },
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
        ...(v.reply.id !== null ? { reply_id: v.reply.id } : {}),
        ...(f.hit ? { tool: f.hit.tool, call_id: f.hit.callId, via: f.hit.via } : { family: v.recovery.family, reason: v.recovery.reason }),
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

  /** The driver's rules: the scan's finding rules, plus a refused reason seen that they lack (a bug). */
  private descriptors(): Json[] {
    const known = new Set(this.options.rules.map((r) => r.id));
    const extra = [...this.refusedSeen].filter((reason) => !known.has(`${LEAK_REFUSED_PREFIX}${reason}`)).map(refusedFindingRule);
    const rules = [...this.options.rules];
    // an extra refused reason goes after the others, before the recovered leak (the last rule)
    if (extra.length) rules.splice(rules.length - 1, 0, ...extra);
    return rules.map(descriptor);
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
    this.write(`${wellFormedJson(doc, 2)}\n`);
  }
}
