/**
 * What a command reads: input redirections, file operands of commands that read their operands
 * (not `ls`, `chmod`, `rm`, … which only name them), copy sources, uploaded files.
 */
import type { ShellCommand } from '../shell/model.js';
import { SHELLS } from '../shell/context.js';
import { literalOutput } from '../shell/wordexp.js';
import { parseOpts } from './options.js';
import { resolveIn } from './paths.js';
import { uploadedFiles } from './network.js';
import { WRITERS, writerOutputs } from './writes.js';

/** Commands whose path operands are not read for their contents. */
const NON_READERS = new Set(['ls', 'stat', 'chmod', 'chown', 'chgrp', 'rm', 'touch', 'test', '[', '[[', 'file', 'ssh', 'ssh-add', 'ssh-keygen', 'mkdir', 'du', 'realpath', 'readlink', 'dirname', 'basename', 'echo', 'printf', 'cd', 'git', 'find', 'which', 'type', 'ln', 'unlink', 'shred', 'wc', 'export']);

/** Options of programs that otherwise only name files, whose value is a file they read and show
 * (wc(1) `--files0-from`, ssh(1) `-F`: its config, echoed in parse errors). */
const READ_OPTIONS: Record<string, readonly string[]> = { wc: ['--files0-from'], ssh: ['-F'] };

/** Files read by the options of {@link READ_OPTIONS}, `git diff --no-index` / `git diff /dev/null F`
 * (prints F whole), and `cpio -o`/`-p` given the names on stdin (`echo ~/.ssh/id_rsa | cpio -o`). */
function optionReads(cmd: ShellCommand): string[] {
  const args = cmd.argv.slice(1);
  const out: string[] = [];
  for (const opt of READ_OPTIONS[cmd.name] ?? []) {
    args.forEach((a, i) => {
      if (a === opt && args[i + 1] !== undefined) out.push(args[i + 1]!);
      else if (a.startsWith(opt + '=')) out.push(a.slice(opt.length + 1));
    });
  }
  if (cmd.name === 'git' && args[0] === 'diff') {
    const ops = args.slice(1).filter((a) => !a.startsWith('-'));
    if (args.includes('--no-index') || ops.includes('/dev/null')) out.push(...ops.filter((a) => a !== '/dev/null'));
  }
  if (cmd.name === 'cpio' && args.some((a) => /^-[a-zA-Z]*[op]/.test(a) || a === '--create' || a === '--pass-through') && cmd.pipeline !== null && cmd.stage > 0) {
    const names = literalOutput(cmd.pipeline.stages, cmd.stage - 1);
    if (names !== null) out.push(...names.split(/\s+/).filter(Boolean).slice(0, 32));
  }
  return out;
}

/** Paths whose contents a command reads: operands (sources for cp/mv/scp/rsync), `@file` and
 * `-T file` uploads, input redirects. Normalised. */
export function readSources(cmd: ShellCommand): string[] {
  const out: string[] = [];
  for (const r of cmd.redirects) if (/^\d*<$/.test(r.op) && r.target) out.push(r.target);
  // `file -f LIST` / `file -m MAGIC` read those files
  if (cmd.name === 'file') {
    const o = parseOpts(cmd.argv.slice(1), { short: 'fmeF' });
    out.push(...(o.values.get('-f') ?? []), ...(o.values.get('-m') ?? []));
  }
  out.push(...optionReads(cmd));
  // cmd.exe's `type` and PowerShell's `type` (Get-Content) print the files they name; bash's describes a command
  const windowsType = cmd.name === 'type' && /^(?:cmd \/c|(?:pwsh|powershell)(?:\.exe)? code)$/i.test(cmd.via ?? '');
  if (!cmd.name || (NON_READERS.has(cmd.name) && !windowsType)) return out.map((p) => resolveIn(cmd.cwd, p));
  // `bash -c SCRIPT`: the script is code (analysed as nested commands), not a file read.
  if (SHELLS.has(cmd.name) && cmd.argv.slice(1).some((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a))) return out.map((p) => resolveIn(cmd.cwd, p));
  const args = cmd.argv.slice(1);
  if (['cp', 'mv', 'scp', 'rsync', 'install', 'ditto'].includes(cmd.name)) {
    const o = parseOpts(args, { short: cmd.name === 'scp' ? 'cFiJlPSoD' : 'tS' });
    out.push(...o.operands.slice(0, -1));
  } else if (cmd.name === 'curl' || cmd.name === 'wget') {
    out.push(...uploadedFiles(cmd));
    // file:// URLs are read; wget -i / curl -K name a file read for its list or options
    for (const a of args) {
      const m = /^file:\/\/(?:localhost)?(\/.*|~.*)$/.exec(a);
      if (m) out.push(m[1]!);
    }
    const o = parseOpts(args, { short: cmd.name === 'wget' ? 'i' : 'K', long: ['input-file', 'config'] });
    out.push(...(o.values.get('-i') ?? []), ...(o.values.get('-K') ?? []), ...(o.values.get('--input-file') ?? []), ...(o.values.get('--config') ?? []));
  } else {
    // a writer's output paths (`openssl genrsa -out server.key`) are not read
    const spec = WRITERS[cmd.name];
    const outputs = new Set(spec ? writerOutputs(spec, args, null) : []);
    for (const a of args) {
      if (outputs.has(a)) continue;
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
