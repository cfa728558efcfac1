/**
 * Building the effective rule set: built-ins minus `disabled`, re-graded by `actions`, plus the
 * operator's custom rules (format in docs/rules.md). Every rule's match/not_match examples are
 * checked when the set is built, as Codex execpolicy does with `prefix_rule(match, not_match)`
 * (research note §B.4, §C).
 */
import type { Rule } from './rule.js';
import type { InspectableCall, RuleAction } from './types.js';
import { BUILTIN_RULES } from './rules/index.js';
import { inspectCall } from './engine.js';
import { inspectionReady } from './shell/parser.js';

/** The effective rules, after configuration. */
export interface RuleSet {
  rules: Rule[];
}

/** One problem found while building a rule set; `rule` is null when it concerns no single rule. */
export interface RuleSetProblem {
  rule: string | null;
  message: string;
}

/** Thrown by {@link compileRuleSet} with every problem found, not just the first. */
export class RuleSetError extends Error {
  problems: RuleSetProblem[];
  constructor(problems: RuleSetProblem[]) {
    super(`invalid inspection rule set:\n${problems.map((p) => `  - ${p.rule ? `${p.rule}: ` : ''}${p.message}`).join('\n')}`);
    this.name = 'RuleSetError';
    this.problems = problems;
  }
}

/** Operator configuration accepted by {@link compileRuleSet}. */
export interface RuleSetConfig {
  disabled?: string[];
  actions?: Record<string, RuleAction>;
  custom?: unknown[];
}

/** Limits on custom rules (JS regular expressions backtrack; these bound the cost). */
export const CUSTOM_LIMITS = { rules: 100, patternChars: 1000, examples: 50 } as const;

const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
let builtinProblems: RuleSetProblem[] | null = null;

/**
 * Builds the effective rule set. Requires the shell parser: await `initInspection()` first.
 * @throws RuleSetError listing every problem: parser not loaded, unknown rule id in `disabled`
 * or `actions`, a bad action, a malformed custom rule or one whose pattern does not compile, a
 * duplicate id, and any rule example (built-in or custom) that fails.
 */
export function compileRuleSet(config: RuleSetConfig = {}): RuleSet {
  if (!inspectionReady()) {
    throw new RuleSetError([{ rule: null, message: 'the shell parser is not loaded: await initInspection() before compileRuleSet()' }]);
  }
  const problems: RuleSetProblem[] = [];
  builtinProblems ??= BUILTIN_RULES.flatMap(checkExamples);
  problems.push(...builtinProblems);

  const custom: Rule[] = [];
  const customIn = config.custom ?? [];
  if (!Array.isArray(customIn)) problems.push({ rule: null, message: '`custom` must be a list of rules' });
  else {
    if (customIn.length > CUSTOM_LIMITS.rules) problems.push({ rule: null, message: `at most ${CUSTOM_LIMITS.rules} custom rules (got ${customIn.length})` });
    customIn.slice(0, CUSTOM_LIMITS.rules).forEach((raw, i) => {
      const r = parseCustomRule(raw, i, problems);
      if (!r) return;
      if (BUILTIN_RULES.some((b) => b.id === r.id)) problems.push({ rule: r.id, message: 'custom rule id clashes with a built-in rule' });
      else if (custom.some((c) => c.id === r.id)) problems.push({ rule: r.id, message: 'duplicate custom rule id' });
      else {
        problems.push(...checkExamples(r));
        custom.push(r);
      }
    });
  }

  const known = new Set([...BUILTIN_RULES.map((r) => r.id), ...custom.map((r) => r.id)]);
  const disabled = new Set<string>();
  for (const id of config.disabled ?? []) {
    if (!known.has(id)) problems.push({ rule: id, message: 'unknown rule id in `disabled`' });
    disabled.add(id);
  }
  const actions = config.actions ?? {};
  for (const [id, action] of Object.entries(actions)) {
    if (!known.has(id)) problems.push({ rule: id, message: 'unknown rule id in `actions`' });
    if (action !== 'block' && action !== 'record') problems.push({ rule: id, message: `action must be "block" or "record" (got ${JSON.stringify(action)})` });
  }
  if (problems.length) throw new RuleSetError(problems);

  const rules = [...BUILTIN_RULES, ...custom]
    .filter((r) => !disabled.has(r.id))
    .map((r) => (actions[r.id] && actions[r.id] !== r.action ? { ...r, action: actions[r.id]! } : r));
  return { rules };
}

