/**
 * credential-access rules beyond reading a key file (those are in persistence.ts with the other
 * file rules): the macOS keychain, cloud instance metadata, Kubernetes service-account tokens and
 * secrets, cloud secrets stores, process memory, browser credential stores, shell history, searches for passwords.
 * Techniques: https://attack.mitre.org/tactics/TA0006/.
 */
import type { Rule } from '../rule.js';
import type { ShellCommand } from '../shell/model.js';
import { readSources, opts, parseOpts } from '../effects/index.js';
import { idiomRule, writtenText } from './idioms.js';

/** Instance-metadata endpoints: AWS/Azure/GCP/OpenStack/DigitalOcean/Oracle 169.254.169.254, AWS
 * IPv6 fd00:ec2::254, ECS task credentials 169.254.170.2, GCP metadata.google.internal, Alibaba
 * 100.100.100.200. */
const METADATA = /(?:^|[^\w.])(?:169\.254\.169\.254|169\.254\.170\.2|\[?fd00:ec2::254\]?|metadata\.google\.internal|metadata\.goog|100\.100\.100\.200|metadata\.azure\.com)(?:[^\w.]|$)|\bAWS_CONTAINER_CREDENTIALS_(?:RELATIVE|FULL)_URI\b/i;

const KEYCHAIN_PATH = /(?:^|\/)Library\/Keychains\/[^/]+\.keychain(?:-db)?$|^~\/Library\/Keychains\/?$|^\/Library\/Keychains\/|(?:^|\/)\.local\/share\/keyrings\/|(?:^|\/)\.gnome2\/keyrings\//;
const BROWSER_STORE = /(?:Login Data|Web Data|Cookies|Local State|logins\.json|key[34]\.db|cookies\.sqlite|signons\.sqlite|Cookies\.binarycookies)$/;
const BROWSER_DIR = /(?:Google\/Chrome|google-chrome|chromium|BraveSoftware|Microsoft\/Edge|microsoft-edge|Vivaldi|Opera|Mozilla\/Firefox|\.mozilla\/firefox|Firefox\/Profiles|Safari|Containers\/com\.apple\.Safari|AppData\/(?:Local|Roaming)\/(?:Google|Mozilla|Microsoft\/Edge))/i;
const HISTORY_FILE = /(?:^|\/)\.(?:bash_history|zsh_history|sh_history|history|mysql_history|psql_history|python_history)$/;
/** PowerShell's PSReadLine history (`%APPDATA%\Microsoft\Windows\PowerShell\PSReadLine\ConsoleHost_history.txt`). */
const PS_HISTORY = /ConsoleHost_history\.txt$/i;
/** Windows and PowerShell commands that print or search a file they name. */
const WINDOWS_READERS = /^(?:type|get-content|gc|more|findstr|select-string|sls|copy|copy-item|cpi)$/i;

/** True when a command reads a shell history file: a read of a history file, a Windows reader
 * naming PSReadLine's history (or `(Get-PSReadLineOption).HistorySavePath`), or a listing of it
 * piped into Select-String (which searches the files it is handed). */
function readsHistory(c: ShellCommand): boolean {
  if (!/^(?:wc|ls|stat|rm|ln|shred|truncate)$/.test(c.name) && readSources(c).some((p) => HISTORY_FILE.test(p) || PS_HISTORY.test(p))) return true;
  const name = c.name.toLowerCase().replace(/\.exe$/, '');
  if (WINDOWS_READERS.test(name) && (c.argv.slice(1).some((a) => PS_HISTORY.test(a)) || /\bHistorySavePath\b/i.test(writtenText(c)))) return true;
  if (/^(?:select-string|sls)$/.test(name) && c.pipeline !== null) return c.pipeline.stages.slice(0, c.stage).some((s) => s.argv.slice(1).some((a) => PS_HISTORY.test(a) || HISTORY_FILE.test(a)));
  return false;
}
const K8S_TOKEN = /\/(?:var\/)?run\/secrets\/(?:kubernetes\.io|eks\.amazonaws\.com)\/|\/etc\/kubernetes\/(?:admin|kubelet|controller-manager|scheduler)\.conf$|\/var\/lib\/kubelet\/pki\//;

/** Every word and option value of a command (for hosts and paths that may sit anywhere). */
function words(c: ShellCommand): string {
  return c.argv.join(' ');
}

/** A path as a program may be handed it: an SQLite URI filename (`file:PATH?immutable=1`, sqlite3(1)
 * "URI filenames") is the file PATH. */
const bareFile = (p: string) => p.replace(/^file:(?:\/\/(?=\/))?/, '').replace(/\?(?:immutable|mode|nolock|cache|vfs)=.*$/, '');

