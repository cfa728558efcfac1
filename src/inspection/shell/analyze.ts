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
import { baseName, unescapeBare } from './words.js';
import { expandBracesInText } from './expand.js';
import { CWD, IFS_MARK, MAX_DEPTH, SHELLS, plainWord, quoteForDisplay, type Ctx, type Runner } from './context.js';
import { applyBuiltin, commandNameOf, expandCarrier, feedInterpreter, feedLauncher, noteWrittenFile, shellReadsStdin, shellScriptArg, stripWrappers } from './carriers.js';
import { INTERPRETERS } from './interp.js';
import { literalOutput, wordsOf } from './wordexp.js';

export { MAX_DEPTH, SHELLS, shellReadsStdin, shellScriptArg };

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

/** Most values of a `for` list whose body is walked once per value. */
const MAX_FOR_VALUES = 16;


/**
 * Analyses one command-bearing string of any length: every part is either parsed (in pieces when
 * long, see {@link ANALYSIS_LIMITS} and shell/split.ts) or listed in `unparsed`. Returns null
 * only when the bash grammar is not loaded (initInspection not awaited); never throws.
 */
export function analyzeCommandLine(text: string): CommandLine | null {
  if (!inspectionReady()) return null;
  const line = emptyLine(text);
  analyzeInto(text, rootCtx(line, text));
  line.truncated = line.unparsed.length > 0;
  return line;
}

/** Analyses one argv vector (Codex `local_shell` / `shell` `command: string[]`); null when the
 * grammar is not loaded. */
export function analyzeArgv(argv: string[]): CommandLine | null {
  if (!inspectionReady()) return null;
  const text = argv.map(quoteForDisplay).join(' ');
  const line = emptyLine(text);
  const ctx = rootCtx(line, text);
  const words = argv.map((a) => plainWord(a));
  makeCommand(words, [], { source: text, start: 0, end: text.length }, ctx, null);
  line.truncated = line.unparsed.length > 0;
  return line;
}

/** The walk's entry points, for carriers and word expansion. */
const RUNNER: Runner = { enter, walk, makeCommand };

/** The context at the start of a command-bearing value. */
function rootCtx(line: CommandLine, text: string): Ctx {
  return { line, env: new Map(), depth: 0, via: null, source: text, offset: 0, launcher: null, aliases: new Map(), funcs: new Map(), files: new Map(), subVars: new Map(), run: RUNNER };
}

function emptyLine(text: string): CommandLine {
  return { text, commands: [], functions: [], hasError: false, truncated: false, unparsed: [] };
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
    // `r\<newline>m -rf /`: bash removes the backslash-newline before splitting words, the grammar
    // splits the word there; the text is analysed again with the continuations inside words removed
    if (/[^\s\\]\\\n[^\s]/.test(text) && ctx.depth < MAX_DEPTH) {
      const joined = text.replace(/([^\s\\])\\\n(?=[^\s])/g, '$1');
      analyzeInto(joined, { ...ctx, env: new Map(env), depth: ctx.depth + 1, via: 'line continuation', source: joined, offset: 0 });
    }
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
  if (!text.trim()) return [];
  // a payload nested deeper than the analysis follows is not dropped: it is listed as unparsed, so the
  // raw fallback reads the line and `unparsed-command` says so (six `bash -c` around `rm -rf /`)
  if (ctx.depth >= MAX_DEPTH) {
    const list = ctx.line.unparsed;
    if (list.length < MAX_UNPARSED && !list.some((u) => u.source === text)) list.push({ source: text, start: 0, end: text.length });
    return [];
  }
  const before = ctx.line.commands.length;
  analyzeInto(text, { ...ctx, env: env ?? new Map(ctx.env), depth: ctx.depth + 1, via, source: text, offset: 0 });
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
    case 'declaration_command':
    case 'unset_command':
      return [buildDeclaration(node, ctx)];
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
    case 'file_redirect':
      // `$(<file)`: a substitution that is only a redirection reads the file
      return [makeCommand([], [redirectOf(node, ctx)], spanOf(node, ctx), ctx, null)];
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
    // `echo "import os; os.system('…')" | python3`: literal text piped into an interpreter is its program
    if (i > 0 && ctx.depth < MAX_DEPTH && s.stdin === null && INTERPRETERS.test(s.name)) {
      const text = literalOutput(stages, i - 1);
      if (text !== null) feedInterpreter(s, text, ctx);
    }
    // `echo 'rm -rf /' | xargs -I{} bash -c {}`: the input lines become the command's arguments
    if (i > 0 && (s.name === 'xargs' || s.name === 'parallel') && ctx.depth < MAX_DEPTH) {
      const text = literalOutput(stages, i - 1);
      if (text !== null) feedLauncher(s, text, ctx);
    }
  });
}

