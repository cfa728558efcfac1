/**
 * What a command runs as code: a script read from stdin (a shell or an interpreter with no script
 * operand, `source /dev/stdin`, PowerShell `-Command -`, `iex` at the end of a pipe), decoders whose
 * output may be run.
 */
import type { ShellCommand, Word } from '../shell/model.js';
import { SHELLS } from '../shell/context.js';
import { INTERPRETERS, interpreterCodeIndex } from '../shell/interp.js';
import { baseName } from '../shell/words.js';
import { shellNoExec, shellScriptArg } from '../shell/carriers.js';
import { CURL_VALUED, WGET_VALUED, opts, parseOpts } from './options.js';
import { clientUrls } from './network.js';

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
    if (shellNoExec(args)) return false;
    const o = parseOpts(args, { short: 'oO' });
    return o.operands.length === 0 || STDIN_FILE.test(o.operands[0]!) || o.short.has('s');
  }
  if (cmd.name === 'source' || cmd.name === '.') return STDIN_FILE.test(args[0] ?? '') && args[0] !== '-';
  // cmd.exe with no /c or /k reads its commands from stdin
  if (cmd.name === 'cmd') return !args.some((a) => /^\/[ckCK]$/.test(a));
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
    case 'certutil':
      // certutil -decode / -decodehex IN OUT (LOLBAS Certutil "Decode", ATT&CK T1140)
      return args.some((a) => /^[-/]decode(?:hex)?$/i.test(a));
    case 'b64decode':
      // FreeBSD b64decode(1) -r: raw base64 in, decoded bytes out
      return true;
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

/** True when a code word runs its substitutions' output: one written in the word (`sh -c
 * "$(curl …)"`, `python3 -c "x=$(curl …)"`), or a variable holding one that is the whole word
 * (`S=$(curl …); bash -c "$S"`). A variable spliced into a larger script (`sh -c "curl
 * …/${VERSION}/x -o x"`, a version read from an API) is data in it, not the script. */