function readsWhere(c: ShellCommand, re: RegExp): boolean {
  return readSources(c).some((p) => re.test(bareFile(p))) || c.argv.slice(1).some((a) => re.test(bareFile(a.replace(/^[^=]*=/, ''))) && !/^(?:ls|stat|file|test|\[|mkdir|chmod|chown|touch)$/.test(c.name));
}

/** True when `words` appear one after another in argv (`secretsmanager get-secret-value`). */
function hasSequence(argv: readonly string[], words: readonly string[]): boolean {
  return argv.some((_, i) => words.every((w, k) => argv[i + k] === w));
}

/** The value of a long option (`--query X` or `--query=X`), or null. */
function longOption(argv: readonly string[], name: string): string | null {
  for (let i = 1; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1] ?? '';
    if (argv[i]!.startsWith(`${name}=`)) return argv[i]!.slice(name.length + 1);
  }
  return null;
}

/**
 * True when a command prints a secret's value from a cloud secrets store (ATT&CK T1555.006,
 * https://attack.mitre.org/techniques/T1555/006/, names get-secret-value, gcloud secrets and az
 * keyvault secret show): `aws secretsmanager get-secret-value` / `batch-get-secret-value` (AWS
 * CLI reference), `aws ssm get-parameter(s)(-by-path) --with-decryption` (a SecureString in
 * clear), `gcloud secrets versions access` (gcloud reference), `az keyvault secret show|download`
 * (az keyvault secret reference), `vault kv get` (HashiCorp Vault), and the PowerShell modules'
 * `Get-SECSecretValue`, `Get-AzKeyVaultSecret -AsPlainText`. A `--query` that selects no value
 * field (`--query id`, `--query VersionId`) prints metadata only; listing names is
 * credential-store-enumeration (discovery.ts).
 */
function readsCloudSecret(c: ShellCommand): boolean {
  const a = c.argv;
  const q = longOption(a, '--query');
  const selects = (field: RegExp) => q === null || field.test(q);
  switch (c.name.toLowerCase()) {
    case 'aws':
      if (hasSequence(a, ['secretsmanager', 'get-secret-value']) || hasSequence(a, ['secretsmanager', 'batch-get-secret-value'])) return selects(/SecretString|SecretBinary|SecretValues/i);
      if (['get-parameter', 'get-parameters', 'get-parameters-by-path', 'get-parameter-history'].some((v) => hasSequence(a, ['ssm', v]))) return a.includes('--with-decryption') && selects(/Value/);
      return false;
    case 'gcloud':
      return hasSequence(a, ['secrets', 'versions', 'access']);
    case 'az':
      return (hasSequence(a, ['keyvault', 'secret', 'show']) && selects(/value/i)) || hasSequence(a, ['keyvault', 'secret', 'download']);
    case 'vault':
    case 'bao': {
      // `vault read PATH` prints a KV v1 secret or a secrets engine's credentials (database/creds/ROLE);
      // sys/ and auth/ paths are configuration (https://developer.hashicorp.com/vault/docs/commands/read)
      const o = opts(c, { short: '', long: ['field', 'format', 'address', 'namespace'] });
      if (o.operands[0] === 'read') return o.operands[1] !== undefined && !/^(?:sys|auth|identity)\//.test(o.operands[1]);
      return hasSequence(a, ['kv', 'get']);
    }
    case 'get-secsecretvalue':
      return true;
    case 'get-azkeyvaultsecret':
      return a.some((x) => /^-AsPlainText$/i.test(x));
    default:
      return false;
  }
}

/** Valued options of the password-manager CLIs (their `--help`), so that operands are found
 * wherever the options stand: 1Password `op` (global `--account`, `--config`, `--session`,
 * `--format`, …), Bitwarden `bw` (`--session`, `--output`, …), KeePassXC `keepassxc-cli`
 * (`-k/--key-file`, `-y/--yubikey`, `-a/--attributes`), LastPass `lpass` (`--field`, `--sync`). */
const PM_VALUED: Record<string, { short?: string; long?: string[] }> = {
  op: { long: ['account', 'config', 'encoding', 'format', 'session', 'cache', 'vault', 'fields', 'out-file', 'file-mode', 'categories', 'tags'] },
  bw: { long: ['session', 'response', 'output', 'organizationid', 'itemid', 'format', 'password'] },
  'keepassxc-cli': { short: 'kya', long: ['key-file', 'yubikey', 'attributes'] },
  lpass: { long: ['field', 'sync', 'color', 'format'] },
};
/** pass(1) and gopass subcommands that do not print a secret: with none of these, the first
 * operand names an entry and `pass NAME` / `gopass NAME` show it. */
const PASS_OTHER = new Set(['init', 'ls', 'list', 'find', 'search', 'insert', 'add', 'edit', 'generate', 'rm', 'remove', 'delete', 'mv', 'rename', 'cp', 'copy', 'git', 'help', 'version', 'sync', 'setup', 'config', 'audit', 'mounts', 'recipients', 'templates', 'completion', 'clone', 'fsck', 'history', 'pwgen', 'update', 'alias', 'age', 'convert', 'create', 'new', 'link', 'rcs', 'unclip', 'env', 'fscopy', 'merge', 'process']);
/** An `op item get --fields` selection that names a secret field (`password`, `label=password`, `credential`, `token`, …). */
const SECRET_FIELD = /pass(?:word)?|secret|token|credential|private|key|otp|totp|pin\b/i;

