/**
 * The shape of an inspection rule and of the matchers it may carry. A rule fires on a tool call
 * when any of its matchers does; the engine parses each command once and runs every rule over
 * the result.
 */
import type { CommandLine, ShellCommand, Span } from './shell/model.js';
import type { RuleAction } from './types.js';
import type { TextPattern } from './pattern.js';

/** A file path a tool call writes or reads: from a file tool's path argument, or from a shell
 * command (redirect target, `tee`/`cp`/`mv`/`sed -i` destination, read operand). */
export interface PathAccess {
  /** Normalised path (`~` for the home directory, `//` and `/./` collapsed). */
  path: string;
  mode: 'write' | 'read';
  /** What is written, when known (a file tool's content or patch; a command line's text). */
  content: string | null;
  /** The tool name. */
  tool: string;
  /** For a read by a shell command: `file` when what it reads goes only into a local file (its
   * output redirected to a file, a copy, a writer's output path), not into the transcript or
   * down a pipe; `in-place` when an in-place editor (`sed -i`) reads the file only to write it
   * back. Unset for file tools (their reads land in the transcript). */
  sink?: 'file' | 'in-place';
}

/** A path matcher: a write to a path that `re` matches (`match: { path: written(/^\/etc\/x/) }`). */
export function written(re: RegExp): (access: PathAccess) => boolean {
  return (a) => a.mode === 'write' && re.test(a.path);
}

/** How a rule recognises a dangerous call. Every member is optional; at least one is set. */
export interface RuleMatcher {
  /** Predicate over one simple command (at any depth) of a parsed command line; `'raw'` for a hit
   * found by a raw reading inside the command (an unparseable SQL statement), labelled so. */
  command?: (cmd: ShellCommand, line: CommandLine) => boolean | 'raw';
  /** Predicate over a whole command line (functions, patterns across commands); returns where. */
  line?: (line: CommandLine) => Span | null;
  /** Predicate over a path a call writes or reads (file tools and shell commands alike). */
  path?: (access: PathAccess) => boolean;
  /** Labelled fallback on raw text (unparseable arguments or command text with syntax errors). */
  raw?: RegExp;
  /** Custom rules: a pattern (RE2, linear time) on decoded command text and on each normalised
   * simple command. */
  text?: TextPattern;
  /** Custom rules: a simple command (at any depth) whose normalised argv starts with these words;
   * the first is compared with the command's basename (`/usr/bin/git` → `git`). */
  argv?: readonly string[];
  /** Custom rules: only calls of these tools (names compared case-insensitively). */
  tools?: readonly string[];
}

/** An inspection rule: identity, grading, documentation, self-test examples and matcher. */
export interface Rule {
  /** Stable kebab-case id (docs/rules.md "Rule origins"). */
  id: string;
  name: string;
  category: string;
  /** Default action; the operator may re-grade it. */
  action: RuleAction;
  /** One line. */
  description: string;
  /** What to check and what to do about a hit. */
  help: string;
  /** Command lines (or, for path-only rules, file paths) the rule must match and must not. */
  examples: { match: string[]; not_match: string[] };
  match: RuleMatcher;
  /** The MITRE ATT&CK technique the rule detects (`T1070.003`, https://attack.mitre.org/techniques/),
   * when one fits. */
  attack?: string;
  /** True for the operator's own rules. */
  custom?: boolean;
}
