/**
 * The table of fixtures/inspection/commands.yaml: per rule id, `positive` entries that must hit
 * the rule and `negative` near misses that must not. An entry is a shell command (the decoded
 * `command` of a shell tool); `{command, raw: miss}` is a command the labelled raw fallback is
 * not expected to catch (it needs the parser: brace expansion, variables, functions, …); `{call}`
 * is a whole tool call (`name` and `arguments`, or `argumentsRaw` text) for shapes other than a
 * shell command string (file tools, code tools, argv and duplicate-key arguments).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import type { InspectableCall } from '../../src/inspection/index.js';

/** One table entry as written in the YAML. */
export type VectorEntry = string | { command: string; raw?: 'miss' } | { call: { name: string; arguments?: unknown; argumentsRaw?: string } };

/** The table: rule id → positive and negative entries. */
export const vectors = YAML.parse(readFileSync(fileURLToPath(new URL('../../fixtures/inspection/commands.yaml', import.meta.url)), 'utf8')) as Record<string, { positive: VectorEntry[]; negative: VectorEntry[] }>;

/** The shell command of an entry, or null for a whole-call entry. */
export function commandOf(e: VectorEntry): string | null {
  return typeof e === 'string' ? e : 'command' in e ? e.command : null;
}

/** True when the raw fallback is expected to catch this positive entry. */
export function rawCatches(e: VectorEntry): boolean {
  return typeof e === 'string' || ('command' in e && e.raw !== 'miss');
}

/** The tool call of a whole-call entry (arguments decoded from `argumentsRaw` when only that is given; null when it is not JSON). */
export function callOf(e: VectorEntry, id = 'call_1'): InspectableCall | null {
  if (typeof e === 'string' || !('call' in e)) return null;
  const { name, arguments: args, argumentsRaw } = e.call;
  const raw = argumentsRaw ?? JSON.stringify(args);
  let decoded: unknown = args ?? null;
  if (args === undefined) {
    try {
      decoded = JSON.parse(raw);
    } catch {
      decoded = null;
    }
  }
  return { id, name, arguments: decoded as InspectableCall['arguments'], argumentsRaw: raw, origin: 'structured' };
}

/** A short label for test titles. */
export function labelOf(e: VectorEntry): string {
  return commandOf(e) ?? JSON.stringify((e as { call: unknown }).call);
}
