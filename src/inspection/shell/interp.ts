/**
 * Interpreter one-liners (`python -c`, `perl -e`, `ruby -e`, `node -e`, `php -r`, PowerShell
 * `-Command`/`-EncodedCommand`) and code tools: where their code is, and which shell commands the
 * code runs when that can be read statically: the string given to `os.system`, `subprocess.*`,
 * `system`/`exec`/`qx`/backticks, `child_process.exec*`/`spawn*`, possibly base64-encoded; and
 * recursive deletes (`shutil.rmtree`, `fs.rmSync`, `FileUtils.rm_rf`, `rmtree`), written as the
 * equivalent `rm -rf -- PATH`. The analyser inspects those texts as shell (nested, via
 * `<interpreter> code`). Nothing is run.
 */

/** Interpreters that run code from stdin when given no script, or a one-liner with -c/-e. */
export const INTERPRETERS = /^(?:python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node(?:js)?|php[0-9.]*|deno|bun|lua(?:jit|[0-9.]*)|tclsh[0-9.]*|osascript|Rscript|pwsh|powershell(?:\.exe)?|julia|jrunscript|groovy|scala|guile|clisp|sbcl|ghc|octave(?:-cli)?|gnuplot)$/i;

/** The one-liner code of an interpreter command (`argv[0]` its name), or null; PowerShell
 * `-EncodedCommand` is decoded from UTF-16LE base64. */
export function interpreterCode(name: string, argv: readonly string[]): string | null {
  if (!INTERPRETERS.test(name)) return null;
  const args = argv.slice(1);
  if (/^(?:pwsh|powershell)/i.test(name)) {
    const enc = args.findIndex((a) => /^-(?:e|ec|enc|encodedcommand)$/i.test(a));
    if (enc >= 0 && args[enc + 1]) {
      try {
        return Buffer.from(args[enc + 1]!, 'base64').toString('utf16le');
      } catch {
        return null;
      }
    }
    const i = interpreterCodeIndex(name, argv);
    if (i > 0) return argv.slice(i).join(' ');
    const rest = args.filter((a) => !a.startsWith('-'));
    return rest.length ? rest.join(' ') : null;
  }
  const i = interpreterCodeIndex(name, argv);
  // osascript, perl and ruby take several -e, each one line of the program (osascript(1), perlrun(1), ruby(1))
  if (i > 0 && argv[i - 1] === '-e' && /^(?:osascript|perl[0-9.]*|ruby[0-9.]*)$/i.test(name)) {
    return argv.flatMap((a, k) => (k > 0 && a === '-e' && argv[k + 1] !== undefined ? [argv[k + 1]!] : [])).join('\n');
  }
  if (i > 0) return argv[i]!;
  // ruby/perl take the code attached to the flag: `ruby -rsocket -e'c=TCPSocket.new(…)'`, `perl -e'…'`
  if (/^(?:ruby|perl)[0-9.]*$/i.test(name)) {
    // switches that may come before `e` in one word (perlrun(1), ruby(1)); what follows `e` is the code
    for (const a of args) {
      const m = /^-[lnpawsTtWXdv0-9]*e([\s\S]+)$/.exec(a);
      if (m) return m[1]!;
    }
  }
  return null;
}

/** The index in `argv` of the word holding an interpreter's one-liner code (the word after
 * `-c`/`-e`/`-r`/`--eval`, or PowerShell's `-Command`), or -1. */
export function interpreterCodeIndex(name: string, argv: readonly string[]): number {
  if (!INTERPRETERS.test(name)) return -1;
  const flag = /^(?:pwsh|powershell)/i.test(name) ? (a: string) => /^-(?:c|command)$/i.test(a) : (a: string) => /^-(?:c|e|E|r|p|-eval|-print)$/.test(a) || /^-[a-zA-Z]*[ce]$/.test(a);
  const i = argv.findIndex((a, k) => k > 0 && flag(a));
  if (i > 0 && argv[i + 1] !== undefined) return i + 1;
  // `deno eval [OPTIONS] CODE` (https://docs.deno.com/runtime/reference/cli/eval/): the code is the first operand after `eval`
  if (/^deno$/i.test(name) && argv[1] === 'eval') {
    const k = argv.findIndex((a, n) => n > 1 && !a.startsWith('-'));
    return k > 1 ? k : -1;
  }
  return -1;
}

