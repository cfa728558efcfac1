/**
 * Option parsing of a command's argv, GNU style (getopt_long(3): bundled short letters, `--name=value`,
 * options after operands, `--` ending them), and the valued-option tables of the programs the
 * effects model reads (curl(1), wget(1)).
 */
import type { ShellCommand } from '../shell/model.js';

/** Parsed options of an argv tail. */
export interface Opts {
  /** Short option letters seen (bundles unbundled). */
  short: Set<string>;
  /** Long options seen, with their value ('' when none). */
  long: Map<string, string>;
  /** Values of valued options, by option spelling (`-o`, `--output`). */
  values: Map<string, string[]>;
  operands: string[];
}

/**
 * Parses options GNU-style (options may follow operands; `--` ends them). `valued` lists the
 * short letters and long names that take a value (`'o'`, `'output'`).
 */
export function parseOpts(args: string[], valued: { short?: string; long?: string[] } = {}): Opts {
  const o: Opts = { short: new Set(), long: new Map(), values: new Map(), operands: [] };
  const put = (k: string, v: string) => o.values.set(k, [...(o.values.get(k) ?? []), v]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      o.operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const key = eq < 0 ? a.slice(2) : a.slice(2, eq);
      let val = eq < 0 ? '' : a.slice(eq + 1);
      if (eq < 0 && valued.long?.includes(key)) val = args[++i] ?? '';
      o.long.set(key, val);
      put('--' + key, val);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const ch = a[k]!;
        o.short.add(ch);
        if (valued.short?.includes(ch)) {
          const val = k + 1 < a.length ? a.slice(k + 1) : (args[++i] ?? '');
          put('-' + ch, val);
          break;
        }
      }
      continue;
    }
    o.operands.push(a);
  }
  return o;
}

/** Options of a command's own arguments (argv[1..]). */
export function opts(cmd: ShellCommand, valued?: { short?: string; long?: string[] }): Opts {
  return parseOpts(cmd.argv.slice(1), valued);
}

/** curl options that take a value (curl(1)); enough to find operands and uploads. */
export const CURL_VALUED = {
  short: 'AbcCdDeEFHKmoPQrTuUwxXYyz',
  long: ['data', 'data-binary', 'data-raw', 'data-ascii', 'data-urlencode', 'form', 'form-string', 'header', 'output', 'upload-file', 'user', 'request', 'user-agent', 'referer', 'cookie', 'cookie-jar', 'config', 'proxy', 'max-time', 'connect-timeout', 'retry', 'output-dir', 'url', 'json', 'cacert', 'cert', 'key', 'resolve', 'write-out',
    // the rest of curl(1)'s valued options whose value may look like a host or a file name
    'connect-to', 'noproxy', 'preproxy', 'socks4', 'socks4a', 'socks5', 'socks5-hostname', 'proxy-user', 'proxy-header', 'dns-servers', 'dns-interface', 'dns-ipv4-addr', 'dns-ipv6-addr', 'interface', 'local-port', 'mail-from', 'mail-rcpt', 'mail-auth', 'netrc-file', 'trace', 'trace-ascii', 'stderr', 'dump-header', 'capath', 'crlfile', 'pinnedpubkey', 'cert-type', 'key-type', 'pass', 'ciphers', 'engine', 'unix-socket', 'abstract-unix-socket', 'limit-rate', 'max-filesize', 'max-redirs', 'retry-delay', 'retry-max-time', 'range', 'oauth2-bearer', 'aws-sigv4', 'variable', 'url-query', 'etag-save', 'etag-compare', 'hostpubmd5', 'hostpubsha256', 'proto', 'proto-redir', 'tls-max', 'expect100-timeout', 'keepalive-time', 'speed-limit', 'speed-time', 'time-cond', 'ftp-port', 'quote', 'telnet-option', 'login-options', 'sasl-authzid', 'service-name', 'ipfs-gateway'],
};
/** wget options that take a value (wget(1)). */
export const WGET_VALUED = {
  short: 'OoaPeUtTwQiBdlAR',
  long: ['output-document', 'output-file', 'post-file', 'post-data', 'body-file', 'body-data', 'method', 'header', 'user-agent', 'directory-prefix', 'tries', 'timeout', 'user', 'password', 'execute', 'input-file', 'save-cookies', 'load-cookies',
    // the rest of wget(1)'s options that take their value as the next word
    'append-output', 'base', 'config', 'bind-address', 'limit-rate', 'wait', 'waitretry', 'level', 'accept', 'reject', 'accept-regex', 'reject-regex', 'domains', 'exclude-domains', 'include-directories', 'exclude-directories', 'referer', 'ca-certificate', 'ca-directory', 'certificate', 'private-key', 'http-user', 'http-password', 'proxy-user', 'proxy-password', 'ftp-user', 'ftp-password', 'restrict-file-names', 'progress', 'quota', 'dns-timeout', 'connect-timeout', 'read-timeout', 'cut-dirs', 'default-page', 'local-encoding', 'remote-encoding', 'secure-protocol', 'ciphers', 'warc-file', 'max-redirect', 'prefer-family'],
};
