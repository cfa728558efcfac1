/**
 * What inline Python and JavaScript code does, read from its syntax tree (tree-sitter-python and
 * tree-sitter-javascript, shell/parser.ts `parseCode`): the shell command lines it runs
 * (`os.system`, `subprocess.*`, `pty.spawn`, `child_process.exec*`/`spawn*`), the files it writes
 * (`open(P, 'w')`, `Path(P).write_text`, `shutil.copy`, `fs.writeFileSync`, …) and deletes
 * (`shutil.rmtree`, `os.remove`, `fs.rmSync(P, {recursive: true})`, …), code it evaluates
 * (`exec`/`eval` of a literal, of decoded text, or of downloaded text), and whether it connects a
 * socket. Arguments are evaluated statically: string literals, `+` concatenation, `''.join([...])`,
 * base64 and hex decoding, `chr(…)`, variables assigned literals earlier, and the home directory in
 * its spellings (`os.path.expanduser('~')`, `Path.home()`, `os.homedir()`, `process.env.HOME`).
 * Nothing is run. Bounded: code up to MAX_CODE_CHARS, evaluated code nested 3 deep, 32 findings.
 */
import type { SyntaxNode } from '../shell/parser.js';
import { parseCode, type CodeLanguage } from '../shell/parser.js';

/** What one piece of code does, as far as it can be read statically. */
export interface CodeFacts {
  language: CodeLanguage;
  /** Shell command lines it runs (an argv is quoted back into a line). */
  shell: string[];
  /** Files it writes, with the content when known. */
  writes: { path: string; content: string | null }[];
  /** Paths it deletes; `recursive` for a tree delete. */
  deletes: { path: string; recursive: boolean }[];
  /** It evaluates text fetched from the network (`exec(urlopen(…).read())`, `eval(await (await fetch(u)).text())`). */
  downloadExec: boolean;
  /** It opens a network connection (socket connect, `net.connect`, `TCPSocket`). */
  connects: boolean;
}

const MAX_FINDINGS = 32;
const MAX_EVAL_DEPTH = 3;
const MAX_NODES = 200_000;

const PY_SHELL = /^(?:os\.(?:system|popen|popen[234]|exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?)|subprocess\.(?:run|call|Popen|check_call|check_output|getoutput|getstatusoutput)|commands\.getoutput|pty\.spawn|asyncio\.create_subprocess_(?:shell|exec)|sh\.\w+)$/;
const JS_SHELL = /^(?:child_process\.(?:exec|execSync|spawn|spawnSync|execFile|execFileSync|fork)|Deno\.run|Deno\.Command|Bun\.spawn|Bun\.spawnSync|Bun\.\$|shelljs\.exec|execa|execaSync|zx\.\$)$/;
const PY_EVAL = /^(?:exec|eval|compile|builtins\.exec|builtins\.eval|runpy\.run_path)$/;
const JS_EVAL = /^(?:eval|Function|vm\.runInThisContext|vm\.runInNewContext|vm\.runInContext|vm\.Script|setTimeout|setInterval)$/;
const FETCHES = /(?:^|\.)(?:urlopen|urlretrieve|request\.urlopen|get|post|request|fetch|read|text|content|json|getresponse|recv|DownloadString)$|^(?:requests|httpx|urllib3|aiohttp|http|https|axios|got|node-fetch|undici)\b/;
const PY_WRITE = /^(?:shutil\.(?:copy|copy2|copyfile|move|copytree)|os\.(?:rename|replace|symlink|link))$/;
const JS_WRITE = /^(?:fs\.(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|copyFileSync|copyFile|renameSync|rename|symlinkSync|cpSync)|fs\.promises\.(?:writeFile|appendFile|copyFile|rename|cp)|fsp\.(?:writeFile|appendFile)|Deno\.writeTextFile|Deno\.writeTextFileSync|Deno\.writeFile|Deno\.writeFileSync|Deno\.copyFile|Deno\.copyFileSync|Deno\.rename|Deno\.renameSync|Bun\.write)$/;
const PY_DELETE = /^(?:shutil\.rmtree|os\.(?:remove|unlink|rmdir|removedirs)|send2trash\.send2trash)$/;
const JS_DELETE = /^(?:fs\.(?:rmSync|rm|rmdirSync|rmdir|unlinkSync|unlink)|fs\.promises\.(?:rm|rmdir|unlink)|fsp\.(?:rm|unlink)|rimraf|rimraf\.sync|del\.sync|fse\.removeSync|fse\.remove|Deno\.remove|Deno\.removeSync)$/;

