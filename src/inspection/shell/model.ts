/**
 * What the shell analyser hands to the rules: every simple command of a command line, at any
 * depth (substitutions, `bash -c` payloads, `eval`, heredocs fed to a shell, `xargs` and
 * `find -exec` commands), with its argv after quote removal and normalisation.
 */

import type { CodeFacts } from '../code/analyze.js';

/** A command line's text and where a finding sits in it (UTF-16 offsets). */
export interface Span {
  source: string;
  start: number;
  end: number;
}

/** A substitution inside a word: `$(…)`/backticks (`command`) or `<(…)`/`>(…)` (`process`). */
export interface Substitution {
  kind: 'command' | 'process-in' | 'process-out';
  /** The simple commands it runs (also present in the command line's flat list). */
  commands: ShellCommand[];
}

/** One argv entry after quote removal, escapes, ANSI-C decoding and `$HOME`/`$IFS` expansion. */
export interface Word {
  text: string;
  /** The word held quotes (`r''m`, `"$HOME"`). */
  quoted: boolean;
  /** Quoted and bare parts were joined into one word (`r''m`, `"c"url`). */
  split: boolean;
  /** A backslash escape sat inside the word (`c\url`), not counting a leading one. */
  escaped: boolean;
  /** `$IFS`/`${IFS…}` was expanded (and split on). */
  ifs: boolean;
  /** ANSI-C quoting `$'…'` was decoded. */
  ansiC: boolean;
  /** A variable that could not be resolved, or a substitution, is part of the word. */
  dynamic: boolean;
  /** A constant variable assigned earlier in the line was substituted (`X=rm; $X`). */
  fromVariable: boolean;
  /** A command substitution whose output is known statically was replaced by it (`$(echo rm)`). */
  evaluated: boolean;
  /** `${x@P}` prompt expansion. */
  prompt: boolean;
  subs: Substitution[];
}

/** A redirection of a simple command. */
export interface Redirect {
  /** `>`, `>>`, `<`, `<>`, `>&`, `&>`, `&>>`, `>|`, `<&`, `<<`, `<<-`, `<<<`. */
  op: string;
  /** Normalised target (path or fd number); empty for heredocs. */
  target: string;
  /** Heredoc body or herestring text fed to stdin. */
  input?: string;
  /** Substitutions in the target (`< <(curl …)`). */
  subs?: Substitution[];
}

/** A pipeline the command is a stage of. */
export interface Pipeline {
  stages: ShellCommand[];
}

/** One simple command. */
export interface ShellCommand {
  /** argv after wrapper stripping (`sudo`, `env`, `nohup`, …); argv[0] is the command as written. */
  words: Word[];
  argv: string[];
  /** Basename of argv[0], '' for a redirect-only command. */
  name: string;
  /** Wrappers stripped in front of it, in order (`sudo`, `env`, …). */
  wrappers: string[];
  redirects: Redirect[];
  pipeline: Pipeline | null;
  /** Index of this command in `pipeline.stages`. */
  stage: number;
  /** Text fed on stdin by a heredoc or herestring, when literal. */
  stdin: string | null;
  /** 0 for the command line itself, +1 per carrier or substitution. */
  depth: number;
  /** How it is run when not directly: `sh -c`, `eval`, `xargs`, `find -exec`, `stdin`, `$(…)`, … */
  via: string | null;
  /** The command that launched it through xargs/parallel/find -exec, if any. */
  launcher: string | null;
  /** The working directory a `cd` earlier in the line moved to, when known (`/`, `~`, `~/.ssh`);
   * relative paths of this command are resolved against it by the path helpers. */
  cwd: string | null;
  /** Variables set for this command only: `X=1 cmd`, `env X=1 cmd` (name, value as expanded). */
  assigns: [string, string][];
  /** Valued options of the wrappers stripped in front of it: wrapper, option, value
   * (`strace -o F cmd` gives `['strace', '-o', 'F']`). */
  wrapperOptions?: [string, string, string][];
  /** The command whose output this one reads when it is not a pipeline stage: the command
   * holding the `>(…)` process substitution it runs in (`curl … | tee >(sh)`, `curl … > >(sh)`). */
  fedBy: ShellCommand | null;
  /** For an interpreter given inline code (`python -c`, `node -e`, a heredoc fed to one): what the
   * code does, read from its syntax tree (Python and JavaScript; src/inspection/code/). */
  code?: CodeFacts;
  span: Span;
}

/** A function definition (`f(){ …; }`). */
export interface FunctionDef {
  name: string;
  body: ShellCommand[];
  span: Span;
}

/** The analysis of one command-bearing value. */
export interface CommandLine {
  /** The text as given (cut at the parse limit). */
  text: string;
  /** Every simple command found, outermost first. */
  commands: ShellCommand[];
  functions: FunctionDef[];
  /** The grammar reported syntax errors somewhere (at any depth). */
  hasError: boolean;
  /** Some of the text was not parsed (same as `unparsed.length > 0`). */
  truncated: boolean;
  /**
   * Parts of the text (or of a carrier's payload) the parser did not analyse: a piece that is
   * too long or too pipe-heavy to parse even after splitting, nesting deeper than the analysis
   * follows, more commands than it keeps, or a parser failure (docs/shell-parser.md "Hostile
   * input"). At most {@link MAX_UNPARSED} entries; later parts extend the last one. The engine
   * runs the raw-text fallback over the whole text and fires `unparsed-command`.
   */
  unparsed: Span[];
}

/** Most entries kept in {@link CommandLine.unparsed}. */
export const MAX_UNPARSED = 16;