/**
 * What the interpreters without a grammar here (Ruby, Perl, PHP, Lua, AppleScript, awk, R, Tcl,
 * PowerShell) do, as idioms: a pattern over the code with a named group `arg` (a command line it
 * runs) or `path` (a file it writes or deletes). A new interpreter or idiom is one more entry here,
 * plus a vector in the rule group it feeds (src/inspection/rules/*.vectors.yaml).
 */
export interface CodeIdiom {
  /** Interpreter names (argv[0] basename) the idiom applies to. */
  interpreters: RegExp;
  kind: 'shell' | 'write' | 'delete' | 'shell-escape';
  /** Global pattern; string literals are matched with their quotes. */
  re: RegExp;
}

const lit = (group: 'arg' | 'path') => String.raw`(?:'(?<${group}>[^'\\]*(?:\\.[^'\\]*)*)'|"(?<${group}2>[^"\\]*(?:\\.[^"\\]*)*)")`;

/** The idiom table (sources: each language's reference for the named functions). */
export const CODE_IDIOMS: readonly CodeIdiom[] = [
  // Lua os.execute / io.popen (Lua 5.4 manual §6.9, §6.8)
  { interpreters: /^lua(?:jit|[0-9.]*)?$/i, kind: 'shell', re: new RegExp(String.raw`\b(?:os\.execute|io\.popen)\s*\(?\s*${lit('arg')}`, 'g') },
  { interpreters: /^lua(?:jit|[0-9.]*)?$/i, kind: 'write', re: new RegExp(String.raw`\bio\.open\s*\(\s*${lit('path')}\s*,\s*['"][wa]`, 'g') },
  { interpreters: /^lua(?:jit|[0-9.]*)?$/i, kind: 'delete', re: new RegExp(String.raw`\bos\.remove\s*\(\s*${lit('path')}`, 'g') },
  // AppleScript `do shell script "…"` (AppleScript Language Guide, Standard Additions), and Terminal's
  // `do script "…"` (Terminal's scripting dictionary: runs the text as a command in a new window)
  { interpreters: /^osascript$/i, kind: 'shell', re: new RegExp(String.raw`\bdo\s+(?:shell\s+)?script\s+${lit('arg')}`, 'g') },
  // Finder's `delete POSIX file "…"` (Finder scripting dictionary: moves the item to the Trash, out of its place)
  { interpreters: /^osascript$/i, kind: 'delete', re: new RegExp(String.raw`\bdelete\s+(?:\(\s*)?POSIX\s+file\s+${lit('path')}`, 'g') },
  // awk system("…"), "cmd" | getline, print | "cmd" (POSIX awk)
  { interpreters: /^(?:g|m|n|busybox-)?awk$/i, kind: 'shell', re: new RegExp(String.raw`\bsystem\s*\(\s*${lit('arg')}`, 'g') },
  { interpreters: /^(?:g|m|n|busybox-)?awk$/i, kind: 'shell', re: new RegExp(String.raw`${lit('arg')}\s*\|\s*getline`, 'g') },
  { interpreters: /^(?:g|m|n|busybox-)?awk$/i, kind: 'shell', re: new RegExp(String.raw`\|\s*${lit('arg')}`, 'g') },
  // Ruby File.write / File.open(p, 'w') / FileUtils.rm_rf, Perl open(F, '>', p) / unlink, PHP file_put_contents / unlink, R system()
  { interpreters: /^ruby[0-9.]*$|^irb$/i, kind: 'write', re: new RegExp(String.raw`\bFile\.(?:write|open)\s*\(\s*${lit('path')}(?:\s*,\s*['"][wa])?`, 'g') },
  { interpreters: /^perl[0-9.]*$/i, kind: 'write', re: new RegExp(String.raw`\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*(?:['"]>>?['"]\s*,\s*${lit('path')}|['"]>>?\s*(?<path3>[^'"]+)['"])`, 'g') },
  { interpreters: /^php[0-9.]*$/i, kind: 'write', re: new RegExp(String.raw`\b(?:file_put_contents|fopen)\s*\(\s*${lit('path')}`, 'g') },
  { interpreters: /^(?:perl[0-9.]*|php[0-9.]*|ruby[0-9.]*)$/i, kind: 'delete', re: new RegExp(String.raw`\b(?:unlink|rmdir|File\.delete|FileUtils\.rm(?:_r|_rf|_f)?|remove_tree|rmtree)\s*\(?\s*(?:glob\s*\(?\s*)?${lit('path')}`, 'g') },
  { interpreters: /^(?:Rscript|R)$/, kind: 'shell', re: new RegExp(String.raw`\bsystem2?\s*\(\s*${lit('arg')}`, 'g') },
  { interpreters: /^(?:tclsh[0-9.]*|wish|expect)$/i, kind: 'shell', re: /\bexec\s+(?<arg>[^\]\n;]+)/g },
  // an interactive shell spawned by the code (pty, exec of /bin/sh) is found by the shell-escape rule on the code text
];