/**
 * True when a command prints (or copies to the clipboard) a secret from a password manager
 * (ATT&CK T1555.005 Password Managers, https://attack.mitre.org/techniques/T1555/005/):
 * 1Password CLI `op read op://vault/item/field` and `op item get … --reveal` / `--otp` / `--fields
 * password`, `op document get` (https://developer.1password.com/docs/cli/reference/), Bitwarden
 * `bw get password|item|notes|totp|attachment`, `bw export` and `bw list items` (its item objects
 * carry the passwords) (https://bitwarden.com/help/cli/), pass(1) `pass show NAME`, `pass NAME`, `pass grep`, `pass otp`
 * (https://www.passwordstore.org/), gopass `show`/`cat`/`otp` or a bare entry name
 * (https://github.com/gopasspw/gopass/blob/master/docs/commands/show.md), `keepassxc-cli show -s`
 * (`--show-protected`) or `-a password`, `clip`, `export` (keepassxc-cli(1)), LastPass `lpass show`
 * (not when it selects only `--username`/`--url`/`--id`/`--name`) and `lpass export`
 * (lpass(1)). The macOS keychain (`security find-generic-password -w`) and the Secret Service
 * (`secret-tool lookup`) are keychain-access's (T1555.001); listing entries (`op item list`,
 * `bw list folders`) is credential-store-enumeration's.
 */
function readsPasswordManager(c: ShellCommand): boolean {
  const name = c.name.toLowerCase().replace(/\.exe$/, '');
  if (!['op', 'bw', 'pass', 'gopass', 'keepassxc-cli', 'lpass'].includes(name)) return false;
  const o = parseOpts(c.argv.slice(1), PM_VALUED[name] ?? {});
  const [sub = '', sub2 = ''] = o.operands;
  switch (name) {
    case 'op': {
      if (sub === 'read' || (sub === 'document' && sub2 === 'get')) return true;
      if (sub !== 'item' || sub2 !== 'get') return false;
      return o.long.has('reveal') || o.long.has('otp') || (o.values.get('--fields') ?? []).some((f) => SECRET_FIELD.test(f));
    }
    case 'bw':
      // `bw list items` prints every item object with its login.password and totp (Bitwarden CLI
      // "list": https://bitwarden.com/help/cli/#list), a read of the whole vault, not a listing of names
      return (sub === 'get' && /^(?:password|item|notes|totp|attachment|exposed)$/.test(sub2)) || sub === 'export' || (sub === 'list' && sub2 === 'items');
    case 'pass':
    case 'gopass':
      if (/^(?:show|cat|grep|otp)$/.test(sub)) return true;
      // `pass -c NAME`, `pass NAME`: an entry name shows it
      return sub !== '' && !PASS_OTHER.has(sub);
    case 'keepassxc-cli': {
      if (sub === 'clip' || sub === 'export') return true;
      if (sub !== 'show') return false;
      const attrs = [...(o.values.get('-a') ?? []), ...(o.values.get('--attributes') ?? [])];
      return o.short.has('s') || o.long.has('show-protected') || attrs.some((a) => /^password$/i.test(a));
    }
    case 'lpass': {
      if (sub === 'export') return true;
      if (sub !== 'show') return false;
      const reveals = o.long.has('password') || o.long.has('all') || o.long.has('field') || o.long.has('notes') || o.long.has('json') || o.short.has('j') || o.short.has('c') || o.long.has('clip');
      const selectsOnly = ['username', 'url', 'id', 'name'].some((k) => o.long.has(k));
      return reveals || !selectsOnly;
    }
    default:
      return false;
  }
}

/** Impacket's example scripts, installed as `impacket-NAME` or run as `NAME.py` (https://github.com/fortra/impacket). */
const IMPACKET = /^impacket-\w+$|^(?:psexec|wmiexec|smbexec|atexec|dcomexec|secretsdump|getTGT|getST|lookupsid|reg|services|smbclient|mssqlclient|rpcdump|GetUserSPNs|GetADUsers|ntlmrelayx)\.py$/i;

/**
 * An NTLM hash used in place of a password (pass the hash, ATT&CK T1550.002,
 * https://attack.mitre.org/techniques/T1550/002/): FreeRDP `/pth:`, evil-winrm `-H`, Impacket's
 * `-hashes LM:NT`, CrackMapExec/NetExec `-H`, Samba's `--pw-nt-hash`, the pth-* tools, mimikatz
 * `sekurlsa::pth`, Invoke-TheHash's `-Hash`.
 */
function passesHash(c: ShellCommand): boolean {
  const name = c.name.toLowerCase().replace(/\.exe$/, '');
  const args = c.argv.slice(1);
  if (/^(?:x|wl|sdl-)?freerdp3?$/.test(name)) return args.some((a) => /^[/+]pth:/i.test(a));
  if (name === 'evil-winrm') return args.some((a) => a === '-H' || a === '--hash');
  if (IMPACKET.test(c.name)) return args.includes('-hashes');
  if (/^(?:crackmapexec|cme|netexec|nxc)$/.test(name)) return args.some((a) => a === '-H' || a === '--hash');
  if (name === 'smbclient' || name === 'rpcclient' || name === 'net' || name === 'winexe') return args.some((a) => a === '--pw-nt-hash');
  if (/^pth-\w+$/.test(name)) return true;
  if (/^invoke-(?:thehash|smbexec|wmiexec|smbclient|smbenum)$/.test(name)) return args.some((a) => /^-Hash$/i.test(a));
  return /\bsekurlsa::pth\b/i.test(args.join(' '));
}

