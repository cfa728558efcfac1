/**
 * Building the effective rule set: built-ins minus `disabled`, re-graded by `actions`, plus the
 * operator's custom rules (format in docs/rules.md). Every custom rule's match/not_match examples
 * are checked when the set is built, as Codex execpolicy does with `prefix_rule(match, not_match)`
 * (https://developers.openai.com/codex/rules). The built-in rules' examples are fixed in the code: the tests run each
 * of them (test/inspection/rules.test.ts) and `guard rules check` runs them on the installed copy
 * ({@link checkBuiltinExamples}), so building a rule set does not pay for them (~0.2 s of CPU per
 * process and per worker thread).
 */
import type { Rule } from './rule.js';
import type { InspectableCall, RuleAction } from './types.js';
import { BUILTIN_RULES } from './rules/index.js';
import { inspectCall, INSPECTION_ERROR, INSPECTION_ERROR_RULE } from './engine.js';
import { inspectionReady } from './shell/parser.js';
import { compilePattern, estimateProgramBytes, PATTERN_FLAGS, PATTERN_BUDGET, PATTERN_MEMORY, tooBig, type TextPattern } from './pattern.js';

/** A rule's standing in a rule set: whether it is on, and where it comes from. */
export interface RuleStatus {
  /** The rule with the action in force (after `actions`). */
  rule: Rule;
  enabled: boolean;
  source: 'builtin' | 'custom';
}

/** The effective rules, after configuration. */
export interface RuleSet {
  /** The rules switched on, built-ins first (then `inspection-error`, the hit of a failed
   * inspection), each with its action in force. */
  rules: Rule[];
  /** Every rule, on or off, in the same order (for `guard rules list`). */
  catalogue: RuleStatus[];
  /**
   * Frees the custom rules' compiled patterns in the regex engine's fixed heap (they are also
   * freed when the rule set is garbage-collected). A long-lived caller that rebuilds its rule set
   * (a gateway reloading its configuration) disposes the old one; the rule set cannot be used after.
   */
  dispose(): void;
}

/**
 * One problem found while building a rule set. `rule` is null when it concerns no single rule;
 * `pointer` (RFC 6901) says where in the {@link RuleSetConfig} it sits, e.g. `/disabled/0`,
 * `/actions/rm-rf-root`, `/custom/2/command`, `/custom/0/examples/match/1`, so a caller that
 * knows the file (src/config/load.ts) can name the line.
 */
