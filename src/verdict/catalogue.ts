/**
 * The catalogue of finding rules: every rule id a finding can carry, with what reports say about
 * it. Inspection rules come from the compiled rule set; the leak rules (`guard/leak-refused/<reason>`
 * for every refused reason code, `guard/leak-recovered`) from the recovery engine's reason codes.
 * Report formats (SARIF rule descriptors, rule documentation) read this list, never the engines.
 */

import type { Rule } from '../inspection/rule.js';
import type { RuleAction } from '../inspection/types.js';
import { REASON_CODES, REASON_OUTCOME } from '../recovery/types.js';
import { isQuotationReason, LEAK_BESIDE_STRUCTURED_RULE, LEAK_RECOVERED_RULE, LEAK_REFUSED_PREFIX, refusedLevel, type FindingKind, type FindingLevel } from './findings.js';

/** One rule a finding can name. */
export interface FindingRule {
  /** The finding's rule id (an inspection rule id, or a `guard/` leak rule id). */
  id: string;
  /** A short kebab-case name. */
  name: string;
  kind: FindingKind;
  /** Inspection category, or `leaked-markup`. */
  category: string;
  /** The level of the rule's findings (SARIF 2.1.0 §3.27.10). */
  level: FindingLevel;
  /** The action in force for an inspection rule; null for leak rules. */
  action: RuleAction | null;
  /** One line. */
  description: string;
  /** What to check and what to do about a finding. */
  help: string;
  /** True for the operator's own rules. */
  custom: boolean;
  /** The MITRE ATT&CK technique of an inspection rule (`T1070.003`), or null. */
  attack: string | null;
}

/** The ATT&CK page of a technique id (`T1059.004` → https://attack.mitre.org/techniques/T1059/004/), or null for another spelling. */
export function attackUrl(technique: string): string | null {
  const m = /^(T\d{4})(?:\.(\d{3}))?$/.exec(technique);
  return m ? `https://attack.mitre.org/techniques/${m[1]}/${m[2] ? `${m[2]}/` : ''}` : null;
}

/** The level of an inspection rule's findings: `error` when it blocks, else `warning`. */
export function actionLevel(action: RuleAction): FindingLevel {
  return action === 'block' ? 'error' : 'warning';
}

/** The finding rule of an inspection rule (its action as in force in the rule set). */
export function inspectionFindingRule(rule: Rule): FindingRule {
  return {
    id: rule.id,
    name: rule.name,
    kind: 'rule-hit',
    category: rule.category,
    level: actionLevel(rule.action),
    action: rule.action,
    description: rule.description,
    help: rule.help,
    custom: rule.custom === true,
    attack: rule.attack ?? null,
  };
}

/** The finding rule of a refused leak with reason code `reason` (a quotation reason gives level `note`). */
export function refusedFindingRule(reason: string): FindingRule {
  const quotation = isQuotationReason(reason);
  const description = quotation
    ? `Tool-call markup judged a quotation, not a leak: reason ${reason}.`
    : `Leaked tool-call markup was not recovered: reason ${reason}.`;
  const help = quotation
    ? `The reply's visible text holds tool-call markup that guard judged a quotation (reason code ${reason}; docs/reason-codes.md explains each code): the reply shows or explains the syntax rather than making a call, so nothing was recovered. Reported as a note; it fails a scan only under --fail-on quoted.`
    : `The reply's visible text holds tool-call markup that the endpoint did not parse, and guard refused to read the call back out (reason code ${reason}; docs/reason-codes.md explains each code). The agent lost this tool call: check the endpoint's tool-call parser for this model family.`;
  return {
    id: `${LEAK_REFUSED_PREFIX}${reason}`,
    name: `leak-refused-${reason}`,
    kind: 'leak-refused',
    category: 'leaked-markup',
    level: refusedLevel(reason),
    action: null,
    description,
    help,
    custom: false,
    attack: null,
  };
}

/** The finding rule of a recovered leak. */
export const RECOVERED_FINDING_RULE: FindingRule = {
  id: LEAK_RECOVERED_RULE,
  name: 'leak-recovered',
  kind: 'leak-recovered',
  category: 'leaked-markup',
  level: 'warning',
  action: null,
  description: 'Leaked tool-call markup was recovered.',
  help: "The reply's visible text holds tool-call markup that the endpoint did not parse; guard read the call back out safely (every check of the recovery contract held). The endpoint still returned the call as text: check its tool-call parser for this model family.",
  custom: false,
  attack: null,
};

/** The finding rule of markup left in the text beside structured tool calls. */
export const BESIDE_STRUCTURED_FINDING_RULE: FindingRule = {
  id: LEAK_BESIDE_STRUCTURED_RULE,
  name: 'leak-beside-structured',
  kind: 'leak-beside-structured',
  category: 'leaked-markup',
  level: 'warning',
  action: null,
  description: 'Tool-call markup was left in the visible text of a reply that also carries structured tool calls.',
  help: "The endpoint parsed some of the model's tool calls but left tool-call markup in the reply's visible text: the user saw it, and another harness may parse and run it (its calls are inspected). Check the endpoint's tool-call parser for this model family.",
  custom: false,
  attack: null,
};

/** Reason codes whose outcome is `refused`, in the recovery engine's order. */
export function refusedReasons(): string[] {
  return REASON_CODES.filter((c) => REASON_OUTCOME[c] === 'refused');
}

/**
 * Every finding rule of a scan: the enabled inspection rules in rule-set order, then every refused
 * reason, then markup beside structured calls, then the recovered leak.
 *
 * @param rules the compiled rule set's enabled rules (`RuleSet.rules`).
 */
export function findingRules(rules: readonly Rule[]): FindingRule[] {
  return [...rules.map(inspectionFindingRule), ...refusedReasons().map(refusedFindingRule), BESIDE_STRUCTURED_FINDING_RULE, RECOVERED_FINDING_RULE];
}
