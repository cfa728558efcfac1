/**
 * Shared predicates for the built-in rules: option parsing, file paths a command writes or
 * reads, and command classes (downloaders, network sinks, interpreters, block devices).
 */
import type { Pipeline, ShellCommand } from '../shell/model.js';
import { SHELLS } from '../shell/analyze.js';
import { normalizePath } from '../shell/words.js';
import { INTERPRETERS } from '../shell/interp.js';

/** A path resolved against the working directory a `cd` earlier in the line moved to (when
 * known), then normalised; absolute and `~` paths are only normalised. */
export function resolveIn(cwd: string | null, path: string): string {
  if (cwd === null || path === '' || path.startsWith('/') || path === '~' || path.startsWith('~/') || /^[a-z][\w+.-]*:/i.test(path)) return normalizePath(path);
  return normalizePath(`${cwd}/${path}`);
}

export { SHELLS };

/** Parsed options of an argv tail. */
export interface Opts {
  /** Short option letters seen (bundles unbundled). */
  short: Set<string>;
  /** Long options seen, with their value ('' when none). */
  long: Map<string, string>;
  /** Values of valued options, by option spelling (`-o`, `--output`). */
  values: Map<string, string[]>;
  operands: string[];
}

/**
 * Parses options GNU-style (options may follow operands; `--` ends them). `valued` lists the
 * short letters and long names that take a value (`'o'`, `'output'`).
 */
export function parseOpts(args: string[], valued: { short?: string; long?: string[] } = {}): Opts {
  const o: Opts = { short: new Set(), long: new Map(), values: new Map(), operands: [] };
  const put = (k: string, v: string) => o.values.set(k, [...(o.values.get(k) ?? []), v]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      o.operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const key = eq < 0 ? a.slice(2) : a.slice(2, eq);
      let val = eq < 0 ? '' : a.slice(eq + 1);
      if (eq < 0 && valued.long?.includes(key)) val = args[++i] ?? '';
      o.long.set(key, val);
      put('--' + key, val);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const ch = a[k]!;
        o.short.add(ch);
        if (valued.short?.includes(ch)) {
          const val = k + 1 < a.length ? a.slice(k + 1) : (args[++i] ?? '');
          put('-' + ch, val);
          break;
        }
      }
      continue;
    }
    o.operands.push(a);
  }
  return o;
}

/** Options of a command's own arguments (argv[1..]). */
export function opts(cmd: ShellCommand, valued?: { short?: string; long?: string[] }): Opts {
  return parseOpts(cmd.argv.slice(1), valued);
}

const WRITE_OPS = /^\d*(>|>>|>\||&>|&>>|<>)$/;

/** Paths a command writes: output redirects, `tee`, `cp`/`mv`/`install`/`ln`/`rsync` destination,
 * `sed -i` files, `dd of=`, `curl -o`, `wget -O`. Normalised. */
