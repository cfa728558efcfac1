/**
 * `guard scan --print-config`: the configuration in force after merging the file, the flags and
 * the defaults, as YAML, each setting with where it comes from (`# --mode`, `# guard.config.yml:4`,
 * `# default`), headed by which file was used and where it was looked for.
 */

import { configLine, configSearch, CONFIG_FILE_NAMES, type GuardConfig } from '../config/load.js';
import { printable } from '../report/printable.js';
import { DEFAULT_FAIL_ON } from '../verdict/findings.js';
import { resolveSettings, type EngineFlags } from './engines.js';

interface PrintFlags extends EngineFlags {
  failOn?: string;
  config?: string;
}

/** The text of `--print-config` (ends with a newline). */
export async function printConfig(config: GuardConfig, flags: PrintFlags, cwd: string): Promise<string> {
  const settings = resolveSettings(config, flags);
  const where = (pointer: string) => `${printable(config.path ?? '')}:${configLine(config, pointer) ?? '?'}`;
  const from = (flag: string | undefined, inFile: unknown, pointer: string) => (flag !== undefined ? `# ${flag}` : inFile !== undefined ? `# ${where(pointer)}` : '# default');
  const json = (v: unknown) => JSON.stringify(v);
  const search = await configSearch(cwd);
  const out: string[] = [];
  if (flags.config) out.push(`# configuration: ${printable(config.path ?? flags.config)} (given with --config)`);
  else if (config.path) out.push(`# configuration: ${printable(config.path)} (found searching ${printable(search.from)} up to ${printable(search.to)})`);
  else out.push(`# configuration: none found (looked for ${CONFIG_FILE_NAMES.join(', ')} from ${printable(search.from)} up to ${printable(search.to)}): flags and defaults only`);
  const failOn = (flags.failOn ?? config.scan.failOn ?? DEFAULT_FAIL_ON) as string;
  out.push('recovery:');
  out.push(`  prose_ceiling: ${settings.recovery.proseCeiling}  ${from(flags.proseCeiling !== undefined ? '--prose-ceiling' : undefined, config.recovery.proseCeiling, '/recovery/prose_ceiling')}`);
  out.push(`  tools: ${settings.recovery.tools === null || settings.recovery.tools === undefined ? 'null' : json(settings.recovery.tools)}  ${from(flags.tools !== undefined ? '--tools' : undefined, config.recovery.tools, '/recovery/tools')}${settings.recovery.tools ? '' : ' (the tools each capture records)'}`);
  out.push('inspection:');
  out.push(`  mode: ${settings.mode}  ${from(flags.mode !== undefined ? '--mode' : undefined, config.inspection.mode, '/inspection/mode')}`);
  out.push(`  disabled: ${json(config.inspection.disabled ?? [])}  ${from(undefined, config.inspection.disabled, '/inspection/disabled')}`);
  out.push(`  actions: ${json(config.inspection.actions ?? {})}  ${from(undefined, config.inspection.actions, '/inspection/actions')}`);
  const rules = (config.inspection.rules ?? []) as Array<{ id?: unknown; action?: unknown }>;
  if (rules.length === 0) out.push('  rules: []  # default (built-in rules only)');
  else {
    out.push(`  rules:  # ${where('/inspection/rules')}`);
    rules.forEach((r, i) => out.push(`    - id: ${json(r.id)}  # ${where(`/inspection/rules/${i}`)}${r.action ? ` (action ${json(r.action)})` : ''}`));
  }
  out.push('scan:');
  out.push(`  fail_on: ${failOn}  ${from(flags.failOn !== undefined ? '--fail-on' : undefined, config.scan.failOn, '/scan/fail_on')}`);
  return `${out.join('\n')}\n`;
}
