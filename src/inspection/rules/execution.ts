/**
 * execution rules: a shell started from inside another program (GTFOBins' `shell` entries,
 * https://gtfobins.github.io/), and known offensive tooling run by name. Technique pages:
 * https://attack.mitre.org/techniques/T1059/004/, https://attack.mitre.org/techniques/T1588/002/.
 */
import type { Rule } from '../rule.js';
import type { CommandLine, ShellCommand, Span } from '../shell/model.js';
import { SHELLS } from '../shell/context.js';
import { shellScriptArg } from '../shell/carriers.js';
import { idiomRule } from './idioms.js';
import { downloadedFiles, effectsOf, executedFiles } from '../effects/index.js';
import { baseName, normalizePath } from '../shell/words.js';

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

/**
 * Invocations that start a shell without naming one (each program's manual): script(1) with no
 * `-c` and sg(1) with no command start the user's shell; `sed e` (GNU sed) runs every input line;
 * run-parts(8) on a directory of shells (`/bin`, `--regex '^sh$'`); man(1) `-H`/`--html` runs its
 * browser argument; tmux(1) `-S SOCKET` alone attaches to the session on another socket; a service
 * name with a path in it (`service ../../bin/sh`) runs that file.
 */
function startsShellImplicitly(c: ShellCommand): boolean {
  const args = c.argv.slice(1);
  switch (c.name) {
    case 'script':
      return !args.some((a) => /^-[a-zA-Z]*c$|^--command\b/.test(a)) && args.filter((a) => !a.startsWith('-')).every((a) => a === '/dev/null');
    case 'sg':
      return args.length === 1 && !args[0]!.startsWith('-');
    case 'sed':
      return args.length === 1 && args[0] === 'e';
    case 'run-parts':
      return args.some((a) => /^\/(?:usr\/)?s?bin\/?$/.test(a)) || args.some((a, i) => args[i - 1] === '--regex' && /sh\$?'?$/.test(a));
    case 'man':
      return args.some((a) => /^-H\S|^--html=\S/.test(a));
    case 'tmux':
      return args.length === 2 && args[0] === '-S';
    case 'service':
      return args[0] !== undefined && args[0].includes('/');
    default:
      return false;
  }
}

export function spawnsShell(c: ShellCommand): boolean {
  if (escapeLine(c) || startsShellImplicitly(c)) return true;
  // a privileged-mode shell keeps the setuid owner's identity (`bash -p`, `ash -p`, `csh -b`)
  if (SHELLS.has(c.name) && shellScriptArg(c.argv) === null && c.argv.slice(1).some((a) => /^-[a-zA-Z]*p[a-zA-Z]*$|^-b$/.test(a)) && c.argv.slice(1).every((a) => a.startsWith('-'))) return true;
  // chroot DIR and capsh -- with no command run a shell
  if ((c.name === 'chroot' && c.argv.slice(1).filter((a) => !a.startsWith('-')).length === 1) || (c.name === 'capsh' && c.argv[c.argv.length - 1] === '--')) return true;
  // a script written with an escape in it (`echo 'exec /bin/sh 0<&2 1>&2' > f`, `echo 'system("/bin/sh")' > Gemfile`)
  if ((c.name === 'echo' || c.name === 'printf') && c.redirects.some((r) => /^>>?$/.test(r.op)) && ESCAPE_CONTENT.test(c.argv.slice(1).join(' '))) return true;
  // a shell line typed into the interactive program started before it (`hping3` then `/bin/sh`)
  if (interactiveShell(c) && c.depth === 0 && c.wrappers.length === 0 && c.argv.length === 1 && c.argv[0]!.includes('/') && c.pipeline === null) return true;
  if (interactiveShell(c)) return c.wrappers.length > 0 || (c.via !== null && !/^(?:sh|bash|zsh|dash|ksh|mksh|ash|fish|csh|tcsh|yash|posh|rbash|oksh|loksh|elvish|xonsh|su|runuser|flock|script|sg) -c$|^\S+ stdin$|^line continuation$|^brace expansion$|^(?:docker|podman|nerdctl|docker-compose|podman-compose|kubectl|oc|lxc|incus|multipass) (?:exec|run|debug|container exec|container run|compose exec|compose run)$/.test(c.via)) || c.launcher !== null || c.redirects.some((r) => /\/dev\/(?:tty|pts)/.test(r.target) || /^[0-2]?[<>]&$/.test(r.op));
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

/** Configuration entries that make the program reading the file run a command or load code
 * (wg-quick(8) PostUp/PreUp, apt.conf(5) Pre-/Post-Invoke, nginx load_module, fail2ban action
 * commands, rsyslog's `^program` action and omprog, procmail `|` recipes, fastfetch command
 * modules, m4 esyscmd/syscmd, Tcl `exec`, a libvirt `<qemu:commandline>`). */
const HOOK_CONFIG = /^\s*(?:PostUp|PostDown|PreUp|PreDown)\s*=\s*\S|\b(?:Pre|Post)-Invoke(?:-Success)?\s*(?:\{|::)|\bPre-Install-Pkgs\b|^\s*load_module\s+\S|^\s*action(?:ban|unban|start|stop|check)\s*=\s*\S|\^\s*\/\S|\bomprog\b|^\|\s*\S|\\n\|\s*\/|"type"\s*:\s*"command"|\b(?:es)?syscmd\s*\(|<qemu:commandline>|\bbinary\s*=\s*["']?\/|"(?:exec|command|cmd)"\s*:\s*"\//m;
/** Programs that only read, list or copy a file: naming it runs none of its hooks. */
const CONFIG_READERS = new Set(['cat', 'less', 'more', 'head', 'tail', 'grep', 'egrep', 'rg', 'wc', 'ls', 'stat', 'file', 'cp', 'mv', 'rm', 'chmod', 'chown', 'diff', 'vim', 'vi', 'nano', 'echo', 'printf', 'tee', 'sed', 'awk', 'sort', 'md5sum', 'sha256sum', 'git', 'code', 'bat', 'jq', 'yq']);

/** The first command that hands a program a configuration file written earlier in the line with a
 * command hook in it (`cat > /tmp/wg.conf <<EOF [Interface] PostUp = …`, then `wg-quick up
 * /tmp/wg.conf`); files compared by normalised path or base name. */
function hookConfigUsed(line: CommandLine): Span | null {
  const hooked = new Set<string>();
  for (const c of line.commands) {
    if (hooked.size > 0 && !CONFIG_READERS.has(c.name) && !SHELLS.has(c.name)) {
      for (const a of c.argv.slice(1)) {
        for (const w of [a, a.replace(/^-{1,2}[\w-]+=/, '')]) if (hooked.has(normalizePath(w)) || hooked.has(baseName(w))) return c.span;
      }
    }
    const written = effectsOf(c).writes;
    if (written.length === 0) continue;
    const content = c.stdin ?? (c.name === 'echo' || c.name === 'printf' ? c.argv.slice(1).join(' ') : '');
    if (!HOOK_CONFIG.test(content)) continue;
    for (const f of written) {
      hooked.add(normalizePath(f));
      hooked.add(baseName(f));
    }
  }
  return null;
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
    description: "An interactive shell started from inside another program or through a launcher: an editor's or pager's escape (vim -c ':!/bin/sh', less !sh), a program option that runs one (find -exec /bin/sh, awk system(\"/bin/sh\"), gdb -ex '!sh', tar --checkpoint-action=exec=/bin/sh, pty.spawn), or a wrapper running /bin/sh (nice, env, timeout, flock, …); or a program that starts one unnamed (script with no -c, sg GROUP, sed e, run-parts on /bin, man -H, tmux -S SOCKET, service ../PATH).",
    help: 'The classic way out of a restricted command (GTFOBins). An agent has no use for an interactive shell; check what the command was meant to do.',
    examples: {
      match: ["vim -c ':!/bin/sh'", 'find . -exec /bin/sh \\; -quit', "awk 'BEGIN {system(\"/bin/sh\")}'", 'env /bin/sh', "python3 -c 'import pty; pty.spawn(\"/bin/sh\")'"],
      not_match: ['bash', 'echo "#!/bin/sh" > run.sh', 'docker run --rm alpine /bin/sh -c "ls /"', 'ls -l /bin/sh', 'chsh -s /bin/zsh'],
    },
    match: { command: spawnsShell },
  },
  {
    id: 'config-hook-exec',
    name: 'Configuration written with a command hook, then used',
    category: 'execution',
    action: 'record',
    attack: 'T1202',
    description: 'A file written in the line with an entry that runs a command or loads code (wg-quick PostUp, apt Pre-Invoke, nginx load_module, fail2ban actionban, rsyslog ^program, procmail | recipe, fastfetch command module, m4 esyscmd) and then given to the program that reads it.',
    help: 'The program runs the hook for you, under its own name and rights (GTFOBins). Read the file before it is used.',
    examples: {
      match: ["cat > /tmp/w.conf <<'EOF'\n[Interface]\nPostUp = /tmp/x\nEOF\nwg-quick up /tmp/w.conf", "echo 'load_module /tmp/x.so;' > /tmp/n.conf; nginx -t -c /tmp/n.conf"],
      not_match: ["cat > /tmp/w.conf <<'EOF'\n[Interface]\nPostUp = /tmp/x\nEOF\ncat /tmp/w.conf", "cat > /tmp/n.conf <<'EOF'\nworker_processes 1;\nEOF\nnginx -t -c /tmp/n.conf"],
    },
    match: { line: hookConfigUsed },
  },
  {
    id: 'offensive-tool',
    name: 'Offensive tool run',
    category: 'execution',
    action: 'record',
    attack: 'T1588.002',
    description: 'A known offensive tool run by name: credential dumpers (mimikatz, pypykatz, lazagne), AD attack tools (Rubeus, SharpHound, impacket, crackmapexec), C2 agents and tunnels (sliver, chisel, ligolo), cracking (hashcat, john, hydra), privilege-escalation enumeration (linpeas, winpeas, pspy), attack simulators (stratus detonate/warmup), coin miners.',
    help: 'These tools have little use in ordinary development work. Check why the agent runs one.',
    examples: {
      match: ['python2 laZagne.py all', './linpeas.sh -a', 'hashcat -m 1000 hashes.txt rockyou.txt'],
      not_match: ['johnson --version', 'pip install requests', 'git log --author=john'],
    },
    match: {
      command: (c) => {
        const base = c.name.replace(/\.(?:py|ps1|exe|sh)$/i, '');
        if (OFFENSIVE.test(c.name) || OFFENSIVE.test(base)) return true;
        // Stratus Red Team (https://stratus-red-team.cloud/) detonates cloud attack techniques; its name alone is too common
        if (base.toLowerCase() === 'stratus') return /^(?:detonate|warmup)$/.test(c.argv[1] ?? '');
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
