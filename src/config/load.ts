/**
 * Loading the configuration: given with `--config`, or found by lilconfig searching upward from
 * the working directory to the repository root (the nearest folder with `.git`; the working
 * directory alone outside a repository) for `guard.config.yaml`, `guard.config.yml` or
 * `guard.config.json`. The text is parsed with `yaml` (JSON is YAML, so both keep their lines),
 * validated against {@link CONFIG_SCHEMA} with Ajv and its rules built once, before any scan.
 * Every problem of the file is reported in one pass (schema, patterns, rule ids, examples), each
 * with the file and the 1-based line it sits on.
 */

import { lstat, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
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

/** The file name looked for in the working directory (and the name used in messages about no file). */
export const CONFIG_FILE_NAME = 'guard.config.yaml';

/** The names searched for, in each folder from the working directory up to the repository root, first match wins. */
export const CONFIG_FILE_NAMES = ['guard.config.yaml', 'guard.config.yml', 'guard.config.json'] as const;

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

/** Levenshtein distance of two short strings (for "did you mean"). */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** A schema error in words, with the offending property or the allowed values. */
function schemaMessage(e: ErrorObject): { pointer: string; message: string } {
  const at = e.instancePath || '/';
  if (e.keyword === 'additionalProperties') {
    const prop = String((e.params as { additionalProperty?: string }).additionalProperty);
    const allowed = Object.keys((e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
    const near = allowed.filter((a) => editDistance(a, prop) <= Math.max(1, Math.floor(a.length / 3)));
    const hint = allowed.length ? ` (allowed: ${allowed.join(', ')}${near.length ? `; did you mean '${near[0]}'?` : ''})` : '';
    return { pointer: `${e.instancePath}/${prop}`, message: `${at}: unknown property '${prop}'${hint}` };
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

/** A configuration read from text, with its schema problems (none when `problems` is empty). */
interface Parsed {
  config: GuardConfig;
  problems: ConfigProblem[];
  /** JSON pointers of the parts the schema refused (their rules are not built). */
  invalid: string[];
}

/** Parses configuration text and validates it against the schema, collecting every problem. */
function parseCollect(text: string, file: string): Parsed {
  const { LineCounter, parseDocument } = yaml();
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  const problems: ConfigProblem[] = [];
  for (const err of doc.errors) {
    problems.push({ file, line: counter.linePos(err.pos[0]).line, message: `YAML: ${err.message.split('\n')[0]}` });
  }
  const empty: GuardConfig = { path: file, recovery: {}, inspection: {}, scan: {}, ruleLines: [], lines: {} };
  if (problems.length) return { config: empty, problems, invalid: [''] };
  const lines: Record<string, number> = {};
  let data: Record<string, unknown>;
  try {
    collectLines(doc.contents, '', counter, lines);
    // yaml refuses alias expansion past its limit (a "billion laughs" file) with a ReferenceError
    data = (doc.toJS({ maxAliasCount: 100 }) ?? {}) as Record<string, unknown>;
  } catch (e) {
    const why = e instanceof RangeError ? 'the document is nested too deeply' : (e as Error).message;
    return { config: empty, problems: [{ file, line: null, message: `YAML: ${why}` }], invalid: [''] };
  }
  const invalid: string[] = [];
  const validate = schemaValidator();
  if (!validate(data)) {
    // an unmet anyOf is reported once, in words, not as one `required` error per branch
    for (const e of (validate.errors ?? []).filter((x) => !x.schemaPath.includes('/anyOf/'))) {
      const { pointer, message } = schemaMessage(e);
      problems.push({ file, line: configLine({ lines }, pointer), message });
      invalid.push(e.instancePath);
    }
  }
  const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const rec = obj(data['recovery']);
  const ins = obj(data['inspection']);
  const scan = obj(data['scan']);
  const rules = Array.isArray(ins['rules']) ? (ins['rules'] as unknown[]) : undefined;
  return {
    config: {
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
    },
    problems,
    invalid,
  };
}

/**
 * Parses and validates configuration text against {@link CONFIG_SCHEMA}. The rules themselves
 * (ids in `disabled`/`actions`, patterns, examples) are checked by {@link checkInspection}, which
 * {@link loadConfig} runs too.
 *
 * @param text the YAML (or JSON) text.
 * @param file the path used in messages.
 * @returns the resolved configuration.
 * @throws ConfigError listing every YAML syntax or schema problem with its line.
 */
export function parseConfig(text: string, file: string): GuardConfig {
  const parsed = parseCollect(text, file);
  if (parsed.problems.length) throw new ConfigError(parsed.problems);
  return parsed.config;
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
export function ruleSetConfigError(config: GuardConfig, err: RuleSetError, customIndex?: readonly number[]): ConfigError {
  const file = config.path ?? CONFIG_FILE_NAME;
  return new ConfigError(
    err.problems
      .map((p): ConfigProblem => {
        const m = /^\/([a-z]+)(.*)$/.exec(p.pointer ?? '');
        let rest = m?.[2] ?? '';
        // a custom rule built from a subset of the file's rules: its index in the file
        if (m?.[1] === 'custom' && customIndex) rest = rest.replace(/^\/(\d+)/, (_, i: string) => `/${customIndex[Number(i)] ?? i}`);
        const pointer = m && RULESET_TO_FILE[m[1]!] ? `${RULESET_TO_FILE[m[1]!]}${rest}` : null;
        return { file, line: pointer ? configLine(config, pointer) : null, message: `${p.rule ? `rule ${p.rule}: ` : ''}${p.message}` };
      })
      .sort(byLine),
  );
}

function byLine(a: ConfigProblem, b: ConfigProblem): number {
  return (a.line ?? Infinity) - (b.line ?? Infinity);
}

/**
 * Builds the configured rule set once, so that unknown rule ids, duplicate ids or names,
 * patterns that do not compile and failing examples refuse the file before any scan.
 *
 * @param config a configuration from {@link parseConfig}.
 * @throws ConfigError with the YAML line of each problem.
 */
export async function checkInspection(config: GuardConfig): Promise<void> {
  const problems = await inspectionProblems(config, []);
  if (problems.length) throw new ConfigError(problems);
}

/**
 * The rule-set problems of a configuration, built from the parts the schema accepted (`invalid`
 * lists the JSON pointers it refused: a refused custom rule is left out, a refused list is not
 * used), with their lines.
 */
async function inspectionProblems(config: GuardConfig, invalid: readonly string[]): Promise<ConfigProblem[]> {
  if (invalid.includes('')) return [];
  const refused = (pointer: string) => invalid.some((p) => p === pointer || p.startsWith(`${pointer}/`));
  const custom: unknown[] = [];
  const customIndex: number[] = [];
  (config.inspection.rules ?? []).forEach((r, i) => {
    if (refused(`/inspection/rules/${i}`)) return;
    custom.push(r);
    customIndex.push(i);
  });
  const list = (v: unknown, pointer: string) => (Array.isArray(v) && !refused(pointer) ? (v as string[]).filter((x) => typeof x === 'string') : undefined);
  const disabled = list(config.inspection.disabled, '/inspection/disabled');
  const actions = config.inspection.actions && typeof config.inspection.actions === 'object' && !refused('/inspection/actions') ? config.inspection.actions : undefined;
  await initInspection();
  try {
    compileRuleSet({ disabled, actions, custom: refused('/inspection/rules') && !Array.isArray(config.inspection.rules) ? [] : custom });
    return [];
  } catch (err) {
    if (err instanceof RuleSetError) return ruleSetConfigError(config, err, customIndex).problems;
    throw err;
  }
}

/** The repository root above `dir`: the nearest folder holding `.git` (a folder or a worktree's file), or null. */
export async function repositoryRoot(dir: string): Promise<string | null> {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (await stat(join(d, '.git')).then(() => true, () => false)) return d;
    if (dirname(d) === d) return null;
  }
}

/** Where a configuration was looked for (for `--print-config` and messages). */
export interface ConfigSearch {
  /** The folder the search started in (the working directory). */
  from: string;
  /** The last folder searched: the repository root, or the working directory outside a repository. */
  to: string;
}

/** The folders searched for a configuration from `cwd`. */
export async function configSearch(cwd: string): Promise<ConfigSearch> {
  const from = resolve(cwd);
  return { from, to: (await repositoryRoot(from)) ?? from };
}

/**
 * Finds the configuration file with lilconfig: the first of {@link CONFIG_FILE_NAMES} in the
 * working directory, then in each folder above it up to the repository root.
 *
 * @returns the absolute path, or null.
 */
export async function findConfigFile(cwd: string): Promise<string | null> {
  const { lilconfig } = load('lilconfig') as typeof import('lilconfig');
  const { to } = await configSearch(cwd);
  // the loaders return the text: it is parsed here, with its lines
  const text = (_: string, content: string) => content;
  const found = await lilconfig('guard', {
    searchPlaces: [...CONFIG_FILE_NAMES],
    loaders: { '.yaml': text, '.yml': text, '.json': text },
    stopDir: to,
    ignoreEmptySearchPlaces: false,
    cache: false,
  }).search(resolve(cwd));
  return found?.filepath ?? null;
}

/**
 * Loads the configuration: `explicit` when given (it must exist), else the file found by
 * {@link findConfigFile}, else an empty configuration. The file is checked against the schema and
 * its rules are built once before it is returned; every problem is reported together.
 *
 * @returns the configuration; `path` is as given, or relative to `cwd` when found by the search.
 * @throws ConfigError when the file cannot be read or is invalid, each problem with its line.
 */
export async function loadConfig(explicit: string | undefined, cwd: string): Promise<GuardConfig> {
  let path: string;
  let shown: string;
  if (explicit) {
    path = resolve(cwd, explicit);
    shown = explicit;
  } else {
    const found = await findConfigFile(cwd);
    if (found === null) {
      // a guard.config.* in the working directory that is a link to nothing is a mistake to
      // report, not a reason to scan silently with the defaults
      for (const name of CONFIG_FILE_NAMES) {
        if (await lstat(join(cwd, name)).then((st) => st.isSymbolicLink(), () => false)) {
          throw new ConfigError([{ file: name, line: null, message: 'cannot read the configuration (a symbolic link to a file that does not exist)' }]);
        }
      }
      return { path: null, recovery: {}, inspection: {}, scan: {}, ruleLines: [], lines: {} };
    }
    path = found;
    shown = relative(cwd, found) || found;
    // two files in one folder: which one counts would be a guess
    const others: string[] = [];
    for (const name of CONFIG_FILE_NAMES) {
      const p = join(dirname(found), name);
      if (p !== found && (await stat(p).then((st) => st.isFile(), () => false))) others.push(relative(cwd, p) || p);
    }
    if (others.length) throw new ConfigError([{ file: shown, line: null, message: `more than one configuration file in one folder (${[shown, ...others].join(', ')}): keep one` }]);
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const dangling = code === 'ENOENT' && (await lstat(path).then((st) => st.isSymbolicLink(), () => false));
    if (dangling) throw new ConfigError([{ file: shown, line: null, message: 'cannot read the configuration (a symbolic link to a file that does not exist)' }]);
    throw new ConfigError([{ file: explicit ?? path, line: null, message: `cannot read the configuration (${code ?? (e as Error).message})` }]);
  }
  const parsed = parseCollect(text, shown);
  const problems = [...parsed.problems, ...(await inspectionProblems(parsed.config, parsed.invalid))];
  if (problems.length) {
    // one problem said twice (by the schema and by the rule set) is listed once
    const seen = new Set<string>();
    const unique = problems.filter((p) => {
      const key = `${p.line}:${p.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    throw new ConfigError(unique.sort(byLine));
  }
  return parsed.config;
}