/** Per-analysis state: aliases of modules and functions, variables with known values, findings. */
interface State {
  lang: CodeLanguage;
  aliases: Map<string, string>;
  vars: Map<string, string>;
  facts: CodeFacts;
  nodes: number;
  depth: number;
  /** A fetch call was seen, and an eval/exec of a value not known statically. */
  fetches: boolean;
  evalsDynamic: boolean;
  /** Loop variables bound to the entries of a directory walk (`for r, d, fs in os.walk(P)`,
   * `for f in glob.glob(P)`): a delete of a path built from one deletes what the walk reaches. */
  walks: Map<string, { root: string; recursive: boolean }>;
}

/**
 * Analyses one piece of inline code.
 * @param language the grammar to parse it with.
 * @param code the code text (a `-c`/`-e` argument, a heredoc fed to the interpreter, a code tool's source).
 * @returns the {@link CodeFacts}, or null when the code could not be parsed (no grammar loaded, too
 *   long, a parser failure): the caller then falls back to the idiom patterns.
 */
export function analyzeCode(language: CodeLanguage, code: string): CodeFacts | null {
  const facts: CodeFacts = { language, shell: [], writes: [], deletes: [], downloadExec: false, connects: false };
  return analyzeInto(language, code, facts, 0) ? facts : null;
}

function analyzeInto(language: CodeLanguage, code: string, facts: CodeFacts, depth: number): boolean {
  const tree = parseCode(language, code);
  if (!tree) return false;
  try {
    const st: State = { lang: language, aliases: new Map(), vars: new Map(), facts, nodes: 0, depth, fetches: false, evalsDynamic: false, walks: new Map() };
    visit(tree.rootNode, st);
    // fetched text evaluated through a callback or variable (`https.get(u, r => … eval(d))`)
    if (st.fetches && st.evalsDynamic) facts.downloadExec = true;
    return true;
  } catch {
    return false;
  } finally {
    try {
      tree.delete();
    } catch {
      // a failed instance was replaced meanwhile
    }
  }
}

/** Walks the tree iteratively (no recursion on deep nesting), in source order. */
function visit(root: SyntaxNode, st: State): void {
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (++st.nodes > MAX_NODES) return;
    handle(n, st);
    const kids = n.namedChildren;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
}

function full(st: State): boolean {
  const f = st.facts;
  return f.shell.length + f.writes.length + f.deletes.length >= MAX_FINDINGS;
}

function handle(n: SyntaxNode, st: State): void {
  switch (n.type) {
    case 'import_statement':
    case 'import_from_statement':
      pyImport(n, st);
      return;
    case 'assignment':
    case 'variable_declarator': {
      const left = n.childForFieldName(n.type === 'assignment' ? 'left' : 'name');
      const right = n.childForFieldName(n.type === 'assignment' ? 'right' : 'value');
      if (!left || !right) return;
      // const cp = require('child_process'); const { exec } = require('child_process'); x = __import__('os')
      const mod = requiredModule(right);
      if (mod !== null) {
        if (left.type === 'identifier') st.aliases.set(left.text, mod);
        else if (left.type === 'object_pattern') for (const p of left.namedChildren) {
          const key = p.type === 'pair_pattern' ? p.childForFieldName('key')?.text : p.text;
          const val = p.type === 'pair_pattern' ? p.childForFieldName('value')?.text : p.text;
          if (key && val) st.aliases.set(val, `${mod}.${key}`);
        }
        return;
      }
      if (left.type === 'identifier') {
        const v = valueOf(right, st);
        if (v !== null) st.vars.set(left.text, v);
        else st.vars.delete(left.text);
      }
      return;
    }
    case 'call':
    case 'call_expression':
    case 'new_expression':
      if (!full(st)) call(n, st);
      return;
    case 'for_statement':
      if (st.lang === 'python') bindWalk(n, st);
      return;
    case 'list_comprehension':
    case 'set_comprehension':
    case 'generator_expression':
    case 'dictionary_comprehension':
      // the element comes first in the source, its `for … in` clauses after: bind them first
      for (const c of n.namedChildren) if (c.type === 'for_in_clause') bindWalk(c, st);
      return;
    default:
      return;
  }
}

