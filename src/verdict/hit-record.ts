/** A rule hit as machine-readable outputs write it (snake_case keys, as every guard output). */

import type { RuleHit } from '../inspection/types.js';

/** A rule hit with snake_case keys (`call_id`), in the engine's field order. */
export interface RuleHitRecord {
  rule: string;
  action: RuleHit['action'];
  category: string;
  tool: string;
  call_id: string | null;
  /** At most 120 characters around the match, secrets redacted. */
  excerpt: string;
  via: RuleHit['via'];
}

/** The record of a hit. */
export function ruleHitRecord(hit: RuleHit): RuleHitRecord {
  return { rule: hit.rule, action: hit.action, category: hit.category, tool: hit.tool, call_id: hit.callId, excerpt: hit.excerpt, via: hit.via };
}
