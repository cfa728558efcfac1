/**
 * Turns shell text into the flat list of simple commands the rules look at (see model.ts).
 * The grammar is tree-sitter-bash; node types are those of its grammar.js. Carriers are entered
 * recursively up to {@link MAX_DEPTH}: `sh|bash|… -c`, `eval`, `su -c`, `env -S`, `ssh host cmd`,
 * `xargs`/`parallel`, `find -exec`, substitutions, and literal text (echo/printf/heredoc/
 * herestring, also after base64 -d or rev) fed to a shell's stdin.
 */
import { inspectionReady, parseShell, MAX_PARSE_CHARS } from './parser.js';
import type { SyntaxNode } from './parser.js';
import { MAX_UNPARSED, type CommandLine, type FunctionDef, type Pipeline, type Redirect, type ShellCommand, type Span, type Substitution, type Word } from './model.js';
import { splitStatements, type Statement } from './split.js';
import { baseName, decodeAnsiC, normalizePath, unescapeBare, unescapeDouble } from './words.js';
import { expandBracesInText, parseParameter, printfOutput, removeAffix } from './expand.js';
import { INTERPRETERS, interpreterCode, interpreterShellTexts } from './interp.js';

/** Deepest nesting of carriers and substitutions followed. */
export const MAX_DEPTH = 5;

/**
 * Bounds on what one parse may hold and on the analysis (docs/shell-parser.md "Hostile input").
 * `pipes`: `|` operators per parse (tree-sitter's cost on a long pipeline with a syntax error
 * grows far faster than the text: 16,000 stages took 1.5 s and 1 GB; 128 take about a
 * millisecond). `nesting`: syntax-tree levels walked (deeper text is reported as not parsed, not
 * left to overflow the stack). `commands`: simple commands kept per command line. `budget`:
 * parse work per command line (characters parsed plus `perParse` per parser call, nested
 * payloads included); text past `commands` or `budget` is left to the raw fallback.
 */
export const ANALYSIS_LIMITS = { chars: MAX_PARSE_CHARS, pipes: 128, nesting: 1000, commands: 20_000, budget: 256 * 1024, perParse: 512 } as const;

/** Parse work spent on a command line: characters parsed plus `perParse` per parser call; past
 * `budget` the rest is left to the raw fallback, so no command costs more than a bounded time. */
const spent = new WeakMap<CommandLine, number>();

/** Shells that run a `-c` string or a script read from stdin. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'yash', 'posh', 'rbash']);

const IFS_MARK = '\u0000';
/** Key in `Ctx.env` of the working directory set by a `cd` earlier in the line (when known). */
const CWD = '\u0000cwd';
/** How `$HOME` is modelled for `${HOME%…}`/`${HOME#…}` (mapped back to `~` when the result keeps it). */
const HOME_MODEL = '/home/user';
/** Most values of a `for` list whose body is walked once per value. */
const MAX_FOR_VALUES = 16;

interface Ctx {
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
}

/**
 * Analyses one command-bearing string of any length: every part is either parsed (in pieces when
 * long, see {@link ANALYSIS_LIMITS} and shell/split.ts) or listed in `unparsed`. Returns null
 * only when the bash grammar is not loaded (initInspection not awaited); never throws.
 */
export function analyzeCommandLine(text: string): CommandLine | null {
  if (!inspectionReady()) return null;
  const line = emptyLine(text);
  analyzeInto(text, { line, env: new Map(), depth: 0, via: null, source: text, offset: 0, launcher: null, aliases: new Map(), funcs: new Map() });
  line.truncated = line.unparsed.length > 0;
  return line;
}

/** Analyses one argv vector (Codex `local_shell` / `shell` `command: string[]`); null when the
 * grammar is not loaded. */
export function analyzeArgv(argv: string[]): CommandLine | null {
  if (!inspectionReady()) return null;
  const text = argv.map(quoteForDisplay).join(' ');
  const line = emptyLine(text);
  const ctx: Ctx = { line, env: new Map(), depth: 0, via: null, source: text, offset: 0, launcher: null, aliases: new Map(), funcs: new Map() };
  const words = argv.map((a) => plainWord(a));
  makeCommand(words, [], { source: text, start: 0, end: text.length }, ctx, null);
  line.truncated = line.unparsed.length > 0;
  return line;
}

function emptyLine(text: string): CommandLine {
  return { text, commands: [], functions: [], hasError: false, truncated: false, unparsed: [] };
}

