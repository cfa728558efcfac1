/**
 * destructive-host rules: taking the host itself out of service, without touching files:
 * shutting it down or rebooting it, stopping the services it runs on, and deleting or locking
 * accounts (ATT&CK "Impact": https://attack.mitre.org/tactics/TA0040/ — T1529 system
 * shutdown/reboot, T1489 service stop, T1531 account access removal).
 */
import type { PathAccess, Rule } from '../rule.js';
import type { ShellCommand } from '../shell/model.js';
import { opts } from '../effects/index.js';

/** Services a host or its users cannot do without (scheduling, remote login, the message bus,
 * networking, printing, updates, WMI, shadow copies, databases and mail on Windows servers).
 * Security agents and log daemons are `security-tool-disable`'s; a project's own services
 * (nginx, postgres, docker, a dev server) are not listed: agents stop and restart those. */
const CRITICAL_SERVICE = /^(?:cron|crond|cronie|atd|anacron|ssh|sshd|openssh-server|dbus|dbus-daemon|systemd-logind|NetworkManager|networking|network|systemd-networkd|systemd-resolved|wpa_supplicant|kubelet|spooler|spoolsv|wuauserv|winmgmt|vss|swprv|wbengine|sdrsvc|lanmanserver|lanmanworkstation|termservice|dnscache|MSSQLSERVER|MSSQL\$\w+|SQLWriter|SQLSERVERAGENT|MSExchange\w*|vmms|vmcompute)(?:\.service|\.exe)?$/i;

/** The service or process names a command stops, kills or disables (empty when it does none). */
function stoppedServices(c: ShellCommand): string[] {
  const args = c.argv.slice(1);
  const name = c.name.toLowerCase();
  switch (name) {
    case 'systemctl':
      return /^(?:stop|disable|mask|kill)$/.test(args.find((a) => !a.startsWith('-')) ?? '') ? args.filter((a) => !a.startsWith('-')).slice(1) : [];
    case 'service':
    case 'rc-service':
      return /^(?:stop|disable)$/.test(args[1] ?? '') ? [args[0]!] : [];
    case 'sc':
    case 'sc.exe': {
      const verb = (args[0]?.startsWith('\\\\') ? args[1] : args[0])?.toLowerCase() ?? '';
      const rest = args.slice(args[0]?.startsWith('\\\\') ? 2 : 1);
      if (verb === 'stop' || verb === 'delete') return rest.slice(0, 1);
      return verb === 'config' && /start=\s*disabled|^disabled$/i.test(rest.join(' ')) ? rest.slice(0, 1) : [];
    }
    case 'net':
    case 'net1':
      return /^stop$/i.test(args[0] ?? '') ? args.slice(1, 2) : [];
    case 'stop-service':
    case 'spsv':
      return args.filter((a, i) => !a.startsWith('-') || /^-(?:Name|DisplayName)$/i.test(args[i - 1] ?? '')).filter((a) => !a.startsWith('-'));
    case 'set-service':
      return /-StartupType\s+Disabled|-Status\s+Stopped/i.test(args.join(' ')) ? args.filter((a) => !a.startsWith('-')).slice(0, 1) : [];
    case 'taskkill':
      return args.flatMap((a, i) => (/^\/im$/i.test(args[i - 1] ?? '') ? [a] : []));
    case 'killall':
    case 'pkill':
      return args.filter((a) => !a.startsWith('-')).map((a) => a.replace(/^\^|\$$/g, ''));
    case 'kill':
      // `kill $(pgrep cron)`, `kill -9 $(pidof sshd)`
      return c.words.slice(1).flatMap((w) => w.subs.flatMap((s) => s.commands.filter((x) => x.name === 'pgrep' || x.name === 'pidof').flatMap((x) => x.argv.slice(1).filter((a) => !a.startsWith('-')).map((a) => a.replace(/^\^|\$$/g, '')))));
    default:
      return [];
  }
}

/** True when the command shuts the host down, reboots it, or halts it (not a cancel, a warning,
 * a dry run or a help request). */
