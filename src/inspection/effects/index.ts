/**
 * The effects model: for one simple command of a parsed command line (and so for every command it
 * starts, since carriers' payloads are commands of the same line), what it writes, reads, deletes,
 * sends to which host, and runs. Rules ask these questions ("writes a shell start-up file",
 * "sends a credential file to a host") instead of listing programs; the tables of programs live
 * here, as data, one module per kind of effect.
 */
import type { ShellCommand } from '../shell/model.js';
import { resolveIn } from './paths.js';
import { SHELLS } from '../shell/context.js';
import { INTERPRETERS } from '../shell/interp.js';
import { literalOutput } from '../shell/wordexp.js';

/** Programs that run their arguments as a command line (analysed as nested commands). */
const CARRIERS = new Set(['su', 'runuser', 'flock', 'script', 'sg', 'watch', 'eval', 'nohup', 'timeout', 'time', 'nice', 'ssh', 'wsl', 'parallel', 'exec', 'command', 'builtin', 'doas', 'pkexec', 'chroot', 'setsid', 'stdbuf', 'strace', 'ltrace', 'awk', 'gawk', 'mawk', 'nawk', 'gdb', 'expect', 'osascript', 'trap']);
import { deleteTargets, writeTargets } from './writes.js';
import { readSources } from './reads.js';
import { sendsOf, type Send } from './network.js';

export { parseOpts, opts, CURL_VALUED, WGET_VALUED, type Opts } from './options.js';
export { resolveIn, isBlockDevice } from './paths.js';
export { writeTargets, deleteTargets, WRITERS, type WriterSpec } from './writes.js';
export { readSources } from './reads.js';
export { uploadedFiles, DOWNLOADERS, NETWORK_SINKS, isDownloader, hasDownloader, remoteHosts, clientUrls, clientHosts, remoteOf, sendsOf, isRemoteSource, DROP_HOSTS, DROP_URL, isDropHost, isDropUrl, type Send } from './network.js';
export { runsStdin, isDecoder, executedSubstitutions, downloadedFiles, executedFiles, redirectedTo } from './exec.js';

/** Every effect of one command that the model knows. Paths are normalised and resolved against
 * the working directory a `cd` moved to. */
export interface Effects {
  /** Paths written (redirect targets, writer programs' output paths). */
  writes: string[];
  /** Paths whose contents are read. */
  reads: string[];
  /** Paths deleted, shredded or emptied. */
  deletes: string[];
  /** Transfers to other hosts. */
  sends: Send[];
}

const cache = new WeakMap<ShellCommand, Effects>();

/** Programs whose arguments only name files, print them or read them as already modelled: a path
 * mentioned inside their arguments is not an extra effect. */
const MENTION_SAFE = new Set(['', 'echo', 'printf', 'ls', 'stat', 'file', 'test', '[', '[[', 'which', 'type', 'cd', 'pushd', 'mkdir', 'chmod', 'chown', 'chgrp', 'touch', 'rm', 'rmdir', 'unlink', 'ln', 'readlink', 'realpath', 'basename', 'dirname', 'du', 'df', 'find', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'git', 'export', 'local', 'declare', 'alias', 'cat', 'head', 'tail', 'less', 'more', 'wc', 'diff', 'cmp', 'cp', 'mv', 'install', 'tee', 'sed', 'dd', 'curl', 'wget', 'scp', 'rsync', 'ssh', 'sort', 'uniq', 'cut', 'tr', 'jq', 'xargs', 'sudo', 'env', 'docker', 'kubectl', 'npm', 'pip', 'pip3', 'go', 'cargo', 'pytest', 'tar', 'zip', 'unzip', 'gzip', 'ssh-keygen', 'openssl', 'visudo', 'getfacl', 'lsattr', 'md5sum', 'sha256sum', 'sha1sum', 'shasum', 'strings', 'xxd', 'od', 'hexdump', 'ldd', 'nm', 'objdump', 'readelf', 'code', 'open', 'bat', 'source', '.', 'ssh-add', 'ping', 'ping6', 'hping', 'hping3']);
/** Paths an unknown program most likely writes when it names them (GTFOBins' file-write entries
 * take the output path in an option of their own): sudoers, authorized_keys, cron, shell start-up
 * files, PAM, the loader preload list, the account databases, service directories. */
