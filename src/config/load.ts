/**
 * Loading `guard.config.yaml`: found in the working directory or given with `--config`, parsed
 * with `yaml`, validated against {@link CONFIG_SCHEMA} with Ajv before any scan. Every problem is
 * reported with the file and the 1-based YAML line it sits on.
 */

import { lstat, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { LineCounter, Node as YamlNode } from 'yaml';
import { compileRuleSet, initInspection, RuleSetError } from '../inspection/index.js';
import type { InspectionMode, RuleAction } from '../inspection/types.js';
import type { FailOn } from '../verdict/findings.js';
import { CONFIG_SCHEMA } from './schema.js';

export type { FailOn };


/** The resolved configuration. Absent settings stay undefined: callers apply the defaults. */
export interface GuardConfig {
  /** The file it came from, or null when none was found. */
  path: string | null;
  recovery: { proseCeiling?: number; tools?: string[] };
  inspection: { mode?: InspectionMode; disabled?: string[]; actions?: Record<string, RuleAction>; rules?: unknown[] };
  scan: { failOn?: FailOn };
  /** 1-based line of each custom rule entry, for messages about it. */
  ruleLines: number[];
  /** 1-based line of every node of the file by JSON pointer (`/inspection/rules/0/command`);
   * empty when there is no file. Read it with {@link configLine}. */
  lines: Record<string, number>;
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

// The YAML parser and the schema validator are loaded on first use: a scan without a
// configuration file (the common case, and every worker thread) never pays for them.
const load = createRequire(import.meta.url);
let yamlModule: typeof import('yaml') | null = null;
let validator: ValidateFunction | null = null;

/** The `yaml` package (loaded once). */
function yaml(): typeof import('yaml') {
  return (yamlModule ??= load('yaml') as typeof import('yaml'));
}

/** The compiled validator of {@link CONFIG_SCHEMA} (Ajv, JSON Schema 2020-12; compiled once). */
function schemaValidator(): ValidateFunction {
  if (!validator) {
    const { Ajv2020 } = load('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    validator = new Ajv2020({ allErrors: true, strict: true, verbose: true }).compile(CONFIG_SCHEMA);
  }
  return validator;
}

/**
 * The 1-based line of every node of a YAML document, by JSON pointer (RFC 6901): a mapping
 * entry's line is its key's, a sequence item's its own.
 */
function collectLines(node: unknown, pointer: string, counter: LineCounter, out: Record<string, number>): void {
  const line = (n: unknown) => {
    const start = (n as YamlNode | null)?.range?.[0];
    return start === undefined ? null : counter.linePos(start).line;
  };
  const here = line(node);
  if (here !== null && out[pointer] === undefined) out[pointer] = here;
  const { isMap, isSeq } = yaml();
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = String((pair.key as { value?: unknown } | null)?.value ?? '');
      const child = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const at = line(pair.key) ?? line(pair.value);
      if (at !== null) out[child] = at;
      collectLines(pair.value, child, counter, out);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => collectLines(item, `${pointer}/${i}`, counter, out));
  }
}

/**
 * The line of the node at `pointer`, or of its nearest ancestor present in the file (a missing
 * property is reported on the object that lacks it); null when not even the root has a line.
 *
 * @param config a configuration from {@link parseConfig} or {@link loadConfig}.
 * @param pointer a JSON pointer into the file, e.g. `/inspection/rules/0/command`.
 */
export function configLine(config: Pick<GuardConfig, 'lines'>, pointer: string): number | null {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    const line = config.lines[p];
    if (line !== undefined) return line;
    if (p === '') return null;
  }
}

/** A schema error in words, with the offending property or the allowed values. */
function schemaMessage(e: ErrorObject): { pointer: string; message: string } {
  const at = e.instancePath || '/';
  if (e.keyword === 'additionalProperties') {
    const prop = String((e.params as { additionalProperty?: string }).additionalProperty);
    return { pointer: `${e.instancePath}/${prop}`, message: `${at}: unknown property '${prop}'` };
  }
  if (e.keyword === 'enum') return { pointer: e.instancePath, message: `${at}: ${e.message ?? 'invalid'} (${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(', ')})` };
  if (e.keyword === 'anyOf') {
    const names = ((e.schema as Array<{ required?: string[] }>) ?? []).flatMap((s) => s.required ?? []);
    return { pointer: e.instancePath, message: `${at}: needs one of ${names.map((n) => `'${n}'`).join(', ')}` };
  }
  if (e.keyword === 'pattern' && /\/(?:description|name)$/.test(e.instancePath)) return { pointer: e.instancePath, message: `${at}: must not be blank` };
  if (e.keyword === 'pattern' && /\/rules\/\d+\/id$/.test(e.instancePath)) return { pointer: e.instancePath, message: `${at}: must be a non-empty kebab-case id (a-z, 0-9, -)` };
  if (e.keyword === 'required') {
    const prop = String((e.params as { missingProperty?: string }).missingProperty);
    return { pointer: e.instancePath, message: `${at}: missing required property '${prop}'` };
  }
  return { pointer: e.instancePath, message: `${at}: ${e.message ?? 'invalid'}` };
}

