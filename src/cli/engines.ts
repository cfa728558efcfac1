/**
 * Turning the configuration file and command-line flags into engine settings, shared by every
 * command that judges replies. Flags win over the file; the file wins over the defaults.
 */

import type { GuardConfig } from '../config/load.js';
import { compileRuleSet, initInspection } from '../inspection/index.js';
import { INSPECTION_MODES, type InspectionMode } from '../inspection/types.js';
import { DEFAULT_PROSE_CEILING } from '../recovery/types.js';
import type { JudgeOptions } from '../scan/judge.js';
import { UsageError } from './errors.js';

/** The engine-related flags common to scan, replay and ceiling. */
export interface EngineFlags {
  mode?: string;
  tools?: string;
  proseCeiling?: string;
}

/** Parses a comma-separated `--tools` list; empty entries are dropped. */
export function parseToolList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Parses a ratio flag (0..1). @throws UsageError when it is not a number in range. */
export function parseRatio(flag: string, value: string): number {
  const x = Number(value);
  if (value.trim() === '' || !Number.isFinite(x) || x < 0 || x > 1) throw new UsageError(`${flag} must be a number from 0 to 1, got '${value}'`);
  return x;
}

/**
 * Builds the judge options.
 *
 * @throws UsageError for a bad flag value; RuleSetError (from the inspection engine) for rules
 *   that do not compile or whose examples fail.
 */
export async function resolveEngines(config: GuardConfig, flags: EngineFlags): Promise<JudgeOptions> {
  let mode: InspectionMode = config.inspection.mode ?? 'observe';
  if (flags.mode !== undefined) {
    if (!(INSPECTION_MODES as readonly string[]).includes(flags.mode)) throw new UsageError(`--mode must be one of ${INSPECTION_MODES.join(', ')}, got '${flags.mode}'`);
    mode = flags.mode as InspectionMode;
  }
  const tools = flags.tools !== undefined ? parseToolList(flags.tools) : (config.recovery.tools ?? null);
  const proseCeiling = flags.proseCeiling !== undefined ? parseRatio('--prose-ceiling', flags.proseCeiling) : (config.recovery.proseCeiling ?? DEFAULT_PROSE_CEILING);
  await initInspection();
  const ruleSet = compileRuleSet({
    disabled: config.inspection.disabled,
    actions: config.inspection.actions,
    custom: config.inspection.rules,
  });
  return { recovery: { proseCeiling, tools }, ruleSet, mode };
}
