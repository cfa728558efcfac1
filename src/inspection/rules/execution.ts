/**
 * execution rules: a shell started from inside another program (GTFOBins' `shell` entries,
 * https://gtfobins.github.io/), and known offensive tooling run by name. Technique pages:
 * https://attack.mitre.org/techniques/T1059/004/, https://attack.mitre.org/techniques/T1588/002/.
 */
import type { Rule } from '../rule.js';
import type { ShellCommand } from '../shell/model.js';
import { SHELLS } from '../shell/context.js';
import { shellScriptArg } from '../shell/carriers.js';
import { idiomRule } from './idioms.js';
import { downloadedFiles, executedFiles } from '../effects/index.js';

/** Remote-desktop and remote-support programs (ATT&CK T1219 "Remote Access Tools"): a name in a
 * program's or installer's file name (`AnyDesk.exe`, `TeamViewer_Setup.exe`, `T1219_NetSupport.exe`). */
const REMOTE_DESKTOP = /(?:^|[^a-z])(?:anydesk|teamviewer|ammyy|netsupport|ultraviewer|vncviewer|winvnc|tvnserver|splashtop|srserver|strwinclt|logmein|gotoassist|remotepc|screenconnect|connectwisecontrol|rustdesk|dwagent|simplehelp|meshagent|quickassist)/i;

/** True when a command runs, installs or downloads a remote-desktop program: its name, the file it
 * runs (`Start-Process X.exe`, `msiexec /i X.msi`), or the file or URL it downloads. */
