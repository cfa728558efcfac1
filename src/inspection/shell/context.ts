/**
 * What the three parts of the shell analysis share: the tree walk (analyze.ts), the command
 * carriers (carriers.ts: wrappers such as `sudo`, payloads such as `sh -c`, `xargs`, `find -exec`)
 * and word expansion (wordexp.ts). The walk hands the other two a {@link Runner} in the context,
 * so they can analyse nested text without importing the walk (no import cycle).
 */
import type { SyntaxNode } from './parser.js';
import type { CommandLine, Redirect, ShellCommand, Span, Substitution, Word } from './model.js';

/** Deepest nesting of carriers and substitutions followed. */
export const MAX_DEPTH = 5;

/** Shells that run a `-c` string or a script read from stdin. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'yash', 'posh', 'rbash', 'oksh', 'loksh', 'elvish', 'xonsh', 'sash', 'rc']);

/** Marks a field split inside a word's text (`$IFS`, an unquoted multi-word value). */
export const IFS_MARK = '\u0000';
/** Key in `Ctx.env` of the working directory set by a `cd` earlier in the line (when known). */
export const CWD = '\u0000cwd';
/** How `$HOME` is modelled for `${HOME%…}`/`${HOME#…}` (mapped back to `~` when the result keeps it). */
export const HOME_MODEL = '/home/user';

/** The walk's entry points, handed to carriers and word expansion through the context. */
export interface Runner {
  /** Parses a carrier's payload as a nested command line; returns the commands it added. */
  enter(text: string, ctx: Ctx, via: string, env?: Map<string, string>): ShellCommand[];
  /** Walks one syntax node (a substitution's body). */
  walk(node: SyntaxNode, ctx: Ctx): ShellCommand[];
  /** Builds, records and expands one simple command from its words. */
  makeCommand(words: Word[], redirects: Redirect[], span: Span, ctx: Ctx, launcher: string | null, assigns?: [string, string][]): ShellCommand;
}

/** The state of the analysis at one point of the text. */
export interface Ctx {
  line: CommandLine;
  env: Map<string, string>;
  depth: number;
  via: string | null;
  /** The text spans point into, and where the parsed piece starts in it. */
  source: string;
  offset: number;
  /** `xargs`, `parallel` or `find` when the commands are launched by one. */
  launcher: string | null;
  /** Aliases and functions defined earlier in the line (name → text), shared with nested payloads. */
  aliases: Map<string, string>;
  funcs: Map<string, string>;
  /** Literal text written to files earlier in the line (path → text), for `. FILE` and `sh FILE`. */
  files: Map<string, string>;
  /** Variables assigned the output of a substitution earlier in the line (`S=$(curl …)`): name →
   * the substitutions, carried into every word that expands the variable, so `bash -c "$S"`
   * runs what `curl` printed as surely as `bash -c "$(curl …)"`. */
  subVars: Map<string, Substitution[]>;
  run: Runner;
}

/** A word with no quoting or expansion, holding `text`. */
export function plainWord(text: string, extra: Partial<Word> = {}): Word {
  return { text, quoted: false, split: false, escaped: false, ifs: false, ansiC: false, dynamic: false, fromVariable: false, evaluated: false, prompt: false, subs: [], ...extra };
}

/** A word quoted for display in a rebuilt command line (`rm -rf 'a b'`). */
export function quoteForDisplay(a: string): string {
  return /^[\w@%+=:,./~-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/** Positional parameters as variables: `$0`, `$1`…, `$@` (kept apart), `$*`, `$#`. */
export function positionalEnv(base: Map<string, string>, zero: string | null, params: string[]): Map<string, string> {
  const env = new Map([...base].filter(([k]) => !/^(?:\d+|[@*#])$/.test(k)));
  if (zero !== null) env.set('0', zero);
  params.forEach((p, i) => env.set(String(i + 1), p));
  env.set('@', params.join(IFS_MARK));
  env.set('*', params.join(' '));
  env.set('#', String(params.length));
  return env;
}