/** An environment variable name that holds a secret: a `_`-separated word SECRET, TOKEN, PASSWORD,
 * PASSWD, CREDENTIAL(S), APIKEY, or an API/ACCESS/SECRET/PRIVATE/AUTH/SIGNING/MASTER key
 * (`AWS_SECRET_ACCESS_KEY`, `OPENAI_API_KEY`, `GITHUB_TOKEN`; not `TOKENIZERS_PARALLELISM`). */
const SECRET_VAR = /^(?:[A-Z0-9]+_)*(?:SECRET|SECRETS|TOKEN|PASSWORD|PASSWD|CREDENTIALS?|APIKEY|(?:API|ACCESS|SECRET|PRIVATE|AUTH|SIGNING|MASTER|ENCRYPTION)_KEY)(?:_[A-Z0-9]+)*$/i;
/** A grep pattern that looks for secrets in a listing. */
const SECRET_WORDS = /secret|token|passw|api_?key|credential|private_key|access_key/i;

/** Printing a secret variable: `printenv NAME`, `echo $NAME` / `printf … "${NAME}"` (not `${NAME:+x}`
 * or `${#NAME}`, which print no secret), or an environment listing filtered for secrets
 * (`env | grep -i secret`). */
function printsSecretVar(c: ShellCommand): boolean {
  if (c.name === 'printenv') return c.argv.slice(1).some((a) => SECRET_VAR.test(a));
  if (c.name === 'echo' || c.name === 'printf' || c.name === 'print') {
    for (const m of writtenText(c).matchAll(/\$(?:\{([A-Za-z_]\w*)([^}]*)\}|([A-Za-z_]\w*))/g)) {
      const v = m[1] ?? m[3]!;
      if (SECRET_VAR.test(v) && !/^:?[+]/.test(m[2] ?? '')) return true;
    }
    return false;
  }
  if (/^(?:grep|egrep|rg)$/.test(c.name) && c.pipeline && c.stage > 0) {
    const prev = c.pipeline.stages[c.stage - 1]!;
    const lists = prev.name === 'env' || prev.name === 'printenv' || prev.name === 'set' || (prev.name === 'export' && prev.argv[1] === '-p') || (prev.name === 'declare' && /^-[px]+$/.test(prev.argv[1] ?? ''));
    return lists && prev.argv.slice(1).every((a) => a.startsWith('-')) && c.argv.slice(1).some((a) => !a.startsWith('-') && SECRET_WORDS.test(a));
  }
  return false;
}