export interface RuleSetProblem {
  rule: string | null;
  message: string;
  pointer?: string;
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

/** Operator configuration accepted by {@link compileRuleSet} (`custom` is `inspection.rules` of
 * guard.config.yaml; format in docs/rules.md). */
export interface RuleSetConfig {
  disabled?: string[];
  actions?: Record<string, RuleAction>;
  custom?: unknown[];
}

/** Limits on custom rules. Patterns run on RE2 (linear time); these bound the rest of the cost. */
export const CUSTOM_LIMITS = { rules: 100, patternChars: 1000, examples: 50, argvWords: 20 } as const;

/** A custom rule id: kebab-case. */
export const RULE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Runs every built-in rule on its own examples (as {@link checkExamples}). Requires the shell
 * parser: await `initInspection()` first.
 * @returns the failures; empty unless guard's own rules or parser are broken.
 */
export function checkBuiltinExamples(): RuleSetProblem[] {
  return BUILTIN_RULES.flatMap((r) => checkExamples(r));
}

/**
 * Builds the effective rule set. Requires the shell parser: await `initInspection()` first.
 * @throws RuleSetError listing every problem, each with a `pointer` into `config`: parser not
 * loaded, unknown rule id in `disabled` or `actions`, a bad action, a malformed custom rule, one
 * whose pattern does not compile, a duplicate or empty id or name, and any custom rule's
 * example that fails (built-in examples: {@link checkBuiltinExamples}).
 * @param options `parserLater`: a set without custom rules may be built before the shell parser
 *   is loaded (only custom rules' examples need it here); the caller then awaits
 *   `initInspection()` before inspecting anything with it (a cached rescan that judges nothing
 *   never loads the parser). A set with custom rules still needs the parser first.
 */
export function compileRuleSet(config: RuleSetConfig = {}, options: { parserLater?: boolean } = {}): RuleSet {
  const noCustom = config.custom === undefined || (Array.isArray(config.custom) && config.custom.length === 0);
  if (!inspectionReady() && !(options.parserLater === true && noCustom)) {
    throw new RuleSetError([{ rule: null, message: 'the shell parser is not loaded: await initInspection() before compileRuleSet()' }]);
  }
  const problems: RuleSetProblem[] = [];
  /** The custom rules' compiled patterns: freed when the set is disposed, or at once when it fails. */
  const patterns: TextPattern[] = [];

  const custom: Rule[] = [];
  const customIn = config.custom ?? [];
  if (!Array.isArray(customIn)) problems.push({ rule: null, message: '`custom` must be a list of rules', pointer: '/custom' });
  else {
    if (customIn.length > CUSTOM_LIMITS.rules) problems.push({ rule: null, message: `at most ${CUSTOM_LIMITS.rules} custom rules (got ${customIn.length})`, pointer: '/custom' });
    const memory = { used: 0, patterns, ms: 0 }; // estimated regex-engine memory of the custom patterns so far, the patterns, and the time their checks took
    customIn.slice(0, CUSTOM_LIMITS.rules).forEach((raw, i) => {
      const at = `/custom/${i}`;
      const r = parseCustomRule(raw, i, problems, memory);
      if (!r) return;
      const before = problems.length;
      if (BUILTIN_RULES.some((b) => b.id === r.id) || r.id === INSPECTION_ERROR) problems.push({ rule: r.id, message: 'custom rule id clashes with a built-in rule', pointer: `${at}/id` });
      else if (custom.some((c) => c.id === r.id)) problems.push({ rule: r.id, message: 'duplicate custom rule id', pointer: `${at}/id` });
      const sameName = [...BUILTIN_RULES, ...custom].find((c) => c.name.toLowerCase() === r.name.toLowerCase());
      if (sameName) problems.push({ rule: r.id, message: `duplicate rule name ${JSON.stringify(r.name)} (also ${sameName.custom ? 'custom rule' : 'built-in rule'} ${sameName.id})`, pointer: `${at}/${raw && typeof raw === 'object' && 'name' in raw ? 'name' : 'id'}` });
      if (problems.length > before) return;
      problems.push(...checkExamples(r, at));
      custom.push(r);
    });
  }

  const known = new Set([...BUILTIN_RULES.map((r) => r.id), INSPECTION_ERROR, ...custom.map((r) => r.id)]);
  const disabled = new Set<string>();
  (config.disabled ?? []).forEach((id, i) => {
    if (!known.has(id)) problems.push({ rule: id, message: unknownId(id, '`disabled`'), pointer: `/disabled/${i}` });
    else if (id === INSPECTION_ERROR) problems.push({ rule: id, message: `${INSPECTION_ERROR} cannot be disabled: a call guard could not inspect must not pass unseen (re-grade it with \`actions\` instead)`, pointer: `/disabled/${i}` });
    disabled.add(id);
  });
  const actions = config.actions ?? {};
  for (const [id, action] of Object.entries(actions)) {
    const pointer = `/actions/${id.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!known.has(id)) problems.push({ rule: id, message: unknownId(id, '`actions`'), pointer });
    if (action !== 'block' && action !== 'record') problems.push({ rule: id, message: `action must be "block" or "record" (got ${JSON.stringify(action)})`, pointer });
  }
  if (problems.length) {
    for (const p of patterns) p.dispose();
    throw new RuleSetError(problems);
  }

  const catalogue: RuleStatus[] = [...BUILTIN_RULES, INSPECTION_ERROR_RULE, ...custom].map((r) => ({
    rule: actions[r.id] && actions[r.id] !== r.action ? { ...r, action: actions[r.id]! } : r,
    enabled: !disabled.has(r.id),
    source: r.custom ? 'custom' : 'builtin',
  }));
  return { rules: catalogue.filter((s) => s.enabled).map((s) => s.rule), catalogue, dispose: () => patterns.forEach((p) => p.dispose()) };
}

function unknownId(id: string, where: string): string {
  return `unknown rule id ${JSON.stringify(id)} in ${where} (not a built-in or custom rule)`;
}

/**
 * Runs a rule on its own examples.
 * @param rule the rule.
 * @param at JSON pointer of a custom rule in its config (`/custom/N`), to point at each failing
 *   example; omitted for built-ins.
 * @returns the failures (empty when every example behaves).
 */
export function checkExamples(rule: Rule, at?: string): RuleSetProblem[] {
  const problems: RuleSetProblem[] = [];
  const hits = (example: string) => inspectCall(exampleCall(rule, example), [rule]).length > 0;
  const where = (k: string, i: number) => (at ? { pointer: `${at}/examples/${k}/${i}` } : {});
  rule.examples.match.forEach((ex, i) => {
    if (!hits(ex)) problems.push({ rule: rule.id, message: `example should match but does not: ${JSON.stringify(ex)}`, ...where('match', i) });
  });
  rule.examples.not_match.forEach((ex, i) => {
    if (hits(ex)) problems.push({ rule: rule.id, message: `example should not match but does: ${JSON.stringify(ex)}`, ...where('not_match', i) });
  });
  return problems;
}

/** The call an example stands for: a shell command (`bash`, or the rule's first tool), or for
 * path-only rules a file write (`Write`, or the rule's first tool). */
function exampleCall(rule: Rule, example: string): InspectableCall {
  const m = rule.match;
  const pathOnly = !!rule.custom && !m.command && !m.line && !m.text && !m.argv && !!m.path;
  const args = pathOnly ? { file_path: example, content: '' } : { command: example };
  const name = m.tools?.[0] ?? (pathOnly ? 'Write' : 'bash');
  return { id: null, name, arguments: args, argumentsRaw: JSON.stringify(args), origin: 'structured' };
}

/** Validates one custom rule (format: docs/rules.md); records problems and returns null when bad. */
function parseCustomRule(raw: unknown, index: number, problems: RuleSetProblem[], memory: { used: number; patterns: TextPattern[]; ms: number } = { used: 0, patterns: [], ms: 0 }): Rule | null {
  const at = `/custom/${index}`;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push({ rule: null, message: `custom rule #${index + 1} is not a mapping`, pointer: at });
    return null;
  }
  const o = raw as Record<string, unknown>;
  const id = typeof o['id'] === 'string' && o['id'] !== '' ? o['id'] : null;
  const label = id ?? `custom rule #${index + 1}`;
  const bad = (key: string | null, message: string) => problems.push({ rule: label, message, pointer: key ? `${at}/${key}` : at });
  const before = problems.length;
  if (!id) bad(o['id'] === undefined ? null : 'id', o['id'] === undefined ? '`id` is required' : '`id` must be a non-empty string');
  else if (!RULE_ID.test(id)) bad('id', '`id` must be kebab-case (a-z, 0-9, -)');
  if (o['name'] !== undefined && (typeof o['name'] !== 'string' || !o['name'].trim())) bad('name', '`name` must be a non-empty string');
  const description = typeof o['description'] === 'string' ? o['description'].trim() : '';
  if (!description) bad(o['description'] === undefined ? null : 'description', '`description` is required');
  const action = o['action'] ?? 'record';
  if (action !== 'block' && action !== 'record') bad('action', `\`action\` must be "block" or "record" (got ${JSON.stringify(action)})`);
  const flags = typeof o['flags'] === 'string' ? o['flags'] : '';
  if (o['flags'] !== undefined && (typeof o['flags'] !== 'string' || !PATTERN_FLAGS.test(flags))) bad('flags', '`flags` may only hold i, m and s');
  const compile = (key: string): TextPattern | undefined => {
    const v = o[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !v) {
      bad(key, `\`${key}\` must be a non-empty string`);
      return undefined;
    }
    if (v.length > CUSTOM_LIMITS.patternChars) {
      bad(key, `\`${key}\` pattern is longer than ${CUSTOM_LIMITS.patternChars} characters`);
      return undefined;
    }
    const size = estimateProgramBytes(v, flags);
    if (size <= PATTERN_MEMORY.perPattern && memory.used + size > PATTERN_MEMORY.total) {
      bad(key, `\`${key}\` ${tooBig(memory.used + size, PATTERN_MEMORY.total, 'custom patterns together are')}`);
      return undefined;
    }
    if (memory.ms > PATTERN_BUDGET.totalMs) {
      bad(key, `\`${key}\` pattern not compiled: the custom patterns before it already took ${Math.round(memory.ms)} ms to compile and time (budget ${PATTERN_BUDGET.totalMs} ms for all custom patterns, so that no rule set makes every start slow); use fewer or simpler patterns`);
      return undefined;
    }
    memory.used += size;
    const started = performance.now();
    try {
      const pattern = compilePattern(v, PATTERN_FLAGS.test(flags) ? flags : '');
      memory.patterns.push(pattern);
      return pattern;
    } catch (err) {
      bad(key, `\`${key}\` pattern does not compile: ${(err as Error).message}`);
      return undefined;
    } finally {
      memory.ms += performance.now() - started;
    }
  };
  const text = compile('command');
  const pathRe = compile('path');
  const argv = stringList(o['argv_prefix'], 'argv_prefix', CUSTOM_LIMITS.argvWords, bad);
  const tools = stringList(o['tools'], 'tools', CUSTOM_LIMITS.rules, bad);
  if (o['command'] === undefined && o['path'] === undefined && o['argv_prefix'] === undefined) bad(null, 'a custom rule needs `command`, `argv_prefix` or `path`');
  const examples = { match: [] as string[], not_match: [] as string[] };
  const ex = o['examples'];
  if (ex !== undefined) {
    if (!ex || typeof ex !== 'object' || Array.isArray(ex)) bad('examples', '`examples` must be a mapping with `match` and `not_match` lists');
    else {
      for (const k of ['match', 'not_match'] as const) {
        const list = (ex as Record<string, unknown>)[k] ?? [];
        if (!Array.isArray(list) || !list.every((s) => typeof s === 'string')) bad(`examples/${k}`, `\`examples.${k}\` must be a list of strings`);
        else if (list.length > CUSTOM_LIMITS.examples) bad(`examples/${k}`, `at most ${CUSTOM_LIMITS.examples} examples in \`examples.${k}\``);
        else examples[k] = list as string[];
      }
    }
  }
  if (problems.length > before || !id) return null;
  const category = typeof o['category'] === 'string' && o['category'] ? o['category'] : 'custom';
  return {
    id,
    name: typeof o['name'] === 'string' ? o['name'].trim() : id,
    category,
    action: action as RuleAction,
    description,
    help: typeof o['help'] === 'string' ? o['help'] : description,
    examples,
    custom: true,
    match: {
      ...(text ? { text } : {}),
      ...(pathRe ? { path: (a) => pathRe.find(a.path) !== null } : {}),
      ...(argv ? { argv } : {}),
      ...(tools ? { tools: tools.map((t) => t.toLowerCase()) } : {}),
    },
  };
}

/** A non-empty list of non-empty strings, or undefined when absent (problems recorded). */
function stringList(v: unknown, key: string, max: number, bad: (key: string, message: string) => void): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length === 0 || !v.every((s) => typeof s === 'string' && s !== '')) {
    bad(key, `\`${key}\` must be a non-empty list of non-empty strings`);
    return undefined;
  }
  if (v.length > max) {
    bad(key, `at most ${max} entries in \`${key}\``);
    return undefined;
  }
  return v as string[];
}
