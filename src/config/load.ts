/**
 * Loading `guard.config.yaml`: found in the working directory or given with `--config`, parsed
 * with `yaml`, validated against {@link CONFIG_SCHEMA} with Ajv before any scan. Every problem is
 * reported with the file and the 1-based YAML line it sits on.
 */

import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { LineCounter, isMap, isSeq, parseDocument, type Node as YamlNode } from 'yaml';
import type { InspectionMode, RuleAction } from '../inspection/types.js';
import { CONFIG_SCHEMA } from './schema.js';

/** The exit-code threshold of `guard scan` (see README "Exit codes"). */
export type FailOn = 'none' | 'refused' | 'flag' | 'block';

/** The resolved configuration. Absent settings stay undefined: callers apply the defaults. */
export interface GuardConfig {
  /** The file it came from, or null when none was found. */
  path: string | null;
  recovery: { proseCeiling?: number; tools?: string[] };
  inspection: { mode?: InspectionMode; disabled?: string[]; actions?: Record<string, RuleAction>; rules?: unknown[] };
  scan: { failOn?: FailOn };
  /** 1-based line of each custom rule entry, for messages about it. */
  ruleLines: number[];
}

/** A configuration problem with where it is. */
export interface ConfigProblem {
  file: string;
  line: number | null;
  message: string;
}

/** Thrown by {@link loadConfig} with every problem found in the file. */
export class ConfigError extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(problems.map((p) => `${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`).join('\n'));
    this.name = 'ConfigError';
  }
}

/** The file name looked for in the working directory. */
export const CONFIG_FILE_NAME = 'guard.config.yaml';

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validate = ajv.compile(CONFIG_SCHEMA);

/** Finds the YAML node at a JSON pointer path such as `/inspection/actions/rm-rf-root`. */
function nodeAt(root: unknown, pointer: string): YamlNode | null {
  let node = root as YamlNode | null;
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const part of parts) {
    if (isMap(node)) {
      const pair = node.items.find((it) => (it.key as { value?: unknown } | null)?.value === part);
      node = (pair?.value as YamlNode | undefined) ?? ((pair?.key as YamlNode | undefined) ?? null);
    } else if (isSeq(node)) {
      node = (node.items[Number(part)] as YamlNode | undefined) ?? null;
    } else return node;
  }
  return node;
}

function lineOf(node: YamlNode | null, counter: LineCounter): number | null {
  const start = node?.range?.[0];
  return start === undefined ? null : counter.linePos(start).line;
}

/**
 * Parses and validates configuration text.
 *
 * @param text the YAML text.
 * @param file the path used in messages.
 * @returns the resolved configuration.
 * @throws ConfigError listing every YAML syntax or schema problem with its line.
 */
export function parseConfig(text: string, file: string): GuardConfig {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  const problems: ConfigProblem[] = [];
  for (const err of doc.errors) {
    problems.push({ file, line: counter.linePos(err.pos[0]).line, message: `YAML: ${err.message.split('\n')[0]}` });
  }
  if (problems.length) throw new ConfigError(problems);
  const data = (doc.toJS() ?? {}) as Record<string, unknown>;
  if (!validate(data)) {
    for (const e of validate.errors ?? []) {
      const at = e.instancePath || '/';
      const extra = e.keyword === 'additionalProperties' ? ` '${String((e.params as { additionalProperty?: string }).additionalProperty)}'` : '';
      const allowed = e.keyword === 'enum' ? ` (${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(', ')})` : '';
      problems.push({ file, line: lineOf(nodeAt(doc.contents, e.instancePath), counter), message: `${at}: ${e.message ?? 'invalid'}${extra}${allowed}` });
    }
    throw new ConfigError(problems);
  }
  const rec = (data['recovery'] ?? {}) as Record<string, unknown>;
  const ins = (data['inspection'] ?? {}) as Record<string, unknown>;
  const scan = (data['scan'] ?? {}) as Record<string, unknown>;
  const rules = ins['rules'] as unknown[] | undefined;
  return {
    path: file,
    recovery: { proseCeiling: rec['prose_ceiling'] as number | undefined, tools: rec['tools'] as string[] | undefined },
    inspection: {
      mode: ins['mode'] as InspectionMode | undefined,
      disabled: ins['disabled'] as string[] | undefined,
      actions: ins['actions'] as Record<string, RuleAction> | undefined,
      rules,
    },
    scan: { failOn: scan['fail_on'] as FailOn | undefined },
    ruleLines: (rules ?? []).map((_, i) => lineOf(nodeAt(doc.contents, `/inspection/rules/${i}`), counter) ?? 0),
  };
}

/**
 * Loads the configuration: `explicit` when given (it must exist), else `guard.config.yaml` in
 * `cwd` when present, else an empty configuration.
 *
 * @throws ConfigError when the file cannot be read or is invalid.
 */
export async function loadConfig(explicit: string | undefined, cwd: string): Promise<GuardConfig> {
  const path = explicit ? resolve(cwd, explicit) : join(cwd, CONFIG_FILE_NAME);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (!explicit && code === 'ENOENT') return { path: null, recovery: {}, inspection: {}, scan: {}, ruleLines: [] };
    throw new ConfigError([{ file: explicit ?? path, line: null, message: `cannot read the configuration (${code ?? (e as Error).message})` }]);
  }
  return parseConfig(text, explicit ?? CONFIG_FILE_NAME);
}