/** Runs a rule on its own examples; returns the failures. */
export function checkExamples(rule: Rule): RuleSetProblem[] {
  const problems: RuleSetProblem[] = [];
  const hits = (example: string) => inspectCall(exampleCall(rule, example), [rule]).length > 0;
  for (const ex of rule.examples.match) if (!hits(ex)) problems.push({ rule: rule.id, message: `example should match but does not: ${JSON.stringify(ex)}` });
  for (const ex of rule.examples.not_match) if (hits(ex)) problems.push({ rule: rule.id, message: `example should not match but does: ${JSON.stringify(ex)}` });
  return problems;
}

/** The call an example stands for: a `bash` command, or for path-only rules a file write. */
function exampleCall(rule: Rule, example: string): InspectableCall {
  const pathOnly = !!rule.custom && !rule.match.command && !rule.match.line && !rule.match.text && !!rule.match.path;
  const tool = rule.match.tool && /^[\w.-]+$/.test(rule.match.tool.source) ? rule.match.tool.source : null;
  const args = pathOnly ? { file_path: example, content: '' } : { command: example };
  return { id: null, name: tool ?? (pathOnly ? 'Write' : 'bash'), arguments: args, argumentsRaw: JSON.stringify(args), origin: 'structured' };
}

/** Validates one custom rule (format: docs/rules.md); records problems and returns null when bad. */
function parseCustomRule(raw: unknown, index: number, problems: RuleSetProblem[]): Rule | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push({ rule: null, message: `custom rule #${index + 1} is not a mapping` });
    return null;
  }
  const o = raw as Record<string, unknown>;
  const id = typeof o['id'] === 'string' ? o['id'] : null;
  const label = id ?? `custom rule #${index + 1}`;
  const bad = (message: string) => problems.push({ rule: label, message });
  const before = problems.length;
  if (!id) bad('`id` is required');
  else if (!ID.test(id)) bad('`id` must be kebab-case (a-z, 0-9, -)');
  const description = typeof o['description'] === 'string' ? o['description'] : '';
  if (!description) bad('`description` is required');
  const action = o['action'] ?? 'record';
  if (action !== 'block' && action !== 'record') bad(`\`action\` must be "block" or "record" (got ${JSON.stringify(action)})`);
  const flags = typeof o['flags'] === 'string' ? o['flags'] : '';
  if (!/^[ims]*$/.test(flags)) bad('`flags` may only hold i, m and s');
  const compile = (key: string): RegExp | undefined => {
    const v = o[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !v) {
      bad(`\`${key}\` must be a non-empty string`);
      return undefined;
    }
    if (v.length > CUSTOM_LIMITS.patternChars) {
      bad(`\`${key}\` pattern is longer than ${CUSTOM_LIMITS.patternChars} characters`);
      return undefined;
    }
    try {
      return new RegExp(v, flags.replace(/[^ims]/g, ''));
    } catch (err) {
      bad(`\`${key}\` pattern does not compile: ${(err as Error).message}`);
      return undefined;
    }
  };
  const text = compile('command');
  const pathRe = compile('path');
  const tool = compile('tool');
  if (o['command'] === undefined && o['path'] === undefined) bad('a custom rule needs `command` and/or `path`');
  const examples = { match: [] as string[], not_match: [] as string[] };
  const ex = o['examples'];
  if (ex !== undefined) {
    if (!ex || typeof ex !== 'object' || Array.isArray(ex)) bad('`examples` must be a mapping with `match` and `not_match` lists');
    else {
      for (const k of ['match', 'not_match'] as const) {
        const list = (ex as Record<string, unknown>)[k] ?? [];
        if (!Array.isArray(list) || !list.every((s) => typeof s === 'string')) bad(`\`examples.${k}\` must be a list of strings`);
        else examples[k] = (list as string[]).slice(0, CUSTOM_LIMITS.examples);
      }
    }
  }
  if (problems.length > before || !id) return null;
  const category = typeof o['category'] === 'string' && o['category'] ? o['category'] : 'custom';
  return {
    id,
    name: typeof o['name'] === 'string' && o['name'] ? o['name'] : id,
    category,
    action: action as RuleAction,
    description,
    help: typeof o['help'] === 'string' ? o['help'] : description,
    examples,
    custom: true,
    match: {
      ...(text ? { text } : {}),
      ...(pathRe ? { path: (a) => safePathTest(pathRe, a.path) } : {}),
      ...(tool ? { tool } : {}),
    },
  };
}

function safePathTest(re: RegExp, path: string): boolean {
  try {
    re.lastIndex = 0;
    return re.test(path);
  } catch {
    return false;
  }
}