/** Python's directory walks: the tree (`os.walk`, `Path.rglob`, `glob(…, recursive=True)` with `**`)
 * or one level (`os.listdir`, `os.scandir`, `glob.glob`, `Path.iterdir`, `Path.glob`). */
const PY_WALK = /^(?:os\.(walk|listdir|scandir)|glob\.i?glob|(?:pathlib\.)?(?:Path|PosixPath)\.(rglob|glob|iterdir))$/;

/** Binds the loop variables of `for X in WALK(P)` (a for statement or a comprehension clause) to
 * the walk's root P when P is known statically. */
function bindWalk(n: SyntaxNode, st: State): void {
  const left = n.childForFieldName('left');
  const right = n.childForFieldName('right');
  if (!left || !right || right.type !== 'call') return;
  const f = right.childForFieldName('function');
  if (!f) return;
  let name = calleeName(f, st);
  let rootNode = argumentsOf(right)[0];
  // Path(P).rglob('*'): the root is the Path call's argument
  const obj = f.type === 'attribute' ? f.childForFieldName('object') : null;
  if (obj && obj.type === 'call' && /^(?:pathlib\.)?(?:Path|PosixPath)$/.test(calleeName(obj.childForFieldName('function')!, st))) {
    name = `Path.${f.childForFieldName('attribute')?.text ?? ''}`;
    rootNode = argumentsOf(obj)[0];
  }
  const m = PY_WALK.exec(name);
  if (!m || !rootNode) return;
  let root = valueOf(rootNode, st);
  if (root === null) return;
  const recursive = m[1] === 'walk' || m[2] === 'rglob' || (/glob$/.test(name) && root.includes('**'));
  if (/glob/.test(name)) root = root.replace(/\/\*\*?(?:\/\*+)*$/, '') || '/';
  for (const id of left.type === 'identifier' ? [left] : left.descendantsOfType('identifier')) if (id) st.walks.set(id.text, { root, recursive });
}

/** The walk a delete's path comes from (it names a walk's loop variable), or null. */
function walkOf(arg: SyntaxNode, st: State): { root: string; recursive: boolean } | null {
  if (st.walks.size === 0) return null;
  const ids = arg.type === 'identifier' ? [arg] : arg.descendantsOfType('identifier');
  for (const id of ids) {
    const w = id ? st.walks.get(id.text) : undefined;
    if (w) return w;
  }
  return null;
}

/** `import os as o`, `from os import system as s`, `from subprocess import run`. */
function pyImport(n: SyntaxNode, st: State): void {
  if (n.type === 'import_statement') {
    for (const c of n.namedChildren) {
      if (c.type === 'aliased_import') {
        const name = c.childForFieldName('name')?.text;
        const alias = c.childForFieldName('alias')?.text;
        if (name && alias) st.aliases.set(alias, name);
      }
    }
    return;
  }
  const mod = n.childForFieldName('module_name')?.text;
  if (!mod) return;
  for (const c of n.childrenForFieldName('name')) {
    if (!c) continue;
    if (c.type === 'aliased_import') {
      const name = c.childForFieldName('name')?.text;
      const alias = c.childForFieldName('alias')?.text;
      if (name && alias) st.aliases.set(alias, `${mod}.${name}`);
    } else st.aliases.set(c.text, `${mod}.${c.text}`);
  }
}

/** The module a `require('m')` / `__import__('m')` / `import('m')` call names, or null. */
function requiredModule(n: SyntaxNode): string | null {
  let x = n;
  if (x.type === 'await_expression') x = x.namedChildren[0] ?? x;
  if (x.type !== 'call' && x.type !== 'call_expression') return null;
  const f = x.childForFieldName('function');
  if (!f || !/^(?:require|__import__|import|importlib\.import_module)$/.test(f.text)) return null;
  const arg = argumentsOf(x)[0];
  const m = arg ? stringValue(arg) : null;
  return m === null ? null : m.replace(/^node:/, '');
}

