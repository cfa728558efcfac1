/**
 * Input typed into an interactive program: a command line that starts a REPL, a debugger, a file
 * transfer client or a database shell with no script, followed by more lines, is a session; the
 * lines after it are what the program reads (GTFOBins writes its `shell`, `file-read` and
 * `reverse-shell` entries for jjs, jshell, tclsh, ftp, gdb, terraform console, … that way,
 * https://gtfobins.github.io/). A shell run in its place would read them as commands instead, so
 * they are matched here as the program's own language. Technique:
 * https://attack.mitre.org/techniques/T1059/.
 */
import type { Rule } from '../rule.js';
import type { CommandLine, ShellCommand, Span } from '../shell/model.js';
import { EMBEDDED_PATH } from '../effects/index.js';
import { isCredentialPath } from './persistence.js';

/** Programs that read commands or code from the terminal when given no script, and the argument
 * shape that leaves them interactive (`true`: any operands, only options otherwise). */
const SESSIONS: Record<string, { operands: boolean; start?: RegExp }> = {
  jjs: { operands: false },
  jshell: { operands: false },
  jrunscript: { operands: false },
  tclsh: { operands: false },
  wish: { operands: false },
  expect: { operands: false },
  irb: { operands: false },
  pry: { operands: false },
  lua: { operands: false },
  node: { operands: false },
  python: { operands: false },
  python3: { operands: false },
  php: { operands: false, start: /^-a$/ },
  terraform: { operands: true, start: /^console$/ },
  gdb: { operands: true },
  lldb: { operands: true },
  ftp: { operands: true },
  sftp: { operands: true },
  tftp: { operands: true },
  lftp: { operands: true },
  telnet: { operands: true },
  'redis-cli': { operands: true },
  mysql: { operands: true },
  psql: { operands: true },
  sqlite3: { operands: true },
  ed: { operands: true },
  opencode: { operands: false },
};

/** What a session's input does that matters: a shell escape or a command run by the language
 * (`!sh`, `shell cmd`, `Runtime.getRuntime().exec`, `ProcessBuilder`, `os.execute`, Tcl `exec`,
 * `system(`), or a socket opened (Tcl `socket HOST PORT`, `new Socket(`, `socket.socket(`). */
const SESSION_ACTION = /^\s*(?:!|\\!|:!)\s*\S|^\s*(?:shell|exec|system)\s+\S|^\s*\.(?:shell|system)\s+\S|Runtime\.getRuntime\(\)\.exec|\bProcessBuilder\b|\bos\.(?:execute|system|popen)\b|\bio\.popen\b|\bsubprocess\.\w+\s*\(|\bchild_process\b|\bsystem\s*\(|\bexec\s*\(|\[\s*exec\s+\S|\bsocket\s+[\w.-]+\s+\d+|\bnew\s+(?:java\.net\.)?Socket\s*\(|\bsocket\.socket\s*\(|\bTCPSocket\b/m;
/** Files a session names that are credentials or decide access (keys, shadow, sudoers, authorized_keys). */
const ACCESS_FILE = /(?:^|\/)\.ssh\/authorized_keys2?$|^\/etc\/sudoers(?:\.d\/.*)?$/;

/** True when a command starts an interactive session of one of {@link SESSIONS}. */
function startsSession(c: ShellCommand): boolean {
  const spec = SESSIONS[c.name];
  // a statement of the line or of a `sh -c` script, not a substitution's or a pipeline stage
  if (!spec || (c.via !== null && !/ -c$/.test(c.via)) || c.stdin !== null || c.pipeline !== null) return false;
  if (c.redirects.some((r) => /^0?<$/.test(r.op))) return false;
  const args = c.argv.slice(1);
  if (spec.start) return spec.start.test(args[0] ?? '') || args.some((a) => spec.start!.test(a));
  // a script flag or a script operand means it does not read the terminal
  if (args.some((a) => /^-(?:c|e|E|r|f|x|-eval|-exec|-command|-file|-script)$/.test(a))) return false;
  return spec.operands || args.every((a) => a.startsWith('-'));
}

/** The span of the first session start whose following lines escape to a shell, open a socket or
 * name a credential or access-control file; null when there is none. */
export function sessionInput(line: CommandLine): Span | null {
  for (const c of line.commands) {
    if (!startsSession(c)) continue;
    const source = c.span.source;
    const eol = source.indexOf('\n', c.span.end);
    if (eol < 0) continue;
    const input = source.slice(eol + 1);
    if (SESSION_ACTION.test(input)) return c.span;
    for (const m of input.matchAll(EMBEDDED_PATH)) {
      const p = m[1]!;
      if (isCredentialPath(p) || ACCESS_FILE.test(p)) return c.span;
    }
  }
  return null;
}

export const SESSION_RULES: Rule[] = [
  {
    id: 'interactive-session-input',
    name: 'Commands typed into an interactive program',
    category: 'execution',
    action: 'record',
    attack: 'T1059',
    description: 'An interactive program started with no script (jjs, jshell, tclsh, gdb, ftp, sftp, redis-cli, psql, mysql, sqlite3, terraform console, php -a, a bare python or node) followed by lines that it reads: a shell escape (!sh, shell …, Runtime.exec, ProcessBuilder, os.execute, Tcl exec), a socket opened, or a credential or access-control file named.',
    help: 'The lines after the program are its input, not shell commands: a shell escape or file access there runs with its rights (a root shell under sudo). Read them as that program would.',
    examples: {
      match: ["jjs\nJava.type('java.lang.Runtime').getRuntime().exec('/tmp/x')", 'ftp x.example\n!/bin/sh', 'terraform console\nfile("~/.ssh/id_ed25519")'],
      not_match: ["jjs script.js\nJava.type('java.lang.Runtime').getRuntime().exec('/tmp/x')", 'sqlite3 app.db\n.tables', 'python3\nprint(1)'],
    },
    match: { line: sessionInput },
  },
];
