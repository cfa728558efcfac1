/** destructive-fs rules (docs/rules.md "Rule origins"). */
import type { Rule } from '../rule.js';
import type { ShellCommand } from '../shell/model.js';
import { normalizePath } from '../shell/words.js';
import { globMatches, hasGlob } from '../shell/expand.js';
import { SHELLS } from '../shell/context.js';
import { isBlockDevice, opts, resolveIn, writeTargets } from '../effects/index.js';

/** True when the command word is only known at run time (an unresolved variable or substitution). */
function unknownCommandWord(cmd: ShellCommand): boolean {
  return cmd.words[0]?.dynamic === true;
}

/**
 * Operands of a recursive `rm`, or null when the command is not one. Operands are normalised
 * and resolved against a directory a `cd` earlier in the line moved to (`cd / && rm -rf *` →
 * `/*`); `~name` (another user's home) becomes `~`. A command word known only at run time with
 * rm's recursive and force flags (`$c -rf /`) counts as rm.
 */
function recursiveRmTargets(cmd: ShellCommand): string[] | null {
  const o = opts(cmd);
  const recursive = o.short.has('r') || o.short.has('R') || o.long.has('recursive');
  if (!recursive) return null;
  if (cmd.name !== 'rm' && !(unknownCommandWord(cmd) && (o.short.has('f') || o.long.has('force')))) return null;
  return o.operands.map((p) => {
    // `~+` is $PWD (`cd / && rm -rf ~+`); `~name` another user's home
    if (/^~\+(?:\/|$)/.test(p)) return resolveIn(cmd.cwd, p.replace(/^~\+/, cmd.cwd ?? '.'));
    // `/$NOPE`, `/$(true)`, `"/$@"`: a root-anchored operand whose rest is only known at run time is / when empty
    if (/^\/+(?:\$\{?(?:[A-Za-z_]\w*|[@*#?!$0-9-])\}?|\$\([^)]*\)|`[^`]*`)+\/?\*?$/.test(p)) return p.endsWith('*') ? '/*' : '/';
    return resolveIn(cmd.cwd, /^~[a-z_][\w.-]*(?=\/|$)/i.test(p) && !p.startsWith('~/') ? p.replace(/^~[^/]*/, '~') : p);
  });
}

/** Top-level paths a glob operand is compared with (`/e*c` names /etc). */
const GLOB_CANDIDATES = ['/etc', '/usr', '/var', '/bin', '/sbin', '/boot', '/lib', '/lib32', '/lib64', '/libx32', '/home', '/root', '/opt', '/srv', '/dev', '/proc', '/sys', '/snap', '/System', '/Library', '/Applications', '/Users', '/Volumes', '/private'];

/** True when a target is, or (as a glob) names, a system directory. */
function isSystemTarget(p: string): boolean {
  if (SYSTEM_DIR.test(p) || SERVICE_DATA.test(p)) return true;
  if (!hasGlob(p)) return false;
  const dir = p.replace(/\/\*$/, '');
  return globMatches(dir, GLOB_CANDIDATES).length > 0;
}

/** An operand whose value is only known at run time and may be empty or anything: `$X`, `"$X"`,
 * `${X}`, `$(cmd)`, also followed by `/` or `/*` (`"$DIR"/*` is `/*` when DIR is empty). */
const UNKNOWN_TARGET = /^(?:\$\{?[A-Za-z_@*0-9][A-Za-z0-9_]*\}?|\$\{[A-Za-z_][A-Za-z0-9_]*:?[?]\}|\$\([\s\S]*\)|`[\s\S]*`)(?:\/\.?\*?)?$/;

// Raw patterns are RE2-compatible (no lookaround), so the engine runs them on RE2 in linear time.
const RM_RAW = String.raw`\brm\s+(?:-{1,2}[\w-]+\s+)*(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)\s+(?:-{1,2}[\w-]+\s+)*(?:--\s+)?`;
const END = String.raw`\\?["']?(?:$|[\s;&|)"'\x60\\])`;

/** The -exec command deletes: rm/shred/unlink, or a shell -c script that runs one. */
function runsDelete(exec: string[]): boolean {
  const name = (exec[0] ?? '').replace(/^.*\//, '');
  if (/^(?:rm|shred|unlink)$/.test(name)) return true;
  const c = exec.indexOf('-c');
  return SHELLS.has(name) && c > 0 && /(?:^|[\s;&|(])(?:\S*\/)?(?:rm|shred|unlink)\s/.test(exec[c + 1] ?? '');
}

/** True when a path is /, a home directory, a top-level system directory, or (with `contents`)
 * what they hold (`/*`, `~/*`). */
function isVitalTree(p: string, contents = true): boolean {
  if (p === '/' || p === '~' || /^\/(?:home|Users)\/[^/*?[\]]+$/.test(p)) return true;
  if (p === '/*' || p === '/.*') return contents;
  if (/^(?:~|\/(?:home|Users)\/[^/*?[\]]+)\/\.?\*$/.test(p)) return contents;
  return isSystemTarget(p) && (contents || !p.endsWith('/*'));
}

/** A command's operands resolved against the working directory a `cd` moved to. */
function resolvedOperands(c: ShellCommand, from = 0): string[] {
  return opts(c).operands.slice(from).map((p) => resolveIn(c.cwd, p));
}

/** Tree-wide permission changes that leave the system unusable: chmod/chown/chgrp/setfacl -R of
 * /, a system directory (a home directory too for chmod, whose modes lock its owner out; chown of
 * one's own home is a common repair). */
function recursivePermissionTarget(c: ShellCommand): boolean {
  if (!/^(?:chmod|chown|chgrp|setfacl)$/.test(c.name)) return false;
  const o = opts(c);
  if (!(o.short.has('R') || o.long.has('recursive'))) return false;
  // the mode, owner or ACL spec comes first (setfacl -m SPEC)
  const from = c.name === 'setfacl' || o.long.has('reference') ? 0 : 1;
  return resolvedOperands(c, from).some((p) => (c.name === 'chmod' ? isVitalTree(p) : isVitalTree(p) && !/^(?:~|\/(?:home|Users)\/[^/]+)(?:\/\.?\*)?$/.test(p)));
}

/** `mv` taking /, a home or a system directory away, or `rsync --delete` making one a copy of
 * another tree (`rsync -a --delete /empty/ /` deletes everything the source lacks). */
function treeReplaced(c: ShellCommand): boolean {
  if (c.name === 'mv') {
    const o = opts(c, { short: 'tS', long: ['target-directory', 'suffix'] });
    const ops = o.operands.map((p) => resolveIn(c.cwd, p));
    const target = o.values.has('-t') || o.values.has('--target-directory');
    return (target ? ops : ops.slice(0, -1)).some((p) => isVitalTree(p, p.startsWith('/') && !/^\/(?:home|Users)\//.test(p)));
  }
  if (c.name === 'rsync') {
    if (!c.argv.slice(1).some((a) => /^--del(?:ete(?:-[a-z]+)?)?$/.test(a))) return false;
    const ops = resolvedOperands(c);
    const dest = ops[ops.length - 1];
    return ops.length >= 2 && dest !== undefined && isVitalTree(normalizePath(dest.replace(/^[^/:~]*:/, '') || '~'));
  }
  return false;
}

/** Where database and container services keep their data (the packages' default data directories):
 * deleting one destroys every database, volume or image the host holds. */
const SERVICE_DATA = /^\/var\/lib\/(?:mysql|mariadb|postgresql(?:\/\d+(?:\/main)?)?|pgsql(?:\/data)?|mongodb|mongo|redis|docker(?:\/volumes)?|containerd|containers|etcd|elasticsearch|opensearch|cassandra|influxdb|rabbitmq|clickhouse|couchdb|neo4j|kubelet)(?:\/\*)?\/?$/;
/** The web root, mail spools and backups under /var (Debian's `/var/www`, `/var/mail`,
 * `/var/backups`): deleting one destroys the host's sites or mailboxes (rm only: `rsync --delete`
 * into `/var/www/html` is how a site is deployed). */
const SITE_DATA = /^\/var\/(?:www(?:\/html)?|mail|spool\/mail|vmail|backups)(?:\/\*)?\/?$/;
const SYSTEM_DIR = /^\/(?:etc|usr|var|bin|sbin|boot|lib|lib32|lib64|libx32|home|root|opt|srv|dev|proc|sys|snap|System|Library|Applications|Users|Volumes|private\/etc|private\/var)(?:\/\*)?$/;

export const DESTRUCTIVE_RULES: Rule[] = [
  {
    id: 'rm-rf-root',
    name: 'Recursive delete of /',
    category: 'destructive-fs',
    action: 'block',
    attack: 'T1485',
    description: 'Recursive rm of an operand that collapses to / (any flag spelling, --no-preserve-root, --, globs).',
    help: 'Deletes the whole filesystem. No legitimate agent task needs it; check what the model was asked to clean up.',
    examples: {
      match: ['rm -rf /', 'sudo rm -r -f --no-preserve-root -- /*', 'rm --recursive --force //', "r''m -rf /.", 'bash -c "rm -rf /"', 'echo $(rm -fr /)'],
      not_match: ['rm -rf ./build', 'grep -rn "rm -rf /" docs/', 'rm -f /', 'git commit -m "rm -rf / guard"'],
    },
    match: {
      command: (c) => recursiveRmTargets(c)?.some((p) => p === '/' || p === '/*' || p === '/.*') ?? false,
      raw: new RegExp(RM_RAW + String.raw`\\?["']?\/+\.?\*?` + END),
    },
  },
  {
    id: 'rm-rf-home',
    name: 'Recursive delete of the home directory',
    category: 'destructive-fs',
    action: 'block',
    attack: 'T1485',
    description: 'Recursive rm of a home directory: ~, ~/, ~/*, $HOME, ${HOME}, "$HOME"/*, /home/NAME or /Users/NAME (and their contents).',
    help: 'Deletes every file of the user. Check whether a subdirectory was meant.',
    examples: {
      match: ['rm -rf ~', 'rm -fr "$HOME"/*', 'rm -rf ${HOME}/', 'rm -r $HOME'],
      not_match: ['rm -rf ~/project/node_modules', 'rm -rf "$HOME/.cache/pip"', 'ls ~'],
    },
    match: {
      command: (c) => recursiveRmTargets(c)?.some((p) => p === '~' || p === '~/*' || p === '~/.*' || /^\/(?:home|Users)\/[^/*?[\]]+(?:\/\.?\*)?$/.test(p)) ?? false,
      raw: new RegExp(RM_RAW + String.raw`\\?["']?(?:~|\$HOME|\$\{HOME\})\\?["']?\/?\*?` + END),
    },
  },
  {
    id: 'rm-rf-system-dir',
    name: 'Recursive delete of a system directory',
    category: 'destructive-fs',
    action: 'block',
    attack: 'T1485',
    description: 'Recursive rm of a top-level system directory (/etc, /usr, /var, /bin, /boot, /lib*, /home, …) or its contents, also named by a glob (`/e*c`, `/[e]tc`), or of a database or container service data directory (/var/lib/mysql, /var/lib/postgresql, /var/lib/docker, /var/lib/etcd, …), the web root (/var/www), the mail spools or /var/backups.',
    help: 'Breaks the host. Check whether a project-local directory of the same name was meant.',
    examples: {
      match: ['sudo rm -rf /etc', 'rm -Rf /usr/*', 'rm -rf /var/', 'rm -rf /private/etc', 'rm -rf /e*c', 'rm -rf /{etc,usr}'],
      not_match: ['rm -rf /tmp/build', 'rm -rf ./etc/generated', 'rm -rf /usr/local/lib/node_modules/foo', 'rm -rf /t*'],
    },
    match: {
      command: (c) => recursiveRmTargets(c)?.some((p) => isSystemTarget(p) || SITE_DATA.test(p)) ?? false,
      raw: new RegExp(RM_RAW + String.raw`\\?["']?\/(?:etc|usr|var|bin|sbin|boot|lib\w*|home|root|opt|srv)\/?\*?` + END),
    },
  },
  {
    id: 'rm-rf-dynamic',
    name: 'Recursive forced delete of a run-time path',
    category: 'destructive-fs',
    action: 'record',
    attack: 'T1485',
    description: 'rm -rf of an operand known only at run time ($X, "${X}", $(cmd), "$X"/*), which deletes / or ~ when the value is empty or hostile.',
    help: 'What is deleted depends on a value guard cannot see. Check where the variable comes from; guard it with ${X:?} and a fixed prefix.',
    examples: {
      match: ['rm -rf "$TARGET"', 'rm -rf $(cat dirs.txt)', 'rm -rf "$DIR"/*', 'f() { rm -rf "$1"; }'],
      not_match: ['rm -rf "$DIR/build"', 'tmp=$(mktemp -d); rm -rf "$tmp"', 'rm -f "$FILE"', 'rm -rf ./build'],
    },
    match: {
      command: (c) => {
        if (c.name !== 'rm') return false;
        const o = opts(c);
        if (!(o.short.has('r') || o.short.has('R') || o.long.has('recursive')) || !(o.short.has('f') || o.long.has('force'))) return false;
        return c.words.slice(1).some((w) => w.dynamic && UNKNOWN_TARGET.test(w.text));
      },
    },
  },
  {
    id: 'recursive-permission-root',
    name: 'Recursive permission change of / or a system directory',
    category: 'destructive-fs',
    action: 'block',
    attack: 'T1222.002',
    description: 'chmod -R, chown -R, chgrp -R or setfacl -R of /, a top-level system directory (/etc, /usr, /var, /bin, …) or its contents, or chmod -R of a home directory.',
    help: 'Rewrites the modes or owners of every file below it: setuid programs, keys and services stop working and the host may not boot. Check which project directory was meant.',
    examples: {
      match: ['chmod -R 000 /', 'sudo chown -R nobody /', 'chmod -R 777 /etc', 'cd / && chgrp -R staff *'],
      not_match: ['chmod -R 755 ./dist', 'sudo chown -R $(whoami) /usr/local/lib/node_modules', 'sudo chown -R "$USER" ~', 'chmod 000 /tmp/x'],
    },
    match: {
      command: recursivePermissionTarget,
      raw: new RegExp(String.raw`\b(?:chmod|chown|chgrp)\s+(?:-[\w-]+\s+)*-\w*R\w*\s+(?:-[\w-]+\s+)*\S+\s+\\?["']?\/+(?:\*|etc|usr|var|bin|sbin|boot|lib\w*)?\/?` + END + String.raw`|\bchmod\s+(?:-[\w-]+\s+)*-\w*R\w*\s+(?:-[\w-]+\s+)*\S+\s+\\?["']?~\/?` + END),
    },
  },
  {
    id: 'tree-move-or-sync-delete',
    name: 'Moving / or a system directory away, or syncing over one',
    category: 'destructive-fs',
    action: 'block',
    attack: 'T1485',
    description: 'mv with /, a home directory or a top-level system directory as a source, or rsync --delete (any --delete-* form) whose destination is one of them (locally or on a host).',
    help: 'The tree disappears from where everything expects it, or is made a copy of another one (rsync deletes whatever the source lacks). Check the source and destination.',
    examples: {
      match: ['mv / /tmp/x', 'sudo mv /etc /etc.old', 'rsync -a --delete /empty/ /', 'rsync -a --delete-before ./site/ host:/var'],
      not_match: ['mv ./build /tmp/old-build', 'rsync -a --delete ./site/ /var/www/html/', 'rsync -a /backup/ /', 'mv /tmp/x /etc/myapp.conf'],
    },
    match: { command: treeReplaced },
  },
  {
    id: 'find-delete-root',
    name: 'find deleting from /, a home or a system directory',
    category: 'destructive-fs',
    action: 'block',
    attack: 'T1485',
    description: 'find rooted at /, a home directory (~, $HOME, /home/NAME, /Users/NAME) or a top-level system directory (/etc, /usr, …), also through a cd, with -delete or -exec/-execdir rm/shred/unlink.',
    help: 'Deletes matching files across the whole disk or home directory. Check the starting point.',
    examples: {
      match: ["find / -name '*.log' -delete", 'find ~ -type f -exec rm -f {} +', 'find $HOME -name x -execdir rm {} ;'],
      not_match: ["find . -name '*.pyc' -delete", 'find / -name id_rsa -print 2>/dev/null'],
    },
    match: {
      command: (c) => {
        if (c.name !== 'find') return false;
        const args = c.argv.slice(1);
        const starts: string[] = [];
        for (const a of args) {
          if (a.startsWith('-') || a === '(' || a === '!') break;
          starts.push(resolveIn(c.cwd, normalizePath(a)));
        }
        // no starting point is the working directory (`cd / && find . -delete` starts at /)
        if (starts.length === 0 && c.cwd !== null) starts.push(c.cwd);
        if (!starts.some((p) => isVitalTree(p))) return false;
        if (args.includes('-delete')) return true;
        return args.some((a, i) => /^-(?:exec|execdir|ok|okdir)$/.test(a) && runsDelete(args.slice(i + 1)));
      },
    },
  },
  {
    id: 'xargs-rm',
    name: 'xargs or parallel running rm',
    category: 'destructive-fs',
    action: 'record',
    attack: 'T1485',
    description: 'Input piped into xargs/parallel running rm -r/-f, shred, unlink or a shell that does.',
    help: 'Deletes whatever the upstream command lists. Check the list cannot contain more than intended.',
    examples: {
      match: ['find . -name node_modules -type d | xargs rm -rf', "cat paths.txt | xargs -I{} sh -c 'rm -rf {}'", 'ls | parallel rm -f'],
      not_match: ["find . -name '*.md' | xargs grep -l TODO", 'git ls-files | xargs wc -l', 'rm -rf build'],
    },
    match: {
      command: (c) => {
        if (c.launcher !== 'xargs' && c.launcher !== 'parallel') return false;
        if (c.name === 'shred' || c.name === 'unlink') return true;
        if (c.name !== 'rm') return false;
        const o = opts(c);
        return o.short.has('r') || o.short.has('R') || o.short.has('f') || o.long.has('recursive') || o.long.has('force');
      },
    },
  },
  {
    id: 'dd-to-block-device',
    name: 'dd onto a block device',
    category: 'destructive-fs',
    action: 'block',
    attack: 'T1561.001',
    description: 'dd with of= a raw block device (/dev/sd*, /dev/nvme*, /dev/disk*, …).',
    help: 'Overwrites a disk. Check the device and whether an image file was meant.',
    examples: {
      match: ['dd if=/dev/zero of=/dev/sda bs=1M', 'sudo dd if=ubuntu.iso of=/dev/rdisk2 bs=4m'],
      not_match: ['dd if=/dev/zero of=./disk.img bs=1M count=64', 'dd if=/dev/sda of=./mbr.bin bs=512 count=1'],
    },
    match: {
      command: (c) => c.name === 'dd' && c.argv.some((a) => a.startsWith('of=') && isBlockDevice(normalizePath(a.slice(3)))),
      raw: /\bdd\b[^|;&\n]*\bof=\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|md|dm-|r?disk)/,
    },
  },
  {
    id: 'mkfs-or-wipe',
    name: 'Filesystem creation or disk wipe',
    category: 'destructive-fs',
    action: 'block',
    attack: 'T1561.001',
    description: 'mkfs*, mke2fs, mkswap/newfs on a device, wipefs -a, sgdisk -Z, blkdiscard, shred of a device, diskutil eraseDisk, format C:.',
    help: 'Destroys the data on a disk or partition. Check the device.',
    examples: {
      match: ['mkfs.ext4 /dev/sdb1', 'sudo wipefs -a /dev/nvme0n1', 'sgdisk --zap-all /dev/sda', 'diskutil eraseDisk APFS X disk2'],
      not_match: ['wipefs /dev/sda', 'echo "mkfs.ext4 /dev/sdb1" >> runbook.md', 'mkswap ./swapfile'],
    },
    match: {
      command: (c) => {
        const o = opts(c);
        const onDevice = o.operands.some((p) => isBlockDevice(normalizePath(p)));
        if (/^mkfs(?:\..+)?$|^mke2fs$|^mkdosfs$|^mkntfs$/.test(c.name)) return true;
        if (c.name === 'mkswap' || c.name === 'newfs' || c.name === 'shred') return onDevice;
        if (c.name === 'wipefs') return o.short.has('a') || o.long.has('all');
        if (c.name === 'sgdisk') return o.short.has('Z') || o.short.has('o') || o.long.has('zap-all') || o.long.has('clear');
        if (c.name === 'blkdiscard') return true;
        if (c.name === 'diskutil') return /^(?:erase(?:Disk|Volume)|zeroDisk|randomDisk|secureErase|partitionDisk|reformat)$/.test(c.argv[1] ?? '');
        if (c.name.toLowerCase() === 'format') return /^[a-z]:$/i.test(c.argv[1] ?? '');
        return false;
      },
      raw: /(?:^|[\s;&|(`"]|\\")(?:mkfs(?:\.\w+)?|mke2fs|blkdiscard)\s+\S|\bwipefs\s+(?:-\w*a|--all)/,
    },
  },
  {
    id: 'redirect-to-block-device',
    name: 'Write redirected into a block device',
    category: 'destructive-fs',
    action: 'block',
    attack: 'T1561.001',
    description: '>, >> or tee into a raw block device.',
    help: 'Overwrites a disk. Check the target.',
    examples: {
      match: ['cat /dev/urandom > /dev/sda', 'echo 0 | sudo tee /dev/nvme0n1'],
      not_match: ['make 2>&1 > /dev/null', 'echo hi > /dev/stderr', 'cat /dev/sda > disk.img'],
    },
    match: {
      command: (c) => c.name !== 'dd' && writeTargets(c).some(isBlockDevice),
    },
  },
  {
    id: 'fork-bomb',
    name: 'Fork bomb',
    category: 'destructive-fs',
    action: 'block',
    attack: 'T1499.001',
    description: 'A function that pipes itself into itself (in the background) and is called.',
    help: 'Exhausts the process table until the host is rebooted.',
    examples: {
      match: [':(){ :|:& };:', 'bomb(){ bomb|bomb& }; bomb'],
      not_match: ['f(){ echo hi; }; f', "echo ':(){ :|:& };:' > fork-bomb-explained.txt", 'f(){ ls | grep x; }; f'],
    },
    match: {
      line: (line) => {
        for (const f of line.functions) {
          if (f.body.some((c) => c.name === f.name && c.pipeline !== null)) return f.span;
        }
        return null;
      },
      // a name that starts after a non-name character, at most 64 long: linear on one long word
      // (unanchored, a 64 KiB word took 13 s: every start position rescanned the rest of it)
      raw: /(?<![\w:])([\w:]{1,64})\s*\(\)\s*\{\s*\1\s*\|\s*\1\s*&/,
    },
  },
];