/** The dotted name of a callee with aliases and inline requires resolved: `cp.exec` → `child_process.exec`,
 * `require('fs').rmSync` → `fs.rmSync`, `__import__('os').system` → `os.system`. */
function calleeName(f: SyntaxNode, st: State): string {
  if (f.type === 'identifier') return st.aliases.get(f.text) ?? f.text;
  if (f.type === 'attribute' || f.type === 'member_expression') {
    const obj = f.childForFieldName('object');
    const prop = f.childForFieldName(f.type === 'attribute' ? 'attribute' : 'property');
    if (!obj || !prop) return f.text;
    const base = requiredModule(obj) ?? calleeName(obj, st);
    return `${base}.${prop.text}`;
  }
  if (f.type === 'call' || f.type === 'call_expression') {
    const m = requiredModule(f);
    if (m !== null) return m;
  }
  return f.text;
}

function argumentsOf(n: SyntaxNode): SyntaxNode[] {
  const args = n.childForFieldName('arguments');
  // a tagged template (`` $`rm -rf /` ``) is a call whose one argument is the template
  if (args?.type === 'template_string') return [args];
  return args ? args.namedChildren.filter((c) => c.type !== 'comment') : [];
}

function keyword(n: SyntaxNode, name: string): SyntaxNode | null {
  for (const a of argumentsOf(n)) if (a.type === 'keyword_argument' && a.childForFieldName('name')?.text === name) return a.childForFieldName('value');
  return null;
}

function call(n: SyntaxNode, st: State): void {
  const f = n.childForFieldName(n.type === 'new_expression' ? 'constructor' : 'function');
  if (!f) return;
  const name = calleeName(f, st).replace(/^(?:global|window|globalThis)\./, '');
  const args = argumentsOf(n).filter((a) => a.type !== 'keyword_argument');
  const facts = st.facts;
  const py = st.lang === 'python';
  if (/(?:^|\.)(?:urlopen|urlretrieve|fetch|DownloadString)$|^(?:requests|httpx|urllib3|aiohttp|axios|got|http|https|urllib\.request)\.(?:get|post|request|urlopen|Request)$/.test(name)) st.fetches = true;
  // zx's and Bun Shell's `$` run a tagged template as a shell line (https://google.github.io/zx/api#dollar,
  // https://bun.sh/docs/runtime/shell), whatever the tag was imported as (`$`, `Bun.$`, `zx.$`)
  const tagged = !py && n.childForFieldName('arguments')?.type === 'template_string' && /(?:^|\.)\$$/.test(name);
  if ((py ? PY_SHELL : JS_SHELL).test(name) || tagged) {
    const line = commandLine(name, args, st);
    if (line !== null) facts.shell.push(line);
    return;
  }
  if ((py ? PY_EVAL : JS_EVAL).test(name) && args[0]) {
    const arg = args[0];
    if (fetchesInside(arg, st)) facts.downloadExec = true;
    const text = valueOf(arg, st);
    if (!/^(?:string|concatenated_string|template_string)$/.test(arg.type)) st.evalsDynamic = true;
    if (text !== null && st.depth < MAX_EVAL_DEPTH && (py || name !== 'setTimeout' || arg.type === 'string')) analyzeInto(st.lang, text, facts, st.depth + 1);
    return;
  }
  if (py && name === 'open' && args[0]) {
    const mode = args[1] ? stringValue(args[1]) : (keyword(n, 'mode') ? stringValue(keyword(n, 'mode')!) : 'r');
    const path = valueOf(args[0], st);
    if (path !== null && mode !== null && /[wax+]/.test(mode)) facts.writes.push({ path, content: writtenContent(n, st) });
    return;
  }
  // pathlib: Path(P).write_text(C) / .write_bytes / .unlink / .rmdir / .open('w')
  if (py && /\.(?:write_text|write_bytes|unlink|rmdir|touch|symlink_to)$/.test(name) && (f.type === 'attribute')) {
    const obj = f.childForFieldName('object');
    const target = obj && (obj.type === 'call') && /^(?:pathlib\.)?(?:Path|PosixPath)$/.test(calleeName(obj.childForFieldName('function')!, st)) ? valueOf(argumentsOf(obj)[0] ?? obj, st) : obj ? valueOf(obj, st) : null;
    if (target !== null) {
      if (/unlink|rmdir$/.test(name)) facts.deletes.push({ path: target, recursive: false });
      else facts.writes.push({ path: target, content: args[0] ? valueOf(args[0], st) : null });
    } else if (obj && /unlink$/.test(name)) {
      // [p.unlink() for p in Path(P).rglob('*')]
      const w = walkOf(obj, st);
      if (w !== null) facts.deletes.push(w.recursive ? { path: w.root, recursive: true } : { path: `${w.root.replace(/\/$/, '')}/*`, recursive: false });
    }
    return;
  }
  if ((py ? PY_WRITE : JS_WRITE).test(name)) {
    const two = /copy|move|rename|replace|symlink|link|cp/i.test(name);
    const target = two ? args[1] : args[0];
    const path = target ? valueOf(target, st) : null;
    if (path !== null) facts.writes.push({ path, content: !two && args[1] ? valueOf(args[1], st) : null });
    return;
  }
  if ((py ? PY_DELETE : JS_DELETE).test(name) && args[0]) {
    const path = valueOf(args[0], st);
    const recursive = py ? /rmtree|removedirs/.test(name) : /rimraf|del\.|remove(?:Sync)?$/.test(name) || (args[1] !== undefined && /recursive\s*:\s*true/.test(args[1].text));
    if (path !== null) facts.deletes.push({ path, recursive });
    else if (py) {
      // os.remove(os.path.join(r, f)) for r, d, fs in os.walk(P): the tree under P is deleted
      const w = walkOf(args[0], st);
      if (w !== null) facts.deletes.push(w.recursive ? { path: w.root, recursive: true } : { path: `${w.root.replace(/\/$/, '')}/*`, recursive });
    }
    return;
  }
  if (/(?:^|\.)(?:connect|create_connection|createConnection|Socket|TCPSocket)$/.test(name) && /socket|net\.|tls\.|\.connect$/.test(name)) facts.connects = true;
}

