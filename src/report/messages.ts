/**
 * One-line human messages for findings, shared by the CI formats (SARIF `message.text`, JUnit
 * failure messages, GitHub annotations). The first sentence names what happened, so it reads as
 * an alert title (GitHub code scanning uses the first sentence). Excerpts are masked unless
 * `redact` is false; recovery details never carry arguments (src/recovery/types.ts `detail`).
 */

import type { ReplyVerdict } from '../verdict/judge.js';
import { isQuotationReason, type Finding } from '../verdict/findings.js';

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