function quoteForDisplay(a: string): string {
  return /^[\w@%+=:,./~-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

function plainWord(text: string, extra: Partial<Word> = {}): Word {
  return { text, quoted: false, split: false, escaped: false, ifs: false, ansiC: false, dynamic: false, fromVariable: false, evaluated: false, prompt: false, subs: [], ...extra };
}

/** Analyses `ctx.source` (the whole of it): at once when it is within the limits, else in pieces.
 * A text holding brace expansions (`{rm,-rf,/}`, `/{etc,usr}`) is analysed a second time with
 * them expanded (via `brace expansion`), since the parser keeps such words as written. */
function analyzeInto(text: string, ctx: Ctx): void {
  if (text.length <= ANALYSIS_LIMITS.chars && countPipes(text, 0, text.length) <= ANALYSIS_LIMITS.pipes) {
    const env = new Map(ctx.env);
    parsePiece(0, text.length, ctx);
    const expanded = expandBracesInText(text);
    if (expanded !== null && ctx.depth < MAX_DEPTH) analyzeInto(expanded, { ...ctx, env, depth: ctx.depth + 1, via: 'brace expansion', source: expanded, offset: 0 });
  } else {
    analyzeLong(text, ctx);
  }
}

/** `|` characters in text[start, end), counted up to one past the limit. */
function countPipes(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = text.indexOf('|', start); i >= 0 && i < end && n <= ANALYSIS_LIMITS.pipes; i = text.indexOf('|', i + 1)) n++;
  return n;
}

/** Statements grouped into pieces within the limits; a statement too big alone is split at its
 * pipes, and what still does not fit is reported as not parsed. */
function analyzeLong(text: string, ctx: Ctx): void {
  let start = -1;
  let end = -1;
  let pipes = 0;
  const flush = () => {
    if (start >= 0) parsePiece(start, end, ctx);
    start = -1;
    pipes = 0;
  };
  for (const s of splitStatements(text)) {
    if (!s.code) {
      flush(); // blanks and comments only: data
      continue;
    }
    if (s.end - s.start > ANALYSIS_LIMITS.chars || s.pipeCount > ANALYSIS_LIMITS.pipes) {
      flush();
      analyzeLongPipeline(text, s, ctx);
      continue;
    }
    if (start >= 0 && (s.end - start > ANALYSIS_LIMITS.chars || pipes + s.pipeCount > ANALYSIS_LIMITS.pipes)) flush();
    if (start < 0) start = s.start;
    end = s.end;
    pipes += s.pipeCount;
  }
  flush();
}

/** A statement too big to parse whole: its stages are parsed in groups and linked as one
 * pipeline; a stage too big alone is reported as not parsed. */
function analyzeLongPipeline(text: string, s: Statement, ctx: Ctx): void {
  if (s.pipes.length === 0) {
    markUnparsed(ctx, s.start, s.end);
    return;
  }
  const bounds: [number, number][] = [];
  let from = s.start;
  for (const p of s.pipes) {
    bounds.push([from, p.at]);
    from = p.at + p.length;
  }
  bounds.push([from, s.end]);
  const stages: ShellCommand[] = [];
  let group = -1;
  let groupEnd = -1;
  let pipes = 0;
  const flush = () => {
    if (group >= 0) stages.push(...(parsePiece(group, groupEnd, ctx) ?? []));
    group = -1;
    pipes = 0;
  };
  for (const [a, b] of bounds) {
    if (!/\S/.test(text.slice(a, b))) {
      ctx.line.hasError = true; // an empty stage: `a | | b`, a trailing `|`
      continue;
    }
    const inner = countPipes(text, a, b);
    if (b - a > ANALYSIS_LIMITS.chars || inner > ANALYSIS_LIMITS.pipes) {
      flush();
      markUnparsed(ctx, a, b);
      continue;
    }
    if (group >= 0 && (b - group > ANALYSIS_LIMITS.chars || pipes + inner + 1 > ANALYSIS_LIMITS.pipes)) flush();
    if (group < 0) group = a;
    else pipes++;
    groupEnd = b;
    pipes += inner;
  }
  flush();
  linkPipeline(stages, ctx);
}

/**
 * Parses `ctx.source[start, end)` and walks it. Returns the commands built at its top (the
 * stages of a pipeline), or null when the piece was not parsed (then recorded in `unparsed`).
 */
function parsePiece(start: number, end: number, ctx: Ctx): ShellCommand[] | null {
  const cost = (spent.get(ctx.line) ?? 0) + (end - start) + ANALYSIS_LIMITS.perParse;
  if (ctx.line.commands.length >= ANALYSIS_LIMITS.commands || cost > ANALYSIS_LIMITS.budget) {
    markUnparsed(ctx, start, end);
    return null;
  }
  spent.set(ctx.line, cost);
  const text = start === 0 && end === ctx.source.length ? ctx.source : ctx.source.slice(start, end);
  const tree = parseShell(text);
  if (!tree) {
    markUnparsed(ctx, start, end);
    return null;
  }
  try {
    if (tree.rootNode.hasError) ctx.line.hasError = true;
    return walk(tree.rootNode, { ...ctx, offset: ctx.offset + start });
  } catch {
    // nesting past ANALYSIS_LIMITS.nesting, a stack overflow, or a failed parser instance
    markUnparsed(ctx, start, end);
    return null;
  } finally {
    try {
      tree.delete();
    } catch {
      // the instance failed meanwhile (a nested parse); parser.ts has replaced it
    }
  }
}

function markUnparsed(ctx: Ctx, start: number, end: number): void {
  const list = ctx.line.unparsed;
  const s = ctx.offset + start;
  const e = ctx.offset + end;
  const last = list[list.length - 1];
  if (last && last.source === ctx.source && (last.end >= s || list.length >= MAX_UNPARSED)) last.end = Math.max(last.end, e);
  else if (list.length < MAX_UNPARSED) list.push({ source: ctx.source, start: s, end: e });
}

/** Parses a carrier's payload as a nested command line; `env` replaces a copy of the caller's
 * variables (positional parameters of a function call or `sh -c … $0 $1`). */
function enter(text: string, ctx: Ctx, via: string, env?: Map<string, string>): ShellCommand[] {
  if (ctx.depth >= MAX_DEPTH || !text.trim()) return [];
  const before = ctx.line.commands.length;
  analyzeInto(text, { line: ctx.line, env: env ?? new Map(ctx.env), depth: ctx.depth + 1, via, source: text, offset: 0, launcher: ctx.launcher, aliases: ctx.aliases, funcs: ctx.funcs });
  return ctx.line.commands.slice(before);
}

function spanOf(node: SyntaxNode, ctx: Ctx): Span {
  return { source: ctx.source, start: ctx.offset + node.startIndex, end: ctx.offset + node.endIndex };
}

class TooDeep extends Error {}
let nesting = 0;

/** Walks statements; returns the simple commands built directly under `node` (for pipelines).
 * @throws TooDeep past {@link ANALYSIS_LIMITS}.nesting levels (caught by parsePiece). */
function walk(node: SyntaxNode, ctx: Ctx): ShellCommand[] {
  if (nesting >= ANALYSIS_LIMITS.nesting) throw new TooDeep('nesting');
  nesting++;
  try {
    return walkNode(node, ctx);
  } finally {
    nesting--;
  }
}

function walkNode(node: SyntaxNode, ctx: Ctx): ShellCommand[] {
  switch (node.type) {
    case 'comment':
    case 'heredoc_body':
      return [];
    case 'command':
      return [buildCommand(node, [], ctx)];
    case 'pipeline':
      return buildPipeline(node.namedChildren, ctx);
    case 'redirected_statement':
      return buildRedirected(node, ctx);
    case 'variable_assignment':
      assign(node, ctx);
      return [];
    case 'function_definition': {
      const name = node.childForFieldName('name')?.text ?? '';
      const body = node.childForFieldName('body');
      const before = ctx.line.commands.length;
      if (body) walk(body, ctx);
      const def: FunctionDef = { name, body: ctx.line.commands.slice(before), span: spanOf(node, ctx) };
      ctx.line.functions.push(def);
      // A call later in the line runs the body with the call's arguments as $1, $2, …
      if (body && name) ctx.funcs.set(name, body.text);
      return [];
    }
    case 'for_statement':
      walkFor(node, ctx);
      return [];
    case 'subshell': {
      // `( cd / )` does not move the rest of the line.
      const cwd = ctx.env.get(CWD);
      const out: ShellCommand[] = [];
      for (const child of node.namedChildren) out.push(...walk(child, ctx));
      if (cwd === undefined) ctx.env.delete(CWD);
      else ctx.env.set(CWD, cwd);
      return out;
    }
    default: {
      if (node.type === 'ERROR') ctx.line.hasError = true;
      const out: ShellCommand[] = [];
      for (const child of node.namedChildren) out.push(...walk(child, ctx));
      // Words met at statement level (e.g. inside ERROR nodes) may carry substitutions.
      if (isWordNode(node)) wordsOf(node, ctx);
      return out;
    }
  }
}

/** `for v in a b c; do …; done`: the body is walked once per literal value (at most
 * {@link MAX_FOR_VALUES}), with `v` set; otherwise once with `v` unknown. */
function walkFor(node: SyntaxNode, ctx: Ctx): void {
  const name = node.childForFieldName('variable')?.text ?? '';
  const body = node.childForFieldName('body');
  const values = node.childrenForFieldName('value').filter((v): v is SyntaxNode => v !== null);
  const words = values.flatMap((v) => wordsOf(v, ctx));
  if (!body) return;
  if (!name || words.length === 0 || words.length > MAX_FOR_VALUES || words.some((w) => w.dynamic)) {
    ctx.env.delete(name);
    walk(body, ctx);
    return;
  }
  for (const w of words) {
    ctx.env.set(name, w.text);
    walk(body, ctx);
  }
}

function isWordNode(node: SyntaxNode): boolean {
  return node.type === 'command_substitution' || node.type === 'process_substitution';
}

function buildPipeline(children: SyntaxNode[], ctx: Ctx): ShellCommand[] {
  const stages: ShellCommand[] = [];
  for (const child of children) {
    if (child.type === 'comment') continue;
    const cmds = walk(child, ctx);
    // `a | b 2>&1 | c` nests as pipeline(redirected_statement(pipeline(a, b)), c): flatten it.
    if (isPipelineNode(child)) stages.push(...cmds);
    else if (cmds[0]) stages.push(cmds[0]);
  }
  linkPipeline(stages, ctx);
  return stages;
}

function isPipelineNode(node: SyntaxNode): boolean {
  return node.type === 'pipeline' || (node.type === 'redirected_statement' && node.childForFieldName('body')?.type === 'pipeline');
}

function linkPipeline(stages: ShellCommand[], ctx: Ctx): void {
  if (stages.length < 2) return;
  const pipeline: Pipeline = { stages };
  stages.forEach((s, i) => {
    s.pipeline = pipeline;
    s.stage = i;
  });
  // Literal text piped into a shell is a script: `echo 'rm -rf /' | sh`, `echo … | base64 -d | sh`.
  stages.forEach((s, i) => {
    if (i > 0 && shellReadsStdin(s)) {
      const text = literalOutput(stages, i - 1);
      if (text !== null) enter(text, ctx, `${s.name} stdin`);
    }
  });
}

function buildRedirected(node: SyntaxNode, ctx: Ctx): ShellCommand[] {
  const body = node.childForFieldName('body');
  const redirects: Redirect[] = [];
  const tail: SyntaxNode[] = [];
  for (const child of node.namedChildren) {
    if (child === body || child.id === body?.id) continue;
    if (child.type.endsWith('_redirect')) {
      redirects.push(redirectOf(child, ctx));
      // tree-sitter-bash puts the rest of a pipeline after a heredoc start inside the redirect.
      if (child.type === 'heredoc_redirect') {
        for (const c of child.namedChildren) {
          if (!['heredoc_start', 'heredoc_body', 'heredoc_end', 'heredoc_content'].includes(c.type) && !isWordish(c)) tail.push(c);
        }
      }
    }
  }
  if (!body) return [];
  let cmds: ShellCommand[];
  if (body.type === 'command') {
    cmds = [buildCommand(body, redirects, ctx)];
  } else if (body.type === 'pipeline') {
    // A redirect after a pipeline belongs to its last stage.
    cmds = walk(body, ctx);
    cmds[cmds.length - 1]?.redirects.push(...redirects);
  } else {
    const before = ctx.line.commands.length;
    cmds = walk(body, ctx);
    for (const c of ctx.line.commands.slice(before)) if (c.depth === ctx.depth) c.redirects.push(...redirects);
  }
  if (tail.length && cmds[0]) {
    const stages = [cmds[0]];
    for (const t of tail) {
      if (t.type === 'pipeline') {
        for (const c of t.namedChildren) {
          const got = walk(c, ctx);
          if (got[0]) stages.push(got[0]);
        }
      } else {
        const got = walk(t, ctx);
        if (got[0]) stages.push(got[0]);
      }
    }
    linkPipeline(stages, ctx);
  }
  return cmds;
}

function isWordish(node: SyntaxNode): boolean {
  return ['word', 'string', 'raw_string', 'concatenation', 'simple_expansion', 'expansion', 'number', 'file_descriptor'].includes(node.type);
}

function assign(node: SyntaxNode, ctx: Ctx): void {
  const name = node.childForFieldName('name')?.text;
  const value = node.childForFieldName('value');
  if (!name) return;
  if (!value) {
    ctx.env.set(name, '');
    return;
  }
  if (value.type === 'array') {
    // a=(rm -rf /): "${a[@]}" gives the elements as separate words
    const words = value.namedChildren.flatMap((c) => wordsOf(c, ctx));
    if (words.every((w) => !w.dynamic)) ctx.env.set(name, words.map((w) => w.text).join(IFS_MARK));
    else ctx.env.delete(name);
    return;
  }
  const words = wordsOf(value, ctx);
  if (words.every((w) => !w.dynamic)) ctx.env.set(name, words.map((w) => w.text).join(' '));
  else ctx.env.delete(name);
}

function redirectOf(node: SyntaxNode, ctx: Ctx): Redirect {
  if (node.type === 'heredoc_redirect') {
    const body = node.namedChildren.find((c) => c.type === 'heredoc_body');
    return { op: '<<', target: '', input: body?.text ?? '' };
  }
  if (node.type === 'herestring_redirect') {
    const w = node.namedChildren[0];
    const words = w ? wordsOf(w, ctx) : [];
    const subs = words.flatMap((x) => x.subs);
    return { op: '<<<', target: '', input: words.map((x) => x.text).join(' '), ...(subs.length ? { subs } : {}) };
  }
  let op = '';
  let fd = '';
  const dests: string[] = [];
  const subs: Substitution[] = [];
  for (const child of node.children) {
    if (!child) continue;
    if (!child.isNamed) {
      if (!op) op = child.type;
    } else if (child.type === 'file_descriptor') {
      fd = child.text;
    } else {
      const words = wordsOf(child, ctx);
      for (const w of words) subs.push(...w.subs);
      dests.push(words.map((w) => w.text).join(' '));
    }
  }
  return { op: fd && op !== '&>' && op !== '&>>' ? fd + op : op, target: dests[0] ?? '', ...(subs.length ? { subs } : {}) };
}

/** Builds one simple command from a `command` node plus the redirects around it. */
function buildCommand(node: SyntaxNode, outer: Redirect[], ctx: Ctx): ShellCommand {
  const words: Word[] = [];
  const redirects: Redirect[] = [];
  const local = new Map<string, string>();
  for (const child of node.namedChildren) {
    if (child.type === 'variable_assignment') {
      const n = child.childForFieldName('name')?.text;
      const v = child.childForFieldName('value');
      if (n) local.set(n, v ? wordsOf(v, ctx).map((w) => w.text).join(' ') : '');
    } else if (child.type.endsWith('_redirect')) {
      redirects.push(redirectOf(child, ctx));
    } else if (child.type === 'command_name') {
      for (const c of child.namedChildren) words.push(...wordsOf(c, ctx));
      if (child.namedChildren.length === 0) words.push(plainWord(unescapeBare(child.text)));
    } else if (child.type !== 'comment') {
      words.push(...wordsOf(child, ctx));
    }
  }
  redirects.push(...outer);
  // `X=rm` alone on a line assigns for the rest of the line.
  if (words.length === 0) for (const [k, v] of local) ctx.env.set(k, v);
  return makeCommand(words, redirects, spanOf(node, ctx), ctx, null);
}

const WRAPPERS: Record<string, { valued: string; longValued?: string[]; positional?: number }> = {
  sudo: { valued: 'ugCDhpRrtUT', longValued: ['user', 'group', 'chdir', 'prompt', 'role', 'type', 'close-from', 'host', 'other-user', 'command-timeout'] },
  doas: { valued: 'uC' },
  pkexec: { valued: '', longValued: ['user'] },
  command: { valued: '' },
  builtin: { valued: '' },
  exec: { valued: 'a' },
  nohup: { valued: '' },
  nice: { valued: 'n', longValued: ['adjustment'] },
  ionice: { valued: 'cnpPu', longValued: ['class', 'classdata', 'pid', 'pgid', 'uid'] },
  stdbuf: { valued: 'ioe', longValued: ['input', 'output', 'error'] },
  timeout: { valued: 'sk', longValued: ['signal', 'kill-after'], positional: 1 },
  time: { valued: 'fo', longValued: ['format', 'output'] },
  setsid: { valued: '' },
  busybox: { valued: '' },
  toybox: { valued: '' },
  chroot: { valued: '', longValued: ['userspec', 'groups'], positional: 1 },
  caffeinate: { valued: 'tw' },
  coproc: { valued: '' },
  strace: { valued: 'abeEIoOpPsSuUX', longValued: ['output', 'trace', 'signal', 'string-limit', 'user', 'attach', 'env'] },
  ltrace: { valued: 'aAeEfLnopsSuxX', longValued: ['output'] },
  flock: { valued: 'wEc', longValued: ['timeout', 'wait', 'conflict-exit-code', 'command'], positional: 1 },
  taskset: { valued: '', positional: 1 },
  chrt: { valued: 'TPD', longValued: ['sched-runtime', 'sched-period', 'sched-deadline'], positional: 1 },
  unbuffer: { valued: '' },
  runuser: { valued: 'ugGwc', longValued: ['user', 'group', 'supp-group', 'whitelist-environment', 'command', 'shell'] },
  proxychains: { valued: 'f' },
  proxychains4: { valued: 'f' },
  torsocks: { valued: 'uapPi' },
  'dbus-run-session': { valued: '' },
  faketime: { valued: '', positional: 1 },
};

/** Wrappers that run their arguments joined as one shell line (`watch` passes them to `sh -c`). */
const LINE_RUNNERS: Record<string, { valued: string; longValued: string[] }> = {
  watch: { valued: 'nq', longValued: ['interval', 'equexit'] },
};

/** Strips wrappers, expands carriers, records the command and returns it. An alias defined
 * earlier in the line is expanded first (its text plus the arguments, analysed via `alias`). */
function makeCommand(words: Word[], redirects: Redirect[], span: Span, ctx: Ctx, launcher: string | null): ShellCommand {
  const first = words[0];
  const alias = first && !first.quoted && !first.escaped ? ctx.aliases.get(first.text) : undefined;
  if (alias !== undefined) enter([alias, ...words.slice(1).map((w) => quoteForDisplay(w.text))].join(' '), ctx, `alias ${first!.text}`);
  const wrappers: string[] = [];
  let rest = words;
  let splitString: string | null = null;
  for (let guard = 0; guard < 16 && rest.length > 1; guard++) {
    const name = baseName(rest[0]!.text);
    let i = 1;
    if (name === 'env') {
      while (i < rest.length) {
        const t = rest[i]!.text;
        if (t === '--') { i++; break; }
        if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) { i++; continue; }
        if (t === '-u' || t === '-C' || t === '--unset' || t === '--chdir') { i += 2; continue; }
        if (t === '-S' || t === '--split-string') { splitString = rest[i + 1]?.text ?? ''; i = rest.length; break; }
        if (t.startsWith('-S')) { splitString = t.slice(2); i = rest.length; break; }
        if (t.startsWith('--split-string=')) { splitString = t.slice(15); i = rest.length; break; }
        if (t.startsWith('-')) { i++; continue; }
        break;
      }
    } else if (name === 'command' && rest[1] && /^-[a-zA-Z]*[vV]/.test(rest[1].text)) {
      break;
    } else if ((name === 'flock' || name === 'runuser') && rest.some((w) => w.text === '-c' || w.text.startsWith('--command'))) {
      break; // `flock FILE -c CMD`, `runuser -l U -c CMD`: a carrier (expandCarrier)
    } else if ((name === 'taskset' || name === 'chrt') && rest.some((w) => /^-[a-zA-Z]*p$|^--pid$/.test(w.text))) {
      break; // an existing process, no command
    } else if (WRAPPERS[name]) {
      const spec = WRAPPERS[name];
      while (i < rest.length) {
        const t = rest[i]!.text;
        if (t === '--') { i++; break; }
        if (t.startsWith('--')) {
          const key = t.slice(2).split('=')[0]!;
          i += spec.longValued?.includes(key) && !t.includes('=') ? 2 : 1;
          continue;
        }
        if (name === 'nice' && /^-\d+$/.test(t)) { i++; continue; }
        if (t.startsWith('-') && t.length > 1) {
          const letters = t.slice(1);
          const vi = [...letters].findIndex((ch) => spec.valued.includes(ch));
          i += vi >= 0 && vi === letters.length - 1 ? 2 : 1;
          continue;
        }
        break;
      }
      i += spec.positional ?? 0;
    } else {
      break;
    }
    if (splitString !== null) {
      wrappers.push(name);
      rest = [];
      break;
    }
    if (i >= rest.length) break; // the wrapper alone is the command (`sudo -l`, `env`, `exec 5<>…`)
    wrappers.push(name);
    rest = rest.slice(i);
  }
  const argv = rest.map((w) => w.text);
  const cmd: ShellCommand = {
    words: rest,
    argv,
    name: argv.length ? baseName(argv[0]!) : '',
    wrappers,
    redirects,
    pipeline: null,
    stage: 0,
    stdin: redirects.find((r) => r.input !== undefined)?.input ?? null,
    depth: ctx.depth,
    via: ctx.via,
    launcher: launcher ?? ctx.launcher,
    cwd: ctx.env.get(CWD) ?? null,
    span,
  };
  if (splitString !== null && !cmd.name) cmd.name = 'env';
  ctx.line.commands.push(cmd);
  if (splitString !== null) enter(splitString, ctx, 'env -S');
  applyBuiltin(cmd, ctx);
  expandCarrier(cmd, ctx);
  return cmd;
}

