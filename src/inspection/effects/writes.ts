/**
 * What a command writes: output redirections and the programs that take an output path
 * (their manual pages: tee(1), cp(1), mv(1), install(1), ln(1), rsync(1), sed(1) `-i`, perl(1)
 * `-i`, dd(1) `of=`, curl(1) `-o`, wget(1) `-O`).
 */
import type { ShellCommand } from '../shell/model.js';
import { normalizePath } from '../shell/words.js';
import { CURL_VALUED, WGET_VALUED, parseOpts } from './options.js';
import { resolveIn } from './paths.js';
import { subcommandOf } from '../shell/carriers.js';

const WRITE_OPS = /^\d*(>|>>|>\||&>|&>>|<>)$/;

/** Paths a command writes: output redirects, `tee`, an editor's files, `cp`/`mv`/`install`/`ln`/`rsync` destination,
 * `sed -i` files, `dd of=`, `curl -o`, `wget -O`, and the output paths of {@link WRITERS}. Normalised. */
export function writeTargets(cmd: ShellCommand): string[] {
  const out: string[] = [];
  for (const r of cmd.redirects) {
    if (WRITE_OPS.test(r.op) || (/^\d*>&$/.test(r.op) && !/^\d+$|^-$/.test(r.target))) out.push(r.target);
  }
  const args = cmd.argv.slice(1);
  // tar --transform / --xform 's@.*@/etc/x@' renames what it extracts: an absolute replacement is the path written
  if (/^(?:tar|gtar|bsdtar)$/.test(cmd.name)) {
    for (const [i, a] of args.entries()) {
      const expr = /^--(?:xform|transform)=/.test(a) ? a.replace(/^--\w+=/, '') : /^--(?:xform|transform)$/.test(args[i - 1] ?? '') ? a : null;
      const m = expr === null ? null : /^s(.)(?:(?!\1).)*\1((?:~|\/)(?:(?!\1).)+)\1/.exec(expr);
      if (m) out.push(m[2]!);
    }
  }
  switch (cmd.name) {
    case 'tee':
      out.push(...parseOpts(args).operands);
      break;
    case 'vi':
    case 'vim':
    case 'nvim':
    case 'nano':
    case 'pico':
    case 'ee':
    case 'emacs':
    case 'joe':
    case 'mcedit':
    case 'micro':
    case 'sudoedit':
      // an editor opened on a file is there to change it (`sudo ee /usr/local/etc/sudoers`); `+N` is a line number
      out.push(...parseOpts(args, { short: cmd.name.startsWith('v') || cmd.name === 'nvim' ? 'cStTuUiwW' : '' }).operands.filter((a) => !a.startsWith('+')));
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
    case 'docker':
    case 'podman':
    case 'kubectl': {
      // docker cp SRC DEST: a local DEST is written (docker's global options skipped: `docker -H h cp …`)
      const sc = subcommandOf(cmd.name, cmd.argv);
      const pos = sc ? [sc.sub, ...sc.args.filter((a) => !a.startsWith('-'))] : args.filter((a) => !a.startsWith('-'));
      if (pos[0] === 'cp' && pos.length >= 3 && !pos[pos.length - 1]!.includes(':')) out.push(pos[pos.length - 1]!);
      break;
    }
    case 'curl': {
      const o = parseOpts(args, CURL_VALUED);
      out.push(...(o.values.get('-o') ?? []), ...(o.values.get('--output') ?? []));
      break;
    }
    case 'wget': {
      const o = parseOpts(args, WGET_VALUED);
      out.push(...(o.values.get('-O') ?? []), ...(o.values.get('--output-document') ?? []), ...(o.values.get('-o') ?? []), ...(o.values.get('--output-file') ?? []));
      break;
    }
    default: {
      const spec = WRITERS[cmd.name] ?? WRITERS[cmd.name.toLowerCase()];
      if (spec) out.push(...writerOutputs(spec, args, cmd.stdin));
      break;
    }
  }
  // sed's `w FILE` command and `s///w FILE` flag write FILE (GNU sed manual, "Commands")
  if (cmd.name === 'sed') for (const a of args) for (const m of a.matchAll(/(?:^|[;\n}]|\/[gpiI0-9]*)\s*w\s+(\S+)/g)) out.push(m[1]!);
  return out.filter((p) => p && p !== '-').map((p) => resolveIn(cmd.cwd, p));
}