function buildRedirected(node: SyntaxNode, ctx: Ctx): ShellCommand[] {
  const body = node.childForFieldName('body');
  const redirects: Redirect[] = [];
  const tail: SyntaxNode[] = [];
  // `sh 0<&2`: the grammar reads a descriptor of 0 written before a redirect as the command's last
  // word; with no blank between them it is the redirect's descriptor
  const last = body?.type === 'command' ? body.namedChildren[body.namedChildren.length - 1] : undefined;
  const first = node.namedChildren.find((c) => c.type === 'file_redirect');
  const fd = last && first && /^(?:number|word)$/.test(last.type) && /^\d$/.test(last.text) && last.endIndex === first.startIndex && body!.namedChildren.length > 1 && !first.namedChildren.some((c) => c.type === 'file_descriptor') ? last : undefined;
  for (const child of node.namedChildren) {
    if (child === body || child.id === body?.id) continue;
    if (child.type.endsWith('_redirect')) {
      const r = redirectOf(child, ctx);
      redirects.push(fd && child.id === first!.id ? { ...r, op: fd.text + r.op } : r);
      // tree-sitter-bash puts the rest of a pipeline after a heredoc start inside the redirect.
      if (child.type === 'heredoc_redirect') {
        for (const c of child.namedChildren) {
          if (!['heredoc_start', 'heredoc_body', 'heredoc_end', 'heredoc_content'].includes(c.type) && !isWordish(c)) tail.push(c);
        }
      }
    }
  }
  if (!body) {
    // a redirection alone (`> /var/log/syslog`, `: > f` parsed without its `:`) truncates or creates its target
    if (redirects.length === 0) return [];
    return [makeCommand([], redirects, spanOf(node, ctx), ctx, null)];
  }
  let cmds: ShellCommand[];
  if (body.type === 'command') {
    cmds = [buildCommand(body, redirects, ctx, fd)];
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

/** Assigns a variable for the rest of the line; returns the words of the value (none for `x=`). */
function assign(node: SyntaxNode, ctx: Ctx): Word[] {
  const name = node.childForFieldName('name')?.text;
  const value = node.childForFieldName('value');
  if (!name) return [];
  if (!value) {
    ctx.env.set(name, '');
    ctx.subVars.delete(name);
    return [];
  }
  if (value.type === 'array') {
    // a=(rm -rf /): "${a[@]}" gives the elements as separate words
    const words = value.namedChildren.flatMap((c) => wordsOf(c, ctx));
    if (words.every((w) => !w.dynamic)) ctx.env.set(name, words.map((w) => w.text).join(IFS_MARK));
    else ctx.env.delete(name);
    return words;
  }
  const words = wordsOf(value, ctx);
  if (words.every((w) => !w.dynamic)) ctx.env.set(name, words.map((w) => w.text).join(' '));
  else ctx.env.delete(name);
  noteSubstitutionVariable(name, words, ctx);
  return words;
}

/**
 * `export X=v Y`, `declare -x X=v`, `local …`, `readonly …`, `typeset …`, `unset X`: a command of
 * its own (the keyword, then `NAME=value` or the name per operand), and the assignments made for
 * the rest of the line. Rules read them as commands (`unset HISTFILE`, `export HISTFILE=/dev/null`).
 */
function buildDeclaration(node: SyntaxNode, ctx: Ctx): ShellCommand {
  const words: Word[] = [plainWord(node.children[0]?.text ?? '')];
  for (const child of node.namedChildren) {
    if (child.type === 'variable_assignment') {
      const name = child.childForFieldName('name')?.text ?? '';
      const value = assign(child, ctx);
      const w = plainWord(`${name}=${value.map((v) => v.text).join(' ')}`, { quoted: value.some((v) => v.quoted), dynamic: value.some((v) => v.dynamic) });
      w.subs = value.flatMap((v) => v.subs);
      words.push(w);
    } else if (child.type === 'variable_name') {
      words.push(plainWord(child.text));
    } else if (child.type !== 'comment') {
      words.push(...wordsOf(child, ctx));
    }
  }
  return makeCommand(words, [], spanOf(node, ctx), ctx, null);
}

/** Records (or forgets) that variable `name` now holds the output of the substitutions among
 * `words` ({@link Ctx.subVars}). */
function noteSubstitutionVariable(name: string, words: Word[], ctx: Ctx): void {
  const subs = words.flatMap((w) => w.subs).filter((s) => s.kind === 'command');
  if (subs.length) ctx.subVars.set(name, subs);
  else ctx.subVars.delete(name);
}

function redirectOf(node: SyntaxNode, ctx: Ctx): Redirect {
  if (node.type === 'heredoc_redirect') {
    const body = node.namedChildren.find((c) => c.type === 'heredoc_body');
    // an unquoted delimiter: the body's substitutions run (`cat <<EOF\n$(rm -rf /)\nEOF`); the
    // grammar gives a quoted delimiter's body no children
    for (const c of body?.namedChildren ?? []) if (c.type === 'command_substitution') wordsOf(c, ctx);
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
    } else if (child.type === 'ERROR' && child.text === '>' && op === '<' && dests.length === 0) {
      // the grammar does not know the read-write `<>` (`exec 3<>/dev/tcp/h/p`): it reads `<`, an
      // ERROR holding `>`, then the target, which would otherwise be taken for `>`
      op = '<>';
    } else {
      const words = wordsOf(child, ctx);
      for (const w of words) subs.push(...w.subs);
      dests.push(words.map((w) => w.text).join(' '));
    }
  }
  return { op: fd && op !== '&>' && op !== '&>>' ? fd + op : op, target: dests[0] ?? '', ...(subs.length ? { subs } : {}) };
}

/** Builds one simple command from a `command` node plus the redirects around it (`skip`: a child
 * that is not a word of it, the descriptor of the first redirect). */
function buildCommand(node: SyntaxNode, outer: Redirect[], ctx: Ctx, skip?: SyntaxNode): ShellCommand {
  const words: Word[] = [];
  const redirects: Redirect[] = [];
  const local = new Map<string, string>();
  const localWords = new Map<string, Word[]>();
  for (const child of node.namedChildren) {
    if (child.id === skip?.id) continue;
    if (child.type === 'variable_assignment') {
      const n = child.childForFieldName('name')?.text;
      const v = child.childForFieldName('value');
      if (!n) continue;
      const value = v ? wordsOf(v, ctx) : [];
      local.set(n, value.map((w) => w.text).join(' '));
      localWords.set(n, value);
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
  if (words.length === 0) {
    for (const [k, v] of local) ctx.env.set(k, v);
    for (const [k, w] of localWords) noteSubstitutionVariable(k, w, ctx);
  }
  return makeCommand(words, redirects, spanOf(node, ctx), ctx, null, [...local]);
}

/** Strips wrappers, expands carriers, records the command and returns it. An alias defined
 * earlier in the line is expanded first (its text plus the arguments, analysed via `alias`). */
function makeCommand(words: Word[], redirects: Redirect[], span: Span, ctx: Ctx, launcher: string | null, assigns: [string, string][] = []): ShellCommand {
  const first = words[0];
  const alias = first && !first.quoted && !first.escaped ? ctx.aliases.get(first.text) : undefined;
  if (alias !== undefined) enter([alias, ...words.slice(1).map((w) => quoteForDisplay(w.text))].join(' '), ctx, `alias ${first!.text}`);
  const { wrappers, rest, splitString, assigns: wrapperAssigns, options: wrapperOptions } = stripWrappers(words);
  const argv = rest.map((w) => w.text);
  const cmd: ShellCommand = {
    words: rest,
    argv,
    name: rest.length ? commandNameOf(rest[0]!) : '',
    wrappers,
    redirects,
    pipeline: null,
    stage: 0,
    stdin: redirects.find((r) => r.input !== undefined)?.input ?? null,
    depth: ctx.depth,
    via: ctx.via,
    launcher: launcher ?? ctx.launcher,
    cwd: ctx.env.get(CWD) ?? null,
    assigns: [...assigns, ...wrapperAssigns],
    fedBy: null,
    span,
  };
  if (wrapperOptions.length) cmd.wrapperOptions = wrapperOptions;
  if (splitString !== null && !cmd.name) cmd.name = 'env';
  ctx.line.commands.push(cmd);
  // commands of a `>(…)` in its words or redirect targets read what this command writes
  for (const sub of [...rest.flatMap((w) => w.subs), ...redirects.flatMap((r) => r.subs ?? [])]) {
    if (sub.kind === 'process-out') for (const c of sub.commands) if (c.depth === ctx.depth + 1 && c.fedBy === null) c.fedBy = cmd;
  }
  noteWrittenFile(cmd, ctx);
  if (splitString !== null) enter(splitString, ctx, 'env -S');
  applyBuiltin(cmd, ctx);
  expandCarrier(cmd, ctx);
  return cmd;
}
