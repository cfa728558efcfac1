/**
 * Public types of the inspection engine (pure: no fs, no process, no chalk).
 *
 * Rule ids, categories and default actions: docs/rules.md "Rule origins" (modelled on the peer rule
 * sets in docs/sources.md "Inspection rule peers").
 */

/** `off`: nothing is inspected; `observe`: hits are reported, nothing blocked; `enforce`: a hit
 * graded `block` blocks the reply. */
export type InspectionMode = 'off' | 'observe' | 'enforce';

export const INSPECTION_MODES: readonly InspectionMode[] = ['off', 'observe', 'enforce'];

/** What a hit does under `enforce`. */
export type RuleAction = 'block' | 'record';

/** A tool call as the inspection engine sees it (structured or recovered). */
export interface InspectableCall {
  id: string | null;
  name: string;
  /** Decoded arguments, or null when they did not parse. */
  arguments: Record<string, unknown> | null;
  /** The raw argument text, used for the labelled raw-text fallback when nothing decodes. */
  argumentsRaw: string;
  /** `structured` when the capture carried it as a tool call, `recovered` when read from text. */
  origin: 'structured' | 'recovered';
  /** Set when the capture could not read the arguments at all (they nest too deep to walk): the
   * reason. Such a call gets an `inspection-error` hit: what it would run was never looked at. */
  unreadable?: string | null;
}

/** One rule hit on one call. */
export interface RuleHit {
  rule: string;
  action: RuleAction;
  category: string;
  tool: string;
  callId: string | null;
  /** At most 120 characters around the match, secrets redacted. */
  excerpt: string;
  /** How the rule matched: a parsed shell command, a file path, or the raw-text fallback. */
  via: 'shell' | 'path' | 'raw';
}

/** The engine's verdict on the calls of one reply. */
export interface InspectionVerdict {
  mode: InspectionMode;
  outcome: 'pass' | 'flag' | 'block';
  hits: RuleHit[];
}

/** True when `hit` blocks its reply: a `block` rule's hit under `enforce` (reports call it `tool_call_blocked`). */
export function blocksReply(mode: InspectionMode, hit: RuleHit): boolean {
  return mode === 'enforce' && hit.action === 'block';
}