/** The content of `open(P, 'w').write(C)` when the open call is the object of a `.write(…)`. */
function writtenContent(openCall: SyntaxNode, st: State): string | null {
  const attr = openCall.parent;
  if (!attr || attr.type !== 'attribute' || attr.childForFieldName('attribute')?.text !== 'write') return null;
  const c = attr.parent;
  const arg = c && c.type === 'call' ? argumentsOf(c)[0] : undefined;
  return arg ? valueOf(arg, st) : null;
}

/** The command line a process-running call runs: a string is a shell line; a list (or `spawn(cmd, [args])`) an argv. */
function commandLine(name: string, args: SyntaxNode[], st: State): string | null {
  const first = args[0];
  if (!first) return null;
  const list = listValue(first, st);
  if (list !== null) return (/os\.(?:exec|spawn)[lv]p?e?/.test(name) && list.length ? list : list).map(quote).join(' ');
  const head = valueOf(first, st);
  if (head === null) return null;
  // os.execl('/bin/sh', 'sh', '-c', 'x'): the arguments after the path are the argv
  if (/os\.(?:exec|spawn)l/.test(name)) {
    const rest = args.slice(1).map((a) => valueOf(a, st));
    if (rest.every((r): r is string => r !== null) && rest.length) return rest.map(quote).join(' ');
  }
  const second = args[1] ? listValue(args[1], st) : null;
  if (second !== null && /os\.(?:exec|spawn)v/.test(name)) return second.map(quote).join(' ');
  if (second !== null && /spawn|execFile|fork|Command/.test(name)) return [head, ...second].map(quote).join(' ');
  return head;
}

/** A list/array of statically known strings, or null. */
function listValue(n: SyntaxNode, st: State): string[] | null {
  if (n.type !== 'list' && n.type !== 'array' && n.type !== 'tuple') return null;
  const out: string[] = [];
  for (const c of n.namedChildren) {
    if (c.type === 'comment') continue;
    const v = valueOf(c, st);
    if (v === null) return null;
    out.push(v);
  }
  return out;
}