function shutsDown(c: ShellCommand): boolean {
  const args = c.argv.slice(1);
  const name = c.name.toLowerCase();
  if (args.some((a) => /^(?:--help|--version|\/\?)$/.test(a))) return false;
  switch (name) {
    case 'shutdown':
    case 'shutdown.exe':
      // Linux: -c cancels, -k only warns; Windows: /a aborts, /s /r /l /p /h /g act
      if (args.some((a) => /^(?:-c|-k|--no-wall\s*$|\/a)$/i.test(a))) return false;
      return args.length === 0 || args.some((a) => /^(?:-[hrPHp]+|now|\+\d+|\d{1,2}:\d{2}|--(?:halt|poweroff|reboot)|\/[srlpgh])$/i.test(a));
    case 'reboot':
    case 'halt':
    case 'poweroff':
      return !args.some((a) => /^--wtmp-only$|^-w$/.test(a));
    case 'systemctl':
      return /^(?:poweroff|reboot|halt|kexec|soft-reboot|rescue|emergency)$/.test(args.find((a) => !a.startsWith('-')) ?? '') || (args.includes('isolate') && args.some((a) => /^(?:rescue|emergency|poweroff|reboot|halt)\.target$/.test(a)));
    case 'init':
    case 'telinit':
      return /^[0156sS]$/.test(args[0] ?? '');
    case 'stop-computer':
    case 'restart-computer':
    case 'killall5':
      return true;
    case 'kill': {
      // pid -1 is every process the caller may signal (kill(2): https://man7.org/linux/man-pages/man2/kill.2.html):
      // `kill -9 -1`, `kill -s KILL -- -1`; a lone `-1` is the signal SIGHUP, not a pid
      const pids = args.filter((a, i) => !(i === 0 && /^-(?:\d+|[A-Z]+\d*|SIG\w+)$/i.test(a)) && !(args[i - 1] === '-s' || args[i - 1] === '-n' || a === '-s' || a === '-n' || a === '--'));
      return pids.includes('-1');
    }
    case 'esxcli':
      return /\bsystem\s+shutdown\s+(?:poweroff|reboot)\b/.test(args.join(' '));
    case 'vim-cmd':
      return /^vmsvc\/power\.(?:off|shutdown|reset|suspend|reboot)$/.test(args[0] ?? '');
    default:
      return false;
  }
}

/** Accounts deleted, locked or stripped of their password: userdel/deluser, `passwd -d/-l`,
 * `usermod -L`/`--expiredate`, dscl -delete /Users, sysadminctl -deleteUser, `net user U /delete`,
 * Remove-LocalUser / Remove-ADUser / Remove-AzureADUser / Remove-MgUser, Disable-LocalUser. */
