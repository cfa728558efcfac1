/**
 * What a command writes: output redirections and the programs that take an output path
 * (their manual pages: tee(1), cp(1), mv(1), install(1), ln(1), rsync(1), sed(1) `-i`, perl(1)
 * `-i`, dd(1) `of=`, curl(1) `-o`, wget(1) `-O`).
 */
import type { ShellCommand } from '../shell/model.js';
import { normalizePath } from '../shell/words.js';
import { CURL_VALUED, WGET_VALUED, parseOpts } from './options.js';
import { resolveIn } from './paths.js';

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
