/**
 * guard's inspection engine: checks the decoded arguments of tool calls against rules that
 * understand shell (the rules: docs/rules.md; the parser: docs/shell-parser.md). Pure: no fs access
 * of its own (the bash grammar is loaded once by {@link initInspection}), no process, no console.
 *
 * Use: `await initInspection()` once, then `compileRuleSet(config)`, then `inspectCalls(...)`
 * for each reply.
 */
export type { Rule, RuleMatcher, PathAccess } from './rule.js';
export type { RuleSet, RuleSetConfig, RuleSetProblem, RuleStatus } from './ruleset.js';
export { compileRuleSet, RuleSetError, checkExamples, checkBuiltinExamples, CUSTOM_LIMITS, RULE_ID } from './ruleset.js';
export { compilePattern, PATTERN_FLAGS } from './pattern.js';
export type { TextPattern } from './pattern.js';
export { salvageJsonObject, unescapeJsonText } from './partial-json.js';
export { inspectCalls, inspectCall, excerpt, MAX_EXCERPT, INSPECTION_ERROR, INSPECTION_ERROR_RULE } from './engine.js';
export { redactSecrets, findSecrets, SECRET_PATTERNS } from '../base/redact.js';
export type { SecretPattern } from '../base/redact.js';
export { BUILTIN_RULES } from './rules/index.js';
export { initInspection, inspectionReady, parserHealth, parserRestored, DEFAULT_MAX_MEMORY } from './shell/parser.js';
export type { InitInspectionOptions, ParserHealth } from './shell/parser.js';
export { analyzeCommandLine, analyzeArgv, ANALYSIS_LIMITS } from './shell/analyze.js';
export type { CommandLine, ShellCommand, Word, Redirect, Substitution, Span, FunctionDef, Pipeline } from './shell/model.js';
export * from './types.js';
