/**
 * privilege rules beyond those in persistence.ts: commands run as root through another program's
 * hooks, accounts with uid 0 or an admin group, file
 * capabilities, PAM, any write to sudoers, and shell escapes run with sudo (GTFOBins' `sudo`
 * entries: https://gtfobins.github.io/). Techniques: https://attack.mitre.org/tactics/TA0004/.
 */
import { written, type PathAccess, type Rule } from '../rule.js';
import type { ShellCommand } from '../shell/model.js';
import { opts, writeTargets } from '../effects/index.js';
import { INTERPRETERS } from '../shell/interp.js';
import { escapeLine, spawnsShell } from './execution.js';
import { commandValues } from '../shell/carriers.js';

/** Commands a program's hook is ordinarily set to (`rsync -e ssh`, `GIT_SSH_COMMAND='ssh -i k'`,
 * `PAGER=cat`): the transport or pager the option exists for. */
export const ORDINARY_HOOK = /^(?:ssh|cat|less|more|most|vim?|nvim|nano|emacs|code|true|:|gpg|pass|op|security|keyring|git-credential-\S+)$/;

/** True when a command run as root (sudo, doas, pkexec, run0) is told through an option or its
 * environment to run another command line (`sudo restic --password-command=CMD`, `sudo tar -I CMD`,
 * `sudo rsync -e CMD`, `sudo git -c core.pager=CMD`): CMD runs as root too, whatever the sudoers
 * entry meant to allow (GTFOBins' sudo entries). Hooks set to their ordinary command are left alone. */