/** True when a fetch-like call (urlopen, requests.get, fetch, http.get, …) sits inside the node. */
function fetchesInside(n: SyntaxNode, st: State): boolean {
  const stack = [n];
  let seen = 0;
  while (stack.length && seen++ < 2000) {
    const x = stack.pop()!;
    if (x.type === 'call' || x.type === 'call_expression') {
      const f = x.childForFieldName('function');
      const name = f ? calleeName(f, st) : '';
      if (/(?:^|\.)(?:urlopen|urlretrieve|fetch|DownloadString)$|^(?:requests|httpx|urllib3|aiohttp|axios|got|http|https|urllib\.request)\.\w+$/.test(name)) return true;
    }
    if (x.type === 'identifier' && st.vars.get(x.text) === '\u0000fetched') return true;
    stack.push(...x.namedChildren);
  }
  return false;
}

/** The Python/JS string literal's value (prefixes, quotes and escapes removed), or null when it
 * interpolates (f-string, template with `${}`). */
function stringValue(n: SyntaxNode): string | null {
  if (n.type === 'string' || n.type === 'template_string') {
    if (n.namedChildren.some((c) => c.type === 'interpolation' || c.type === 'template_substitution')) return null;
    const t = n.text;
    const m = /^([rRbBuUfF]{0,2})("""|'''|"|'|`)([\s\S]*)\2$/.exec(t);
    if (!m) return null;
    return /r/i.test(m[1]!) ? m[3]! : unescape(m[3]!);
  }
  if (n.type === 'concatenated_string') {
    let out = '';
    for (const c of n.namedChildren) {
      const v = stringValue(c);
      if (v === null) return null;
      out += v;
    }
    return out;
  }
  return null;
}

function unescape(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|u\{[0-9a-fA-F]+\}|[0-7]{1,3}|[\s\S])/g, (_m, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    if (e[0] === 'u') return String.fromCodePoint(parseInt(e.replace(/[u{}]/g, ''), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ n: '\n', t: '\t', r: '\r', '\n': '' } as Record<string, string>)[e] ?? e;
  });
}

const HOME_CALLS = /^(?:os\.path\.expanduser|os\.homedir|os\.userInfo|pathlib\.Path\.home|Path\.home|os\.getenv|os\.environ\.get|Deno\.env\.get|process\.env\.HOME)$/;

/** The static value of an expression, or null. */
function valueOf(n: SyntaxNode, st: State): string | null {
  switch (n.type) {
    case 'string':
    case 'template_string':
    case 'concatenated_string':
      return stringValue(n);
    case 'parenthesized_expression':
      return n.namedChildren[0] ? valueOf(n.namedChildren[0], st) : null;
    case 'identifier':
      return st.vars.get(n.text) ?? null;
    case 'integer':
    case 'number':
      return n.text;
    case 'binary_operator':
    case 'binary_expression': {
      const op = n.childForFieldName('operator')?.text ?? n.children.find((c) => c && !c.isNamed)?.text;
      const l = n.childForFieldName('left');
      const r = n.childForFieldName('right');
      if (!l || !r) return null;
      const a = valueOf(l, st);
      const b = valueOf(r, st);
      if (a === null || b === null) return null;
      if (op === '+') return a + b;
      if (op === '/' && st.lang === 'python') return `${a}/${b}`; // Path.home() / '.bashrc'
      if (op === '%' && st.lang === 'python') return a.replace(/%s/, b);
      return null;
    }
    case 'member_expression':
    case 'attribute':
      if (/^(?:process\.env\.HOME|process\.env\.USERPROFILE|os\.environ\.HOME)$/.test(n.text)) return '~';
      return null;
    case 'subscript':
    case 'subscript_expression':
      if (/^(?:os\.environ|process\.env)\s*\[\s*['"](?:HOME|USERPROFILE)['"]\s*\]$/.test(n.text)) return '~';
      return null;
    case 'call':
    case 'call_expression':
      return callValue(n, st);
    case 'await_expression':
      return n.namedChildren[0] ? valueOf(n.namedChildren[0], st) : null;
    default:
      return null;
  }
}

/** The static value of a call: decoders, joins, path helpers and home-directory lookups. */
function callValue(n: SyntaxNode, st: State): string | null {
  const f = n.childForFieldName('function');
  if (!f) return null;
  const name = calleeName(f, st);
  const args = argumentsOf(n);
  const arg0 = args[0] ? valueOf(args[0], st) : null;
  if (HOME_CALLS.test(name)) {
    if (/getenv|environ\.get|env\.get/.test(name)) return arg0 === 'HOME' || arg0 === 'USERPROFILE' ? '~' : null;
    if (name === 'os.path.expanduser') return arg0;
    return '~';
  }
  if (/^(?:os\.path\.join|path\.join|path\.resolve|posixpath\.join)$/.test(name)) {
    const parts = args.map((a) => valueOf(a, st));
    return parts.every((p): p is string => p !== null) ? parts.join('/').replace(/\/+/g, '/') : null;
  }
  if (/(?:^|\.)(?:b64decode|decodebytes|decodestring|standard_b64decode|urlsafe_b64decode|atob)$/.test(name) && arg0 !== null) return base64(arg0);
  if (/^(?:bytes\.fromhex|binascii\.unhexlify|bytearray\.fromhex)$/.test(name) && arg0 !== null) return /^[0-9a-fA-F\s]*$/.test(arg0) ? Buffer.from(arg0.replace(/\s+/g, ''), 'hex').toString('utf8') : null;
  if (name === 'codecs.decode' && arg0 !== null && args[1] && /rot.?13/i.test(args[1].text)) return arg0.replace(/[a-zA-Z]/g, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c < 'a' ? 65 : 97)));
  if ((name === 'chr' || name === 'String.fromCharCode') && args.length) {
    const codes = args.map((a) => Number(valueOf(a, st)));
    return codes.every((c) => Number.isInteger(c) && c >= 0 && c < 0x110000) ? String.fromCharCode(...codes) : null;
  }
  if (/^(?:str|String|bytes|bytearray)$/.test(name)) return arg0;
  if (/^(?:Buffer\.from)$/.test(name) && arg0 !== null) {
    const enc = args[1] ? valueOf(args[1], st) : null;
    return enc === 'base64' ? base64(arg0) : enc === 'hex' ? Buffer.from(arg0, 'hex').toString('utf8') : arg0;
  }
  // method calls on a known value: x.decode(), x.toString(), x[::-1] is not a call; ''.join([...]), [...].join('')
  if (f.type === 'attribute' || f.type === 'member_expression') {
    const obj = f.childForFieldName('object');
    const method = f.childForFieldName(f.type === 'attribute' ? 'attribute' : 'property')?.text ?? '';
    if (!obj) return null;
    if (method === 'join') {
      const list = st.lang === 'python' ? (args[0] ? listValue(args[0], st) : null) : listValue(obj, st);
      const sep = st.lang === 'python' ? valueOf(obj, st) : (args[0] ? valueOf(args[0], st) : ',');
      return list !== null && sep !== null ? list.join(sep) : null;
    }
    const base = valueOf(obj, st);
    if (base === null) return null;
    if (/^(?:decode|encode|toString|strip|trim|lower|upper|format)$/.test(method)) return method === 'lower' ? base.toLowerCase() : method === 'upper' ? base.toUpperCase() : method === 'strip' || method === 'trim' ? base.trim() : base;
    if (method === 'replace' && args.length >= 2) {
      const a = valueOf(args[0]!, st);
      const b = valueOf(args[1]!, st);
      return a !== null && b !== null ? base.split(a).join(b) : null;
    }
    if (method === 'reverse' || method === 'reversed') return [...base].reverse().join('');
  }
  return null;
}

function base64(s: string): string | null {
  const t = s.replace(/\s+/g, '');
  return /^[A-Za-z0-9+/_-]*={0,2}$/.test(t) ? Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8') : null;
}

function quote(a: string): string {
  return /^[\w@%+=:,./~-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/**
 * The facts as shell command lines the analyser can inspect like any payload: the lines run, a
 * write as `printf %s CONTENT > PATH`, a delete as `rm -rf -- PATH` (or `rm -f`). Paths given in a
 * home-directory spelling become `~`.
 */
export function factsAsShell(facts: CodeFacts): string[] {
  const out = [...facts.shell];
  for (const w of facts.writes) out.push(`printf %s ${quote((w.content ?? '').slice(0, 2000))} > ${quote(w.path)}`);
  for (const d of facts.deletes) out.push(`rm ${d.recursive ? '-rf' : '-f'} -- ${quote(d.path)}`);
  return out.slice(0, MAX_FINDINGS);
}