export const CREDENTIAL_RULES: Rule[] = [
  {
    id: 'secret-env-read',
    name: 'Secret environment variable printed',
    category: 'credential-access',
    action: 'record',
    attack: 'T1552.001',
    description: 'A secret held in an environment variable printed into the transcript: printenv AWS_SECRET_ACCESS_KEY, echo $OPENAI_API_KEY, printf "%s" "${GITHUB_TOKEN}", or an environment listing filtered for secrets (env | grep -i secret, printenv | grep TOKEN).',
    help: 'The value ends up in the model\'s context and the logs. To check that a key is set, test it without printing it ([ -n "$KEY" ], ${KEY:+set}).',
    examples: {
      match: ['printenv AWS_SECRET_ACCESS_KEY', 'echo $AWS_SECRET_ACCESS_KEY', 'env | grep -i secret'],
      not_match: ['printenv PATH', 'echo ${OPENAI_API_KEY:+set}', 'env | grep -i node_', 'echo $TOKENIZERS_PARALLELISM'],
    },
    match: { command: printsSecretVar },
  },
  {
    id: 'pass-the-hash',
    name: 'Password hash used to log in',
    category: 'credential-access',
    action: 'block',
    attack: 'T1550.002',
    description: "An NTLM hash used in place of a password to log in to another host: xfreerdp /pth:, evil-winrm -H, Impacket's -hashes, crackmapexec/netexec -H, smbclient/rpcclient --pw-nt-hash, pth-* tools, mimikatz sekurlsa::pth, Invoke-TheHash -Hash.",
    help: 'A stolen hash is being replayed to log in elsewhere: nobody who knows the password needs its hash. Stop and check where the hash came from.',
    examples: {
      match: ['xfreerdp /u:admin /pth:31d6cfe0d16ae931b73c59d7e0c089c0 /v:10.0.0.7', 'impacket-psexec -hashes :31d6cfe0d16ae931b73c59d7e0c089c0 corp/admin@10.0.0.7', 'nxc smb 10.0.0.0/24 -u admin -H 31d6cfe0d16ae931b73c59d7e0c089c0'],
      not_match: ['xfreerdp /u:admin /v:10.0.0.7', 'smbclient //fs01/share -U alice', 'sha256sum release.tar.gz'],
    },
    match: { command: passesHash },
  },
  {
    id: 'keychain-access',
    name: 'Keychain secrets read',
    category: 'credential-access',
    action: 'block',
    attack: 'T1555.001',
    description: 'Reading the macOS keychain (security find-generic-password/find-internet-password -w/-g, dump-keychain, export, a keychain file) or a Linux keyring (secret-tool lookup, keyring files).',
    help: 'Hands out stored passwords and tokens. Check which secret the agent needs and why.',
    examples: {
      match: ['security find-generic-password -wa Chrome', 'security dump-keychain -d login.keychain', 'cat ~/Library/Keychains/login.keychain-db'],
      not_match: ['security list-keychains', 'security find-certificate -a -p', 'ls ~/Library/Keychains'],
    },
    match: {
      command: (c) => {
        const a = c.argv.slice(1);
        if (c.name === 'security') return /^(?:find-(?:generic|internet)-password|dump-keychain|export|find-key|unlock-keychain|set-key-partition-list)$/.test(a[0] ?? '') && (a[0] !== 'find-generic-password' && a[0] !== 'find-internet-password' ? true : a.some((x) => /^-[a-zA-Z]*[wg]/.test(x)) || a.length > 0);
        if (c.name === 'secret-tool') return a[0] === 'lookup' || a[0] === 'search';
        if (/^(?:chainbreaker|keychaindump|lazagne)$/i.test(c.name)) return true;
        return readsWhere(c, KEYCHAIN_PATH);
      },
    },
  },
  {
    id: 'cloud-metadata-access',
    name: 'Cloud instance metadata queried',
    category: 'credential-access',
    action: 'block',
    attack: 'T1552.005',
    description: 'A request to a cloud instance-metadata endpoint (169.254.169.254, metadata.google.internal, fd00:ec2::254, the ECS credentials endpoint 169.254.170.2, …), where the instance role\'s credentials are served.',
    help: 'Fetches the credentials of the machine\'s cloud role. Check why the agent needs instance metadata.',
    examples: {
      match: ['curl http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'curl -H "Metadata-Flavor: Google" http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token', 'wget -qO- http://169.254.170.2$AWS_CONTAINER_CREDENTIALS_RELATIVE_URI'],
      not_match: ['curl https://api.example.com/v1/metadata', 'ping 169.254.1.1'],
    },
    match: {
      command: (c) => METADATA.test(words(c)) && !/^(?:echo|printf|grep|egrep|rg|ag|cat|ping|sh|bash|zsh|dash|ksh|git|sed)$/.test(c.name),
      raw: /\b169\.254\.169\.254\b|\bmetadata\.google\.internal\b|\b169\.254\.170\.2\b/,
    },
  },
  {
    id: 'kubernetes-secret-read',
    name: 'Kubernetes token or secret read',
    category: 'credential-access',
    action: 'block',
    attack: 'T1552.007',
    description: 'Reading a service-account token (/var/run/secrets/kubernetes.io/…), a cluster admin kubeconfig, or secrets through the API (kubectl get/describe secret(s), with -o yaml/json or jsonpath to the data).',
    help: 'Tokens and secrets give access to the cluster and the services it runs.',
    examples: {
      match: ['cat /var/run/secrets/kubernetes.io/serviceaccount/token', 'kubectl get secrets -A -o yaml', 'kubectl get secret db -o jsonpath={.data.password}'],
      not_match: ['kubectl get pods', 'kubectl get secrets', 'kubectl create secret generic x --from-literal=a=b'],
    },
    match: {
      command: (c) => {
        if ((c.name === 'kubectl' || c.name === 'oc' || c.name === 'k3s') && c.argv.some((a) => K8S_TOKEN.test(a))) return true;
        if (c.name === 'kubectl' || c.name === 'oc' || c.name === 'k3s') {
          const o = opts(c, { short: 'nolc', long: ['namespace', 'output', 'selector', 'context', 'kubeconfig'] });
          const pos = o.operands.filter((p) => p !== 'kubectl');
          const secret = pos.slice(1).some((r) => /^secrets?(?:\/|$)/.test(r));
          if (pos[0] === 'describe' && secret) return true;
          const out = [...(o.values.get('-o') ?? []), ...(o.values.get('--output') ?? [])].join(' ');
          return pos[0] === 'get' && secret && /yaml|json|go-template|custom-columns/.test(out);
        }
        return readsWhere(c, K8S_TOKEN);
      },
    },
  },
  {
    id: 'cloud-secret-read',
    name: 'Secret read from a cloud secrets store',
    category: 'credential-access',
    action: 'block',
    attack: 'T1555.006',
    description: 'A secret value printed from a cloud secrets store: aws secretsmanager get-secret-value, aws ssm get-parameter(s) --with-decryption, gcloud secrets versions access, az keyvault secret show/download, vault kv get, vault read (not sys/, auth/ or identity/ paths), Get-SECSecretValue, Get-AzKeyVaultSecret -AsPlainText. A --query that selects metadata only does not fire.',
    help: 'The secret lands in the transcript and whatever reads it. Check which secret and why the task needs its value.',
    examples: {
      match: ['aws secretsmanager get-secret-value --secret-id prod/db', 'gcloud secrets versions access latest --secret=db-pass', 'az keyvault secret show --vault-name kv --name db-pass'],
      not_match: ['aws secretsmanager describe-secret --secret-id prod/db', 'gcloud secrets versions list db-pass', 'az keyvault secret show --vault-name kv --name db-pass --query id'],
    },
    match: { command: readsCloudSecret },
  },
  {
    id: 'password-manager-read',
    name: 'Secret read from a password manager',
    category: 'credential-access',
    action: 'block',
    attack: 'T1555.005',
    description: 'A secret printed or copied out of a password manager: 1Password op read op://…, op item get --reveal/--otp/--fields password, op document get; Bitwarden bw get password|item|notes|totp, bw export, bw list items (the items carry their passwords); pass/gopass show (or a bare entry name), pass grep, pass otp; keepassxc-cli show -s / -a password, clip, export; lpass show (not --username/--url only), lpass export. Signing in, syncing and listing entries do not fire.',
    help: 'The secret lands in the transcript and whatever reads it. Check which entry and why the task needs its value.',
    examples: {
      match: ['op read op://Private/GitHub/password', 'bw get password github.com', 'pass show email/work'],
      not_match: ['op signin', 'bw sync', 'pass ls'],
    },
    match: { command: readsPasswordManager },
  },
  {
    id: 'process-memory-read',
    name: 'Process memory read',
    category: 'credential-access',
    action: 'block',
    attack: 'T1003.007',
    description: 'Reading another process\'s memory: /proc/PID/mem (with /proc/PID/maps), gcore, gdb -p … dump memory, memory dumpers (mimipenguin, procdump, swap and hibernation files).',
    help: 'Process memory holds passwords, keys and tokens in clear text.',
    examples: {
      match: ['dd if=/proc/1234/mem of=/tmp/m bs=1 skip=$((0x7f00))', 'gcore -o /tmp/dump 4321', 'sudo bash mimipenguin.sh'],
      not_match: ['cat /proc/1234/status', 'cat /proc/meminfo', 'gdb ./a.out'],
    },
    match: {
      command: (c) => {
        const w = words(c);
        if (/\/proc\/(?:\d+|\$\{?\w+\}?|"\$\{?\w+\}?"|self|\*)\/mem\b/.test(w) || readSources(c).some((p) => /^\/proc\/[^/]+\/mem$/.test(p))) return true;
        if (c.name === 'gcore') return true;
        if (c.name === 'gdb') return /\bdump\s+(?:memory|binary)\b|\bgcore\b|\bgenerate-core-file\b/.test(w) && /(?:^|\s)(?:-p|--pid)\b/.test(w);
        if (/mimipenguin|procdump|3snake|linikatz/i.test(w)) return true;
        return readSources(c).some((p) => /^\/(?:swapfile|private\/var\/vm\/sleepimage|dev\/mem|dev\/kmem|proc\/kcore)$/.test(p));
      },
    },
  },
  {
    id: 'browser-credential-read',
    name: 'Browser passwords or cookies read',
    category: 'credential-access',
    action: 'block',
    attack: 'T1555.003',
    description: "Reading or copying a browser's credential stores: Chrome/Edge/Brave `Login Data`, `Cookies`, `Local State`, Firefox `logins.json`/`key4.db`/`cookies.sqlite`, Safari cookies.",
    help: 'Saved passwords and session cookies let the holder log in as the user.',
    examples: {
      match: ['sqlite3 ~/Library/Application\\ Support/Google/Chrome/Default/Login\\ Data "select * from logins"', 'cp ~/.mozilla/firefox/x.default/logins.json /tmp/', 'cat ~/Library/Cookies/Cookies.binarycookies'],
      not_match: ['ls ~/.mozilla/firefox', 'sqlite3 app.db "select * from logins"'],
    },
    match: {
      command: (c) => {
        if (/^(?:hack-browser-data|sharpchromium|sharpweb|firepwd|lazagne)$/i.test(c.name)) return true;
        return c.argv.slice(1).map(bareFile).some((a) => BROWSER_STORE.test(a) && (BROWSER_DIR.test(a) || /binarycookies|logins\.json|key[34]\.db|cookies\.sqlite/.test(a))) && !/^(?:ls|stat|file|test|\[)$/.test(c.name);
      },
    },
  },
  {
    id: 'shell-history-read',
    name: 'Shell history read',
    category: 'credential-access',
    action: 'record',
    attack: 'T1552.003',
    description: 'Reading shell or client history files (~/.bash_history, ~/.zsh_history, ~/.mysql_history, PowerShell\'s PSReadLine ConsoleHost_history.txt, …), where passwords typed on command lines end up.',
    help: 'History files often hold passwords and tokens. Check what the agent looks for.',
    examples: {
      match: ["cat ~/.bash_history | grep -e '-p ' -e pass", 'grep -i password /root/.bash_history'],
      not_match: ['history | tail', 'wc -l ~/.bash_history_backup_notes.md'],
    },
    match: { command: readsHistory, raw: /\b(?:Get-Content|gc|type|cat)\b[^\n;|]*(?:HistorySavePath\b|ConsoleHost_history\.txt\b)/i },
  },
  {
    id: 'credential-search',
    name: 'Search for stored credentials',
    category: 'credential-access',
    action: 'record',
    attack: 'T1552.001',
    description: 'Searching the whole disk or home for passwords and keys: grep -r password / (or /home, /etc, ~), find / -name id_rsa / credentials / .netrc / *.pem, locate id_rsa; on Windows findstr cpassword in SYSVOL (Group Policy Preferences passwords).',
    help: 'Hunting for secrets outside the project. Check what the agent is looking for.',
    examples: {
      match: ['grep -ri password / 2>/dev/null', 'find / -name id_rsa 2>/dev/null', 'find /home -type f -name .netrc', 'findstr /S cpassword \\\\dc\\sysvol\\*.xml'],
      not_match: ['grep -rn password src/', 'find . -name "*.pem"', 'grep -r TODO ~/project'],
    },
    match: {
      command: (c) => {
        const o = opts(c, { short: c.name === 'find' ? '' : 'efmABCd', long: ['include', 'exclude'] });
        const broad = (p: string) => /^(?:\/|\/\/|\/home|\/etc|\/root|\/Users|~|\/var|\/opt|\/mnt|\/srv|C:\\?)\/?$/.test(p) || /(?:^|\/)\.(?:aws|ssh|gnupg|azure|kube|docker|oci)(?:\/|$)|\.config\/gcloud/.test(p);
        if (c.name === 'find') {
          const starts: string[] = [];
          for (const a of c.argv.slice(1)) {
            if (a.startsWith('-') || a === '(' || a === '!') break;
            starts.push(a);
          }
          const secretName = /^["']?(?:\.gnupg|\.ssh|\.aws|\*?id_(?:rsa|dsa|ecdsa|ed25519)\*?|\.?netrc|credentials(?:\.\w+)?|\*\.(?:pem|key|kdbx|ppk|pfx|p12|ovpn)|\.git-credentials|\.pgpass|\.npmrc|\.pypirc|authorized_keys|known_hosts|\*pass\w*\*?|\*\.?history|token|access_tokens\.db|msal_token_cache\.json|accessTokens\.json|credentials\.db|\.env|wp-config\.php|\*\.kdb\w*)["']?$/i;
          return starts.some(broad) && c.argv.some((a, i) => /^-i?(?:name|path|wholename|regex)$/.test(c.argv[i - 1] ?? '') && secretName.test(a));
        }
        if (c.name === 'grep' || c.name === 'egrep' || c.name === 'rg' || c.name === 'ag' || c.name === 'ack') {
          const recursive = c.name !== 'grep' && c.name !== 'egrep' ? true : o.short.has('r') || o.short.has('R') || o.long.has('recursive');
          const term = c.argv.slice(1).some((a) => /pass(?:w(?:or)?d)?|secret|api[_-]?key|private key|BEGIN (?:RSA|OPENSSH|EC)|aws_secret/i.test(a));
          return recursive && term && o.operands.slice(1).some(broad);
        }
        if (c.name === 'locate' || c.name === 'mlocate' || c.name === 'plocate') return c.argv.slice(1).some((a) => /id_rsa|\.netrc|credentials|\.pem$|\.kdbx$|password/i.test(a));
        // Windows: Group Policy Preferences passwords in SYSVOL (`findstr /S cpassword …\sysvol\*.xml`)
        if (/^findstr$/i.test(c.name)) return c.argv.slice(1).some((a) => /^cpassword$/i.test(a)) && c.argv.slice(1).some((a) => /sysvol|\.xml$/i.test(a));
        return false;
      },
    },
  },
];

/** Windows-independent idioms: packet capture (credentials on the wire), keylogging. */
export const CREDENTIAL_IDIOM_RULES: Rule[] = [
  idiomRule({
    id: 'input-capture',
    name: 'Keystrokes or passwords captured',
    category: 'credential-access',
    action: 'record',
    attack: 'T1056',
    description: 'Capturing what the user types or enters: a DEBUG trap or PROMPT_COMMAND logging $BASH_COMMAND or history, a fake password dialog (osascript display dialog … hidden answer, PowerShell PromptForCredential), keyloggers (logkeys, xinput test, Get-Keystrokes, SetWindowsHookEx), a browser started with a remote-debugging port to read its cookies.',
    help: 'Takes passwords as they are typed. Check why the agent installs such a hook.',
    examples: {
      match: ["trap 'echo \"$BASH_COMMAND\" >> /tmp/.k.log' DEBUG", "osascript -e 'display dialog \"Password:\" default answer \"\" with hidden answer'", 'logkeys --start --output /tmp/k.log'],
      not_match: ["trap 'rm -f $TMP' EXIT", "osascript -e 'display dialog \"Done\"'"],
    },
    idioms: [
      { re: /\btrap\b.*\$BASH_COMMAND.*\bDEBUG\b|\bPROMPT_COMMAND=.*(?:history\s+-a|logger|tee|\$BASH_COMMAND)/ },
      { re: /\bdisplay\s+dialog\b.*\bhidden\s+answer\b/i },
      // a Windows credential prompt shown by a script (PowerShell $host.UI.PromptForCredential, CredUIPromptForCredentials)
      { re: /\.PromptForCredential\s*\(|\bCredUIPromptForCredentials\w*\b/i },
      { re: /\b(?:logkeys|xinput\s+test|Get-Keystrokes|SetWindowsHookEx|GetAsyncKeyState|keylogger|pynput\.keyboard)\b/i },
      { re: /--remote-debugging-port\b/ },
    ],
  }),
  idiomRule({
    id: 'cloud-credential-create',
    name: 'Cloud identity or key created',
    category: 'persistence',
    action: 'record',
    attack: 'T1098.001',
    description: 'A cloud user, access key, login profile or service-account key created, or a role granted: aws iam create-user/create-access-key/create-login-profile/attach-*-policy, az ad user/sp create, az role assignment create, gcloud iam service-accounts keys create, gcloud projects add-iam-policy-binding, a Kubernetes (cluster)rolebinding to cluster-admin or admin (kubectl create clusterrolebinding, oc adm policy add-cluster-role-to-user).',
    help: 'A new identity or key outlives the session and gives lasting access to the cloud account.',
    examples: {
      match: ['aws iam create-user --user-name backdoor', 'aws iam create-access-key --user-name x', 'gcloud iam service-accounts keys create k.json --iam-account sa@p.iam.gserviceaccount.com'],
      not_match: ['aws iam list-users', 'aws sts get-caller-identity', 'gcloud iam service-accounts list'],
    },
    idioms: [
      { re: /\baws\s+iam\s+(?:create-(?:user|access-key|login-profile|service-specific-credential)|attach-(?:user|role|group)-policy|put-(?:user|role)-policy|add-user-to-group|update-assume-role-policy)\b/ },
      { re: /\baz\s+(?:ad\s+(?:user|sp|app)\s+(?:create|credential\s+reset)|role\s+assignment\s+create)\b/ },
      { re: /\bgcloud\s+(?:iam\s+service-accounts\s+keys\s+create|projects\s+add-iam-policy-binding|iam\s+service-accounts\s+create)\b/ },
      // Kubernetes: cluster-admin or admin bound to a user, group or service account (ATT&CK T1098.006,
      // https://attack.mitre.org/techniques/T1098/006/); OpenShift's `oc adm policy add-cluster-role-to-user`
      { re: /\b(?:kubectl|oc)\b[^|;&\n]*\bcreate\s+(?:cluster)?rolebinding\b[^|;&\n]*--clusterrole[= ]["']?(?:cluster-admin|admin)\b|\boc\s+adm\s+policy\s+add-(?:cluster-)?role-to-(?:user|group)\s+(?:cluster-admin|admin)\b/ },
    ],
  }),
  idiomRule({
    id: 'network-sniffing',
    name: 'Network traffic captured',
    category: 'credential-access',
    action: 'record',
    attack: 'T1040',
    description: 'Capturing network traffic (tcpdump, tshark, dumpcap, ettercap, dsniff, arpspoof, bettercap, responder, netsh trace capture=yes, pktmon start, Network Monitor nmcap /capture, wireshark -k); scanning hosts and ports is network-scan (discovery.ts).',
    help: 'Captured traffic carries credentials and session tokens. Check what the capture is for and where the file goes.',
    examples: {
      match: ['sudo tcpdump -i eth0 -w /tmp/c.pcap', 'tshark -c 5 -i en0', 'pktmon start --etw'],
      not_match: ['tcpdump --version', 'tcpdump -r capture.pcap', 'nmap --help'],
    },
    idioms: [
      { re: /(?:^|[\\/])(?:tcpdump|tshark|dumpcap|ettercap|dsniff|arpspoof|bettercap|responder|mitm6|tcpflow|ngrep)(?:\.exe)?\s+(?!--?(?:version|help|h|v)\b)(?!(?:[\s\S]*\s)?-r\s)\S/i, names: ['tcpdump', 'tshark', 'dumpcap', 'ettercap', 'dsniff', 'arpspoof', 'bettercap', 'responder', 'mitm6', 'tcpflow', 'ngrep'] },
      // Wireshark started capturing at once (-k) on an interface
      { re: /(?:^|[\\/])wireshark(?:\.exe)?\s+(?:.*\s)?-k\b/i, names: ['wireshark'] },
      { re: /\bnetsh(?:\.exe)?\s+trace\s+start\b.*capture=yes|\bpktmon(?:\.exe)?\s+(?:start|filter)\b|\bnmcap(?:\.exe)?\s+.*\/capture\b/i },
    ],
  }),
];