function elevatedHook(c: ShellCommand): boolean {
  if (!c.wrappers.some((w) => /^(?:sudo|doas|pkexec|run0|sudo-rs)$/.test(w))) return false;
  return commandValues(c).some(([text]) => {
    const first = text.trim().split(/\s+/)[0] ?? '';
    return !ORDINARY_HOOK.test(first.replace(/^.*\//, ''));
  });
}

/** Hook values that are an ordinary choice for an unprivileged user (a pager, editor, credential
 * helper or diff tool, a systemd calendar word): not a command slipped in. */
const ORDINARY_USER_HOOK = /^(?:git|sed|delta|diff-so-fancy|difftastic|store|cache|osxkeychain|manager|manager-core|libsecret|wincred|gh|echo|printf|head|tail|tee|subl|xdg-open|open|w3m|lynx|bat|daily|weekly|monthly|hourly|yearly|minutely|ssh-askpass|ksshaskpass)$/;
/** Programs whose command options run in a container or on a remote machine, not here
 * (`docker run --health-cmd`, `gcloud compute ssh --command`). */
const ELSEWHERE = /^(?:docker|podman|nerdctl|kubectl|oc|gcloud|az|aws|vagrant|multipass|lxc)$/;

/** True when a command not run as root is told, by an option or a variable, to run another
 * command line that is not its ordinary transport, pager, editor or helper (`restic
 * --password-command=CMD`, `ssh -o ProxyCommand=CMD`, `scp -S CMD`, `LESSOPEN='CMD %s' less`,
 * `CRASHPAGER=CMD crash`, `wsl -e CMD`): CMD runs, under the name of the program. */
function userHook(c: ShellCommand): boolean {
  if (c.wrappers.some((w) => /^(?:sudo|doas|pkexec|run0|sudo-rs)$/.test(w)) || ELSEWHERE.test(c.name)) return false;
  return commandValues(c).some(([text]) => {
    const first = (text.trim().split(/\s+/)[0] ?? '').replace(/^["']|["']$/g, '').replace(/^.*[/\\]/, '').replace(/\.exe$/i, '');
    return first !== '' && !ORDINARY_HOOK.test(first) && !ORDINARY_USER_HOOK.test(first);
  });
}

const SUDOERS = /^\/etc\/sudoers(?:\.d\/.+)?$|^\/private\/etc\/sudoers(?:\.d\/.+)?$|^\/usr\/local\/etc\/sudoers(?:\.d\/.+)?$/;
const PAM = /^\/etc\/pam\.d\/|^\/etc\/pam\.conf$|^\/etc\/security\/(?:pam_|access\.conf|limits\.conf)|(?:^|\/)pam_[\w-]+\.so$|^\/(?:usr\/)?lib(?:64)?\/(?:x86_64-linux-gnu\/)?security\//;
/** The OpenSSH server's configuration and what in it lets more in (https://man.openbsd.org/sshd_config);
 * a value replaced by a safe one (`s/… yes/… no/`) leaves the text after the last `yes` a `no`. */
const SSHD_CONFIG = /^\/etc\/ssh\/sshd_config(?:\.d\/[^/]+)?$|^\/private\/etc\/ssh\/sshd_config$/;
const SSHD_WEAKENED = /\b(?:PermitRootLogin\s+yes|PasswordAuthentication\s+yes|PermitEmptyPasswords\s+yes|PermitUserEnvironment\s+yes|AuthorizedKeysFile|AuthorizedKeysCommand)\b(?![^\n]*\b(?:PermitRootLogin|PasswordAuthentication|PermitEmptyPasswords|PermitUserEnvironment)\s+no\b)/;
const ACCOUNT_DB = /^\/etc\/(?:passwd|shadow|group|gshadow|master\.passwd)$/;
/** System accounts that own services and never log in. */
const SERVICE_ACCOUNT = /^(?:nobody|daemon|bin|sys|sync|games|man|lp|mail|news|uucp|proxy|www-data|backup|list|irc|gnats|systemd-\w+|messagebus|sshd|_\w+)$/;
const ADMIN_GROUPS = /^(?:0|root|sudo|wheel|admin|adm|docker|lxd|disk|shadow|staff)$/;

/** useradd/adduser/usermod/groupmod creating uid 0 or joining an admin group; dscl/dseditgroup on macOS. */
function privilegedAccount(c: ShellCommand): boolean {
  const a = c.argv.slice(1);
  // a service account given a login shell (`chsh -s /bin/bash nobody`, `usermod -s /bin/sh www-data`)
  if (c.name === 'chsh' || (c.name === 'usermod' && a.some((x) => x === '-s' || x.startsWith('--shell')))) {
    const o = opts(c, { short: 's', long: ['shell'] });
    const shell = [...(o.values.get('-s') ?? []), ...(o.values.get('--shell') ?? [])][0] ?? '';
    if (/\/(?:ba|da|z|k|c|tc|fi)?sh$/.test(shell) && o.operands.some((u) => SERVICE_ACCOUNT.test(u))) return true;
  }
  if (c.name === 'useradd' || c.name === 'adduser' || c.name === 'usermod' || c.name === 'luseradd' || c.name === 'pw') {
    const o = opts(c, { short: 'ugGsdcepkK', long: ['uid', 'gid', 'groups', 'shell', 'home', 'comment', 'ingroup', 'group'] });
    const uid = [...(o.values.get('-u') ?? []), ...(o.values.get('--uid') ?? [])];
    const gid = [...(o.values.get('-g') ?? []), ...(o.values.get('--gid') ?? []), ...(o.values.get('--ingroup') ?? [])];
    const groups = [...(o.values.get('-G') ?? []), ...(o.values.get('--groups') ?? [])].flatMap((g) => g.split(','));
    if (uid.includes('0') || gid.some((g) => ADMIN_GROUPS.test(g) && g !== 'staff' && g !== 'adm') || groups.some((g) => ADMIN_GROUPS.test(g) && g !== 'staff')) return true;
    if (c.name === 'adduser' && o.operands.length === 2 && ADMIN_GROUPS.test(o.operands[1]!)) return true;
    // a system account (`-r`, `--system`: a low uid, no ageing, hidden from login screens) made with a
    // login shell: service accounts get nologin, so this is a hidden interactive login
    const system = a.includes('--system') || a.some((x) => /^-[A-Za-z]*r[A-Za-z]*$/.test(x));
    const shell = [...(o.values.get('-s') ?? []), ...(o.values.get('--shell') ?? [])][0] ?? '';
    if ((c.name === 'useradd' || c.name === 'adduser') && system && /\/(?:ba|da|z|k|c|tc|fi)?sh$/.test(shell)) return true;
    return false;
  }
  if (c.name === 'gpasswd') return a.includes('-a') && ADMIN_GROUPS.test(a[a.length - 1] ?? '');
  if (c.name === 'dscl') return /(?:^|\s)-(?:append|create|merge)\b/.test(a.join(' ')) && /\/Groups\/admin\b|UniqueID\s+0\b|PrimaryGroupID\s+(?:0|80)\b/.test(a.join(' '));
  if (c.name === 'dseditgroup') return a.includes('edit') && a.includes('-a') && a.includes('admin');
  // macOS: the root account enabled (dsenableroot without -d), the guest account switched on
  if (c.name === 'dsenableroot') return !a.includes('-d');
  if (c.name === 'sysadminctl') return (/^-guestAccount$/i.test(a[0] ?? '') && /^on$/i.test(a[1] ?? '')) || (a.some((x) => /^-addUser$/i.test(x)) && a.some((x) => /^-admin$/i.test(x)));
  if (c.name === 'sysadminctl') return a.includes('-addUser') && a.includes('-admin');
  if (c.name === 'chpasswd' || c.name === 'passwd') return c.wrappers.length > 0 && /\broot\b/.test([a.join(' '), c.stdin ?? ''].join(' '));
  return false;
}


export const PRIVILEGE_RULES: Rule[] = [
  {
    id: 'sudo-command-hook',
    name: 'Command run as root through another program',
    category: 'privilege',
    action: 'record',
    attack: 'T1548.003',
    description: 'A program run with sudo/doas/pkexec that is told, by an option or a variable, to run another command line (restic --password-command, tar -I/--checkpoint-action, rsync -e, git -c core.pager/alias, ssh -o ProxyCommand, vim -c, aria2c --on-download-error, PAGER=…): that command runs as root too.',
    help: 'A sudoers entry for one program becomes a root shell this way (GTFOBins). Check what the hook runs and why it needs root.',
    examples: {
      match: ["sudo restic --password-command='/tmp/x' backup", "sudo tar xf /dev/null -I '/tmp/x.sh'", "sudo git -c core.pager='/tmp/p' log"],
      not_match: ['sudo rsync -a -e ssh ./site/ host:/var/www/', "sudo GIT_SSH_COMMAND='ssh -i /root/.ssh/deploy' git pull", "restic --password-command='/tmp/x' backup"],
    },
    match: { command: elevatedHook },
  },
  {
    id: 'hook-command-exec',
    name: 'Command run through another program',
    category: 'execution',
    action: 'record',
    attack: 'T1202',
    description: "A program told, by an option or a variable, to run a command line that is not its ordinary transport, pager, editor or helper: ssh/scp/sftp -o ProxyCommand, scp -S, sftp -D, restic --password-command, aria2c --on-download-error, dnsmasq --conf-script, sshfs -o ssh_command, LESSOPEN, CRASHPAGER, GIT_SSH_COMMAND, git -c core.pager/alias.x='!…' and the same keys set by git config (core.fsmonitor, core.pager, credential.helper '!…', …), tar --checkpoint-action, wsl -e.",
    help: 'Indirect command execution: the command runs under the name of a trusted program, and past rules that look only at the program. Read the hook.',
    examples: {
      match: ["ssh -o ProxyCommand='/tmp/x' x.example", "scp -S /tmp/x ./a x.example:", "LESSOPEN='/tmp/x %s' less /etc/hosts"],
      not_match: ["GIT_SSH_COMMAND='ssh -i ~/.ssh/deploy' git pull", 'rsync -a -e ssh ./site/ x.example:/srv/', "docker run --health-cmd 'curl -f http://localhost/' nginx"],
    },
    match: { command: userHook },
  },
  {
    id: 'privileged-account',
    name: 'Root-equivalent account created',
    category: 'privilege',
    action: 'block',
    attack: 'T1136.001',
    description: 'An account with uid 0 or put in an administrative group (useradd -o -u 0, -g 0, -G sudo/wheel/admin, usermod -aG sudo, adduser U sudo, gpasswd -a U wheel, dscl/dseditgroup admin), the macOS root or guest account enabled or an admin added (dsenableroot, sysadminctl -guestAccount on, sysadminctl -addUser … -admin), a service account given a login shell (chsh -s /bin/bash nobody, useradd -r -s /bin/bash), or a line appended to /etc/passwd, /etc/shadow or /etc/group.',
    help: 'Creates a lasting root login. Check who asked for the account.',
    examples: {
      match: ['useradd -o -u 0 -g 0 -M -d /root -s /bin/bash backdoor', 'usermod -aG sudo dev', "echo 'x:$1$x$y:0:0::/root:/bin/bash' >> /etc/passwd"],
      not_match: ['useradd -m -s /bin/bash appuser', 'id -u', 'cat /etc/passwd'],
    },
    match: { command: privilegedAccount, path: written(ACCOUNT_DB) },
  },
  {
    id: 'file-capability-set',
    name: 'File capability granted',
    category: 'privilege',
    action: 'block',
    attack: 'T1548.001',
    description: 'setcap giving a program capabilities that amount to root (cap_setuid, cap_setgid, cap_dac_override, cap_dac_read_search, cap_sys_admin, cap_sys_ptrace, cap_sys_module, cap_chown, cap_fowner, all).',
    help: 'The program then gets those powers for every user who runs it.',
    examples: {
      match: ['setcap cap_setuid+ep /usr/bin/python3', 'sudo setcap cap_dac_read_search=eip ./tar'],
      not_match: ['getcap -r / 2>/dev/null', 'setcap cap_net_bind_service=+ep ./server'],
    },
    match: { command: (c) => c.name === 'setcap' && !c.argv.includes('-r') && /cap_(?:setuid|setgid|dac_override|dac_read_search|sys_admin|sys_ptrace|sys_module|chown|fowner|setfcap|sys_rawio)|(?:^|\s)(?:all|=ep)(?:[=+]|\s|$)/i.test(c.argv.slice(1).join(' ')) },
  },
  {
    id: 'pam-write',
    name: 'PAM configuration changed',
    category: 'privilege',
    action: 'block',
    attack: 'T1556.003',
    description: 'A write to the authentication stack: /etc/pam.d/*, /etc/pam.conf, a pam_*.so module or the security modules directory.',
    help: 'A changed PAM stack can accept any password or log every one typed.',
    examples: {
      match: ["echo 'auth sufficient pam_permit.so' >> /etc/pam.d/sshd", 'cp pam_evil.so /lib/x86_64-linux-gnu/security/', "sed -i 's/nullok_secure/nullok/' /etc/pam.d/common-auth"],
      not_match: ['cat /etc/pam.d/sshd', 'grep pam_unix /etc/pam.d/common-auth'],
    },
    match: { path: written(PAM) },
  },
  {
    id: 'sshd-config-weaken',
    name: 'SSH server opened to root or password logins',
    category: 'privilege',
    action: 'record',
    attack: 'T1556',
    description: 'A write to /etc/ssh/sshd_config or sshd_config.d/ that turns on PermitRootLogin yes, PasswordAuthentication yes, PermitEmptyPasswords yes or PermitUserEnvironment yes, or sets AuthorizedKeysFile/AuthorizedKeysCommand (sshd_config(5)).',
    help: 'Opens the SSH server to root, password guessing, empty passwords or keys kept elsewhere from the next reload on. Check that the host is meant to allow it.',
    examples: {
      match: ["sudo sed -i 's/^#\\?PermitRootLogin.*/PermitRootLogin yes/' /etc/ssh/sshd_config", "echo 'PasswordAuthentication yes' | sudo tee /etc/ssh/sshd_config.d/50-pw.conf"],
      not_match: ['cat /etc/ssh/sshd_config', "sudo sed -i 's/^PasswordAuthentication yes/PasswordAuthentication no/' /etc/ssh/sshd_config", 'grep PermitRootLogin /etc/ssh/sshd_config'],
    },
    match: { path: (a) => written(SSHD_CONFIG)(a) && SSHD_WEAKENED.test(a.content ?? '') },
  },
  {
    id: 'sudoers-write',
    name: 'sudoers changed',
    category: 'privilege',
    action: 'block',
    attack: 'T1548.003',
    description: 'Any write to /etc/sudoers or /etc/sudoers.d/* (redirect, tee, cp, sed -i, a file tool, visudo -f with input), whatever it grants.',
    help: 'sudoers decides who becomes root. Review the change.',
    examples: {
      match: ["echo 'dev ALL=(ALL) ALL' >> /etc/sudoers", 'cp ./rules /etc/sudoers.d/90-agent', "sed -i 's/^%sudo.*/%sudo ALL=(ALL) NOPASSWD:ALL/' /etc/sudoers"],
      not_match: ['sudo cat /etc/sudoers', 'visudo -c', 'ls /etc/sudoers.d'],
    },
    match: {
      path: written(SUDOERS),
      command: (c) => c.name === 'visudo' && c.stdin !== null,
    },
  },
  {
    id: 'sudo-shell-escape',
    name: 'Root shell through sudo',
    category: 'privilege',
    action: 'block',
    attack: 'T1548.003',
    description: "A shell started as root through sudo/doas/pkexec/su: a program's shell escape run with sudo (sudo vim -c ':!/bin/sh', sudo find . -exec /bin/sh \\; -quit, sudo awk 'BEGIN {system(\"/bin/sh\")}'), or sudo -s/-i, sudo su, sudo sh (also sash, rc, script without -c, ansible-test shell).",
    help: 'Gives an interactive root shell, past whatever sudo rules meant to allow.',
    examples: {
      match: ["sudo vim -c ':!/bin/sh'", 'sudo find . -exec /bin/sh \\; -quit', 'sudo awk \'BEGIN {system("/bin/sh")}\'', 'sudo su -'],
      not_match: ['sudo apt-get install -y jq', 'sudo systemctl restart nginx', "sudo sh -c 'echo 1 > /proc/sys/net/ipv4/ip_forward'"],
    },
    match: {
      command: (c) => {
        const elevated = c.wrappers.some((w) => /^(?:sudo|doas|pkexec|run0|sudo-rs)$/.test(w)) || c.name === 'su' || /sudo|doas|pkexec/.test(c.via ?? '');
        if (!elevated) return false;
        if (c.name === 'su') return !c.argv.slice(1).some((a) => a === '-c' || a.startsWith('--command'));
        if (spawnsShell(c)) return true;
        // programs that are shells in all but name: terminal multiplexers, systemd-run -S, an interpreter's prompt
        if (/^(?:screen|tmux|byobu|dtach|abduco|zellij)$/.test(c.name) && c.argv.length <= 2) return true;
        if (c.name === 'systemd-run' && c.argv.some((a) => a === '-S' || a === '--shell')) return true;
        // script(1) with no -c starts a shell; ansible-test shell
        if (c.name === 'script' && !c.argv.slice(1).some((a) => /^-[a-zA-Z]*c$|^--command\b/.test(a))) return true;
        if (c.name === 'ansible-test' && c.argv[1] === 'shell') return true;
        if (c.name === 'machinectl' && c.argv[1] === 'shell') return true;
        if (INTERPRETERS.test(c.name)) {
          const rest = c.argv.slice(1);
          if (rest.length === 0 || rest.every((a) => a === '-' || a === '-i')) return c.stdin === null;
          // root running commands through interpreter code
          return /\b(?:system|exec|popen|spawn|os\.execute|shell_exec|passthru|proc_open|pcntl_exec|subprocess|child_process|Runtime\.getRuntime|ProcessBuilder|run\s*\(`|IO\.popen)\b/.test(rest.join(' '));
        }
        return /^(?:java|jshell|jjs|jrunscript|ghci|irb|tclsh|wish|expect|gdb|ftp|sftp|ed|ex|less|more|man|vi|vim|nano|emacs|pico|joe|mc|ranger|nnn)$/.test(c.name) && c.argv.length === 1;
      },
      line: (line) => {
        // `sudo ftp` then `!/bin/sh` typed into it
        const elevated = line.commands.findIndex((c) => c.wrappers.some((w) => /^(?:sudo|doas|pkexec)$/.test(w)));
        if (elevated >= 0) for (const c of line.commands.slice(elevated + 1)) if (escapeLine(c)) return c.span;
        for (const c of line.commands) {
          if (c.wrappers.includes('sudo') && c.argv.length === 0) continue;
          // `sudo -s`, `sudo -i`: sudo alone with a shell option is the command itself
          if (c.name === 'sudo' && c.argv.slice(1).some((a) => /^-[a-zA-Z]*[si]$|^--(?:shell|login)$/.test(a)) && c.argv.length <= 3) return c.span;
        }
        return null;
      },
    },
  },
];

/** The paths of writes a rule cares about, for tests. */
export { writeTargets };
