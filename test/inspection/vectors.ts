/**
 * The rules' test vectors: every `src/inspection/rules/*.vectors.yaml` beside the rule modules,
 * merged into one table: per rule id, `match` entries that must hit the rule and `not_match` near
 * misses that must not. An entry is a shell command (the decoded
 * `command` of a shell tool); `{command, raw: miss}` is a command the labelled raw fallback is
 * not expected to catch (it needs the parser: brace expansion, variables, functions, …); `{call}`
 * is a whole tool call (`name` and `arguments`, or `argumentsRaw` text) for shapes other than a
 * shell command string (file tools, code tools, argv and duplicate-key arguments).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import type { InspectableCall } from '../../src/inspection/index.js';

/** One table entry as written in the YAML. */
export type VectorEntry = string | { command: string; raw?: 'miss' } | { call: { name: string; arguments?: unknown; argumentsRaw?: string } };

/** The vectors of one rule. */
export interface RuleVectors {
  match: VectorEntry[];
  not_match: VectorEntry[];
}

/** Where the rule modules and their vector files are. */
export const RULES_DIR = fileURLToPath(new URL('../../src/inspection/rules/', import.meta.url));

/** The vector files, by name (`destructive.vectors.yaml`, ...). */
export const VECTOR_FILES: readonly string[] = readdirSync(RULES_DIR).filter((f) => f.endsWith('.vectors.yaml')).sort();

/** Rule id → the file that holds its vectors (a rule in two files throws). */
export const vectorFileOf = new Map<string, string>();

/** The table: rule id → match and not_match entries, from every vector file. */
export const vectors: Record<string, RuleVectors> = {};
for (const file of VECTOR_FILES) {
  const table = YAML.parse(readFileSync(RULES_DIR + file, 'utf8')) as Record<string, RuleVectors>;
  for (const [id, v] of Object.entries(table)) {
    if (vectorFileOf.has(id)) throw new Error(`${id} has vectors in ${vectorFileOf.get(id)} and ${file}`);
    vectorFileOf.set(id, file);
    vectors[id] = v;
  }
}

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
