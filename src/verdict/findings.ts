/**
 * Findings: what a judged reply reports, one per rule hit and one per leak, each with a rule id,
 * a level, a line-independent fingerprint, and a suppression (inline allow or baseline) when one
 * applies. Every CI format (SARIF, JUnit, GitHub annotations), the baseline, the summary and the
 * exit code read findings, so they all agree. Pure.
 *
 * Rule ids: an inspection hit keeps its rule id (`curl-pipe-shell`); a refused leak is
 * `guard/leak-refused/<reason>` (the reason code read from the verdict; level `error`, or `note`
 * for a quotation: `fenced`, `quoted`, `prose`, QUOTATION_REASONS); a recovered leak is
 * `guard/leak-recovered`. Inspection rule ids are kebab-case (src/inspection/ruleset.ts), so they
 * never clash with the `guard/` ids.
 */

import { createHash } from 'node:crypto';
import { hexDigest } from '../base/digest.js';
import { canonicalJson } from '../base/json.js';
import type { RuleHit } from '../inspection/types.js';
import { QUOTATION_REASONS, type ReasonCode } from '../recovery/types.js';
import type { ReplyVerdict } from './judge.js';
import { callsOf, locateHit, type CallRef } from './locate.js';

/**
 * The exit-code threshold of `guard scan` (README "Exit codes"), strictest first: what makes a
 * finding count toward exit code 1 ({@link findingFails}).
 */
export const FAIL_ON_LEVELS = ['quoted', 'refused', 'flag', 'block', 'none'] as const;
export type FailOn = (typeof FAIL_ON_LEVELS)[number];

/** The default `--fail-on`: any refused leak or any rule hit fails the scan. */
export const DEFAULT_FAIL_ON: FailOn = 'refused';

/** SARIF levels (SARIF 2.1.0 §3.27.10), used by every format. */
export type FindingLevel = 'error' | 'warning' | 'note';

export type FindingKind = 'rule-hit' | 'leak-refused' | 'leak-recovered' | 'leak-beside-structured';

/**
 * Why a finding does not count: `inline` for an allow mark in the record's harness metadata,
 * `baseline` for an entry of the baseline file. `justification` is the allow's reason, or the
 * baseline file name.
 */
export interface Suppression {
  kind: 'inline' | 'baseline';
  justification: string;
}

export interface Finding {
  kind: FindingKind;
  ruleId: string;
  level: FindingLevel;
  /** 32 hex characters (128 bits of SHA-256): see {@link findingsOf} for what goes in. */
  fingerprint: string;
  /** The hit, for `rule-hit`; null for leaks. */
  hit: RuleHit | null;
  /** The hit's excerpt cut from the raw text (for `--no-redact`); null when not found or not a hit. */
  rawExcerpt: string | null;
  suppressed: Suppression | null;
}

/** A judged reply with its findings and whether it counts toward exit code 1. */
export interface JudgedReply {
  verdict: ReplyVerdict;
  findings: Finding[];
  /** True when an unsuppressed finding fails the scan under `--fail-on`. */
  failing: boolean;
}

/** Rule id prefix of refused leaks; the reason code follows. */
export const LEAK_REFUSED_PREFIX = 'guard/leak-refused/';
/** Rule id of recovered leaks. */
export const LEAK_RECOVERED_RULE = 'guard/leak-recovered';
/** Rule id of markup left in the text of a reply that also carries structured tool calls. */
export const LEAK_BESIDE_STRUCTURED_RULE = 'guard/leak-beside-structured';

/** The first 32 hex digits of the SHA-256 of the parts joined by NUL (UTF-8). */
function sha(parts: string[]): string {
  const text = parts.join('\u0000');
  return hexDigest('sha256', text).slice(0, 32);
}

/**
 * Whitespace runs that are not one space already: a run of two or more, or one that opens with
 * another whitespace character. Replacing them with one space gives what replacing every run
 * (`/\s+/g`) gives, without a match (and its garbage) per space of ordinary prose.
 */
const WHITESPACE_TO_COLLAPSE = / \s+|[^\S ]\s*/g;

/** Whitespace runs collapsed to one space, ends trimmed. */
function collapse(s: string): string {
  return s.replace(WHITESPACE_TO_COLLAPSE, ' ').trim();
}

/** Texts longer than this (UTF-16 code units) are collapsed and hashed a window at a time. */
export const COLLAPSE_WINDOW = 64 * 1024;

const WHITESPACE = /\s/;

