/**
 * The output contract: one JSON record per reply (NDJSON and the `results` of JSON output), and one
 * per input problem. Field names are snake_case and stable; README "Output" and schema/reply-record.schema.json document them.
 */

import type { CaptureError, CaptureFormat } from '../capture/types.js';
import type { ReplyVerdict } from '../verdict/judge.js';
import type { ScanSummary } from '../verdict/summary.js';
import { findingsOf, type Finding, type Suppression } from '../verdict/findings.js';
import { redactSecrets } from '../base/redact.js';
import { blocksReply } from '../verdict/findings.js';
import { MAX_ARGUMENT_DEPTH } from '../base/json.js';

/** A suppressed finding in records: `inline` (allow mark) or `baseline`, with its justification. */
export type SuppressionRecord = Suppression;

export interface CallRecord {
  id: string;
  name: string;
  /** The parsed JSON value (numbers beyond double precision are rounded here, exact only in
   * `arguments_raw`); secrets in its strings masked unless `--no-redact`. */
  arguments: Record<string, unknown>;
  /** The exact argument text from the markup (RecoveredCall.argumentsRaw; docs/recovery.md says
   * what it is per family); secrets masked unless `--no-redact`. */
  arguments_raw: string;
}


/**
 * A copy of an arguments value whose strings have their secrets masked (../base/redact.ts); keys,
 * numbers and structure unchanged (recovery refuses arguments nested deeper than
 * MAX_ARGUMENT_DEPTH, so every string is reached). Returns `v` itself when nothing was masked.
 */