/** Most shell texts taken from one piece of code. */
const MAX_TEXTS = 32;

/** Calls whose (first) argument is a shell command line or an argv. */
const RUNNERS = /(?:\bos\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?)|\bsubprocess\.(?:run|call|Popen|check_call|check_output|getoutput|getstatusoutput)|\bcommands\.getoutput|\bpty\.spawn|(?<![.\w])(?:system|shell_exec|passthru|popen|proc_open|qx|execSync|execFileSync|execFile|exec|spawnSync|spawn)\b|\bIO\.popen|\bOpen3\.\w+|\bRuntime\.getRuntime\(\)\.exec|\bDeno\.run|\bBun\.spawn(?:Sync)?|\.(?:execSync|execFileSync|execFile|exec|spawnSync|spawn|system|popen)\b)\s*\(?\s*/g;
/** Calls that delete a tree: their first argument is the root. */
const TREE_DELETES = /(?:\bshutil\.rmtree|\brmtree|\bremove_tree|\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?)|\.(?:rmSync|rmdirSync)\b|\bfs\.(?:rm|rmdir)\b|\bfs\.promises\.rm\b|\bfsp\.rm\b|\brimraf(?:\.sync)?)\s*\(?\s*/g;

/**
 * The shell command lines the code runs, when readable statically: literal arguments of the
 * process-running calls above (a string is a shell line; a list of strings or several string
 * arguments is an argv, quoted back into a line), base64 literals decoded first
 * (`b64decode('…')`, `Buffer.from('…','base64')`, `atob('…')`, `decode_base64('…')`,
 * `Base64.decode64('…')`), backticks / `%x(…)` / `qx(…)` of Perl and Ruby; and `rm -rf -- P` for
 * each recursive delete of a literal path P (`~` for the home directory forms). At most 32.
 */
export function interpreterShellTexts(code: string, interpreter = ''): string[] {
  const out: string[] = [];
  for (const idiom of CODE_IDIOMS) {
    if (!idiom.interpreters.test(interpreter)) continue;
    for (const m of code.matchAll(idiom.re)) {
      const g = m.groups ?? {};
      const rawArg = g['arg'] ?? g['arg2'];
      const rawPath = g['path'] ?? g['path2'] ?? g['path3'];
      const arg = rawArg !== undefined ? unescapeLiteral(rawArg) : null;
      const path = rawPath !== undefined ? unescapeLiteral(rawPath).replace(/^(?:ENV\[['"]HOME['"]\]|\$ENV\{HOME\}|Dir\.home|getenv\(['"]HOME['"]\))/, '~') : null;
      if (idiom.kind === 'shell' && arg !== null) out.push(arg);
      else if (idiom.kind === 'write' && path !== null) out.push(`printf %s '' > ${quote(path)}`);
      else if (idiom.kind === 'delete' && path !== null) out.push(`rm -rf -- ${quote(path)}`);
      else if (idiom.kind === 'shell-escape') out.push('/bin/sh -i');
      if (out.length >= MAX_TEXTS) return out;
    }
  }
  for (const m of code.matchAll(RUNNERS)) {
    const arg = leadingArgument(code, m.index + m[0].length, /os\.(?:exec|spawn)[lv]p?e?\s*\(?\s*$/.test(m[0]));
    if (arg !== null) out.push(arg);
    if (out.length >= MAX_TEXTS) return out;
  }
  for (const m of code.matchAll(/(?<![\w$])`([^`$\\]+)`|%x\(([^)]*)\)|\bqx[({/]([^)}/]*)[)}/]/g)) {
    out.push(m[1] ?? m[2] ?? m[3] ?? '');
    if (out.length >= MAX_TEXTS) return out;
  }
  for (const m of code.matchAll(TREE_DELETES)) {
    const p = pathArgument(code, m.index + m[0].length);
    if (p !== null) out.push(`rm -rf -- ${quote(p)}`);
    if (out.length >= MAX_TEXTS) return out;
  }
  return out.filter((t) => t.trim() !== '');
}

/** A string literal (or list / argument sequence of them, or a decoded base64 literal) at `at`.
 * `spawn('rm', ['-rf', '/'])` is the argv rm -rf /; with `listIsArgv` (Python `os.execvp(file,
 * args)`) the list alone is the argv. */
function leadingArgument(code: string, at: number, listIsArgv = false): string | null {
  const rest = code.slice(at, at + 4096);
  const list = /^[[(]\s*((?:(?:[rbuf]?(?:'[^'\\]*(?:\\.[^'\\]*)*'|"[^"\\]*(?:\\.[^"\\]*)*"))\s*,?\s*)+)[\])]/.exec(rest);
  if (list && rest[0] === '[') return stringsIn(list[1]!).map(quote).join(' ');
  const decoded = base64Argument(rest);
  if (decoded !== null) return decoded;
  const lit = stringLiteral(rest);
  if (lit === null) return null;
  const withList = /^[rbuf]?(?:'[^'\\]*(?:\\.[^'\\]*)*'|"[^"\\]*(?:\\.[^"\\]*)*")\s*,\s*[[(]((?:\s*[rbuf]?(?:'[^'\\]*(?:\\.[^'\\]*)*'|"[^"\\]*(?:\\.[^"\\]*)*")\s*,?)*)\s*[\])]/.exec(rest);
  if (withList) {
    const list = stringsIn(withList[1]!);
    return (listIsArgv && list.length ? list : [lit, ...list]).map(quote).join(' ');
  }
  // perl system("rm", "-rf", "/"): several literal arguments form an argv
  const more = /^(?:[rbuf]?(?:'[^'\\]*(?:\\.[^'\\]*)*'|"[^"\\]*(?:\\.[^"\\]*)*")\s*,\s*)+[rbuf]?(?:'[^'\\]*(?:\\.[^'\\]*)*'|"[^"\\]*(?:\\.[^"\\]*)*")/.exec(rest);
  if (more) return stringsIn(more[0]).map(quote).join(' ');
  return lit;
}

/** A decoded `b64decode('…')`-style literal at the start of `text`, or null. */
function base64Argument(text: string): string | null {
  const m = /^(?:[\w.]*(?:b64decode|decodebytes|decodestring|decode_base64|decode64|atob|base64_decode)\s*\(\s*[rbu]?(['"])([A-Za-z0-9+/=\s]+)\1|Buffer\.from\s*\(\s*(['"])([A-Za-z0-9+/=]+)\3\s*,\s*['"]base64['"])/.exec(text);
  if (!m) return null;
  return Buffer.from((m[2] ?? m[4] ?? '').replace(/\s+/g, ''), 'base64').toString('utf8');
}

/** The path a tree delete removes: a literal, or a home-directory form (→ `~`). */
function pathArgument(code: string, at: number): string | null {
  const rest = code.slice(at, at + 1024);
  if (/^(?:os\.path\.expanduser\(\s*['"]~['"]\s*\)|(?:pathlib\.)?Path\.home\(\)|os\.homedir\(\)|require\(['"]os['"]\)\.homedir\(\)|os\.environ\[['"]HOME['"]\]|process\.env\.HOME|ENV\[['"]HOME['"]\]|\$ENV\{HOME\}|Dir\.home|\$env:USERPROFILE|\$HOME|~)/.test(rest)) return '~';
  return stringLiteral(rest);
}

/** The value of the string literal at the start of `text` (Python/JS/Perl/Ruby quoting), or null. */
function stringLiteral(text: string): string | null {
  const m = /^[rbuf]?(?:'([^'\\]*(?:\\.[^'\\]*)*)'|"([^"\\]*(?:\\.[^"\\]*)*)"|`([^`$\\]*)`)/.exec(text);
  if (!m) return null;
  return unescapeLiteral(m[1] ?? m[2] ?? m[3] ?? '');
}

function stringsIn(text: string): string[] {
  return [...text.matchAll(/'([^'\\]*(?:\\.[^'\\]*)*)'|"([^"\\]*(?:\\.[^"\\]*)*)"/g)].map((m) => unescapeLiteral(m[1] ?? m[2] ?? ''));
}

function unescapeLiteral(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[\s\S])/g, (_m, e: string) => {
    if (e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r', '0': '\0' } as Record<string, string>)[e] ?? e;
  });
}

function quote(a: string): string {
  return /^[\w@%+=:,./~-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}