function remoteDesktopTool(c: ShellCommand): boolean {
  const base = (p: string) => p.replace(/\\/g, '/').replace(/^.*\//, '');
  const urls = downloadedFiles(c).length ? c.argv.filter((a) => /^https?:\/\//i.test(a)).map((u) => u.replace(/[?#].*$/, '')) : [];
  return [c.argv[0] ?? '', ...executedFiles(c), ...downloadedFiles(c), ...urls].some((p) => REMOTE_DESKTOP.test(base(p)));
}

/** A shell program named by path inside an argument (`'!/bin/sh'`, `system("/bin/bash")`, `-exec /bin/sh`). */
const SHELL_PATH = /(?:^|[^\w/.-])\/(?:usr\/)?(?:local\/)?(?:s?bin\/)(?:ba|da|z|k|c|tc|fi|a|mk|r|pd|lk|y)?sh(?![\w.-])/;
/** A bare shell name as a whole argument or run by an escape (`!sh`, `:!bash`, `exec sh`, `spawn sh`, `system("sh")`, `pty.spawn("bash")`). */
const SHELL_NAME = /(?:^!|:!|\bexec\s+|\bspawn\s*\(?\s*["']?|\b(?:system|popen|os\.system|pty\.spawn|execl?p?)\s*\(\s*["'`])(?:ba|da|z|k)?sh(?:\s+-[ilp]+)*\s*(?:$|["'`);])/;
/** Programs whose arguments only name or print a shell (they do not start one). */
const NAMES_ONLY = new Set(['echo', 'printf', 'cat', 'ls', 'file', 'which', 'whereis', 'type', 'stat', 'readlink', 'realpath', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'chsh', 'usermod', 'useradd', 'adduser', 'test', '[', '[[', 'ldd', 'strings', 'sha256sum', 'md5sum', 'cmp', 'diff', 'head', 'tail', 'wc', 'od', 'hexdump', 'xxd', 'objdump', 'nm', 'readelf', 'ln', 'cp', 'mv', 'chmod', 'chown', 'install', 'export', 'local', 'declare', 'sed', 'git', 'help', 'update-alternatives', 'tee', 'sort', 'uniq', 'cut', 'tr', 'jq', 'yq', 'shellcheck', 'shfmt', 'docker-compose']);

/** True when a shell command is interactive: no `-c` script, no script operand, no script on stdin. */
function interactiveShell(c: ShellCommand): boolean {
  if (!SHELLS.has(c.name) || shellScriptArg(c.argv) !== null) return false;
  if (c.pipeline !== null && c.stage > 0) return false;
  if (c.redirects.some((r) => (/^0?<$/.test(r.op) && !/^\/dev\/(?:tty|pts)/.test(r.target)) || r.op === '<<' || r.op === '<<<')) return false;
  const operands = c.argv.slice(1).filter((a) => !a.startsWith('-') && !a.startsWith('+'));
  return operands.length === 0 || operands.every((a) => a === '-');
}

/**
 * True when the command starts an interactive shell from inside another program or through a
 * launcher: a shell path or escape in its arguments (`vim -c ':!/bin/sh'`, `find . -exec /bin/sh \;`,
 * `awk 'BEGIN {system("/bin/sh")}'`, `python -c 'pty.spawn("/bin/sh")'`), or itself an
 * interactive shell run by a wrapper or carrier (`nice /bin/sh`, `env /bin/sh`, a `-c` payload
 * `exec /bin/sh 0<&2`). A shell run directly by the tool (`bash`), or a shell given a script, is not.
 */
/** Package managers: a bare shell name is a package (`apt install zsh`), a shell path in an option runs it (`apt-get -o APT::Update::Pre-Invoke::=/bin/sh`). */
const PACKAGE_MANAGERS = new Set(['apt', 'apt-get', 'yum', 'dnf', 'brew', 'apk', 'pacman', 'zypper', 'pip', 'pip3', 'npm', 'gem', 'cargo', 'conda', 'snap', 'dpkg', 'rpm', 'man', 'info', 'whatis', 'apropos']);
/** Text written into a file that starts an interactive shell wired to the terminal (`exec /bin/sh 0<&2 1>&2`, `system("/bin/sh")`). */
const ESCAPE_CONTENT = /\/bin\/(?:ba|da|z|k)?sh\b[^'"\n]*(?:[0-2]?[<>]&\s*[0-2]|\/dev\/tty)|(?:system|exec|spawn|popen|execute_process)\s*\(?\s*(?:COMMAND\s+)?["']?\/bin\/(?:ba|da|z|k)?sh\b|^!\s*\/bin\/sh|\bexec\s+\/bin\/(?:ba|da|z|k)?sh\b|["']\/bin\/(?:ba|da|z|k)?sh["']/m;

/** True when an `!…` line typed into an interactive program (`ftp`, `ed`, `less`, `gdb`) escapes to a shell. */
export function escapeLine(c: ShellCommand): boolean {
  const first = c.argv[0] ?? '';
  return /^(?:!|:!|@exec\s*)/.test(first) && SHELLS.has(c.name) || /^!(?:ba|da|z|k)?sh$/.test(first);
}

export function spawnsShell(c: ShellCommand): boolean {
  if (escapeLine(c)) return true;
  // a privileged-mode shell keeps the setuid owner's identity (`bash -p`, `ash -p`, `csh -b`)
  if (SHELLS.has(c.name) && shellScriptArg(c.argv) === null && c.argv.slice(1).some((a) => /^-[a-zA-Z]*p[a-zA-Z]*$|^-b$/.test(a)) && c.argv.slice(1).every((a) => a.startsWith('-'))) return true;
  // chroot DIR and capsh -- with no command run a shell
  if ((c.name === 'chroot' && c.argv.slice(1).filter((a) => !a.startsWith('-')).length === 1) || (c.name === 'capsh' && c.argv[c.argv.length - 1] === '--')) return true;
  // a script written with an escape in it (`echo 'exec /bin/sh 0<&2 1>&2' > f`, `echo 'system("/bin/sh")' > Gemfile`)
  if ((c.name === 'echo' || c.name === 'printf') && c.redirects.some((r) => /^>>?$/.test(r.op)) && ESCAPE_CONTENT.test(c.argv.slice(1).join(' '))) return true;
  // a shell line typed into the interactive program started before it (`hping3` then `/bin/sh`)
  if (interactiveShell(c) && c.depth === 0 && c.wrappers.length === 0 && c.argv.length === 1 && c.argv[0]!.includes('/') && c.pipeline === null) return true;
  if (interactiveShell(c)) return c.wrappers.length > 0 || (c.via !== null && !/^(?:sh|bash|zsh|dash|ksh|mksh|ash|fish|csh|tcsh|yash|posh|rbash|oksh|loksh|elvish|xonsh|su|runuser|flock|script|sg) -c$|^\S+ stdin$|^line continuation$|^brace expansion$/.test(c.via)) || c.launcher !== null || c.redirects.some((r) => /\/dev\/(?:tty|pts)/.test(r.target) || /^[0-2]?[<>]&$/.test(r.op));
  if (SHELLS.has(c.name) || NAMES_ONLY.has(c.name) || c.name === '') return false;
  const pathOnly = PACKAGE_MANAGERS.has(c.name);
  const args = c.argv.slice(c.argv[0]?.startsWith('!') || c.argv[0]?.startsWith('@') ? 0 : 1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!SHELL_PATH.test(a) && (pathOnly || !SHELL_NAME.test(a))) continue;
    // a shell given a script (`docker run img /bin/sh -c "make"`, `system("/bin/sh -c 'x'")`) is a carrier, analysed as such
    const next = args[i + 1];
    if (next === '-c' || /sh\s+-\w*c\b/.test(a)) continue;
    // a shell word followed by an operand runs that script (`find . -exec bash {} \;`, `xargs sh x.sh`)
    if (next !== undefined && !/^(?:;|\\;|\+|-[ilp]+|-s|--|\)|-quit)$/.test(next) && !next.startsWith('-') && /^(?:\/\S*\/)?(?:ba|da|z|k)?sh$/.test(a)) continue;
    return true;
  }
  return false;
}

/** Offensive tools by program name (post-exploitation, credential theft, lateral movement, privilege escalation enumeration). */
const OFFENSIVE = /^(?:mimikatz|pypykatz|lazagne|mimipenguin|rubeus|sharphound|bloodhound-python|seatbelt|sharpup|certify|whisker|secretsdump(?:\.py)?|impacket-\w+|psexec\.py|wmiexec(?:\.py)?|smbexec(?:\.py)?|atexec(?:\.py)?|dcomexec(?:\.py)?|getuserspns(?:\.py)?|getnpusers(?:\.py)?|crackmapexec|netexec|nxc|evil-winrm|responder|chisel|ligolo(?:-ng)?|sliver(?:-client)?|msfvenom|msfconsole|meterpreter|empire|powersploit|powerview|kerbrute|hashcat|john|hydra|medusa|sqlmap|linpeas(?:\.sh)?|winpeas(?:\.exe)?|pspy(?:32|64)?|linenum(?:\.sh)?|les(?:\.sh)?|linux-exploit-suggester(?:\.sh)?|nanodump|handlekatz|safetykatz|petitpotam|printspoofer|juicypotato|godpotato|roguepotato|sweetpotato|gsecdump|pwdump\d*|fgdump|wce|procdump64?|nishang|powercat|invoke-\w*(?:mimikatz|kerberoast|shellcode|dllinjection|reflectivepeinjection|tokenmanipulation|psexec|wmicommand|smbexec|thehash)|koadic|pupy|covenant|havoc|mythic|xmrig|cpuminer|minerd|t-rex|nbminer)$/i;

export const EXECUTION_RULES: Rule[] = [
  idiomRule({
    id: 'remote-access-tunnel',
    name: 'Remote access tunnel opened',
    category: 'execution',
    action: 'record',
    attack: 'T1572',
    description: 'A tunnel or remote-access agent that exposes this machine to the internet: code tunnel, devtunnel host, ngrok tcp/http, cloudflared tunnel, bore, localtunnel, frpc, chisel client, tmate, an ssh reverse forward to a public host.',
    help: 'Opens a way in from outside that survives the session. Check who the tunnel is for.',
    examples: {
      match: ['code tunnel --accept-server-license-terms --name x', 'ngrok tcp 22', 'cloudflared tunnel --url http://localhost:8080'],
      not_match: ['ngrok version', 'code --install-extension ms-python.python', 'ssh -L 5432:db:5432 bastion'],
    },
    idioms: [
      { re: /^(?:\S*[\\/])?(?:code|code-insiders)(?:\.exe)?\s+tunnel\b|^(?:\S*[\\/])?devtunnel(?:\.exe)?\s+host\b|^(?:\S*[\\/])?ngrok(?:\.exe)?\s+(?:tcp|http|tls|start)\b|^(?:\S*[\\/])?cloudflared(?:\.exe)?\s+(?:tunnel|access\s+tcp)\b|^bore\s+local\b|^(?:lt|localtunnel)\s+--port\b|^frpc\b|^tmate\b/, names: ['code', 'code-insiders', 'devtunnel', 'ngrok', 'cloudflared', 'bore', 'lt', 'localtunnel', 'frpc', 'tmate'] },
    ],
  }),
  {
    id: 'remote-desktop-tool',
    name: 'Remote-desktop tool run or fetched',
    category: 'execution',
    action: 'record',
    attack: 'T1219',
    description: 'A remote-desktop or remote-support program run, installed or downloaded (AnyDesk, TeamViewer, Ammyy, NetSupport, UltraViewer, VNC viewers and servers, Splashtop, LogMeIn, GoToAssist, RemotePC, ScreenConnect, RustDesk, Quick Assist).',
    help: 'Gives someone outside interactive control of this machine. An agent task has no need for it; check who asked.',
    examples: {
      match: ['Start-Process "C:\\Tools\\AnyDesk.exe"', 'iwr https://x.example/TeamViewer_Setup.exe -OutFile tv.exe', 'rustdesk --connect 123456789'],
      not_match: ['Start-Process notepad.exe', 'echo anydesk >> notes.md', 'curl -o rust.tar.gz https://x.example/rust.tar.gz'],
    },
    match: { command: remoteDesktopTool },
  },
  {
    id: 'shell-escape',
    name: 'Shell started from another program',
    category: 'execution',
    action: 'record',
    attack: 'T1059.004',
    description: "An interactive shell started from inside another program or through a launcher: an editor's or pager's escape (vim -c ':!/bin/sh', less !sh), a program option that runs one (find -exec /bin/sh, awk system(\"/bin/sh\"), gdb -ex '!sh', tar --checkpoint-action=exec=/bin/sh, pty.spawn), or a wrapper running /bin/sh (nice, env, timeout, flock, …).",
    help: 'The classic way out of a restricted command (GTFOBins). An agent has no use for an interactive shell; check what the command was meant to do.',
    examples: {
      match: ["vim -c ':!/bin/sh'", 'find . -exec /bin/sh \\; -quit', "awk 'BEGIN {system(\"/bin/sh\")}'", 'env /bin/sh', "python3 -c 'import pty; pty.spawn(\"/bin/sh\")'"],
      not_match: ['bash', 'echo "#!/bin/sh" > run.sh', 'docker run --rm alpine /bin/sh -c "ls /"', 'ls -l /bin/sh', 'chsh -s /bin/zsh'],
    },
    match: { command: spawnsShell },
  },
  {
    id: 'offensive-tool',
    name: 'Offensive tool run',
    category: 'execution',
    action: 'record',
    attack: 'T1588.002',
    description: 'A known offensive tool run by name: credential dumpers (mimikatz, pypykatz, lazagne), AD attack tools (Rubeus, SharpHound, impacket, crackmapexec), C2 agents and tunnels (sliver, chisel, ligolo), cracking (hashcat, john, hydra), privilege-escalation enumeration (linpeas, winpeas, pspy), coin miners.',
    help: 'These tools have little use in ordinary development work. Check why the agent runs one.',
    examples: {
      match: ['python2 laZagne.py all', './linpeas.sh -a', 'hashcat -m 1000 hashes.txt rockyou.txt'],
      not_match: ['johnson --version', 'pip install requests', 'git log --author=john'],
    },
    match: {
      command: (c) => {
        const base = c.name.replace(/\.(?:py|ps1|exe|sh)$/i, '');
        if (OFFENSIVE.test(c.name) || OFFENSIVE.test(base)) return true;
        // an interpreter running such a script: `python2 laZagne.py all`, `powershell -File Invoke-Mimikatz.ps1`
        const script = c.argv.slice(1).find((a) => !a.startsWith('-'));
        if (script && /^(?:python[0-9.]*|perl|ruby|bash|sh|pwsh|powershell|node|php)$/i.test(c.name)) {
          const s = script.replace(/\\/g, '/').replace(/^.*\//, '').replace(/\.(?:py|ps1|exe|sh|pl|rb)$/i, '');
          return OFFENSIVE.test(s);
        }
        return false;
      },
    },
  },
];
