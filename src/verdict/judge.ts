/**
 * Judging one reply: the recovery engine reads its visible text, then the inspection engine checks
 * every tool call the reply carries, structured or recovered. Pure: no fs, no process.
 */

import type { Reply } from '../capture/types.js';
import { argumentsUnread } from '../capture/toolcall.js';
import { inspectCalls, type RuleSet } from '../inspection/index.js';
import type { InspectableCall, InspectionMode, InspectionVerdict } from '../inspection/types.js';
import { recoverReply } from '../recovery/index.js';
import { QUOTATION_REASONS, type RecoveryOptions, type RecoveryVerdict } from '../recovery/types.js';

/** What {@link judgeReply} needs besides the reply. */
export interface JudgeOptions {
  recovery: RecoveryOptions;
  ruleSet: RuleSet;
  mode: InspectionMode;
}

/** A reply with both engines' verdicts. */
export interface ReplyVerdict {
  reply: Reply;
  recovery: RecoveryVerdict;
  inspection: InspectionVerdict;
}

/**
 * The tool calls inspection sees for a reply: its structured calls, then the calls recovery read
 * back out of its text, then, for a refused leak, the candidate calls its family parsed (the
 * markup reached the user as text, and another harness may parse and run it). Recovered and
 * candidate calls both have origin `recovered` (read from text); which it was is the verdict's
 * outcome (`recovered` or `refused`). A refused leak whose family read no call gives its whole
 * visible text as one call named {@link UNREAD_MARKUP_TOOL} with no arguments, which the raw-text
 * rules read. Quotations, prose and fenced markup give none.
 *
 * @param reply the normalised reply.
 * @param recovery the recovery verdict on it.
 * @returns the calls in that order (candidates at most MAX_RECOVERED_CALLS).
 */
export function callsToInspect(reply: Reply, recovery: RecoveryVerdict): InspectableCall[] {
  const structured: InspectableCall[] = reply.toolCalls.map((c) => ({
    id: c.id,
    name: c.name,
    arguments: c.arguments,
    argumentsRaw: c.argumentsRaw,
    origin: 'structured',
    // arguments nested too deep to walk, or under a key guard does not read, were never read:
    // inspection reports the call (fail closed)
    ...(argumentsUnread(c) ? { unreadable: c.argumentsError } : {}),
  }));
  const recovered: InspectableCall[] = recovery.calls.map((c) => ({
    id: c.id,
    name: c.name,
    arguments: c.arguments,
    argumentsRaw: c.argumentsRaw,
    origin: 'recovered',
  }));
  const candidates: InspectableCall[] = (recovery.candidates ?? []).map((c) => ({
    id: c.id,
    name: c.name,
    arguments: c.arguments,
    argumentsRaw: c.argumentsRaw,
    origin: 'recovered',
  }));
  // a refused leak whose family read no call (a broken envelope, an unknown dialect): its text
  // reached the user as markup, so the text itself is inspected by the raw-text rules (fail closed)
  const unread: InspectableCall[] =
    recovery.outcome === 'refused' && !QUOTATION_REASONS.has(recovery.reason) && candidates.length === 0 && reply.text.trim() !== ''
      ? [{ id: null, name: UNREAD_MARKUP_TOOL, arguments: null, argumentsRaw: reply.text, origin: 'recovered' }]
      : [];
  return [...structured, ...recovered, ...candidates, ...unread];
}

/** The tool name of the reply text inspected as unread markup (a refused leak with no candidate). */
export const UNREAD_MARKUP_TOOL = '(unread markup)';

/**
 * Runs the recovery engine on a normalised reply. The call-id seed is the reply's line and id, so
 * identical calls in two replies of one capture get different ids and a re-run yields the same.
 */
export function recoverFromReply(reply: Reply, options: RecoveryOptions): RecoveryVerdict {
  return recoverReply(
    {
      text: reply.text,
      reasoning: reply.reasoning,
      advertised: reply.advertised,
      toolCalls: reply.toolCalls,
      truncated: reply.truncated,
      ...(reply.textBreaks !== undefined ? { breaks: reply.textBreaks } : {}),
      idSeed: `${reply.source.line}:${reply.id ?? ''}`,
    },
    options,
  );
}

/**
 * Runs both engines on one reply.
 *
 * @param reply a normalised reply from any capture reader.
 * @param options the prose ceiling and user-supplied tools, the compiled rule set and the mode.
 * @returns the reply with its recovery and inspection verdicts. Never throws: both engines are
 *   total on any input.
 */
export function judgeReply(reply: Reply, options: JudgeOptions): ReplyVerdict {
  const recovery = recoverFromReply(reply, options.recovery);
  const inspection = inspectCalls(callsToInspect(reply, recovery), options.ruleSet, options.mode);
  return { reply, recovery, inspection };
}

/** Re-exported for the drivers (scan's DUPLICATE_KEY note), which reach the engines through this layer. */
export { duplicatedKeys } from '../inspection/readings.js';