export function writeTargets(cmd: ShellCommand): string[] {
  const out: string[] = [];
  for (const r of cmd.redirects) {
    if (WRITE_OPS.test(r.op) || (/^\d*>&$/.test(r.op) && !/^\d+$|^-$/.test(r.target))) out.push(r.target);
  }
  const args = cmd.argv.slice(1);
  switch (cmd.name) {
    case 'tee':
      out.push(...parseOpts(args).operands);
      break;
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln':
    case 'rsync':
    case 'ditto': {
      const o = parseOpts(args, { short: cmd.name === 'install' ? 'tmogS' : 'tS', long: ['target-directory', 'suffix', 'mode', 'owner', 'group'] });
      const dir = o.values.get('-t')?.[0] ?? o.values.get('--target-directory')?.[0];
      if (dir !== undefined) {
        for (const src of o.operands) out.push(dir + '/' + src.replace(/^.*\//, ''));
        out.push(dir);
      } else if (o.operands.length >= 2) {
        const dest = o.operands[o.operands.length - 1]!;
        out.push(dest);
        // The destination is a directory when several sources go to it, or it says so.
        if (o.operands.length > 2 || dest.endsWith('/') || ['~', '.', '..'].includes(normalizePath(dest))) {
          for (const src of o.operands.slice(0, -1)) out.push(dest + '/' + src.replace(/^.*\//, ''));
        }
      }
      break;
    }
    case 'sed':
    case 'perl': {
      const inPlace = args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'));
      if (!inPlace) break;
      const o = parseOpts(args, { short: cmd.name === 'sed' ? 'ef' : 'eEIM' });
      const hasScriptOpt = o.values.has('-e') || o.values.has('-f') || o.values.has('-E');
      out.push(...(hasScriptOpt ? o.operands : o.operands.slice(1)));
      break;
    }
    case 'dd':
      for (const a of args) if (a.startsWith('of=')) out.push(a.slice(3));
      break;
    case 'curl': {
      const o = parseOpts(args, CURL_VALUED);
      out.push(...(o.values.get('-o') ?? []), ...(o.values.get('--output') ?? []));
      break;
    }
    case 'wget': {
      const o = parseOpts(args, WGET_VALUED);
      out.push(...(o.values.get('-O') ?? []), ...(o.values.get('--output-document') ?? []));
      break;
    }
    default:
      break;
  }
  return out.filter((p) => p && p !== '-').map((p) => resolveIn(cmd.cwd, p));
}

/** curl options that take a value (curl(1)); enough to find operands and uploads. */
export const CURL_VALUED = {
  short: 'AbcCdDeEFHKmoPQrTuUwxXYyz',
  long: ['data', 'data-binary', 'data-raw', 'data-ascii', 'data-urlencode', 'form', 'form-string', 'header', 'output', 'upload-file', 'user', 'request', 'user-agent', 'referer', 'cookie', 'cookie-jar', 'config', 'proxy', 'max-time', 'connect-timeout', 'retry', 'output-dir', 'url', 'json', 'cacert', 'cert', 'key', 'resolve', 'write-out'],
};
/** wget options that take a value (wget(1)). */
export const WGET_VALUED = {
  short: 'OoaPeUtTwQiBdlAR',
  long: ['output-document', 'output-file', 'post-file', 'post-data', 'body-file', 'body-data', 'method', 'header', 'user-agent', 'directory-prefix', 'tries', 'timeout', 'user', 'password', 'execute', 'input-file', 'save-cookies', 'load-cookies'],
};

/** Commands whose path operands are not read for their contents. */
const NON_READERS = new Set(['ls', 'stat', 'chmod', 'chown', 'chgrp', 'rm', 'touch', 'test', '[', '[[', 'file', 'ssh', 'ssh-add', 'ssh-keygen', 'mkdir', 'du', 'realpath', 'readlink', 'dirname', 'basename', 'echo', 'printf', 'cd', 'git', 'find', 'which', 'type', 'ln', 'unlink', 'shred', 'wc', 'export']);

/** Paths whose contents a command reads: operands (sources for cp/mv/scp/rsync), `@file` and
 * `-T file` uploads, input redirects. Normalised. */
export function readSources(cmd: ShellCommand): string[] {
  const out: string[] = [];
  for (const r of cmd.redirects) if (/^\d*<$/.test(r.op) && r.target) out.push(r.target);
  if (!cmd.name || NON_READERS.has(cmd.name)) return out.map((p) => resolveIn(cmd.cwd, p));
  // `bash -c SCRIPT`: the script is code (analysed as nested commands), not a file read.
  if (SHELLS.has(cmd.name) && cmd.argv.slice(1).some((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a))) return out.map((p) => resolveIn(cmd.cwd, p));
  const args = cmd.argv.slice(1);
  if (['cp', 'mv', 'scp', 'rsync', 'install', 'ditto'].includes(cmd.name)) {
    const o = parseOpts(args, { short: cmd.name === 'scp' ? 'cFiJlPSoD' : 'tS' });
    out.push(...o.operands.slice(0, -1));
  } else if (cmd.name === 'curl' || cmd.name === 'wget') {
    out.push(...uploadedFiles(cmd));
  } else {
    for (const a of args) {
      if (a.startsWith('-')) {
        const eq = a.indexOf('=');
        if (eq > 0) out.push(a.slice(eq + 1));
        continue;
      }
      out.push(a.replace(/^[^=@/~.]*=@?/, '').replace(/^@/, ''));
    }
  }
  return out.filter((p) => p && p !== '-').map((p) => resolveIn(cmd.cwd, p));
}

/** Files curl/wget upload (`-T f`, `--upload-file f`, `-F k=@f`, `-d @f`, `--post-file=f`). */
export function uploadedFiles(cmd: ShellCommand): string[] {
  const out: string[] = [];
  const args = cmd.argv.slice(1);
  if (cmd.name === 'curl') {
    const o = parseOpts(args, CURL_VALUED);
    out.push(...(o.values.get('-T') ?? []), ...(o.values.get('--upload-file') ?? []));
    for (const k of ['-F', '--form']) for (const v of o.values.get(k) ?? []) {
      const m = /^[^=]*=[@<]([^;]+)/.exec(v);
      if (m) out.push(m[1]!);
    }
    for (const k of ['-d', '--data', '--data-binary', '--data-ascii', '--data-urlencode', '--json']) for (const v of o.values.get(k) ?? []) {
      const m = /^(?:[^=@]*=)?@(.+)$/.exec(v);
      if (m) out.push(m[1]!);
    }
  } else if (cmd.name === 'wget') {
    const o = parseOpts(args, WGET_VALUED);
    out.push(...(o.values.get('--post-file') ?? []), ...(o.values.get('--body-file') ?? []));
  }
  return out.filter((p) => p !== '-');
}

/** Raw block devices (Linux sd/hd/vd/xvd/nvme/mmcblk/md/dm/loop/mapper, macOS disk/rdisk). */
export function isBlockDevice(path: string): boolean {
  return /^\/dev\/(?:sd[a-z]+\d*|hd[a-z]\d*|vd[a-z]+\d*|xvd[a-z]+\d*|nvme\d+(?:n\d+)?(?:p\d+)?|mmcblk\d+(?:p\d+)?|md\d+|dm-\d+|loop\d+|mapper\/.+|r?disk\d+(?:s\d+)?)$/.test(path);
}

/** Commands that fetch a URL. */
export const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'http', 'https', 'xh', 'aria2c', 'iwr', 'invoke-webrequest', 'irm', 'invoke-restmethod', 'lwp-request', 'GET']);

/** Commands that send data over the network. */
export const NETWORK_SINKS = new Set(['curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'ssh', 'scp', 'telnet', 'openssl', 'http', 'https', 'xh', 'sftp', 'ftp', 'rsync']);

export { INTERPRETERS } from '../shell/interp.js';

/** Script operands that name the standard input. */
const STDIN_FILE = /^(?:-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/** True when the command runs a script taken from stdin: a shell or an interpreter with no
 * script operand, `-` or `/dev/stdin` (`bash /dev/stdin`, `source /dev/stdin`), PowerShell
 * `-Command -`, or `iex`/`Invoke-Expression` at the end of a pipe. A shell given `-n` (syntax
 * check only) runs nothing. */
export function runsStdin(cmd: ShellCommand): boolean {
  const args = cmd.argv.slice(1);
  if (SHELLS.has(cmd.name)) {
    if (args.some((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a))) return false;
    if (args.some((a) => /^-[a-zA-Z]*n[a-zA-Z]*$/.test(a) || a === '--noexec') || args.some((a, i) => a === '-o' && args[i + 1] === 'noexec')) return false;
    const o = parseOpts(args, { short: 'oO' });
    return o.operands.length === 0 || STDIN_FILE.test(o.operands[0]!) || o.short.has('s');
  }
  if (cmd.name === 'source' || cmd.name === '.') return STDIN_FILE.test(args[0] ?? '') && args[0] !== '-';
  if (/^(?:iex|invoke-expression)$/i.test(cmd.name)) return args.length === 0;
  if (INTERPRETERS.test(cmd.name)) {
    if (/^(?:pwsh|powershell)/i.test(cmd.name)) {
      const i = args.findIndex((a) => /^-(?:c|command|f|file)$/i.test(a));
      if (i >= 0) return args[i + 1] === '-';
    }
    for (const a of args) {
      if (STDIN_FILE.test(a)) return true;
      if (/^-(?:c|e|m|E|r|-eval|-print|p|Command|command|EncodedCommand|File|file)$/.test(a)) return false;
      if (a.startsWith('-')) continue;
      return false;
    }
    return true;
  }
  return false;
}

/** The stages before this command in its pipeline, nearest first. */
export function upstream(cmd: ShellCommand): ShellCommand[] {
  if (!cmd.pipeline) return [];
  return cmd.pipeline.stages.slice(0, cmd.stage).reverse();
}

const prefixes = new WeakMap<Pipeline, Map<(c: ShellCommand) => boolean, Uint8Array>>();

/**
 * True when a stage before `cmd` in its pipeline satisfies `pred`. The answer for every stage is
 * computed once per pipeline and predicate (one pass), so checking each stage of an n-stage
 * pipeline costs O(n) in all, not O(n²) as `upstream(c).some(pred)` does. `pred` is the cache
 * key: pass a module-level function, not a fresh arrow.
 */
export function anyUpstream(cmd: ShellCommand, pred: (c: ShellCommand) => boolean): boolean {
  const p = cmd.pipeline;
  return p !== null && prefixOf(p, pred)[cmd.stage] === 1;
}

/** True when any stage of the pipeline satisfies `pred` (cached like {@link anyUpstream}). */
export function anyStage(p: Pipeline, pred: (c: ShellCommand) => boolean): boolean {
  return prefixOf(p, pred)[p.stages.length] === 1;
}

/** prefix[i] = 1 when one of stages[0..i-1] satisfies `pred`. */
function prefixOf(p: Pipeline, pred: (c: ShellCommand) => boolean): Uint8Array {
  let byPred = prefixes.get(p);
  if (!byPred) prefixes.set(p, (byPred = new Map()));
  let prefix = byPred.get(pred);
  if (!prefix) {
    prefix = new Uint8Array(p.stages.length + 1);
    for (let i = 0; i < p.stages.length; i++) prefix[i + 1] = prefix[i] || pred(p.stages[i]!) ? 1 : 0;
    byPred.set(pred, prefix);
  }
  return prefix;
}

/** True when the command is a downloader (curl, wget, …). */
export function isDownloader(cmd: ShellCommand): boolean {
  return DOWNLOADERS.has(cmd.name.toLowerCase());
}

/** True when a downloader appears among the commands. */
export function hasDownloader(cmds: ShellCommand[]): boolean {
  return cmds.some((c) => DOWNLOADERS.has(c.name.toLowerCase()));
}

/** True when the command decodes or transforms text (base64 -d, xxd -r, openssl enc -d, rev, tr…). */
export function isDecoder(cmd: ShellCommand): boolean {
  const args = cmd.argv.slice(1);
  switch (cmd.name) {
    case 'base64':
    case 'base32':
    case 'basenc':
      return args.some((a) => /^-[a-zA-Z]*[dD][a-zA-Z]*$|^--decode$/.test(a));
    case 'xxd':
      return args.some((a) => /^-[a-zA-Z]*r/.test(a) || a === '-revert');
    case 'openssl':
      return (args[0] === 'enc' || args[0] === 'base64' || /^-?(aes|des|bf|chacha)/.test(args[0] ?? '')) && args.includes('-d');
    case 'rev':
    case 'tr':
    case 'uudecode':
    case 'zcat':
    case 'gunzip':
    case 'bunzip2':
    case 'xz':
    case 'unxz':
      return cmd.name !== 'xz' || args.some((a) => /^-[a-zA-Z]*d/.test(a));
    case 'gzip':
      return args.some((a) => /^-[a-zA-Z]*d/.test(a));
    default:
      return false;
  }
}

/** Non-loopback hosts of http(s) URLs in the text. */
export function remoteHosts(text: string): string[] {
  const hosts: string[] = [];
  for (const m of text.matchAll(/\bhttps?:\/\/(?:[^\s/@"']*@)?(\[[^\]]+\]|[^\s/:?#"']+)/gi)) {
    const h = m[1]!.toLowerCase();
    if (!isLoopback(h)) hosts.push(h);
  }
  return hosts;
}

/** localhost, 127/8, ::1, 0.0.0.0. */
function isLoopback(host: string): boolean {
  return /^(?:localhost|localhost\.localdomain|127(?:\.\d+){3}|\[::1\]|::1|0\.0\.0\.0|host\.docker\.internal)$/.test(host);
}
