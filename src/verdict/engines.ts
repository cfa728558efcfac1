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
  await loadEngines();
  return { recovery: settings.recovery, ruleSet: compileRuleSet(settings.rules), mode: settings.mode };
}

/** Loads the shell parser and the Python grammar (once per thread; later calls only wait for the first). */
export async function loadEngines(): Promise<void> {
  await Promise.all([initInspection(), initRecovery()]);
}

/** A judge whose grammars load only when it first judges: see {@link deferJudge}. */
export interface DeferredJudge {
  /** The judge options: the compiled rule set (for the report's rule list) and settings. */
  judge: JudgeOptions;
  /** Loads the engines the judge needs; await it before judging anything with `judge`. */
  ready(): Promise<void>;
}

/**
 * The judge of `settings` without loading its grammars yet (~150 ms of a scan's start-up, ~0.1
 * of a cached rescan that replays every file and judges nothing): the rule set is compiled now
 * (so a bad configuration still fails at once), the shell parser and the Python grammar on
 * `ready()`. With custom rules, whose examples are run when the set is compiled, the parser is
 * loaded now.
 *
 * @throws as {@link createJudge}.
 */
export async function deferJudge(settings: JudgeSettings): Promise<DeferredJudge> {
  const custom = settings.rules.custom;
  if (custom !== undefined && !(Array.isArray(custom) && custom.length === 0)) await initInspection();
  const judge = { recovery: settings.recovery, ruleSet: compileRuleSet(settings.rules, { parserLater: true }), mode: settings.mode };
  let loading: Promise<void> | null = null;
  return { judge, ready: () => (loading ??= loadEngines()) };
}