function maskedValue(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return redactSecrets(v);
  if (depth > MAX_ARGUMENT_DEPTH || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out = v.map((x) => maskedValue(x, depth + 1));
    return out.some((x, i) => x !== v[i]) ? out : v;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const m = maskedValue(x, depth + 1);
    if (m !== x) changed = true;
    Object.defineProperty(out, k, { value: m, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : v;
}

export interface HitRecord {
  rule: string;
  action: 'block' | 'record';
  category: string;
  tool: string;
  call_id: string | null;
  /** `tool_call_blocked` when the reply is blocked by this hit under enforce, else `tool_call_flagged`. */
  event: 'tool_call_flagged' | 'tool_call_blocked';
  via: 'shell' | 'path' | 'raw';
  /** At most 120 characters around the match; secrets masked unless `--no-redact`. */
  excerpt: string;
}

/** One finding of a reply (src/report/findings.ts): a rule hit, a refused leak or a recovered leak. */
export interface FindingRecord {
  /** Inspection rule id, `guard/leak-refused/<reason>` or `guard/leak-recovered`. */
  rule_id: string;
  kind: 'rule-hit' | 'leak-refused' | 'leak-recovered' | 'leak-beside-structured';
  level: 'error' | 'warning' | 'note';
  /** Line-independent fingerprint (32 hex digits), the key of baseline entries. */
  fingerprint: string;
  /** Null when the finding counts; else why it does not (`inline` allow mark or `baseline`). */
  suppressed: SuppressionRecord | null;
}

export interface ReplyRecord {
  file: string;
  line: number;
  id: string | null;
  format: CaptureFormat;
  model: string | null;
  advertised: string[] | null;
  truncated: boolean;
  tool_calls: Array<{ id: string | null; name: string; kind: string; arguments_error: string | null }>;
  recovery: {
    outcome: 'none' | 'recovered' | 'refused';
    reason: string;
    family: string | null;
    prose_ratio: number | null;
    calls: CallRecord[];
    /** Calls the family parsed out of a refused leak (never dispatched; inspected all the same). */
    candidates: Array<{ id: string; name: string; arguments: Record<string, unknown> | null; arguments_raw: string; arguments_error: string | null }>;
    detail: string;
  };
  inspection: {
    mode: 'off' | 'observe' | 'enforce';
    outcome: 'pass' | 'flag' | 'block';
    hits: HitRecord[];
  };
  /** The reply's findings: one per hit, then the leak (refused or recovered), if any. */
  findings: FindingRecord[];
}

export interface ErrorRecord {
  file: string;
  line: number | null;
  error: { code: string; message: string; severity: 'error' | 'warning' };
}

/** Ratios are reported to 4 decimals so outputs are stable across platforms. */
function round4(x: number | null): number | null {
  return x === null ? null : Math.round(x * 10_000) / 10_000;
}

/** Options of {@link replyRecord}. */
export interface RecordOptions {
  /** Mask secrets in excerpts (default true); false cuts them from the raw text (`--no-redact`). */
  redact?: boolean;
}

/**
 * Converts a judged reply into its output record.
 *
 * @param findings the reply's findings with their suppressions (default: {@link findingsOf}, none
 *   suppressed), in findingsOf order: one per hit, then the leak.
 */
export function replyRecord(v: ReplyVerdict, findings: readonly Finding[] = findingsOf(v), options: RecordOptions = {}): ReplyRecord {
  const { reply, recovery, inspection } = v;
  const redact = options.redact ?? true;
  const mask = (v: unknown): unknown => (redact ? maskedValue(v) : v);
  const hitFindings = findings.filter((f) => f.kind === 'rule-hit');
  return {
    file: reply.source.file,
    line: reply.source.line,
    id: reply.id,
    format: reply.format,
    model: reply.model ?? null,
    advertised: reply.advertised === null ? null : reply.advertised.map((t) => t.name),
    truncated: reply.truncated,
    tool_calls: reply.toolCalls.map((c) => ({ id: c.id, name: c.name, kind: c.kind, arguments_error: c.argumentsError })),
    recovery: {
      outcome: recovery.outcome,
      reason: recovery.reason,
      family: recovery.family,
      prose_ratio: round4(recovery.proseRatio),
      calls: recovery.calls.map((c) => ({ id: c.id, name: c.name, arguments: mask(c.arguments) as Record<string, unknown>, arguments_raw: mask(c.argumentsRaw) as string })),
      candidates: recovery.candidates.map((c) => ({ id: c.id, name: c.name, arguments: mask(c.arguments) as Record<string, unknown> | null, arguments_raw: mask(c.argumentsRaw) as string, arguments_error: c.argumentsError })),
      detail: recovery.detail,
    },
    inspection: {
      mode: inspection.mode,
      outcome: inspection.outcome,
      hits: inspection.hits.map((h, i) => ({
        rule: h.rule,
        action: h.action,
        category: h.category,
        tool: h.tool,
        call_id: h.callId,
        event: blocksReply(inspection.mode, h) ? 'tool_call_blocked' : 'tool_call_flagged',
        via: h.via,
        excerpt: redact ? h.excerpt : (hitFindings[i]?.rawExcerpt ?? h.excerpt),
      })),
    },
    findings: findings.map((f) => ({ rule_id: f.ruleId, kind: f.kind, level: f.level, fingerprint: f.fingerprint, suppressed: f.suppressed })),
  };
}

/** Converts an input problem into its output record. */
export function errorRecord(e: CaptureError): ErrorRecord {
  return { file: e.file, line: e.line, error: { code: e.code, message: e.message, severity: e.severity } };
}

/** The totals of a scan as JSON output writes them (`stats`; snake_case keys). */
export interface SummaryRecord {
  files: Array<{ file: string; formats: string[]; replies: number; errors: number }>;
  replies: number;
  leaks: { recovered: number; refused: number; refused_by_reason: Record<string, number>; beside_structured: number };
  quotations: { total: number; by_reason: Record<string, number> };
  hits: { total: number; blocked: number; by_rule: Record<string, number> };
  failing: number;
  errors: number;
  warnings: number;
  errors_by_code: Record<string, number>;
  suppressed: { inline: number; baseline: number };
  unused_allows: number;
  baseline: { file: string; matched: number; stale: Array<{ fingerprint: string; rule_id: string; file: string; line: number }>; unchecked: number } | null;
}

/** Converts a scan's totals into their output record. */
export function summaryRecord(s: ScanSummary): SummaryRecord {
  return {
    files: s.files.map((f) => ({ file: f.file, formats: f.formats, replies: f.replies, errors: f.errors })),
    replies: s.replies,
    leaks: { recovered: s.leaks.recovered, refused: s.leaks.refused, refused_by_reason: s.leaks.refusedByReason, beside_structured: s.leaks.besideStructured },
    quotations: { total: s.quotations.total, by_reason: s.quotations.byReason },
    hits: { total: s.hits.total, blocked: s.hits.blocked, by_rule: s.hits.byRule },
    failing: s.failing,
    errors: s.errors,
    warnings: s.warnings,
    errors_by_code: s.errorsByCode,
    suppressed: { inline: s.suppressed.inline, baseline: s.suppressed.baseline },
    unused_allows: s.unusedAllows,
    baseline: s.baseline,
  };
}
