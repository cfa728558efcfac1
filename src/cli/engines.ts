/**
 * Turning the configuration file and command-line flags into engine settings, shared by every
 * command that judges replies. Flags win over the file; the file wins over the defaults.
 */

import type { GuardConfig } from '../config/load.js';
import { INSPECTION_MODES, type InspectionMode } from '../inspection/types.js';
import { DEFAULT_PROSE_CEILING } from '../recovery/types.js';
import { createJudge, type JudgeSettings } from '../verdict/engines.js';
import type { JudgeOptions } from '../verdict/judge.js';
import { UsageError } from './errors.js';
import { parseRatio, parseToolList } from './flags.js';

/** The engine-related flags common to scan, replay and ceiling. */
export interface EngineFlags {
  mode?: string;
  tools?: string;
  proseCeiling?: string;
}

/**
 * Validates the engine flags over the configuration into settings (flags win over the file, the
 * file over the defaults).
 *
 * @throws UsageError for a bad flag value.
 */
export function resolveSettings(config: GuardConfig, flags: EngineFlags): JudgeSettings {
  let mode: InspectionMode = config.inspection.mode ?? 'observe';
  if (flags.mode !== undefined) {
    if (!(INSPECTION_MODES as readonly string[]).includes(flags.mode)) throw new UsageError(`--mode must be one of ${INSPECTION_MODES.join(', ')}, got '${flags.mode}'`);
    mode = flags.mode as InspectionMode;
  }
  const tools = flags.tools !== undefined ? parseToolList(flags.tools) : (config.recovery.tools ?? null);
  const proseCeiling = flags.proseCeiling !== undefined ? parseRatio('--prose-ceiling', flags.proseCeiling) : (config.recovery.proseCeiling ?? DEFAULT_PROSE_CEILING);
  const rules = { disabled: config.inspection.disabled, actions: config.inspection.actions, custom: config.inspection.rules };
  return { recovery: { proseCeiling, tools }, mode, rules };
}

/**
 * Builds the judge options from the configuration and the flags ({@link resolveSettings}, then
 * createJudge of src/verdict/engines.ts).
 *
 * @throws UsageError for a bad flag value; RuleSetError (from the inspection engine) for rules
 *   that do not compile or whose examples fail.
 */
export async function resolveEngines(config: GuardConfig, flags: EngineFlags): Promise<JudgeOptions> {
  return createJudge(resolveSettings(config, flags));
}
