/**
 * The engines' settings as plain data, and building the judge from them. The CLI validates flags
 * and the configuration file into {@link JudgeSettings} (src/cli/engines.ts); worker threads and
 * library callers receive settings, never flags, and build the same judge with {@link createJudge}.
 */

import { compileRuleSet, initInspection, type RuleSetConfig } from '../inspection/index.js';
import type { InspectionMode } from '../inspection/types.js';
import { initRecovery } from '../recovery/index.js';
import type { RecoveryOptions } from '../recovery/types.js';
import type { JudgeOptions } from './judge.js';

/** Validated engine settings: plain data (structured-clone safe), the same in every thread. */
export interface JudgeSettings {
  /** The prose ceiling (ratio 0..1) and the tool names trusted when a capture lists none. */
  recovery: RecoveryOptions;
  /** Inspection mode. */
  mode: InspectionMode;
  /** Disabled rules, re-graded actions and custom rules (guard.config.yaml `inspection`). */
  rules: RuleSetConfig;
}

/**
 * Builds the judge options from settings: loads the shell parser and the Python grammar of the
 * pythonic tool-call families (once per thread) and compiles the rule set.
 *
 * @throws RuleSetError (src/inspection/ruleset.ts) when the rules do not compile or a custom
 *   rule's examples fail; an Error when the shell parser or the Python grammar cannot load.
 */
export async function createJudge(settings: JudgeSettings): Promise<JudgeOptions> {
  await Promise.all([initInspection(), initRecovery()]);
  return { recovery: settings.recovery, ruleSet: compileRuleSet(settings.rules), mode: settings.mode };
}