const SENSITIVE_TARGET = /^\/etc\/sudoers(?:\.d\/.+)?$|(?:^|\/)\.ssh\/authorized_keys2?$|^\/etc\/crontab$|^\/etc\/cron\.[a-z]+\/|^\/var\/spool\/cron\/|^(?:~|\/root|\/home\/[^/]+)\/\.(?:bashrc|bash_profile|profile|zshrc)$|^\/etc\/pam\.d\/|^\/etc\/ld\.so\.preload$|^\/etc\/(?:passwd|shadow|group)$|^\/etc\/systemd\/system\/|^\/etc\/profile\.d\//;
/** A path inside an argument: the argument itself, after `=`/`@`/`{`/`file://`, or one word of a quoted option string (`-C 'Include /etc/shadow'`, `\verbatiminput{/etc/shadow}`). */
export const EMBEDDED_PATH = /(?:^|[\s=@:'"(<>,{]|file:\/\/)((?:~|\/)[\w.~+\/-]*[\w~])/g;

/** Code that writes: a write call, a writer class, an output redirection or a write mode. */
const WRITES_IN_CODE = /\bwrite\w*\s*\(|\bf(?:open\s*\([^)]*["'][wa]|puts|write)\b|Writer\b|createWriteStream|\bopen\s*\([^)]*["'][wa]b?\+?["']|\bprint\b[^|;]*>\s*["']|\bdump\s+(?:value|memory|binary)\b|\bfprintf\b|\bopenout\b|\bredir!?\s*>|O_(?:WRONLY|RDWR|CREAT)|\bcopy\w*\s*\(|\bcp\s*\(/;

/** Paths in the code of an interpreter, awk, gdb or make (`open("/etc/shadow")`,
 * `new FileWriter("~/.ssh/authorized_keys")`, `print > "f"`): read, and written when the code writes. */
function codePaths(cmd: ShellCommand): { reads: string[]; writes: string[] } {
  const reads: string[] = [];
  const writes: string[] = [];
  if (!(INTERPRETERS.test(cmd.name) || /^(?:g|m|n)?awk$|^gdb$|^make$|^jrunscript$|^jjs$/.test(cmd.name))) return { reads, writes };
  for (const a of cmd.argv.slice(1)) {
    if (a.startsWith('-') && !/\s/.test(a)) continue;
    const writing = WRITES_IN_CODE.test(a);
    for (const m of a.matchAll(EMBEDDED_PATH)) {
      if (m[1]!.length < 2 || reads.length >= 32) continue;
      const p = resolveIn(cmd.cwd, m[1]!);
      reads.push(p);
      if (writing && SENSITIVE_TARGET.test(p)) writes.push(p);
    }
  }
  return { reads, writes };
}

/** Paths named anywhere in the arguments of a program the effects tables do not know. */
function mentionedPaths(cmd: ShellCommand): string[] {
  // shells, carriers and interpreters take code, analysed as nested commands or code facts
  if (MENTION_SAFE.has(cmd.name) || SHELLS.has(cmd.name) || INTERPRETERS.test(cmd.name) || CARRIERS.has(cmd.name) || cmd.argv.length < 2) return [];
  const out: string[] = [];
  for (const a of cmd.argv.slice(1)) for (const m of a.matchAll(EMBEDDED_PATH)) if (m[1]!.length > 1 && out.length < 32) out.push(resolveIn(cmd.cwd, m[1]!));
  return out;
}

/** Programs that read their stdin as a script of their own commands (database shells, file
 * transfer clients, debuggers, line editors, Java shells), where a path named is a file opened. */
const STDIN_SCRIPTED = new Set(['sqlite3', 'duckdb', 'mysql', 'mariadb', 'psql', 'redis-cli', 'mongo', 'mongosh', 'ftp', 'sftp', 'lftp', 'tftp', 'gdb', 'lldb', 'ed', 'ex', 'jshell', 'jjs', 'bconsole']);

/** Paths named in the script fed on stdin to a {@link STDIN_SCRIPTED} program
 * (`sqlite3 <<EOF .import ~/.ssh/id_rsa x EOF`, `echo 'e /etc/shadow' | ed`): read, not taken as written. */
function stdinPaths(cmd: ShellCommand): string[] {
  if (!STDIN_SCRIPTED.has(cmd.name)) return [];
  // a heredoc or herestring, or the literal output of the stage before (`echo 'e /etc/shadow' | ed`)
  const script = cmd.stdin ?? (cmd.pipeline !== null && cmd.stage > 0 ? literalOutput(cmd.pipeline.stages, cmd.stage - 1) : null);
  if (script === null) return [];
  return [...script.matchAll(EMBEDDED_PATH)].filter((m) => m[1]!.length > 1).slice(0, 32).map((m) => resolveIn(cmd.cwd, m[1]!));
}

/** Files the wrappers in front of a command write or read through their own options: the trace
 * or timing output of strace(1), ltrace(1) and time(1) (`-o F`, `--output F`), ltrace's `-F`
 * configuration file (read). */
function wrapperFiles(cmd: ShellCommand): { reads: string[]; writes: string[] } {
  const reads: string[] = [];
  const writes: string[] = [];
  for (const [wrapper, option, value] of cmd.wrapperOptions ?? []) {
    if (!value || !/^(?:strace|ltrace|time)$/.test(wrapper)) continue;
    if (option === '-o' || option === '--output') writes.push(resolveIn(cmd.cwd, value));
    else if (wrapper === 'ltrace' && (option === '-F' || option === '--config')) reads.push(resolveIn(cmd.cwd, value));
  }
  return { reads, writes };
}

/**
 * The effects of one command, computed once per command object.
 * @param cmd a simple command of a parsed command line.
 * @returns its {@link Effects}; never throws for a well-formed command.
 */
export function effectsOf(cmd: ShellCommand): Effects {
  let e = cache.get(cmd);
  if (e === undefined) {
    const reads = readSources(cmd);
    // what a command writes into /dev/tcp is what it read (`cat key >/dev/tcp/h/p`)
    const sends = sendsOf(cmd).map((s) => (s.channel === 'dev-tcp' ? { ...s, files: [...new Set([...s.files, ...reads])] } : s));
    // paths named by a program the tables do not know: read, and written when they are targets
    // nothing reads for a living (`exiftool -filename=/etc/sudoers.d/x`, `apache2 -C 'Include /etc/shadow'`)
    const mentioned = mentionedPaths(cmd);
    const writes = writeTargets(cmd);
    for (const p of mentioned) {
      if (!reads.includes(p)) reads.push(p);
      if (SENSITIVE_TARGET.test(p) && !writes.includes(p)) writes.push(p);
    }
    for (const p of stdinPaths(cmd)) if (!reads.includes(p)) reads.push(p);
    for (const code of [codePaths(cmd), wrapperFiles(cmd)]) {
      for (const p of code.reads) if (!reads.includes(p)) reads.push(p);
      for (const p of code.writes) if (!writes.includes(p)) writes.push(p);
    }
    e = { writes, reads, deletes: deleteTargets(cmd), sends };
    cache.set(cmd, e);
  }
  return e;
}