/**
 * `sha([...parts, collapse(text)])` computed without building the collapsed copy of a long text:
 * the text is collapsed and hashed {@link COLLAPSE_WINDOW} characters at a time (a window never
 * ends inside a whitespace run or a surrogate pair, so the bytes hashed are the same). A 60 MB
 * reply cost over 20 times its size in one replace's match list before.
 */
function shaCollapsed(parts: string[], text: string): string {
  if (text.length <= COLLAPSE_WINDOW) return sha([...parts, collapse(text)]);
  const h = createHash('sha256');
  h.update(`${parts.join('\u0000')}\u0000`);
  let from = 0;
  let to = text.length;
  while (from < to && WHITESPACE.test(text[from]!)) from++;
  while (to > from && WHITESPACE.test(text[to - 1]!)) to--;
  for (let at = from; at < to; ) {
    let end = Math.min(to, at + COLLAPSE_WINDOW);
    while (end < to && (WHITESPACE.test(text[end - 1]!) || isHighSurrogate(text.charCodeAt(end - 1)))) end++;
    h.update(text.slice(at, end).replace(WHITESPACE_TO_COLLAPSE, ' '));
    at = end;
  }
  return h.digest('hex').slice(0, 32);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The normalised identity of a call: tool name lower-cased, then canonical arguments (or the raw text collapsed). */
function callIdentity(call: CallRef): string {
  return `${call.name.trim().toLowerCase()}\u0000${call.arguments !== null ? canonicalJson(call.arguments) : collapse(call.argumentsRaw)}`;
}

/**
 * True when a reason code is a quotation refusal (QUOTATION_REASONS: `fenced`, `quoted`, `prose`):
 * guard judged the markup a quotation, not a leak.
 */
export function isQuotationReason(reason: string): boolean {
  return QUOTATION_REASONS.has(reason as ReasonCode);
}

/** True when a finding is a refusal whose markup guard judged a quotation (rule `guard/leak-refused/<quotation reason>`). */
export function isQuotationFinding(f: Finding): boolean {
  return f.kind === 'leak-refused' && isQuotationReason(f.ruleId.slice(LEAK_REFUSED_PREFIX.length));
}

/** SARIF level of a refused leak's finding: `note` for a quotation, `error` for any other refusal. */
export function refusedLevel(reason: string): FindingLevel {
  return isQuotationReason(reason) ? 'note' : 'error';
}

function hitLevel(hit: RuleHit): FindingLevel {
  return hit.action === 'block' ? 'error' : 'warning';
}

/**
 * The findings of a judged reply, unsuppressed, in report order: rule hits in the engine's
 * order, then the leak (refused or recovered), if any.
 *
 * Fingerprints hold no line number, file name, call id or record id, so a record that moves keeps
 * them:
 * - a rule hit: `hit`, the rule id, and the call it fired on (tool name lower-cased, arguments as
 *   canonical JSON, or the raw argument text with whitespace collapsed when they did not parse);
 *   when the call cannot be identified, the tool name and the excerpt instead. Another command,
 *   another rule or another tool makes another fingerprint.
 * - a leak: `leak`, the outcome (refused or recovered) and the reply's visible text with
 *   whitespace collapsed. The reason code is left out, so renaming or refining a reason does not
 *   invalidate a baseline; any change to the leaked text does.
 * Two identical findings (the same call twice) share a fingerprint; baselines count them.
 *
 * @returns findings with `suppressed: null`; never throws.
 */
export function findingsOf(v: ReplyVerdict): Finding[] {
  const out: Finding[] = [];
  const hits = v.inspection.hits;
  const calls = hits.length ? callsOf(v) : [];
  // hits on one call come together: its identity is canonicalised once
  let lastCall: CallRef | null = null;
  let lastIdentity = '';
  for (const hit of hits) {
    const { call, rawExcerpt } = locateHit(hit, calls);
    if (call && call !== lastCall) {
      lastCall = call;
      lastIdentity = callIdentity(call);
    }
    const identity = call ? lastIdentity : `${hit.tool.trim().toLowerCase()}\u0000excerpt\u0000${hit.excerpt}`;
    out.push({
      kind: 'rule-hit',
      ruleId: hit.rule,
      level: hitLevel(hit),
      fingerprint: sha(['guard-finding/v1', 'hit', hit.rule, identity]),
      hit,
      rawExcerpt,
      suppressed: null,
    });
  }
  const r = v.recovery;
  if (r.outcome !== 'none') {
    const refused = r.outcome === 'refused';
    out.push({
      kind: refused ? 'leak-refused' : 'leak-recovered',
      ruleId: refused ? `${LEAK_REFUSED_PREFIX}${r.reason}` : LEAK_RECOVERED_RULE,
      level: refused ? refusedLevel(r.reason) : 'warning',
      fingerprint: shaCollapsed(['guard-finding/v1', 'leak', r.outcome], v.reply.text),
      hit: null,
      rawExcerpt: null,
      suppressed: null,
    });
  } else if (r.besideStructured === true) {
    out.push({
      kind: 'leak-beside-structured',
      ruleId: LEAK_BESIDE_STRUCTURED_RULE,
      level: 'warning',
      fingerprint: shaCollapsed(['guard-finding/v1', 'leak', 'beside-structured'], v.reply.text),
      hit: null,
      rawExcerpt: null,
      suppressed: null,
    });
  }
  return out;
}

/**
 * Does this finding count toward exit code 1 under `failOn`? Suppressed findings never do.
 * Levels from strictest:
 * - `quoted`: any rule hit or any refusal, quotations (`fenced`, `quoted`, `prose`) included;
 * - `refused` (the default): any rule hit, or leaked markup that could not be recovered
 *   (a refusal whose reason is not a quotation reason, or markup left beside structured calls);
 * - `flag`: any rule hit;
 * - `block`: a rule hit whose action is `block`;
 * - `none`: nothing.
 * A recovered leak never fails a scan: guard read the call back out.
 */
export function findingFails(f: Finding, failOn: FailOn): boolean {
  if (f.suppressed) return false;
  switch (failOn) {
    case 'none':
      return false;
    case 'block':
      return f.kind === 'rule-hit' && f.hit?.action === 'block';
    case 'flag':
      return f.kind === 'rule-hit';
    case 'refused':
      return f.kind === 'rule-hit' || f.kind === 'leak-beside-structured' || (f.kind === 'leak-refused' && !isQuotationFinding(f));
    case 'quoted':
      return f.kind === 'rule-hit' || f.kind === 'leak-refused' || f.kind === 'leak-beside-structured';
  }
}

/** An allow mark from a record's harness metadata (src/capture/types.ts `Reply.allow`). */
export interface AllowMark {
  rule: string;
  reason: string;
}

/**
 * True when an allow mark names this finding: the exact rule id, or a prefix of it ending at a
 * `/` (`guard/leak-refused` allows a refused leak of any reason).
 */
export function allowMatches(mark: AllowMark, f: Finding): boolean {
  return f.ruleId === mark.rule || f.ruleId.startsWith(`${mark.rule}/`);
}

/**
 * Marks findings named by allow marks as suppressed (`inline`, the mark's reason as
 * justification). Findings already suppressed are left alone.
 *
 * @returns the number of marks that matched no finding (unused allows).
 */
export function applyAllows(findings: Finding[], marks: readonly AllowMark[]): number {
  let unused = 0;
  for (const mark of marks) {
    let used = false;
    for (const f of findings) {
      if (!allowMatches(mark, f)) continue;
      used = true;
      f.suppressed ??= { kind: 'inline', justification: mark.reason };
    }
    if (!used) unused++;
  }
  return unused;
}

/** How {@link judgedReply} treats suppressions. */
export interface SuppressOptions {
  failOn: FailOn;
  /** Honour the reply's allow marks (false under `--no-inline-allow`). */
  inlineAllow: boolean;
  /** The baseline matcher (src/baseline/baseline.ts), or null without `--baseline`. */
  baseline: { apply(f: Finding, file: string): boolean } | null;
}

/**
 * A verdict's findings with allow marks applied first, then the baseline, and whether the reply
 * fails the scan.
 *
 * @returns the judged reply and the number of the reply's allow marks that matched no finding.
 */
export function judgedReply(v: ReplyVerdict, options: SuppressOptions): { judged: JudgedReply; unusedAllows: number } {
  const findings = findingsOf(v);
  const unusedAllows = options.inlineAllow && v.reply.allow ? applyAllows(findings, v.reply.allow) : 0;
  if (options.baseline) for (const f of findings) options.baseline.apply(f, v.reply.source.file);
  return { judged: { verdict: v, findings, failing: findings.some((f) => findingFails(f, options.failOn)) }, unusedAllows };
}

/** Re-exported for the report layer, which reads verdicts but not the inspection engine. */
export { blocksReply } from '../inspection/types.js';
