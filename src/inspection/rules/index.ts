/** The built-in rule list, in the order of research note §C. */
import type { Rule } from '../rule.js';
import { DESTRUCTIVE_RULES } from './destructive.js';
import { NETWORK_RULES } from './network.js';
import { OPS_RULES } from './ops.js';
import { PERSISTENCE_RULES } from './persistence.js';
import { REMOTE_RULES } from './remote.js';

const ALL = [...DESTRUCTIVE_RULES, ...REMOTE_RULES, ...PERSISTENCE_RULES, ...OPS_RULES, ...NETWORK_RULES];
const ORDER = [
  'rm-rf-root', 'rm-rf-home', 'rm-rf-system-dir', 'rm-rf-dynamic', 'find-delete-root', 'xargs-rm', 'dd-to-block-device', 'mkfs-or-wipe',
  'redirect-to-block-device', 'fork-bomb', 'curl-pipe-shell', 'remote-substitution-exec', 'download-then-exec',
  'interpreter-download-exec', 'crontab-install', 'cron-dir-write', 'shell-rc-write', 'service-persistence', 'git-hook-write',
  'ssh-authorized-keys-write', 'credential-file-read', 'credential-exfil', 'env-dump-exfil', 'secret-to-unknown-host',
  'upload-file-to-host', 'sudoers-nopasswd', 'setuid-bit', 'chmod-world-writable', 'container-host-escape', 'git-force-push',
  'git-reset-hard', 'git-clean-force', 'git-discard-worktree', 'git-history-rewrite', 'cloud-resource-delete',
  'kubectl-delete-broad', 'iac-destroy', 'sql-drop', 'sql-mass-delete', 'nosql-flush-drop', 'reverse-shell-dev-tcp',
  'reverse-shell-netcat', 'reverse-shell-interpreter', 'decode-pipe-shell', 'eval-dynamic', 'shell-obfuscation', 'unparsed-command',
];

/** Built-in rules, frozen, ordered as in the research table. */
export const BUILTIN_RULES: readonly Rule[] = Object.freeze(
  [...ALL].sort((a, b) => ORDER.indexOf(a.id) - ORDER.indexOf(b.id)).map((r) => Object.freeze(r)),
);
