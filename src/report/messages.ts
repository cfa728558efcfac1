/**
 * One-line human messages for findings, shared by the CI formats (SARIF `message.text`, JUnit
 * failure messages, GitHub annotations). The first sentence names what happened, so it reads as
 * an alert title (GitHub code scanning uses the first sentence). Excerpts are masked unless
 * `redact` is false; recovery details never carry arguments (src/recovery/types.ts `detail`).
 */

import type { ReplyVerdict } from '../verdict/judge.js';
import { isQuotationReason, type Finding } from '../verdict/findings.js';
import type { ScanSummary } from '../verdict/summary.js';

/**
 * `s` trimmed, ending with a full stop; the first letter is upper-cased only when the sentence
 * starts with an ordinary word, never a family or tool name (`kimi-k2 markup`, `bash`).
 */
function sentence(s: string): string {
  const t = s.trim();
  const first = /^[a-z]+(?=[ ,:])/.exec(t)?.[0];
  // "<family> markup …" starts with a name; "the markup …" with an ordinary word
  const isName = first === undefined || (/^\S+ markup\b/.test(t) && !['the', 'a', 'an', 'this', 'that', 'no'].includes(first));
  const up = isName ? t : t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(up) ? up : `${up}.`;
}

/**
 * The message of one finding.
 *
 * @param redact mask secrets in the excerpt (default); false shows the raw excerpt when found.
 * @returns one or more sentences, no line breaks.
 */
export function findingMessage(f: Finding, v: ReplyVerdict, redact = true): string {
  const r = v.recovery;
  const family = r.family ?? 'unknown';
  let text: string;
  if (f.kind === 'rule-hit' && f.hit) {
    const h = f.hit;
    const call = h.callId ? `${h.tool} (call ${h.callId})` : h.tool;
    const excerpt = redact ? h.excerpt : (f.rawExcerpt ?? h.excerpt);
    const verb = v.inspection.mode === 'enforce' && h.action === 'block' ? 'blocked' : 'flagged';
    text = `Tool call ${call} ${verb} by rule ${h.rule} (${h.category}, action ${h.action}). Matched${h.via === 'raw' ? ' in raw text' : ''}: \`${excerpt}\``;
  } else if (f.kind === 'leak-refused' && isQuotationReason(r.reason)) {
    text = `The ${family} tool-call markup was judged a quotation, not a leak (reason ${r.reason}). ${sentence(r.detail)}`;
  } else if (f.kind === 'leak-refused') {
    text = `Leaked ${family} tool-call markup was not recovered (reason ${r.reason}). ${sentence(r.detail)}`;
  } else if (f.kind === 'leak-beside-structured') {
    text = `The reply carries structured tool calls, and its visible text also holds ${family} tool-call markup (${r.candidates.length} call${r.candidates.length === 1 ? '' : 's'} inspected, none dispatched).`;
  } else {
    const names = r.calls.map((c) => c.name).join(', ');
    text = `Leaked ${family} tool-call markup was recovered as ${r.calls.length} tool call${r.calls.length === 1 ? '' : 's'} (${names}).`;
  }
  return sentence(text.replace(/\s+/g, ' '));
}

/** The baseline part of a scan's totals (`ScanSummary.baseline`, null without `--baseline`). */
export type BaselineTotals = NonNullable<ScanSummary['baseline']>;

/** Stale baseline entries every format lists; the rest are counted ("… N more"). */
export const MAX_STALE_LISTED = 20;

/**
 * The sentence every format gives a baseline: entries matched, stale (no finding used them, or
 * their capture is gone), and not checked (their capture exists but this scan did not read it).
 *
 * @returns one line, no trailing full stop, e.g. `baseline b.json: 1 entry matched, 1 stale`.
 */
export function baselineSentence(b: BaselineTotals): string {
  const unchecked = b.unchecked ? `, ${b.unchecked} not checked (their captures were not scanned)` : '';
  return `baseline ${b.file}: ${b.matched} entr${b.matched === 1 ? 'y' : 'ies'} matched, ${b.stale.length} stale${unchecked}`;
}

/**
 * The stale entries of a baseline as every format names them, at most {@link MAX_STALE_LISTED}:
 * `rule_id file:line (fingerprint)` (the line the finding had when the baseline was made).
 *
 * @returns the lines, and how many entries were left out.
 */
export function staleEntryLines(b: BaselineTotals): { lines: string[]; more: number } {
  const lines = b.stale.slice(0, MAX_STALE_LISTED).map((e) => `${e.rule_id || '?'} ${e.file}:${e.line} (${e.fingerprint})`);
  return { lines, more: Math.max(0, b.stale.length - MAX_STALE_LISTED) };
}
