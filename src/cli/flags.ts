/** Parsers of command-line flag values shared by the commands; each throws UsageError for a bad value. */

import { UsageError } from './errors.js';

/** The help text of every command's `-c, --config` option (the search is src/config's). */
export const CONFIG_OPTION_HELP = 'configuration file (default: guard.config.yaml, .yml or .json, searched from here up to the repository root)';

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

/** Parses a positive whole number flag (digits only). @throws UsageError otherwise. */
export function positiveInt(flag: string, value: string): number {
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive whole number, got '${value}'`);
  return n;
}

/** The help of `--mode` (scan, baseline, replay): the default is the configuration's, else observe (src/cli/engines.ts). */
export const MODE_OPTION_HELP = "inspection mode: off, observe or enforce (default: the configuration's inspection.mode, else observe)";