/**
 * Parses and validates configuration text against {@link CONFIG_SCHEMA}. The rules themselves
 * (ids in `disabled`/`actions`, patterns, examples) are checked by {@link checkInspection}, which
 * {@link loadConfig} runs too.
 *
 * @param text the YAML text.
 * @param file the path used in messages.
 * @returns the resolved configuration.
 * @throws ConfigError listing every YAML syntax or schema problem with its line.
 */
export function parseConfig(text: string, file: string): GuardConfig {
  const { LineCounter, parseDocument } = yaml();
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  const problems: ConfigProblem[] = [];
  for (const err of doc.errors) {
    problems.push({ file, line: counter.linePos(err.pos[0]).line, message: `YAML: ${err.message.split('\n')[0]}` });
  }
  if (problems.length) throw new ConfigError(problems);
  const lines: Record<string, number> = {};
  let data: Record<string, unknown>;
  try {
    collectLines(doc.contents, '', counter, lines);
    // yaml refuses alias expansion past its limit (a "billion laughs" file) with a ReferenceError
    data = (doc.toJS({ maxAliasCount: 100 }) ?? {}) as Record<string, unknown>;
  } catch (e) {
    const why = e instanceof RangeError ? 'the document is nested too deeply' : (e as Error).message;
    throw new ConfigError([{ file, line: null, message: `YAML: ${why}` }]);
  }
  const validate = schemaValidator();
  if (!validate(data)) {
    // an unmet anyOf is reported once, in words, not as one `required` error per branch
    for (const e of (validate.errors ?? []).filter((x) => !x.schemaPath.includes('/anyOf/'))) {
      const { pointer, message } = schemaMessage(e);
      problems.push({ file, line: configLine({ lines }, pointer), message });
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
    ruleLines: (rules ?? []).map((_, i) => lines[`/inspection/rules/${i}`] ?? 0),
    lines,
  };
}

/** Where each part of {@link RuleSetConfig} sits in guard.config.yaml. */
const RULESET_TO_FILE: Record<string, string> = { custom: '/inspection/rules', disabled: '/inspection/disabled', actions: '/inspection/actions' };

/**
 * Turns the problems of a rule set built from `config` into configuration problems on the YAML
 * lines they concern (a problem of a built-in rule, which is a broken build, has no line).
 *
 * @param config the configuration the rule set was built from.
 * @param err the error thrown by `compileRuleSet`.
 */
export function ruleSetConfigError(config: GuardConfig, err: RuleSetError): ConfigError {
  const file = config.path ?? CONFIG_FILE_NAME;
  const byLine = (a: ConfigProblem, b: ConfigProblem) => (a.line ?? Infinity) - (b.line ?? Infinity);
  return new ConfigError(
    err.problems.map((p): ConfigProblem => {
      const m = /^\/([a-z]+)(.*)$/.exec(p.pointer ?? '');
      const pointer = m && RULESET_TO_FILE[m[1]!] ? `${RULESET_TO_FILE[m[1]!]}${m[2]}` : null;
      return { file, line: pointer ? configLine(config, pointer) : null, message: `${p.rule ? `rule ${p.rule}: ` : ''}${p.message}` };
    }).sort(byLine),
  );
}

/**
 * Builds the configured rule set once, so that unknown rule ids, duplicate ids or names,
 * patterns that do not compile and failing examples refuse the file before any scan.
 *
 * @param config a configuration from {@link parseConfig}.
 * @throws ConfigError with the YAML line of each problem.
 */
export async function checkInspection(config: GuardConfig): Promise<void> {
  await initInspection();
  try {
    compileRuleSet({ disabled: config.inspection.disabled, actions: config.inspection.actions, custom: config.inspection.rules });
  } catch (err) {
    if (err instanceof RuleSetError) throw ruleSetConfigError(config, err);
    throw err;
  }
}

/**
 * Loads the configuration: `explicit` when given (it must exist), else `guard.config.yaml` in
 * `cwd` when present, else an empty configuration. The file is checked against the schema and
 * its rules are built once ({@link checkInspection}) before it is returned.
 *
 * @throws ConfigError when the file cannot be read or is invalid, each problem with its line.
 */
export async function loadConfig(explicit: string | undefined, cwd: string): Promise<GuardConfig> {
  const path = explicit ? resolve(cwd, explicit) : join(cwd, CONFIG_FILE_NAME);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // no file: the defaults; but a guard.config.yaml that exists as a link to nothing is a mistake
    // to report, not a reason to scan silently with the defaults
    const dangling = code === 'ENOENT' && (await lstat(path).then((st) => st.isSymbolicLink(), () => false));
    if (!explicit && code === 'ENOENT' && !dangling) return { path: null, recovery: {}, inspection: {}, scan: {}, ruleLines: [], lines: {} };
    if (dangling) throw new ConfigError([{ file: explicit ?? CONFIG_FILE_NAME, line: null, message: 'cannot read the configuration (a symbolic link to a file that does not exist)' }]);
    throw new ConfigError([{ file: explicit ?? path, line: null, message: `cannot read the configuration (${code ?? (e as Error).message})` }]);
  }
  const config = parseConfig(text, explicit ?? CONFIG_FILE_NAME);
  await checkInspection(config);
  return config;
}