/**
 * How a program names the file or directory it writes (one entry per program; a new writer is a
 * new entry). `options`: valued options whose value is an output path; `keyValue`: `key=PATH`
 * operands; `operand`: the operand at that index (negative: from the end) when `when` holds (a
 * flag, or a test of the arguments); `dirOptions`: a directory written into; `scriptOutput`: a
 * dot-command in the program's arguments or stdin that names the output (`sqlite3 … .output F`).
 * Sources: each program's manual page.
 */
export interface WriterSpec {
  valued?: { short?: string; long?: string[] };
  options?: string[];
  keyValue?: string[];
  operand?: { index: number; when?: (args: string[]) => boolean };
  dirOptions?: string[];
  /** When the directory options name a directory written into (tar: only when extracting). */
  dirWhen?: (args: string[]) => boolean;
  scriptOutput?: RegExp;
}

const hasFlag = (re: RegExp) => (args: string[]) => args.some((a) => re.test(a));

/** Writers by command name (see {@link WriterSpec}). */
export const WRITERS: Record<string, WriterSpec> = {
  // openssl(1): every subcommand's -out; genrsa/req/x509 -keyout
  openssl: { valued: { short: '' }, options: ['-out', '-keyout'] },
  iconv: { valued: { short: 'oft', long: ['output', 'from-code', 'to-code'] }, options: ['-o', '--output'] },
  sort: { valued: { short: 'okStT', long: ['output', 'key', 'field-separator', 'buffer-size', 'temporary-directory'] }, options: ['-o', '--output'] },
  // xxd -r [-p] INFILE OUTFILE
  xxd: { valued: { short: 'clgos', long: [] }, operand: { index: 1, when: hasFlag(/^-[a-zA-Z]*r|^-revert$/) } },
  uniq: { valued: { short: 'fsw', long: [] }, operand: { index: 1 } },
  // tar -x -C DIR, --directory DIR
  tar: { valued: { short: 'CfbTXIF', long: ['directory', 'file', 'exclude', 'use-compress-program'] }, dirOptions: ['-C', '--directory'], dirWhen: (a) => a.some((x) => /^-[a-zA-Z]*x|^--extract$|^--get$/.test(x) || /^[a-wyzA-Z]*x[a-zA-Z]*$/.test(x) && !x.startsWith('-') && a.indexOf(x) === 0) },
  unzip: { valued: { short: 'dxP' }, dirOptions: ['-d'] },
  gpg: { valued: { short: 'orRu', long: ['output', 'recipient', 'local-user', 'homedir'] }, options: ['-o', '--output'] },
  base64: { valued: { short: 'iow', long: ['input', 'output', 'wrap'] }, options: ['-o', '--output'] },
  // Windows certutil -encode|-decode|-encodehex|-decodehex [-f] IN OUT (also /decode): OUT is written
  // (certutil, https://learn.microsoft.com/windows-server/administration/windows-commands/certutil;
  // LOLBAS Certutil, https://lolbas-project.github.io/lolbas/Binaries/Certutil/)
  certutil: { valued: { short: '' }, operand: { index: -1, when: hasFlag(/^[-/](?:encode|decode|encodehex|decodehex)$/i) } },
  'ssh-keygen': { valued: { short: 'fbtCNmnOIPSZEeFrsVwzYa' }, options: ['-f'] },
  truncate: { valued: { short: 'sr', long: ['size', 'reference'] }, operand: { index: 0 } },
  split: { valued: { short: 'lbnCat', long: ['lines', 'bytes', 'number', 'line-bytes', 'additional-suffix', 'suffix-length'] }, operand: { index: 1 } },
  patch: { valued: { short: 'opidDFrBYzVgx', long: ['output', 'input', 'directory'] }, options: ['-o', '--output'] },
  // SWE-agent's file tool run as a command (tools/edit_anthropic/config.yaml in SWE-agent/SWE-agent:
  // `str_replace_editor <command> <path> [--file_text …] [--view_range …] [--old_str …] [--new_str …] [--insert_line …]`):
  // every command but `view` changes PATH
  str_replace_editor: { valued: { short: '', long: ['file_text', 'view_range', 'old_str', 'new_str', 'insert_line'] }, operand: { index: 1, when: (a) => /^(?:create|str_replace|insert|undo_edit)$/.test(a.find((x) => !x.startsWith('-')) ?? '') } },
  sqlite3: { valued: { short: '', long: ['cmd'] }, scriptOutput: /(?:^|\n|;)\s*\.(?:output|once|save|backup(?:\s+\S+)?)\s+("[^"]+"|'[^']+'|\S+)/g },
  // busybox/coreutils install -D SRC DEST is handled with cp; convert-style tools write their last operand
  ffmpeg: { valued: { short: 'icfst', long: [] }, operand: { index: -1 } },
  convert: { operand: { index: -1 } },
  git: { valued: { short: 'Cco', long: ['output'] }, options: ['-o', '--output'] },
  zip: { valued: { short: 'bnPtx', long: [] }, operand: { index: 0 } },
  '7z': { valued: { short: '' }, operand: { index: 1, when: (a) => a[0] === 'a' } },
  rsync: {},
  script: { valued: { short: 'cEIOTBm', long: ['command', 'log-in', 'log-out', 'log-timing'] }, operand: { index: -1 } },
  touch: { valued: { short: 'dtr', long: ['date', 'reference', 'time'] }, operand: { index: 0 } },
  // PowerShell cmdlets (names lower-cased): -FilePath/-Path/-Destination/-LiteralPath
  'out-file': { valued: { short: '' }, options: ['-FilePath', '-LiteralPath', '-filepath'], operand: { index: 0 } },
  'set-content': { valued: { short: '' }, options: ['-Path', '-LiteralPath', '-path'] },
  'add-content': { valued: { short: '' }, options: ['-Path', '-LiteralPath', '-path'] },
  'copy-item': { valued: { short: '' }, options: ['-Destination', '-destination'] },
  'move-item': { valued: { short: '' }, options: ['-Destination', '-destination'] },
  'new-item': { valued: { short: '' }, options: ['-Path', '-path'] },
  'tee-object': { valued: { short: '' }, options: ['-FilePath', '-filepath'] },
  // find(1) -fprint FILE, -fprint0 FILE, -fprintf FILE FORMAT, -fls FILE
  find: { valued: { short: '' }, options: ['-fprint', '-fprint0', '-fprintf', '-fls'] },
  // gcc/cc/clang -o FILE, ld -o FILE
  gcc: { valued: { short: 'oIlLDUx' }, options: ['-o'] },
  cc: { valued: { short: 'oIlLDUx' }, options: ['-o'] },
  clang: { valued: { short: 'oIlLDUx' }, options: ['-o'] },
};

/** The paths one {@link WriterSpec} names in an argv tail (and the command's literal stdin). */
export function writerOutputs(spec: WriterSpec, args: string[], stdin: string | null): string[] {
  const out: string[] = [];
  const valued = { short: spec.valued?.short ?? '', long: [...(spec.valued?.long ?? []), ...[...(spec.options ?? []), ...(spec.dirOptions ?? [])].filter((o) => o.startsWith('--')).map((o) => o.slice(2))] };
  // single-dash long options (openssl -out F): read by hand
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const dirs = spec.dirWhen === undefined || spec.dirWhen(args) ? (spec.dirOptions ?? []) : [];
    for (const opt of [...(spec.options ?? []), ...dirs]) {
      if (a === opt && args[i + 1] !== undefined) out.push(args[i + 1]!);
      else if (opt.startsWith('--') && a.startsWith(opt + '=')) out.push(a.slice(opt.length + 1));
      else if (/^-[a-zA-Z]$/.test(opt) && a.startsWith(opt) && a.length > 2 && !a.startsWith('--') && spec.valued?.short?.includes(opt[1]!)) out.push(a.slice(2));
    }
    for (const k of spec.keyValue ?? []) if (a.startsWith(k + '=')) out.push(a.slice(k.length + 1));
  }
  if (spec.operand) {
    const o = parseOpts(args, valued).operands;
    const i = spec.operand.index < 0 ? o.length + spec.operand.index : spec.operand.index;
    if ((spec.operand.when?.(args) ?? true) && i >= 0 && i < o.length && (spec.operand.index !== 0 || o.length > 0)) out.push(o[i]!);
  }
  if (spec.scriptOutput) {
    for (const text of [...args, stdin ?? '']) for (const m of text.matchAll(spec.scriptOutput)) out.push(m[1]!.replace(/^["']|["']$/g, ''));
  }
  return out.filter((p) => p && p !== '-' && p !== '/dev/stdout');
}

/** Paths a command deletes or empties: `rm`/`unlink`/`rmdir`/`shred`/`srm`/`wipe` operands,
 * a redirect of a descriptor nothing writes (`echo 0> F`), `dd if=/dev/zero of=F`,
 * `truncate` operands, `find` start points with `-delete`, a file emptied by a redirect of no
 * output (`> f`, `: > f`, `cat /dev/null > f`, `echo -n > f`), or replaced by `ln -sf /dev/null f`
 * or `cp /dev/null f`. Normalised and resolved like {@link writeTargets}. */
export function deleteTargets(cmd: ShellCommand): string[] {
  const out: string[] = [];
  const args = cmd.argv.slice(1);
  const o = parseOpts(args, { short: cmd.name === 'shred' ? 'nsx' : cmd.name === 'truncate' ? 'sr' : '' , long: ['size', 'reference', 'iterations'] });
  switch (cmd.name) {
    case 'rm':
    case 'unlink':
    case 'rmdir':
    case 'shred':
    case 'srm':
    case 'wipe':
    case 'truncate':
      out.push(...o.operands);
      break;
    case 'find': {
      if (!args.includes('-delete')) break;
      for (const a of args) {
        if (a.startsWith('-') || a === '(' || a === '!') break;
        out.push(a);
      }
      break;
    }
    case 'ln':
      if (o.operands[0] === '/dev/null' && o.operands.length === 2) out.push(o.operands[1]!);
      break;
    case 'Remove-Item':
    case 'remove-item':
    case 'del':
    case 'erase':
    case 'rd': {
      // PowerShell Remove-Item [-Path] P [-Recurse] [-Force]; cmd.exe del/erase/rd [/s] [/q] P
      const vals = args.filter((a, i) => !/^[-/]/.test(a) && !/^-(?:Include|Exclude|Filter)$/i.test(args[i - 1] ?? ''));
      out.push(...vals);
      break;
    }
    case 'cp':
    case 'mv':
      if (o.operands[0] === '/dev/null' && o.operands.length === 2) out.push(o.operands[1]!);
      break;
    default:
      break;
  }
  const empty = cmd.name === '' || cmd.name === ':' || cmd.name === 'true' || (cmd.name === 'cat' && args.length === 1 && args[0] === '/dev/null') || (cmd.name === 'echo' && args.every((a) => a === '-n' || a === '')) || (cmd.name === 'printf' && args.every((a) => a === ''));
  if (empty && cmd.stdin === null) for (const r of cmd.redirects) if (/^1?(?:>|>\|)$|^&>$/.test(r.op) && r.target) out.push(r.target);
  // `echo 0> /var/log/secure`: a descriptor nothing writes to (not stdout or stderr) truncates its file
  for (const r of cmd.redirects) if (/^(?:0|[3-9])>\|?$/.test(r.op) && r.target && !r.target.startsWith('/dev/')) out.push(r.target);
  // `dd if=/dev/zero of=F`: F overwritten with zeros or noise
  if (cmd.name === 'dd' && args.some((a) => /^if=\/dev\/(?:zero|u?random|null)$/.test(a))) for (const a of args) if (a.startsWith('of=') && !a.startsWith('of=/dev/')) out.push(a.slice(3));
  return out.filter((p) => p && p !== '-').map((p) => resolveIn(cmd.cwd, p));
}