function removesAccount(c: ShellCommand): boolean {
  const args = c.argv.slice(1);
  const name = c.name.toLowerCase();
  switch (name) {
    case 'userdel':
    case 'deluser':
    case 'luserdel':
      return args.some((a) => !a.startsWith('-'));
    case 'passwd': {
      const o = opts(c);
      return o.short.has('d') || o.short.has('l') || o.long.has('delete') || o.long.has('lock');
    }
    case 'usermod':
      return args.some((a) => /^-[a-zA-Z]*L[a-zA-Z]*$|^--lock$|^--expiredate$|^-e$/.test(a)) || (args.some((a) => a === '-p' || a.startsWith('--password')) && args[args.length - 1] === 'root');
    // a new password for root (chpasswd(8) reads USER:PASSWORD lines; usermod -p sets the hash): whoever held it is locked out
    case 'chpasswd':
      return /(?:^|\n)\s*root:/.test(c.stdin ?? '') || (c.pipeline !== null && c.stage > 0 && c.pipeline.stages.slice(0, c.stage).some((p) => /(?:^|\s|["'])root:/.test(p.argv.slice(1).join(' '))));
    case 'chage':
      return args.some((a) => /^-E$|^--expiredate$/.test(a)) && args.some((a) => /^0$|^1970-01-0[12]$/.test(a));
    case 'dscl':
      // the whole record (`-delete /Users/U`), not one attribute of it (`-delete /Users/U Attr`)
      return /(?:^|\s)-delete\s+\/Users\/[^/\s]+$/.test(args.join(' '));
    case 'sysadminctl':
      return args.some((a) => /^-deleteUser$/i.test(a));
    case 'net':
    case 'net1':
      return /^user$/i.test(args[0] ?? '') && args.some((a) => /^\/del(?:ete)?$/i.test(a) || /^\/active:no$/i.test(a));
    default:
      return /^(?:remove-localuser|remove-aduser|remove-azureaduser|remove-mguser|remove-azaduser|disable-localuser|disable-adaccount)$/.test(name);
  }
}

/** The kernel's magic SysRq trigger: writing `b`, `o` or `c` reboots, powers off or crashes at once. */
const SYSRQ = (a: PathAccess) => a.mode === 'write' && a.path === '/proc/sysrq-trigger';

/** destructive-host rules (docs/rules.md "Rule origins"). */
export const HOST_RULES: Rule[] = [
  {
    id: 'system-shutdown',
    name: 'Host shut down or rebooted',
    category: 'destructive-host',
    action: 'record',
    attack: 'T1529',
    description: 'shutdown, reboot, halt, poweroff, systemctl poweroff/reboot/halt/rescue, init 0/6, kill … -1 (every process) and killall5, a write to /proc/sysrq-trigger, Stop-Computer/Restart-Computer, ESXi host or VM power-off.',
    help: 'Takes the host (and everything running on it, the agent included) down. An agent task rarely needs it; check who asked for it.',
    examples: {
      match: ['sudo shutdown -h now', 'reboot', 'systemctl poweroff', 'echo b > /proc/sysrq-trigger', 'shutdown /r /t 0'],
      not_match: ['shutdown -c', 'echo reboot >> notes.md', 'systemctl status', 'wsl --shutdown', 'reboot --help'],
    },
    match: { command: shutsDown, path: SYSRQ },
  },
  {
    id: 'critical-service-stop',
    name: 'A critical system service stopped',
    category: 'destructive-host',
    action: 'record',
    attack: 'T1489',
    description: 'Stopping, killing or disabling a service the host depends on (cron, sshd, dbus, networking, kubelet; Windows spooler, wuauserv, winmgmt, VSS, SQL Server, Exchange): systemctl stop/disable/mask, service X stop, sc stop/config disabled, net stop, Stop-Service, taskkill /im, kill/pkill/killall.',
    help: 'Remote access, scheduled jobs, networking or a database stop for every user of the host. Check which service the task needed restarted, and that it is started again.',
    examples: {
      match: ['sudo systemctl stop cron', 'sc.exe stop spooler', 'net stop MSSQLSERVER', 'sudo pkill -SIGTERM ^cron$', 'kill -9 $(pidof sshd)'],
      not_match: ['sudo systemctl stop nginx', 'pkill -f "node server.js"', 'systemctl status sshd', 'sudo systemctl restart cron'],
    },
    match: { command: (c) => stoppedServices(c).some((s) => CRITICAL_SERVICE.test(s.replace(/^.*\//, ''))) },
  },
  {
    id: 'account-removal',
    name: 'Account deleted or locked',
    category: 'destructive-host',
    action: 'block',
    attack: 'T1531',
    description: 'A user account deleted, locked or stripped of its password, or root given a new password: userdel/deluser, passwd -d/-l, usermod -L, chpasswd of root:…, usermod -p … root, dscl . -delete /Users/U, sysadminctl -deleteUser, net user U /delete, Remove-LocalUser, Remove-ADUser, Remove-AzureADUser, Disable-LocalUser.',
    help: 'Someone loses access to the host or directory (userdel -r also deletes their home). Check the account and who asked.',
    examples: {
      match: ['sudo userdel -r alice', 'dscl . -delete /Users/alice', 'net user alice /delete', 'passwd -l bob'],
      not_match: ['id alice', 'passwd', 'dscl . -read /Users/alice', 'net user alice'],
    },
    match: { command: removesAccount },
  },
];