/** Positional parameters as variables: `$0`, `$1`…, `$@` (kept apart), `$*`, `$#`. */
function positionalEnv(base: Map<string, string>, zero: string | null, params: string[]): Map<string, string> {
  const env = new Map([...base].filter(([k]) => !/^(?:\d+|[@*#])$/.test(k)));
  if (zero !== null) env.set('0', zero);
  params.forEach((p, i) => env.set(String(i + 1), p));
  env.set('@', params.join(IFS_MARK));
  env.set('*', params.join(' '));
  env.set('#', String(params.length));
  return env;
}

/**
 * Builtins that change what later words of the line mean: `cd`/`pushd` (the working directory,
 * when it can be known), `alias n=text`, `set -- args` (positional parameters),
 * `printf -v var …`, `read var… <<< text`; and a call of a function defined earlier in the line
 * (its body is analysed with the call's arguments as `$1`, `$2`, …).
 */
function applyBuiltin(cmd: ShellCommand, ctx: Ctx): void {
  const args = cmd.argv.slice(1);
  const literal = !cmd.words.some((w) => w.dynamic);
  switch (cmd.name) {
    case 'cd':
    case 'pushd': {
      const target = args.filter((a) => !/^-[LPe@]+$/.test(a))[0] ?? '~';
      const cwd = ctx.env.get(CWD);
      if (!literal || target === '-') ctx.env.delete(CWD);
      else if (target.startsWith('/') || target === '~' || target.startsWith('~/')) ctx.env.set(CWD, normalizePath(target));
      else if (cwd !== undefined) ctx.env.set(CWD, normalizePath(`${cwd}/${target}`));
      else ctx.env.delete(CWD);
      return;
    }
    case 'alias':
      for (const a of args) {
        const eq = a.indexOf('=');
        if (eq > 0) ctx.aliases.set(a.slice(0, eq), a.slice(eq + 1));
      }
      return;
    case 'set': {
      const dd = args.indexOf('--');
      const params = dd >= 0 ? args.slice(dd + 1) : args[0] !== undefined && !/^[-+]/.test(args[0]) ? args : null;
      if (params !== null && literal) {
        const env = positionalEnv(ctx.env, ctx.env.get('0') ?? null, params);
        ctx.env.clear();
        for (const [k, v] of env) ctx.env.set(k, v);
      }
      return;
    }
    case 'printf': {
      const v = args.indexOf('-v');
      if (v >= 0 && args[v + 1]) {
        if (literal) ctx.env.set(args[v + 1]!, printfOutput(args.slice(v + 2)));
        else ctx.env.delete(args[v + 1]!);
      }
      return;
    }
    case 'read': {
      const names: string[] = [];
      let array: string | null = null;
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (a === '-a') array = args[++i] ?? null;
        else if (/^-[dinNptu]$/.test(a)) i++;
        else if (!a.startsWith('-')) names.push(a);
      }
      const input = cmd.stdin?.split('\n')[0];
      if (input === undefined) {
        for (const n of [...names, array ?? '']) ctx.env.delete(n);
        return;
      }
      const fields = input.trim().split(/[ \t]+/);
      if (array) ctx.env.set(array, fields.join(IFS_MARK));
      if (names.length === 0 && !array) names.push('REPLY');
      names.forEach((n, i) => ctx.env.set(n, i === names.length - 1 ? fields.slice(i).join(' ') : (fields[i] ?? '')));
      return;
    }
    default: {
      const body = ctx.funcs.get(cmd.name);
      if (body !== undefined && !cmd.argv[0]!.includes('/')) enter(body, ctx, `function ${cmd.name}`, positionalEnv(ctx.env, ctx.env.get('0') ?? null, args));
    }
  }
}

/** Finds the script a carrier runs and analyses it as nested commands. */
function expandCarrier(cmd: ShellCommand, ctx: Ctx): void {
  const { name, argv } = cmd;
  if (ctx.depth >= MAX_DEPTH) return;
  if (SHELLS.has(name)) {
    const script = shellScriptArg(argv);
    if (script !== null) {
      // `sh -c 'rm -rf "$1"' _ /`: the words after the script are $0, $1, …
      const after = argv.slice(argv.lastIndexOf(script) + 1);
      enter(script, ctx, `${name} -c`, positionalEnv(ctx.env, after[0] ?? null, after.slice(1)));
    } else if (cmd.stdin !== null && shellReadsStdin(cmd)) enter(cmd.stdin, ctx, `${name} stdin`);
    return;
  }
  if (INTERPRETERS.test(name)) {
    // os.system('…'), subprocess.run([…]), system("…"), execSync('…'), shutil.rmtree('/') → shell
    const code = interpreterCode(name, argv);
    if (code !== null) for (const text of interpreterShellTexts(code)) enter(text, ctx, `${name} code`);
    return;
  }
  const runner = LINE_RUNNERS[name];
  if (runner) {
    const o = operandsAfterOptionsLong(argv.slice(1), runner.valued, runner.longValued);
    if (o.length) enter(o.join(' '), ctx, name);
    return;
  }
  switch (name) {
    case 'flock':
    case 'runuser':
    case 'script':
    case 'sg': {
      // flock FILE -c CMD, runuser -l U -c CMD, script -c CMD FILE, sg GROUP -c CMD / sg GROUP CMD
      const i = argv.findIndex((a, k) => k > 0 && (a === '-c' || a === '--command'));
      if (i > 0 && argv[i + 1] !== undefined) enter(argv[i + 1]!, ctx, `${name} -c`);
      const eq = argv.find((a) => a.startsWith('--command='));
      if (eq) enter(eq.slice(10), ctx, `${name} -c`);
      if (name === 'sg' && i < 0 && argv.length > 2 && !argv[1]!.startsWith('-')) enter(argv.slice(2).join(' '), ctx, 'sg');
      return;
    }
    case 'eval':
      enter(argv.slice(1).join(' '), ctx, 'eval');
      return;
    case 'su': {
      const i = argv.findIndex((a, k) => k > 0 && (a === '-c' || a === '--command'));
      if (i > 0 && argv[i + 1] !== undefined) enter(argv[i + 1]!, ctx, 'su -c');
      const eq = argv.find((a) => a.startsWith('--command='));
      if (eq) enter(eq.slice(10), ctx, 'su -c');
      return;
    }
    case 'ssh': {
      const rest = operandsAfterOptions(argv.slice(1), 'bcDEeFIiJLlmOoPpQRSWw');
      if (rest.length > 1) enter(rest.slice(1).join(' '), ctx, 'ssh');
      return;
    }
    case 'xargs':
    case 'parallel': {
      const inner = name === 'xargs' ? xargsCommand(cmd.words) : parallelCommand(cmd.words);
      if (inner.length) {
        const sub: Ctx = { ...ctx, depth: ctx.depth + 1, via: name, launcher: name };
        makeCommand(inner, [], cmd.span, sub, name);
      }
      return;
    }
    case 'find': {
      for (const inner of findExecCommands(cmd.words)) {
        const sub: Ctx = { ...ctx, depth: ctx.depth + 1, via: 'find -exec', launcher: 'find' };
        makeCommand(inner, [], cmd.span, sub, 'find');
      }
      return;
    }
    default:
      return;
  }
}

/** The `-c` script of a shell invocation (`bash -lc 'x'` → `x`), or null. */
export function shellScriptArg(argv: string[]): string | null {
  let sawC = false;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return sawC ? (argv[i + 1] ?? null) : null;
    if (/^-[a-zA-Z]+$/.test(a)) {
      if (a.includes('c')) sawC = true;
      continue;
    }
    if (/^[-+]o$/.test(a)) { i++; continue; }
    if (a.startsWith('--')) continue;
    return sawC ? a : null;
  }
  return null;
}

/** True when a shell takes its script from stdin: no `-c`, and no script operand (or `-s`/`-`). */
export function shellReadsStdin(cmd: ShellCommand): boolean {
  if (!SHELLS.has(cmd.name)) return false;
  const args = cmd.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-' || a === '-s' || /^-[a-zA-Z]*s[a-zA-Z]*$/.test(a)) return !args.some((x) => /^-[a-zA-Z]*c/.test(x));
    if (/^-[a-zA-Z]+$/.test(a)) {
      if (a.includes('c')) return false;
      continue;
    }
    if (/^[-+]o$/.test(a)) { i++; continue; }
    if (a.startsWith('--')) continue;
    return false;
  }
  return true;
}

/** Operands after the options, for a command with valued short letters and long names. */
function operandsAfterOptionsLong(args: string[], valued: string, longValued: string[]): string[] {
  let i = 0;
  while (i < args.length) {
    const a = args[i]!;
    if (a === '--') return args.slice(i + 1);
    if (a.startsWith('--')) {
      i += longValued.includes(a.slice(2)) ? 2 : 1;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      i += a.length === 2 && valued.includes(a[1]!) ? 2 : 1;
      continue;
    }
    break;
  }
  return args.slice(i);
}

function operandsAfterOptions(args: string[], valued: string): string[] {
  let i = 0;
  while (i < args.length) {
    const a = args[i]!;
    if (a === '--') return args.slice(i + 1);
    if (a.startsWith('-') && a.length > 1) {
      const last = a[a.length - 1]!;
      i += a.length === 2 && valued.includes(last) ? 2 : 1;
      continue;
    }
    break;
  }
  return args.slice(i);
}

/**
 * Index of the first word after the options of a command runner (`xargs`, `parallel`): options in
 * `valued` take the next word as their value; `--` ends the options.
 */
function afterOptions(words: Word[], valued: ReadonlySet<string>): number {
  let i = 1;
  while (i < words.length) {
    const t = words[i]!.text;
    if (t === '--') return i + 1;
    if (!t.startsWith('-')) break;
    i += valued.has(t) ? 2 : 1;
  }
  return i;
}

const XARGS_VALUED: ReadonlySet<string> = new Set(['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--max-lines', '--eof', '--process-slot-var']);
const PARALLEL_VALUED: ReadonlySet<string> = new Set(['-j', '--jobs', '-S', '--sshlogin', '-a', '--arg-file', '-d', '--delimiter', '-I', '--joblog', '--results', '--tmpdir', '-n', '-N', '-L', '--timeout', '--retries']);

function xargsCommand(words: Word[]): Word[] {
  return words.slice(afterOptions(words, XARGS_VALUED));
}

function parallelCommand(words: Word[]): Word[] {
  const i = afterOptions(words, PARALLEL_VALUED);
  const end = words.findIndex((w, k) => k >= i && (w.text === ':::' || w.text === '::::' || w.text === ':::+'));
  return words.slice(i, end < 0 ? words.length : end);
}

function findExecCommands(words: Word[]): Word[][] {
  const out: Word[][] = [];
  for (let i = 1; i < words.length; i++) {
    const t = words[i]!.text;
    if (t === '-exec' || t === '-execdir' || t === '-ok' || t === '-okdir') {
      let j = i + 1;
      while (j < words.length && words[j]!.text !== ';' && words[j]!.text !== '+') j++;
      out.push(words.slice(i + 1, j));
      i = j;
    }
  }
  return out;
}

/** The text a pipeline stage writes when it can be known statically (echo/printf/heredoc, and
 * base64 -d or rev applied to such text), else null. */
function literalOutput(stages: ShellCommand[], index: number): string | null {
  const s = stages[index];
  if (!s || s.words.some((w) => w.dynamic)) return null;
  const args = s.argv.slice(1);
  switch (s.name) {
    case 'echo': {
      const rest = args.filter((a, i) => !(i === args.indexOf(a) && /^-[neE]+$/.test(a)));
      return rest.join(' ');
    }
    case 'printf':
      return args.length && !args[0]!.startsWith('-') ? printfOutput(args) : null;
    case 'cat':
      return args.length === 0 ? s.stdin : null;
    case 'base64':
    case 'base32': {
      if (!args.some((a) => /^-[a-zA-Z]*[dD]$|^--decode$/.test(a)) || s.name !== 'base64') return null;
      const input = index > 0 ? literalOutput(stages, index - 1) : s.stdin;
      if (input === null || !/^[A-Za-z0-9+/=\s]+$/.test(input)) return null;
      return Buffer.from(input.replace(/\s+/g, ''), 'base64').toString('utf8');
    }
    case 'rev': {
      const input = index > 0 ? literalOutput(stages, index - 1) : s.stdin;
      return input === null ? null : input.split('\n').map((l) => [...l].reverse().join('')).join('\n');
    }
    default:
      return null;
  }
}

/** Converts one argument node into one or more words (more when `$IFS` splits it). */
function wordsOf(node: SyntaxNode, ctx: Ctx): Word[] {
  const w = plainWord('');
  w.text = piece(node, ctx, w, false);
  // A leading backslash only bypasses an alias; inner escapes are recorded by `piece`.
  if (!w.text.includes(IFS_MARK)) return [w];
  return w.text.split(IFS_MARK).filter((t) => t !== '').map((t) => ({ ...w, text: t }));
}

function piece(node: SyntaxNode, ctx: Ctx, w: Word, inDouble: boolean): string {
  switch (node.type) {
    case 'word':
    case 'number': {
      const t = node.text;
      if (/\\/.test(t.slice(1))) w.escaped = true;
      return unescapeBare(t);
    }
    case 'raw_string':
      w.quoted = true;
      return node.text.slice(1, -1);
    case 'ansi_c_string':
      w.quoted = true;
      w.ansiC = true;
      return decodeAnsiC(node.text.slice(2, -1));
    case 'string':
    case 'translated_string': {
      w.quoted = true;
      const inner = node.type === 'translated_string' ? node.namedChildren[0] : node;
      if (!inner) return '';
      let out = '';
      let pos = inner.startIndex + (node.type === 'translated_string' ? 1 : 0) + 1;
      const end = inner.endIndex - 1;
      const src = node.tree.rootNode.text;
      for (const c of inner.namedChildren) {
        if (c.startIndex > pos) out += unescapeDouble(src.slice(pos, c.startIndex));
        out += c.type === 'string_content' ? unescapeDouble(c.text) : piece(c, ctx, w, true);
        pos = c.endIndex;
      }
      if (end > pos) out += unescapeDouble(src.slice(pos, end));
      return out;
    }
    case 'concatenation': {
      if (node.namedChildren.some((c) => /string$/.test(c.type))) w.split = true;
      let out = '';
      for (const c of node.children) if (c) out += c.isNamed ? piece(c, ctx, w, inDouble) : c.text;
      return out;
    }
    case 'simple_expansion':
      return variable(node.text.slice(1), ctx, w, inDouble, node.text);
    case 'expansion':
      return parameter(node, ctx, w, inDouble);
    case 'command_substitution':
    case 'process_substitution': {
      const kind: Substitution['kind'] = node.type === 'command_substitution' ? 'command' : node.text.startsWith('>') ? 'process-out' : 'process-in';
      const commands: ShellCommand[] = [];
      let output: string | null = null;
      if (ctx.depth < MAX_DEPTH) {
        const before = ctx.line.commands.length;
        const sub: Ctx = { ...ctx, env: new Map(ctx.env), depth: ctx.depth + 1, via: kind === 'command' ? '$(…)' : '<(…)' };
        for (const c of node.namedChildren) walk(c, sub);
        commands.push(...ctx.line.commands.slice(before));
        if (kind === 'command') output = substitutionOutput(commands.filter((c) => c.depth === sub.depth));
      }
      w.subs.push({ kind, commands });
      if (output === null) {
        w.dynamic = true;
        return node.text;
      }
      // `$(echo rm)`: the output is known without running anything (trailing newlines removed).
      w.evaluated = true;
      const text = output.replace(/\n+$/, '');
      return inDouble ? text : text.replace(/[ \t\n]+/g, IFS_MARK);
    }
    default:
      return node.text;
  }
}

function variable(name: string, ctx: Ctx, w: Word, inDouble: boolean, original: string): string {
  if (name === 'HOME') return '~';
  if (name === 'IFS') {
    w.ifs = true;
    return inDouble ? ' ' : IFS_MARK;
  }
  const v = ctx.env.get(name);
  if (v !== undefined) {
    w.fromVariable = true;
    // An unquoted value is split into words (`a="rm -rf"; $a /`); "$@" keeps its parameters apart.
    return inDouble ? (name === '*' ? v.split(IFS_MARK).join(' ') : v) : v.replace(/[ \t\n]+/g, IFS_MARK);
  }
  w.dynamic = true;
  return original;
}

/**
 * `${…}` (Bash §3.5.3): plain and array forms resolve like `$x`; `${x:-w}`/`${x-w}`/`${x:=w}`
 * give the known value, or `w` when x is unknown (the value it has when unset, the dangerous
 * reading); `${x:?}` is x; `${x%p}`/`${x#p}` remove a glob affix from a known value (`$HOME`
 * modelled as /home/user, so `${HOME%/*}` is /home). A command word built by an operator is
 * marked `fromVariable`. Other forms stay as written and mark the word dynamic.
 */
function parameter(node: SyntaxNode, ctx: Ctx, w: Word, inDouble: boolean): string {
  const body = node.text.slice(2, -1);
  if (/@P$/.test(body)) w.prompt = true;
  const p = parseParameter(body);
  if (!p || p.op === 'len' || (p.index !== null && p.index !== '@' && p.index !== '*')) {
    w.dynamic = true;
    return node.text;
  }
  const name = p.index === '*' ? p.name : p.name;
  if (p.op === null) return p.index === '*' && inDouble ? variable(name, ctx, w, true, node.text).split(IFS_MARK).join(' ') : variable(name, ctx, w, inDouble, node.text);
  const known = name === 'HOME' ? '~' : ctx.env.get(name);
  const literal = (t: string) => unescapeBare(t.replace(/^(['"])([\s\S]*)\1$/, '$2'));
  const op = p.op;
  if (op === ':-' || op === '-' || op === ':=' || op === '=') {
    const useKnown = known !== undefined && (op.length === 1 || known !== '');
    if (useKnown) return variable(name, ctx, w, inDouble, node.text);
    w.fromVariable = true;
    const value = literal(p.arg);
    if (value.includes('$') || value.includes('`')) w.dynamic = true;
    if (op.endsWith('=')) ctx.env.set(name, value);
    return inDouble ? value : value.replace(/[ \t\n]+/g, IFS_MARK);
  }
  if (op === ':?' || op === '?') return variable(name, ctx, w, inDouble, '$' + name);
  if (op === ':+' || op === '+') {
    w.dynamic = known === undefined;
    return known === undefined || (op === ':+' && known === '') ? (known === undefined ? node.text : '') : literal(p.arg);
  }
  // % %% # ##
  if (known === undefined) {
    w.dynamic = true;
    return node.text;
  }
  w.fromVariable = true;
  const value = name === 'HOME' ? HOME_MODEL : known;
  const cut = removeAffix(value, op, literal(p.arg));
  if (name === 'HOME' && cut.startsWith(HOME_MODEL)) return '~' + cut.slice(HOME_MODEL.length);
  return cut;
}

/** The output of a command substitution when it is known statically (echo/printf of literals,
 * base64 -d or rev of such text, mktemp's /tmp path); null otherwise. */
function substitutionOutput(top: ShellCommand[]): string | null {
  if (top.length === 0 || top.length > 8) return null;
  const last = top[top.length - 1]!;
  if (top.length > 1 && !top.every((c) => c.pipeline !== null && c.pipeline === last.pipeline)) return null;
  if (last.name === 'mktemp' && top.length === 1) return mktempPath(last.argv);
  return literalOutput(last.pipeline?.stages ?? [last], last.pipeline ? last.stage : 0);
}

/** The kind of path `mktemp` prints: /tmp/tmp.XXXXXXXXXX, or its template (under /tmp with -t, -p DIR). */
function mktempPath(argv: string[]): string {
  let dir: string | null = null;
  let template: string | null = null;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-p' || a === '--tmpdir') dir = argv[++i] ?? '/tmp';
    else if (a.startsWith('--tmpdir=')) dir = a.slice(9);
    else if (/^-[a-zA-Z]*t/.test(a)) dir = dir ?? '/tmp';
    else if (!a.startsWith('-')) template = a;
  }
  if (template === null) return `${dir ?? '/tmp'}/tmp.XXXXXXXXXX`;
  return dir !== null && !template.includes('/') ? `${dir}/${template}` : template;
}
