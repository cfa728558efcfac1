/**
 * Word expansion done statically (Bash Reference Manual §3.5): quote removal, escapes, ANSI-C
 * strings, parameters (`$x`, `${x:-w}`, `${x%p}`, …, against the variables the line assigned),
 * `$IFS` splitting, and command substitutions whose output is known without running anything
 * (`$(echo rm)`, `$(printf …)`, base64 -d or rev of literal text, mktemp's path). Substitutions
 * are walked as nested commands through the context's {@link Runner}.
 */
import type { SyntaxNode } from './parser.js';
import type { ShellCommand, Substitution, Word } from './model.js';
import { decodeAnsiC, unescapeBare, unescapeDouble } from './words.js';
import { parseParameter, printfOutput, removeAffix } from './expand.js';
import { HOME_MODEL, IFS_MARK, MAX_DEPTH, plainWord, type Ctx } from './context.js';

/** The text a pipeline stage writes when it can be known statically (echo/printf/heredoc, and
 * base64 -d or rev applied to such text; nothing for true/false/`:`; the path `which`/`command -v`
 * prints, as /usr/bin/NAME), else null. */
export function literalOutput(stages: ShellCommand[], index: number): string | null {
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
    case 'true':
    case 'false':
    case ':':
      return '';
    case 'which':
    case 'command':
    case 'type': {
      // `$(which sh)`, `$(command -v sh)`, `$(type -P sh)`: the program's path (its directory is not known)
      const names = args.filter((a) => !a.startsWith('-'));
      const flagOk = s.name === 'which' || (s.name === 'command' ? args.includes('-v') : args.includes('-P') || args.includes('-p'));
      return flagOk && names.length === 1 && /^[\w.+-]+$/.test(names[0]!) ? `/usr/bin/${names[0]}` : null;
    }
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
export function wordsOf(node: SyntaxNode, ctx: Ctx): Word[] {
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
        for (const c of node.namedChildren) ctx.run.walk(c, sub);
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
  // `S=$(curl …); bash -c "$S"`: the word runs what the substitution printed
  const subs = ctx.subVars.get(name);
  if (subs) for (const s of subs) if (!w.subs.includes(s)) w.subs.push(s);
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
export function substitutionOutput(top: ShellCommand[]): string | null {
  if (top.length === 0 || top.length > 8) return null;
  const last = top[top.length - 1]!;
  // `$(which python || which python3 || which python2)`: the first program found is the one run
  if (top.length > 1 && top.every((c) => c.pipeline === null && isPathLookup(c))) return literalOutput([top[0]!], 0);
  if (top.length > 1 && !top.every((c) => c.pipeline !== null && c.pipeline === last.pipeline)) return null;
  if (last.name === 'mktemp' && top.length === 1) return mktempPath(last.argv);
  return literalOutput(last.pipeline?.stages ?? [last], last.pipeline ? last.stage : 0);
}

/** `which NAME`, `command -v NAME`, `type -P NAME`: a lookup that prints a program's path. */
function isPathLookup(c: ShellCommand): boolean {
  return c.name === 'which' || (c.name === 'command' && c.argv.includes('-v')) || (c.name === 'type' && (c.argv.includes('-P') || c.argv.includes('-p')));
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
