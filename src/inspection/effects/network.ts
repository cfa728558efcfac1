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
    }
  } else if (cmd.name === 'wget') {
    const o = parseOpts(args, WGET_VALUED);
    out.push(...(o.values.get('--post-file') ?? []), ...(o.values.get('--body-file') ?? []));
  }
  return out.filter((p) => p !== '-');
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

/** localhost, 127/8, ::1, 0.0.0.0. */
function isLoopback(host: string): boolean {
  return /^(?:localhost|localhost\.localdomain|127(?:\.\d+){3}|\[::1\]|::1|0\.0\.0\.0|host\.docker\.internal)$/.test(host);
}