function runsWhole(w: Word): boolean {
  return /\$\(|`|<\(/.test(w.text) || /^\$\{?[A-Za-z_]\w*\}?$/.test(w.text);
}

/** Commands whose output a command runs as code: `sh -c "$(…)"`, `eval "$(…)"`, `bash <(…)`,
 * `source <(…)`, `. <(…)`, an interpreter's `-c "$(…)"` or `<(…)` script, a substitution fed on the
 * stdin of a command that runs its stdin (`bash <<< "$(…)"`, `. /dev/stdin <<< "$(…)"`). Each entry is the commands of one substitution. */
export function executedSubstitutions(c: ShellCommand): ShellCommand[][] {
  const out: ShellCommand[][] = [];
  if (SHELLS.has(c.name)) {
    const script = shellScriptArg(c.argv);
    const idx = script === null ? -1 : c.argv.indexOf(script, 1);
    c.words.forEach((w, i) => {
      for (const s of w.subs) {
        if (i === idx && s.kind === 'command' && runsWhole(w)) out.push(s.commands);
        if (idx < 0 && s.kind === 'process-in') out.push(s.commands);
      }
    });
  } else if (INTERPRETERS.test(c.name)) {
    // `python3 -c "$(curl …)"`: the code word; `python3 <(curl …)`: the script operand;
    // `python3 - < <(curl …)`, `node <<< "$(curl …)"`: the code read from stdin
    const idx = interpreterCodeIndex(c.name, c.argv);
    const script = idx < 0 ? c.words.findIndex((w, i) => i > 0 && !w.text.startsWith('-')) : -1;
    c.words.forEach((w, i) => {
      for (const s of w.subs) if ((i === idx && s.kind === 'command' && runsWhole(w)) || (i === script && s.kind === 'process-in')) out.push(s.commands);
    });
  } else if (c.name === 'eval' || c.name === 'source' || c.name === '.') {
    for (const w of c.words.slice(1)) for (const s of w.subs) if (s.kind !== 'process-out') out.push(s.commands);
  }
  // `sh < <(curl …)`, `bash <<< "$(curl …)"`, `node <<< "$(curl …)"`, `. /dev/stdin <<< "$(curl …)"`:
  // what the substitution prints is fed on stdin to a command that runs its stdin
  if (runsStdin(c)) for (const r of c.redirects) for (const s of r.subs ?? []) if (r.op === '<' || r.op === '<<<') out.push(s.commands);
  // `$(curl …)` or a backtick substitution as the command word: its output is run as a command.
  for (const s of c.words[0]?.subs ?? []) if (s.kind === 'command' && c.words[0]!.dynamic) out.push(s.commands);
  return out;
}


/** Files a downloader writes in this command (`curl -o f`, `curl -O url`, `wget url`, `wget -O f`). */
export function downloadedFiles(c: ShellCommand): string[] {
  // curl/wget: bare host operands too (`wget x.example/run.sh` saves run.sh)
  const bare = c.name === 'curl' || c.name === 'wget' ? clientUrls(c).filter((u) => c.argv.includes(u.slice('http://'.length))) : [];
  const urls = [...c.argv.filter((a) => /^(?:https?|ftp):\/\//i.test(a)), ...bare];
  const urlName = (u: string) => baseName(u.replace(/[?#].*$/, ''));
  if (c.name === 'curl') {
    const o = parseOpts(c.argv.slice(1), CURL_VALUED);
    const named = [...(o.values.get('-o') ?? []), ...(o.values.get('--output') ?? [])];
    if (named.length) return named;
    if (o.short.has('O') || o.long.has('remote-name')) return urls.map(urlName);
    return [];
  }
  if (c.name === 'wget') {
    const o = parseOpts(c.argv.slice(1), WGET_VALUED);
    const named = [...(o.values.get('-O') ?? []), ...(o.values.get('--output-document') ?? [])];
    if (named.length) return named.filter((n) => n !== '-');
    return urls.map(urlName);
  }
  // certutil -urlcache -f URL FILE, bitsadmin /transfer JOB URL FILE, iwr URL -OutFile FILE,
  // Start-BitsTransfer -Source URL -Destination FILE, curl.exe/wget.exe as above
  const lower = c.name.toLowerCase();
  const args = c.argv.slice(1);
  if (lower === 'certutil' && args.some((a) => /^[-/]urlcache$/i.test(a))) return args.filter((a) => !/^[-/]/.test(a) && !/^(?:https?|ftp):/i.test(a)).slice(-1);
  if (lower === 'bitsadmin' && args.some((a) => /^\/transfer$/i.test(a))) return args.slice(-1);
  const outFile = args.findIndex((a) => /^-(?:OutFile|Destination|o)$/i.test(a));
  if (/^(?:iwr|invoke-webrequest|irm|invoke-restmethod|start-bitstransfer|wget|curl)$/i.test(lower) && outFile >= 0 && args[outFile + 1]) return [args[outFile + 1]!];
  // scp/rsync HOST:PATH … LOCAL: a copy from another host (scp(1): [user@]host:path; a local destination last)
  if (lower === 'scp' || lower === 'rsync') {
    const o = parseOpts(args, lower === 'scp' ? { short: 'cFiJlPSoD' } : { short: 'eTfB', long: ['rsh', 'rsync-path', 'exclude', 'include', 'filter', 'temp-dir', 'partial-dir', 'log-file', 'password-file'] });
    // another host: not this one by its loopback names
    const remote = (p: string) => {
      const m = /^(?:[^/:@\s]+@)?([\w.-]+):(?!\/\/)/.exec(p) ?? /^(?:scp|rsync):\/\/(?:[^/@]+@)?([\w.-]+)/.exec(p);
      return m !== null && !/^(?:localhost|127(?:\.\d+){3}|ip6-localhost)$/i.test(m[1]!);
    };
    const ops = o.operands;
    const dest = ops[ops.length - 1];
    if (ops.length >= 2 && dest !== undefined && !remote(dest) && ops.slice(0, -1).some(remote)) {
      const from = ops.slice(0, -1).filter(remote).map((p) => baseName(p.replace(/^[^:]*:/, '')));
      return /\/$/.test(dest) || dest === '.' ? from.map((f) => (dest === '.' ? f : `${dest}${f}`)) : [dest];
    }
  }
  return [];
}


/** The file a command runs, when it runs one: `bash f`, `python f`, `./f`, `source f`, `chmod +x f`. */
export function executedFiles(c: ShellCommand): string[] {
  if (SHELLS.has(c.name) || INTERPRETERS.test(c.name)) {
    if (shellScriptArg(c.argv) !== null) return [];
    const o = parseOpts(c.argv.slice(1), { short: 'oOmcW' });
    return o.operands.slice(0, 1);
  }
  if (c.name === 'source' || c.name === '.') return c.argv.slice(1, 2);
  if (c.name === 'chmod' && c.argv.some((a) => /^[ugoa]*\+[rwxXst]*x/.test(a))) return opts(c).operands.filter((a) => !/^[ugoa]*[+=-]/.test(a));
  if (c.argv[0]?.includes('/') || /\.(?:exe|bat|cmd|ps1|com|scr|msi)$/i.test(c.argv[0] ?? '')) return [c.argv[0]!];
  // PowerShell Start-Process / & / Invoke-Item, cmd start, msiexec /i
  if (/^(?:start-process|saps|start|invoke-item|ii|&|msiexec|rundll32|regsvr32|cmd)$/i.test(c.name)) return c.argv.slice(1).filter((a) => !/^[-/]/.test(a)).slice(0, 1);
  return [];
}


/** Files a command's output is redirected into (`> f`, `>> f`). */
export function redirectedTo(c: ShellCommand): string[] {
  return c.redirects.filter((r) => /^1?(?:>|>>|>\|)$|^&>>?$/.test(r.op) && r.target).map((r) => r.target);
}

