/**
 * guard's recovery engine: judges one reply's visible text for leaked tool-call markup
 * (conviction) and decides whether its calls may be read back out (recovery). Pure: no fs, no
 * process, no console. Docs: docs/recovery.md; reason codes: ./types.ts REASON_CODES and
 * docs/reason-codes.md.
 *
 * The engine is a sequence of passes over one reply, each computed once, with a data structure
 * between them:
 *  1. markup (./markup.ts): the families' tokens are found with one prefilter; the family whose
 *     grammar reads the text gives the spans, blocks and calls (families: ./families/index.ts);
 *  2. structure (./structure.ts): the quotation regions of the text (Markdown and HTML);
 *  3. intent (./intent.ts): the framing vocabulary of the prose around the markup (./framing/);
 *  4. judgement (./judge.ts): the prose ratio (./prose.ts) and the verdict, in the documented order.
 */

import { familyMarkup } from './markup.js';
import { judgeRecovery, verdict } from './judge.js';
import type { RecoveryInput, RecoveryOptions, RecoveryVerdict } from './types.js';

export { FAMILIES } from './families/index.js';
export { initRecovery, recoveryReady, DEFAULT_PYTHON_MEMORY, MAX_PYTHON_CHARS, type InitRecoveryOptions } from './families/python.js';
export { proseRatio } from './prose.js';
export { canonicalJson } from '../base/json.js';
export * from './types.js';

/** The family of markup in a text other than the visible text (reasoning), or null. */
function familyIn(text: string): string | null {
  return text.trim() === '' ? null : (familyMarkup(text, { schemaOf: () => undefined })?.family ?? null);
}

/**
 * Judges one reply's visible text: is there leaked tool-call markup (conviction), and may its
 * calls be read back out (recovery)?
 *
 * @param input the reply: visible `text`, `reasoning` (judged apart: `reasoningMarkup` is set when
 *   it holds family markup, and markup found only there gives `quoted` with its family; it is never
 *   recovered into a call), `advertised` tools (null when the capture does not say; their schemas
 *   type per-parameter values and validate recovered arguments), structured `toolCalls`,
 *   `truncated`, `breaks` (content-block boundaries in `text`), and `idSeed`, the reply's
 *   occurrence in its transcript, for call ids.
 * @param options `proseCeiling` (ratio 0..1; use DEFAULT_PROSE_CEILING) and `tools`, the names
 *   to trust when `advertised` is null.
 * @returns the verdict: outcome none | recovered | refused, one reason code (precedence in
 *   ./judge.ts; the list is REASON_CODES), the family seen, the prose ratio 0..1 (null without
 *   visible markup), the calls (only when recovered; arguments exactly as the markup gave them;
 *   ids per ./ids.ts; at most options.maxCalls, default MAX_RECOVERED_CALLS) and, only when
 *   refused as a leak, the candidates: the calls the family read, for inspection, never to dispatch.
 * Never throws: an internal failure on some text is reported as refused / `shape`.
 */
export function recoverReply(input: RecoveryInput, options: RecoveryOptions): RecoveryVerdict {
  let reasoningFamily: string | null = null;
  let reasoningUnreadable = false;
  try {
    reasoningFamily = familyIn(typeof input?.reasoning === 'string' ? input.reasoning : '');
  } catch {
    reasoningUnreadable = true;
  }
  let v: RecoveryVerdict;
  try {
    v = judgeRecovery(input, options, reasoningFamily);
  } catch (e) {
    v = verdict('shape', null, null, `the markup could not be read: ${(e as Error)?.message ?? String(e)}`);
  }
  if (reasoningFamily !== null || reasoningUnreadable) v.reasoningMarkup = true;
  return v;
}
