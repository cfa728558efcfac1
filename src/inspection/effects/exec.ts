/**
 * What a command runs as code: a script read from stdin (a shell or an interpreter with no script
 * operand, `source /dev/stdin`, PowerShell `-Command -`, `iex` at the end of a pipe), decoders whose
 * output may be run.
 */
import type { ShellCommand } from '../shell/model.js';
import { SHELLS } from '../shell/context.js';
import { INTERPRETERS } from '../shell/interp.js';
import { parseOpts } from './options.js';

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
