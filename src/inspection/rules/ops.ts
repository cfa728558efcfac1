/** vcs-, cloud- and db-destructive rules (docs/rules.md "Rule origins"). */
import type { Rule } from '../rule.js';
import type { ShellCommand } from '../shell/model.js';
import { opts, parseOpts } from '../effects/index.js';
import { sqlFacts } from '../sql.js';

/** `git [global options] <sub> args…` → the subcommand and its args, or null. */
export function gitSub(c: ShellCommand): { sub: string; args: string[] } | null {
  if (c.name !== 'git') return null;
  const a = c.argv.slice(1);
  let i = 0;
  while (i < a.length) {
    const t = a[i]!;
    if (t === '-C' || t === '-c' || t === '--git-dir' || t === '--work-tree' || t === '--namespace' || t === '--exec-path' && !t.includes('=')) { i += 2; continue; }
    if (t.startsWith('-')) { i++; continue; }
    return { sub: t, args: a.slice(i + 1) };
  }
  return null;
}

/** The directory of `git -C DIR …`, or null. */
function gitDir(c: ShellCommand): string | null {
  const i = c.argv.indexOf('-C');
  return c.name === 'git' && i > 0 ? (c.argv[i + 1] ?? null) : null;
}

const git = (pred: (sub: string, args: string[], o: ReturnType<typeof parseOpts>) => boolean, valued?: { short?: string; long?: string[] }) =>
  (c: ShellCommand): boolean => {
    const g = gitSub(c);
    return g !== null && pred(g.sub, g.args, parseOpts(g.args, valued));
  };

/** SQL text a DB client sends: -c/-e/--command/--execute values, sqlite3's second operand,
 * heredoc or herestring stdin. */
function sqlOf(c: ShellCommand): string | null {
  const args = c.argv.slice(1);
  const parts: string[] = [];
  switch (c.name) {
    case 'psql':
    case 'mysql':
    case 'mariadb':
    case 'cockroach':
    case 'clickhouse-client':
    case 'sqlcmd':
    case 'snowsql':
    case 'bq':
    case 'duckdb':
    case 'sqlite3':
    case 'sql': {
      const o = parseOpts(args, { short: 'ceQqhdUupPfFo', long: ['command', 'execute', 'query', 'host', 'user', 'dbname', 'port', 'file', 'database'] });
      for (const k of ['-c', '-e', '-Q', '-q', '--command', '--execute', '--query']) parts.push(...(o.values.get(k) ?? []));
      if (c.name === 'sqlite3' || c.name === 'duckdb') parts.push(...o.operands.slice(1));
      break;
    }
    default:
      return null;
  }
  if (c.stdin) parts.push(c.stdin);
  for (const u of c.pipeline?.stages.slice(0, c.stage) ?? []) if (u.name === 'echo' || u.name === 'printf') parts.push(u.argv.slice(1).join(' '));
  return parts.length ? parts.join('\n') : null;
}


export const OPS_RULES: Rule[] = [
  {
    id: 'git-force-push',
    name: 'git force push',
    category: 'vcs-destructive',
    action: 'record',
    description: 'git push with --force/-f/+ref/--mirror/--delete, but not --force-with-lease.',
    help: 'Overwrites or deletes remote history others may have pulled.',
    examples: {
      match: ['git push --force origin main', 'git push origin +HEAD:main', 'git push -uf origin x', 'git push origin --delete release'],
      not_match: ['git push --force-with-lease origin feature/x', 'git push -u origin feature/x', 'git commit -m "git push --force"'],
    },
    match: {
      command: git((sub, args, o) => sub === 'push' && (o.short.has('f') || o.long.has('force') || o.long.has('mirror') || o.long.has('delete') || o.short.has('d') || o.operands.slice(1).some((r) => /^\+|^:[^/]/.test(r))), { short: 'oR', long: ['repo', 'push-option', 'receive-pack', 'exec'] }),
    },
  },
  {
    id: 'git-reset-hard',
    name: 'git reset --hard',
    category: 'vcs-destructive',
    action: 'record',
    description: 'git [-C d] reset --hard or --merge.',
    help: 'Discards uncommitted work without a trace.',
    examples: {
      match: ['git reset --hard HEAD~3', 'git -C app reset --hard origin/main'],
      not_match: ['git reset --soft HEAD~1', 'git reset HEAD src/index.ts', 'cd /tmp/scratch && git reset --hard origin/main'],
    },
    // in a scratch clone under /tmp nothing of the user's is lost
    match: { command: (c) => !/^\/(?:tmp|private\/tmp|var\/tmp)(?:\/|$)/.test(c.cwd ?? gitDir(c) ?? '') && git((sub, _a, o) => sub === 'reset' && (o.long.has('hard') || o.long.has('merge')))(c) },
  },
  {
    id: 'git-clean-force',
    name: 'git clean -f',
    category: 'vcs-destructive',
    action: 'record',
    description: 'git clean with -f/--force and no -n/--dry-run.',
    help: 'Deletes untracked files (with -x also ignored ones), unrecoverably.',
    examples: {
      match: ['git clean -fdx', 'git clean --force -d -x'],
      not_match: ['git clean -n -d', 'git clean -ndfx'],
    },
    match: { command: git((sub, _a, o) => sub === 'clean' && (o.short.has('f') || o.long.has('force')) && !o.short.has('n') && !o.long.has('dry-run'), { short: 'e', long: ['exclude'] }) },
  },
  {
    id: 'git-discard-worktree',
    name: 'git discards working-tree changes',
    category: 'vcs-destructive',
    action: 'record',
    description: 'git checkout -- . (or another whole-tree pathspec), restore . without --staged, checkout/switch -f, switch --discard-changes, stash drop/clear.',
    help: 'Throws away uncommitted edits.',
    examples: {
      match: ['git checkout -- .', 'git stash clear', 'git restore .', 'git switch -f main'],
      not_match: ['git checkout -b feature/x', 'git restore --staged .', 'git stash list', 'git checkout -- src/app.py'],
    },
    match: {
      command: git((sub, args, o) => {
        // a whole tree (`.`, `:/`, `*`), not the agent's own edits to named files
        const broad = (ps: string[]) => ps.some((p) => /^(?:\.|\.\/|\*|:\/|:\(top\)|\.\.|\/)$/.test(p));
        if (sub === 'checkout') return (args.includes('--') && broad(args.slice(args.indexOf('--') + 1))) || o.short.has('f') || o.long.has('force');
        if (sub === 'restore') return broad(o.operands) && (!(o.short.has('S') || o.long.has('staged')) || o.short.has('W') || o.long.has('worktree'));
        if (sub === 'switch') return o.long.has('discard-changes') || o.short.has('f') || o.long.has('force');
        if (sub === 'stash') return o.operands[0] === 'drop' || o.operands[0] === 'clear';
        return false;
      }, { short: 'bBs', long: ['source'] }),
    },
  },
  {
    id: 'git-history-rewrite',
    name: 'git history rewrite or pruning',
    category: 'vcs-destructive',
    action: 'record',
    description: 'filter-branch, filter-repo, reflog expire, gc --prune=now, branch -D, update-ref -d.',
    help: 'Rewrites or drops commits; combined with expiry, they cannot be recovered.',
    examples: {
      match: ["git filter-branch --force --index-filter 'git rm -r --cached --ignore-unmatch secrets' HEAD", 'git reflog expire --expire=now --all && git gc --prune=now', 'git branch -D old'],
      not_match: ['git branch -d merged-feature', 'git reflog show -n 5', 'git gc'],
    },
    match: {
      command: git((sub, _args, o) => {
        if (sub === 'filter-branch' || sub === 'filter-repo') return true;
        if (sub === 'reflog') return o.operands[0] === 'expire' || o.operands[0] === 'delete';
        if (sub === 'gc') return /^(?:now|all)$/.test(o.long.get('prune') ?? '');
        if (sub === 'branch') return o.short.has('D') || ((o.short.has('d') || o.long.has('delete')) && (o.short.has('f') || o.long.has('force')));
        if (sub === 'update-ref') return o.short.has('d');
        return false;
      }),
    },
  },
  {
    id: 'cloud-resource-delete',
    name: 'Cloud resource deletion',
    category: 'cloud-destructive',
    action: 'record',
    attack: 'T1485',
    description: 'Bulk or irreversible deletes in aws (s3 rm --recursive, s3 rb, delete-*/terminate-*), gcloud (… delete), gsutil (rm -r, rb), az (… delete).',
    help: 'Deletes cloud resources or data; usually not recoverable.',
    examples: {
      match: ['aws s3 rm s3://prod-bucket --recursive', 'gcloud projects delete acme-prod --quiet', 'aws ec2 terminate-instances --instance-ids i-1', 'az group delete -n prod --yes'],
      not_match: ['aws s3 ls s3://prod-bucket --recursive', 'aws s3 rm s3://prod-bucket/tmp/one.txt --dryrun', 'gcloud compute instances list'],
    },
    match: {
      command: (c) => {
        const o = opts(c);
        if (o.long.has('dryrun') || o.long.has('dry-run')) return false;
        const pos = o.operands;
        if (c.name === 'aws') {
          if (pos[0] === 's3') return (pos[1] === 'rm' && o.long.has('recursive')) || pos[1] === 'rb';
          return pos.slice(1, 2).some((v) => /^(?:delete|terminate|purge|remove|deregister)-/.test(v));
        }
        if (c.name === 'gcloud' || c.name === 'az') return pos.includes('delete');
        if (c.name === 'gsutil') return pos[0] === 'rb' || (pos[0] === 'rm' && (o.short.has('r') || o.short.has('a'))) || (pos[0] === 'rm' && c.argv.some((a) => /\*\*?$/.test(a)));
        return false;
      },
    },
  },
  {
    id: 'kubectl-delete-broad',
    name: 'Broad Kubernetes deletion',
    category: 'cloud-destructive',
    action: 'record',
    attack: 'T1485',
    description: 'kubectl delete of namespaces, --all, -A, pv/pvc, -k; kubectl drain; helm uninstall.',
    help: 'Takes down workloads or deletes persistent data.',
    examples: {
      match: ['kubectl delete namespace prod', 'kubectl delete pods --all -n payments', 'helm uninstall web'],
      not_match: ['kubectl get namespace prod', 'kubectl delete pod web-7d9f8 -n dev --dry-run=client'],
    },
    match: {
      command: (c) => {
        if (c.name === 'helm') return ['uninstall', 'delete', 'del', 'un'].includes(c.argv[1] ?? '');
        if (c.name !== 'kubectl' && c.name !== 'oc') return false;
        const o = opts(c, { short: 'nlfk', long: ['namespace', 'selector', 'filename', 'kustomize', 'context', 'kubeconfig'] });
        const dry = o.long.get('dry-run');
        if (dry !== undefined && dry !== 'none') return false;
        if (o.operands[0] === 'drain') return true;
        if (o.operands[0] !== 'delete') return false;
        if (o.long.has('all') || o.short.has('A') || o.long.has('all-namespaces') || o.values.has('-k') || o.values.has('--kustomize')) return true;
        return o.operands.slice(1).some((r) => /^(?:ns|namespaces?|pv|pvc|persistentvolumes?|persistentvolumeclaims?|crd|customresourcedefinitions?|nodes?)(?:\/|$|,)/.test(r));
      },
    },
  },
  {
    id: 'iac-destroy',
    name: 'Infrastructure destroy',
    category: 'cloud-destructive',
    action: 'record',
    attack: 'T1485',
    description: 'terraform/tofu destroy, apply -destroy, state rm; pulumi destroy; cdk destroy.',
    help: 'Deletes the infrastructure the code manages.',
    examples: {
      match: ['terraform destroy -auto-approve', 'terraform apply -destroy -auto-approve', 'terraform -chdir=infra state rm aws_db.main'],
      not_match: ['terraform plan -out=tf.plan', 'pulumi preview --diff'],
    },
    match: {
      command: (c) => {
        const pos = c.argv.slice(1).filter((a) => !a.startsWith('-'));
        if (c.name === 'terraform' || c.name === 'tofu' || c.name === 'terragrunt') {
          return pos[0] === 'destroy' || (pos[0] === 'apply' && c.argv.some((a) => a === '-destroy' || a === '--destroy')) || (pos[0] === 'state' && pos[1] === 'rm');
        }
        if (c.name === 'pulumi') return pos[0] === 'destroy' || pos[0] === 'down';
        if (c.name === 'cdk' || c.name === 'cdktf') return pos[0] === 'destroy';
        return false;
      },
    },
  },
  {
    id: 'sql-drop',
    name: 'SQL DROP',
    category: 'db-destructive',
    action: 'record',
    attack: 'T1485',
    description: 'DROP DATABASE/SCHEMA/TABLE/VIEW sent through a DB client (argument, stdin or heredoc) or a database tool\'s query/sql argument, read by a SQL parser (node-sql-parser; a statement it cannot parse is matched by its keywords, via raw); dropdb; mysqladmin drop.',
    help: 'Deletes a database object and its data.',
    examples: {
      match: ['psql "$DATABASE_URL" -c "DROP TABLE users;"', "mysql -u root -e 'DROP DATABASE prod'", 'dropdb prod'],
      not_match: ['psql "$DATABASE_URL" -c "SELECT count(*) FROM users"', 'grep -rn "DROP TABLE" migrations/'],
    },
    match: {
      command: (c) => {
        if (c.name === 'dropdb') return true;
        if (c.name === 'mysqladmin') return c.argv.includes('drop');
        const sql = sqlOf(c);
        const f = sql === null ? null : sqlFacts(sql).drops;
        return f === 'raw' ? 'raw' : f === 'parsed';
      },
    },
  },
  {
    id: 'sql-mass-delete',
    name: 'SQL mass delete',
    category: 'db-destructive',
    action: 'record',
    attack: 'T1485',
    description: 'TRUNCATE, or DELETE/UPDATE without WHERE, sent through a DB client or a database tool\'s query/sql argument (parsed; unparseable statements via raw).',
    help: 'Deletes or overwrites every row of a table.',
    examples: {
      match: ['psql -c "TRUNCATE TABLE sessions"', 'sqlite3 app.db "DELETE FROM users;"'],
      not_match: ["sqlite3 app.db \"DELETE FROM sessions WHERE expires_at < date('now');\"", 'psql -c "SELECT * FROM truncate_audit"'],
    },
    match: {
      command: (c) => {
        const sql = sqlOf(c);
        const f = sql === null ? null : sqlFacts(sql).massDeletes;
        return f === 'raw' ? 'raw' : f === 'parsed';
      },
    },
  },
  {
    id: 'nosql-flush-drop',
    name: 'NoSQL flush or drop',
    category: 'db-destructive',
    action: 'record',
    attack: 'T1485',
    description: 'redis-cli FLUSHALL/FLUSHDB, dropDatabase(), deleteMany({}), mongorestore --drop.',
    help: 'Deletes every key or document.',
    examples: {
      match: ['redis-cli -h cache.prod FLUSHALL', 'mongosh prod --eval "db.dropDatabase()"'],
      not_match: ['redis-cli INFO keyspace', 'mongosh prod --eval "db.users.countDocuments({})"'],
    },
    match: {
      command: (c) => {
        if (c.name === 'redis-cli' || c.name === 'valkey-cli' || c.name === 'keydb-cli') return c.argv.some((a) => /^flush(?:all|db)$/i.test(a)) || /\bflush(?:all|db)\b/i.test(c.stdin ?? '');
        if (c.name === 'mongorestore') return c.argv.includes('--drop');
        if (c.name === 'mongosh' || c.name === 'mongo') {
          const code = [c.argv.join(' '), c.stdin ?? ''].join('\n');
          return /\.dropDatabase\s*\(|\.drop\s*\(\s*\)|\.deleteMany\s*\(\s*\{\s*\}\s*\)|\.remove\s*\(\s*\{\s*\}\s*\)/.test(code);
        }
        return false;
      },
    },
  },
];
