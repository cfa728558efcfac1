/**
 * defense-evasion rules: what a command does to hide itself or blind the host's defences, asked
 * of the effects model (what it deletes, empties or writes) and of the command's options.
 * Techniques: https://attack.mitre.org/tactics/TA0005/.
 */
import { written, type Rule } from '../rule.js';
import type { ShellCommand } from '../shell/model.js';
import { deleteTargets, opts, writeTargets } from '../effects/index.js';
import { SHELLS } from '../shell/context.js';
import { INTERPRETERS } from '../shell/interp.js';
import { idiomRule, writtenText } from './idioms.js';
import { effectsOf } from '../effects/index.js';

/** Shell history files (bash, zsh, sh, fish, python, mysql, psql, less, PowerShell PSReadLine). */
const HISTORY_FILE = /(?:^|\/)\.(?:bash_history|zsh_history|zhistory|sh_history|history|ash_history|python_history|mysql_history|psql_history|lesshst|node_repl_history)$|(?:^|\/)\.local\/share\/fish\/fish_history$|ConsoleHost_history\.txt$/i;
/** Log files and directories: /var/log/…, Docker's container logs, macOS unified logs, the audit log, login records. */
const LOG_PATH = /^\/var\/log(?:\/|$)|^\/var\/lib\/docker\/containers\/[^/]+\/[^/]*-json\.log(?:\.\d+)?$|^\/var\/adm\/|^\/private\/var\/log\/|^\/var\/audit\/|^\/Library\/Logs\/|^~\/Library\/Logs\/|^\/var\/db\/diagnostics|^\/var\/run\/utmp$|^\/run\/utmp$|^\/var\/(?:log\/)?[uw]tmp$|^\/var\/log\/(?:lastlog|btmp|wtmp)$/;

function historyTamper(c: ShellCommand): boolean {
  const args = c.argv.slice(1);
  // `history -c` clears, `history -d N` deletes entries, `history -w /dev/null` writes them nowhere
  if (c.name === 'history') return args.some((a) => /^-[a-zA-Z]*[cd]/.test(a)) || (args.includes('-w') && args.includes('/dev/null'));
  // PowerShell's PSReadLine history: switched off, or its file removed
  if (/^set-psreadlineoption$/i.test(c.name)) return /-HistorySaveStyle\s+SaveNothing/i.test(args.join(' '));
  if (/^(?:remove-item|rm|del|ri)$/i.test(c.name) && /HistorySavePath/i.test(args.join(' '))) return true;
  if (c.name === 'unset') return args.some((a) => /^HIST(?:FILE|SIZE|FILESIZE)$/.test(a));
  if (c.name === 'set') return args.some((a, i) => (a === '+o' && args[i + 1] === 'history') || a === '+H');
  if (c.name === 'export' || c.name === 'declare' || c.name === 'typeset' || c.name === 'setopt' || c.name === 'unsetopt') {
    return args.some((a) => /^(?:HISTFILE=(?:\/dev\/null|)|HIST(?:FILE)?SIZE=0|SAVEHIST=0|HISTCONTROL=ignore(?:space|both))$/.test(a)) || (c.name === 'unsetopt' && args.includes('share_history'));
  }
  if (c.assigns.some(([k, v]) => (k === 'HISTFILE' && (v === '' || v === '/dev/null')) || (/^HIST(?:FILE)?SIZE$|^SAVEHIST$/.test(k) && v === '0'))) return true;
  if (/^(?:clear-history|clhy)$/i.test(c.name)) return true;
  return deleteTargets(c).some((p) => HISTORY_FILE.test(p)) || (c.name === 'ln' && writeTargets(c).some((p) => HISTORY_FILE.test(p)) && args.includes('/dev/null'));
}

/** Assignments at the top of a line (`HISTFILE=/dev/null` alone) are not commands: the line's text is checked. */
const HISTORY_ASSIGN = /(?:^|[\s;&|(])(?:export\s+)?(?:HISTFILE=(?:\/dev\/null|["']{2}|(?=[\s;&|]|$))|HIST(?:FILE)?SIZE=0\b|SAVEHIST=0\b)/;

/** A shell, an interpreter or a Windows script host by path (`/bin/sh`, `/usr/bin/python3`,
 * `…\System32\cmd.exe`: Windows paths may reach here with their backslashes read as escapes). */
const SHELL_BINARY = /^(?:\/usr)?(?:\/local)?\/s?bin\/(?:(?:ba|da|z|k|c|tc|mk|a|fi|y|r)?sh|busybox|python[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|php[0-9.]*)$|(?:cmd|powershell|pwsh|cscript|wscript|mshta)\.exe$/i;

/** The name a program is known by: the basename, lower-cased, `.exe` dropped. */
const programName = (p: string) => p.replace(/\\/g, '/').replace(/^.*[/%]/, '').toLowerCase().replace(/\.exe$/, '');

/**
 * True when a shell or interpreter binary is copied, linked or bind-mounted under another name
 * (`cp /bin/sh /tmp/crond`, `ln -fs /bin/sh /bin/ln`, `mount -o bind /bin/sh /bin/mount`,
 * `copy cmd.exe lsass.exe`): whatever runs that name next, a cron job, sudo rule or service,
 * gets a shell. A destination named as a shell or interpreter itself (`ln -s /usr/bin/python3
 * ~/bin/python`, `ln -sf /bin/bash /bin/sh`) and a copy keeping its name are left alone.
 */
function plantsShell(c: ShellCommand): boolean {
  const name = c.name.toLowerCase();
  const bind = name === 'mount' && c.argv.some((a) => a === '--bind' || a === '-B' || /(?:^|,)r?bind(?:,|$)/.test(a));
  if (!bind && !/^(?:cp|ln|install|copy|copy-item|cpi|xcopy)$/.test(name)) return false;
  const ops = opts(c, { short: name === 'mount' ? 'oto' : 'tSmogb', long: ['target-directory', 'suffix', 'mode', 'owner', 'group'] }).operands.filter((a) => !/^\/[A-Za-z]$/.test(a));
  if (ops.length < 2) return false;
  const dest = programName(ops[ops.length - 1]!.replace(/[\\/]+$/, ''));
  return ops.slice(0, -1).some((src) => {
    if (!SHELL_BINARY.test(src)) return false;
    if (bind) return true;
    return dest !== programName(src) && !SHELLS.has(dest) && !INTERPRETERS.test(dest) && !/\.(?:d|dir)$/.test(dest) && !/\/$/.test(ops[ops.length - 1]!);
  });
}

/** Configuration of auditing, system logging, the firewall and mandatory access control. */
const SECURITY_CONFIG = /^\/etc\/(?:audit\/|audisp\/|libaudit\.conf$|security\/audit_(?:event|control|user|class)$|rsyslog\.conf$|rsyslog\.d\/|syslog\.conf$|syslog-ng\/|systemd\/journald\.conf(?:\.d\/|$)|asl\.conf$|asl\/|ufw\/|default\/ufw$|iptables\/|sysconfig\/ip6?tables$|nftables\.conf$|pf\.conf$|pf\.anchors\/|firewalld\/|selinux\/config$|apparmor(?:\.d)?\/)|^\/private\/etc\/(?:security\/audit_|asl\.conf$|pf\.conf$)|^\/proc\/sys\/kernel\/(?:yama\/ptrace_scope|randomize_va_space|kptr_restrict|dmesg_restrict|modules_disabled)$/;

/** Security services and agents whose stop or removal blinds the host. */
const SECURITY_SERVICE = /^(?:auditd?|syslogd|rsyslogd|littlesnitch\w*|at\.obdev\.littlesnitch\w*|com\.crowdstrike\.\w+|com\.objective-see\.\w+|apparmor|selinux|firewalld|ufw|iptables|ip6tables|nftables|netfilter-persistent|falcon-sensor|falcond|cbagentd|cbdaemon|carbonblack|com\.carbonblack\.[\w.]+|com\.opendns\.[\w.]+|pf|cb|sentinelone|sentinelagent|s1-agent|osqueryd?|sysmon(?:forlinux)?|wazuh-agent|ossec|clamav-daemon|clamd|freshclam|elastic-agent|filebeat|auditbeat|rsyslog|syslog|syslog-ng|systemd-journald|mdatp|mdatp_audisp_plugin|xagt|cylancesvc|taniumclient|qualys-cloud-agent|splunkd?|SplunkForwarder|td-agent|fluentd|fluent-bit|aide|tripwire|snort|suricata|zeek|crowdstrike|tmcmd|ds_agent|eset|esets|sophos|sav-protect|mcafee|ma|nessusd|lynis|rkhunter|chkrootkit|logrotate|com\.apple\.auditd|com\.apple\.syslogd)(?:\.service)?$/i;

function disablesDefence(c: ShellCommand): boolean {
  const args = c.argv.slice(1);
  const o = opts(c);
  switch (c.name) {
    case 'setenforce':
      return args[0] === '0' || /^permissive$/i.test(args[0] ?? '');
    case 'auditctl':
      return o.short.has('D') || (o.short.has('e') && args[args.indexOf('-e') + 1] === '0') || args.some((a, i) => a === '-e' && args[i + 1] === '0');
    case 'systemctl':
    case 'service':
    case 'chkconfig':
    case 'update-rc.d':
    case 'rc-service':
    case 'rc-update':
    case 'launchctl': {
      const verbs = /^(?:stop|disable|mask|kill|unload|remove|del|off|bootout)$/;
      return args.some((a) => verbs.test(a)) && args.some((a) => SECURITY_SERVICE.test(a.replace(/^.*\//, '').replace(/\.plist$/, '')));
    }
    case 'ufw':
      return args[0] === 'disable' || (args[0] === 'default' && args[1] === 'allow') || (args[0] === 'logging' && args[1] === 'off');
    case 'iptables':
    case 'ip6tables':
      return o.short.has('F') || o.long.has('flush') || (o.short.has('P') && args.includes('ACCEPT')) || o.short.has('X');
    case 'nft':
      return args[0] === 'flush' && args[1] === 'ruleset';
    case 'spctl':
      return args.some((a) => /^--master-disable$|^--global-disable$|^--disable$/.test(a));
    case 'csrutil':
      return args[0] === 'disable';
    // AppArmor: every profile unloaded, or profiles put in complain mode or disabled (apparmor_parser -R removes one)
    case 'aa-teardown':
      return true;
    case 'aa-disable':
    case 'aa-complain':
      return args.length > 0;
    case 'apparmor_parser':
      return o.short.has('R') || o.long.has('remove');
    case 'pfctl':
      return o.short.has('d');
    case 'defaults':
      return /write/.test(args[0] ?? '') && /com\.apple\.(?:alf|security|LaunchServices|quarantine)|LSQuarantine|globalstate|firewall/i.test(args.join(' '));
    case 'socketfilterfw':
      return args.some((a) => /^--setglobalstate$/.test(a)) && args.includes('off');
    case 'kill':
    case 'pkill':
    case 'killall':
      return args.some((a) => SECURITY_SERVICE.test(a) || /falcon|sentinel|osquery|auditd|sysmon|crowdstrike|carbonblack|cbagent|mdatp|elastic-agent|wazuh|ossec|xagt/i.test(a));
    case 'mdatp':
      return /\b(?:real-time-protection|config)\b/.test(args.join(' ')) && /disabled|false/.test(args.join(' '));
    case 'sysctl':
      return args.some((a) => /kernel\.(?:randomize_va_space=0|yama\.ptrace_scope=0|kptr_restrict=0|dmesg_restrict=0|modules_disabled)/.test(a));
    default:
      return false;
  }
}

/** Root certificate stores (Debian/Ubuntu, RHEL/Fedora, Arch, SUSE, the OpenSSL directory; FreeBSD's
 * certctl(8) trust directories /usr/local/share/certs and /usr/local/etc/ssl/certs). */
const CA_STORE = /^\/usr\/local\/share\/ca-certificates(?:\/|$)|^\/usr\/local\/share\/certs\/|^\/usr\/local\/etc\/ssl\/certs\/|^\/usr\/share\/ca-certificates\/|^\/etc\/pki\/ca-trust\/source\/anchors\/|^\/etc\/pki\/trust\/anchors\/|^\/etc\/ca-certificates\/trust-source\/anchors\/|^\/etc\/ssl\/certs\/|^\/usr\/share\/pki\/trust\/anchors\//;

function installsRootCa(c: ShellCommand): boolean {
  const args = c.argv.slice(1);
  if (c.name === 'security') return /^add-trusted-cert$/.test(args[0] ?? '') || (args[0] === 'import' && args.join(' ').includes('System.keychain'));
  if (c.name === 'trust') return args[0] === 'anchor' && !args.includes('--remove');
  // NSS certutil -A -t C…; Windows certutil -addstore [-f] root|ca|trustedpublisher (certutil.exe's store names)
  if (c.name === 'certutil') return (args.some((a) => /^-A$/.test(a)) && args.some((a) => /^-t$/.test(a)) && /C/.test(args[args.indexOf('-t') + 1] ?? '')) || (args.some((a) => /^[-/]addstore$/i.test(a)) && args.some((a) => /^(?:root|ca|authroot|trustedpublisher)$/i.test(a)));
  // FreeBSD certctl trust FILE (certctl(8)); PowerShell Import-Certificate / Move-Item into a machine or user Root store
  if (c.name === 'certctl') return args[0] === 'trust';
  if (/^(?:import-certificate|import-pfxcertificate|move-item|copy-item)$/i.test(c.name)) return args.some((a) => /^Cert:[\\/]*(?:LocalMachine|CurrentUser)[\\/]*(?:Root|AuthRoot|CA)\b/i.test(a));
  return writeTargets(c).some((p) => CA_STORE.test(p));
}

/** `touch -t/-d/-r/--date/--reference`, `SetFile -d/-m`: a file's times set to a chosen value. */
function timestomps(c: ShellCommand): boolean {
  const args = c.argv.slice(1);
  if (c.name === 'touch') {
    if (!args.some((a) => /^-[a-zA-Z]*[tdrB]$|^--(?:date|reference)(?:=|$)|^-[a-zA-Z]*[tdr]\d/.test(a)) || args.some((a) => /^(?:1970|197\d)/.test(a) && args.length === 1)) return false;
    // a file of the working tree dated for a test or a build (`touch -d "2 hours ago" test/fixtures/old.txt`)
    // is not hidden from anyone; a file elsewhere, or times copied from a system file, are
    const o = opts(c, { short: 'dtr', long: ['date', 'reference', 'time'] });
    const ref = [...(o.values.get('-r') ?? []), ...(o.values.get('--reference') ?? [])];
    const systemCwd = c.cwd !== null && /^\/(?:usr|bin|sbin|etc|lib\w*|opt|var|boot|root|Library|System|Applications)(?:\/|$)/.test(c.cwd);
    return ref.some((r) => /^[/~]/.test(r)) || o.operands.some((p) => /^[/~$]/.test(p) || p.includes('..') || systemCwd);
  }
  if (c.name === 'setfile' || c.name === 'SetFile') return args.some((a) => a === '-d' || a === '-m');
  // the system clock set back or forth, so files touched meanwhile get that time (`date -s …`, `date 010100001971`)
  if (c.name === 'date') return args.some((a, i) => /^(?:-s|--set)$/.test(a) || a.startsWith('--set=') || (/^\d{8}(?:\d{2}|\d{4})?(?:\.\d{2})?$/.test(a) && !args[i - 1]?.startsWith('-')));
  if (/^set-date$/i.test(c.name)) return true;
  return false;
}

/** Invisible or direction-changing characters: right-to-left and left-to-right overrides and
 * isolates, zero-width space, joiners and marks (Unicode UAX #9; ATT&CK T1036.002, T1027.018). */
const DECEPTIVE_CHAR = /[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060\uFEFF]/;
/** The same characters built by code: PowerShell `[char]0x202E`, `\u202E` escapes, UTF-8 bytes. */
const DECEPTIVE_ESCAPE = /\[char\]\s*(?:0x)?(?:202[A-E]|206[6-9]|200[B-F]|2060|FEFF)\b|\[char\]\s*(?:8234|8235|8236|8237|8238|8203|8204|8205|8206|8207)\b|\\u(?:202[A-Ea-e]|206[6-9]|200[B-Fb-f])|\\xe2\\x80\\x(?:ae|ab|8b|8c|8d)/i;

/** True when a command names a file or variable that holds an invisible or direction-changing
 * character (a path it writes or creates, `touch $'a\u200d.php'`), or builds one in PowerShell
 * (`"evil" + [char]0x202E + "fdp.exe"`). */
function deceptiveName(c: ShellCommand): boolean {
  if (effectsOf(c).writes.some((p) => DECEPTIVE_CHAR.test(p))) return true;
  if (/^(?:touch|mkdir|new-item|ni|set-content|out-file|cp|mv|ln|install)$/i.test(c.name) && c.argv.slice(1).some((a) => DECEPTIVE_CHAR.test(a))) return true;
  // a shell's written text holds its payload, whose own commands are checked on their own
  return !SHELLS.has(c.name) && DECEPTIVE_ESCAPE.test(writtenText(c)) && !/^(?:grep|egrep|rg|sed|tr|perl|python[0-9.]*|node|awk|iconv)$/.test(c.name);
}

/**
 * True when a firewall's rules are changed in a way that removes protection or cuts the host off
 * from its defenders (ATT&CK T1562.004): iptables/ip6tables deleting a rule (-D) or adding a DROP
 * or REJECT to OUTPUT (blocking telemetry or updates), ufw deny/reject/prepend/insert/delete, pf
 * rules loaded or flushed (pfctl -f, -F), nft delete/flush of a table, chain or rule, firewall-cmd
 * removing a service, port or rich rule. Opening a port (`ufw allow 22`, `iptables -A INPUT … -j
 * ACCEPT`), listing and status are left alone; switching the firewall off is security-tool-disable.
 */
export function changesFirewall(c: ShellCommand): boolean {
  const args = c.argv.slice(1);
  const joined = args.join(' ');
  switch (c.name) {
    case 'iptables':
    case 'ip6tables':
    case 'iptables-nft':
    case 'iptables-legacy':
      if (args.some((a) => a === '-D' || a === '--delete')) return true;
      return args.some((a) => /^-[AI]$|^--(?:append|insert)$/.test(a)) && args.includes('OUTPUT') && /-j\s+(?:DROP|REJECT)\b/.test(joined);
    case 'ufw':
      return /^(?:deny|reject|prepend|insert|delete)$/.test(args[0] ?? '') || (args[0] === 'route' && /^(?:deny|reject|delete)$/.test(args[1] ?? ''));
    case 'pfctl':
      // -n only parses the file (a syntax check)
      return args.some((a) => /^-[a-zA-Z]*[fF]$/.test(a)) && !args.some((a) => /^-[a-zA-Z]*n/.test(a));
    case 'nft':
      return /^(?:delete|flush)$/.test(args[0] ?? '') && /^(?:table|chain|rule|set|element)$/.test(args[1] ?? '');
    case 'firewall-cmd':
      return args.some((a) => /^--remove-(?:service|port|rich-rule|source|interface)\b/.test(a));
    default:
      return false;
  }
}

/** True when a file is made immutable or append-only (chattr +i/+a, chflags schg/uchg/simmutable/sappnd): nothing, root included, can change or delete it until the flag is cleared. */
export function setsImmutable(c: ShellCommand): boolean {
  const args = c.argv.slice(1);
  if (c.name === 'chattr') return args.some((a) => /^[+=][a-zA-Z]*[ia]/.test(a)) && args.length >= 2;
  if (c.name === 'chflags') return args.some((a) => /^(?:s|u)?(?:chg|imm|immutable|appnd|append|unlnk|unlink)$|^(?:schange|uchange|simmutable|uimmutable|sappend|uappend|sunlnk)$/.test(a.split(',')[0] ?? '') || a.split(',').some((f) => /^(?:schg|uchg|simmutable|uimmutable|sappnd|uappnd|sappend|uappend|sunlnk)$/.test(f)));
  return false;
}

/** Mail stores: the local spool (/var/mail, /var/spool/mail), macOS Mail, Thunderbird profiles, Outlook data files. */
const MAIL_STORE = /^\/var\/(?:spool\/)?mail(?:\/|$)|^(?:~|\/Users\/[^/]+)\/Library\/(?:Mail|Containers\/com\.apple\.mail)(?:\/|$)|(?:^|\/)\.thunderbird\/|(?:^|\/)\.mozilla-thunderbird\/|\.(?:pst|ost)$/i;

/** True when a mail store is changed, emptied or deleted, or copied elsewhere (listing and reading it to the transcript are not). */
export function touchesMailStore(c: ShellCommand): boolean {
  if (/^(?:ls|stat|du|file|find|test|\[|mail|mailx|mutt)$/.test(c.name)) return false;
  const e = effectsOf(c);
  if (e.writes.some((p) => MAIL_STORE.test(p)) || e.deletes.some((p) => MAIL_STORE.test(p))) return true;
  return /^(?:cp|rsync|ditto|tar|zip|7z|scp|mv)$/.test(c.name) && e.reads.some((p) => MAIL_STORE.test(p));
}

/** Extensions of documents, images and media: what a user opens, never what a shell runs. */
const DOCUMENT_EXT = /\.(?:png|jpe?g|gif|bmp|ico|webp|tiff?|pdf|docx?|xlsx?|pptx?|odt|ods|rtf|mp3|mp4|m4a|wav|avi|mov|mkv)$/i;
/** A document extension followed by an executable one (`report.pdf.sh`, `photo.jpg.exe`). */
const DOUBLE_EXT = /\.(?:png|jpe?g|gif|bmp|pdf|docx?|xlsx?|pptx?|txt|rtf|mp3|mp4)\.(?:sh|bash|command|exe|scr|com|bat|cmd|ps1|vbs|js|hta|py|pl)$/i;

/** A program run from a file named as a document: a shell given a `.png`/`.pdf` script, or a
 * program path with a document extension or a double extension (ATT&CK T1036.007, T1036.008). */
function masqueradedExec(c: ShellCommand): boolean {
  const base = c.name.replace(/^.*[\\/]/, '');
  if (DOUBLE_EXT.test(base)) return true;
  const path = c.argv[0] ?? '';
  if (/[\\/]/.test(path) && DOCUMENT_EXT.test(path)) return true;
  if (SHELLS.has(c.name) || c.name === 'source' || c.name === '.') {
    const script = c.argv.slice(1).find((a) => !a.startsWith('-') && !a.startsWith('+'));
    const i = script === undefined ? -1 : c.argv.indexOf(script);
    // `bash -c CMD`: the operand is a command string, not a file
    if (script === undefined || c.argv.slice(1, i).some((a) => /^-[a-zA-Z]*c/.test(a))) return false;
    return DOCUMENT_EXT.test(script) || DOUBLE_EXT.test(script);
  }
  return false;
}

export const EVASION_RULES: Rule[] = [
  {
    id: 'firewall-rule-change',
    name: 'Firewall rules removed or outbound traffic blocked',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1562.004',
    description: 'A firewall rule deleted or a block added: iptables -D, iptables -A/-I OUTPUT … -j DROP/REJECT, ufw deny/reject/prepend/insert/delete, pfctl -f/-F (rules loaded or flushed), nft delete/flush of a table, chain or rule, firewall-cmd --remove-*. Opening a port (ufw allow, -j ACCEPT), listing and status do not fire.',
    help: 'Removing rules opens the host; blocking outbound hosts cuts off telemetry, updates and the people watching. Check what the rule was and who asked for the change.',
    examples: {
      match: ['iptables -D INPUT -p tcp --dport 22 -j DROP', 'ufw prepend deny out to 10.9.9.9', 'pfctl -a x -f /tmp/rules.conf'],
      not_match: ['sudo ufw allow 22/tcp', 'iptables -L -n', 'pfctl -s rules'],
    },
    match: { command: changesFirewall },
  },
  {
    id: 'immutable-flag-set',
    name: 'File made immutable',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1222.002',
    description: 'A file made immutable or append-only: chattr +i/+a, chflags schg/uchg/simmutable/uimmutable/sappnd.',
    help: 'An immutable file cannot be changed or deleted, even by root, until the flag is cleared: a planted key, cron job or binary then survives clean-up. Check which file and why.',
    examples: {
      match: ['sudo chattr +i ~/.ssh/authorized_keys', 'chattr +a /var/log/x.log', 'chflags schg /usr/local/bin/tool'],
      not_match: ['chattr -i /etc/resolv.conf', 'lsattr /etc/passwd', 'chflags nouchg ~/Desktop/x'],
    },
    match: { command: setsImmutable },
  },
  {
    id: 'mail-store-tamper',
    name: 'Mail store changed or copied',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1070.008',
    description: 'A mail store written, emptied, deleted or copied elsewhere: the local spool (/var/mail, /var/spool/mail), macOS Mail (~/Library/Mail), Thunderbird profiles, Outlook .pst/.ost files.',
    help: 'Deleting or editing mail hides notifications and evidence; copying the store collects the user\'s mail. Check why the agent touched it.',
    examples: {
      match: ['rm -rf /var/spool/mail/root', 'echo > /var/mail/alice', 'cp -R ~/Library/Mail /tmp/m'],
      not_match: ['ls -la /var/mail', 'mail -s done ops@x.example < report.txt', 'cat /var/mail/alice'],
    },
    match: { command: touchesMailStore },
  },
  {
    id: 'history-tamper',
    name: 'Shell history erased or switched off',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1070.003',
    description: 'Clearing or disabling shell history: history -c/-d, unset HISTFILE, HISTFILE=/dev/null, HISTFILESIZE=0/HISTSIZE=0, set +o history, deleting, emptying or linking to /dev/null a history file, PSReadLine SaveNothing or its history file removed.',
    help: 'Hides what was typed from whoever reviews the host. Check why the agent needs to.',
    examples: {
      match: ['unset HISTFILE; export HISTFILESIZE=0; history -c', 'rm -f ~/.bash_history', 'ln -sf /dev/null ~/.bash_history'],
      not_match: ['history | tail -20', 'echo $HISTFILE', 'cat ~/.bash_history | wc -l'],
    },
    match: {
      command: historyTamper,
      line: (line) => {
        const m = HISTORY_ASSIGN.exec(line.text);
        return m ? { source: line.text, start: m.index, end: m.index + m[0].length } : null;
      },
      raw: /\bhistory\s+-c\b|\bunset\s+HISTFILE\b|\bHIST(?:FILE)?SIZE=0\b|\bset\s+\+o\s+history\b|-HistorySaveStyle\s+SaveNothing\b|\bRemove-Item\b[^\n;|]*HistorySavePath\b/i,
    },
  },
  {
    id: 'log-tamper',
    name: 'System logs deleted or emptied',
    category: 'defense-evasion',
    action: 'block',
    attack: 'T1070.002',
    description: 'Deleting, shredding, truncating or emptying system logs (/var/log/…, login records, the audit log, Docker container logs), journalctl --vacuum/--rotate, macOS log erase.',
    help: 'Destroys the record of what happened on the host.',
    examples: {
      match: ['rm -rf /var/log/messages', 'truncate -s 0 /var/log/auth.log', 'sudo log erase --all', '> /var/log/syslog'],
      not_match: ['tail -n 50 /var/log/syslog', 'ls -la /var/log', 'rm -rf ./log/test.log'],
    },
    match: {
      command: (c) => {
        if (c.name === 'log' && c.argv[1] === 'erase') return true;
        if (c.name === 'journalctl') return c.argv.slice(1).some((a) => /^--vacuum-|^--rotate$|^--flush$/.test(a));
        return deleteTargets(c).some((p) => LOG_PATH.test(p));
      },
      raw: /\b(?:rm|shred|truncate)\b[^;&|\n]*\s\/var\/log\/|\blog\s+erase\b/,
    },
  },
  {
    id: 'security-tool-disable',
    name: 'Security controls switched off',
    category: 'defense-evasion',
    action: 'block',
    attack: 'T1562.001',
    description: 'Disabling auditing (auditctl -D / -e 0), SELinux (setenforce 0), the firewall (ufw disable, iptables -F/-P ACCEPT, nft flush ruleset, pfctl -d, socketfilterfw off), Gatekeeper or SIP (spctl --master-disable, csrutil disable), AppArmor (aa-teardown, aa-disable, aa-complain, apparmor_parser -R), or stopping/killing security agents and log daemons.',
    help: 'Removes the protections that would notice the next step. Check why the agent touched security settings.',
    examples: {
      match: ['auditctl -D', 'setenforce 0', 'systemctl stop falcon-sensor', 'sudo spctl --master-disable', 'ufw disable'],
      not_match: ['auditctl -l', 'getenforce', 'systemctl stop nginx', 'ufw status', 'iptables -L -n'],
    },
    match: { command: disablesDefence },
  },
  {
    id: 'security-config-write',
    name: 'Audit, logging or firewall configuration changed',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1562',
    description: 'A write to the configuration of auditing (/etc/audit/, audisp, libaudit.conf, the BSM audit files), system logging (rsyslog, syslog, syslog-ng, journald, asl), the firewall (/etc/ufw/, /etc/default/ufw, iptables and nftables rule files, pf.conf, firewalld) or mandatory access control (SELinux config, AppArmor profiles), and the kernel exploit mitigations under /proc/sys/kernel (yama/ptrace_scope, randomize_va_space, kptr_restrict, dmesg_restrict).',
    help: 'Such an edit can silence auditing and logging or open the firewall from the next reload on. Check what the change does.',
    examples: {
      match: ["echo '-e 0' >> /etc/audit/rules.d/audit.rules", "sudo sed -i 's/^SELINUX=enforcing/SELINUX=disabled/' /etc/selinux/config", 'echo "# c" | sudo tee -a /etc/ufw/user.rules'],
      not_match: ['cat /etc/audit/auditd.conf', 'sudo ufw allow 22/tcp', 'echo "127.0.0.1 app.local" | sudo tee -a /etc/hosts'],
    },
    match: { path: written(SECURITY_CONFIG) },
  },
  {
    id: 'shell-binary-planted',
    name: 'Shell planted under another name',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1036.003',
    description: 'A shell, interpreter or Windows script host (/bin/sh, /bin/bash, python, cmd.exe, powershell.exe, cscript.exe) copied, linked or bind-mounted under another name: cp /bin/sh /tmp/crond, ln -fs /bin/sh /bin/ln, mount -o bind /bin/sh /bin/mount, copy cmd.exe lsass.exe.',
    help: 'The next thing that runs the name (a sudo rule, a cron job, a service, a user) gets a shell, and process lists show an innocent name. Check why the binary was copied.',
    examples: {
      match: ['cp /bin/sh /tmp/crond', 'sudo ln -fs /bin/sh /bin/ln', 'sudo mount -o bind /bin/sh /bin/mount'],
      not_match: ['ln -s /usr/bin/python3 ~/.local/bin/python', 'sudo ln -sf /bin/bash /bin/sh', 'cp /bin/bash ./rootfs/bin/'],
    },
    match: { command: plantsShell },
  },
  {
    id: 'root-ca-install',
    name: 'Root certificate installed',
    category: 'defense-evasion',
    action: 'block',
    attack: 'T1553.004',
    description: 'Adding a trusted root CA: writing into the system CA stores (/usr/local/share/ca-certificates, /etc/pki/ca-trust/source/anchors, …), security add-trusted-cert, trust anchor, certctl trust, certutil -A -t C, Windows certutil -addstore root, Import-Certificate into Cert:\\LocalMachine\\Root.',
    help: 'A trusted root lets its holder intercept every TLS connection of the host. Check where the certificate comes from.',
    examples: {
      match: ['cp evil.crt /usr/local/share/ca-certificates/ && update-ca-certificates', 'sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain x.crt', 'trust anchor ./ca.pem'],
      not_match: ['update-ca-certificates', 'ls /usr/local/share/ca-certificates', 'security find-certificate -a'],
    },
    match: { command: installsRootCa },
  },
  {
    id: 'deceptive-unicode-name',
    name: 'File or variable named with invisible characters',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1036.002',
    description: 'A file or variable name holding a right-to-left override, a direction isolate or a zero-width character (touch $\'index\\u200d.php\', PowerShell "x" + [char]0x202E + "fdp.exe"), so that it reads as something else.',
    help: 'The name shows differently from what it is: evil\\u202Efdp.exe looks like evilexe.pdf, and a zero-width joiner makes a second index.php. Check what the file really is.',
    examples: {
      match: ["touch $'index\\u200d.php'", '$n = "report" + [char]0x202E + "fdp.exe"', "echo x > $'a\\u202egnp.sh'"],
      not_match: ["touch index.php", "grep -P '\\x{200B}' notes.txt", "sed -i 's/\\u200b//g' a.txt"],
    },
    match: { command: deceptiveName },
  },
  {
    id: 'quarantine-removal',
    name: 'Download quarantine removed',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1553.001',
    description: 'Removing the macOS quarantine attribute (xattr -d/-c com.apple.quarantine, xattr -cr) or allow-listing with spctl --add, Windows Unblock-File: the file then runs without the download check.',
    help: 'Skips Gatekeeper or SmartScreen for the file. Check what the file is and where it came from.',
    examples: {
      match: ['xattr -d com.apple.quarantine ./payload.app', 'xattr -cr /Applications/X.app', 'Unblock-File -Path .\\x.exe'],
      not_match: ['xattr -l ./file', 'xattr -p com.apple.quarantine ./x'],
    },
    match: {
      command: (c) => {
        const args = c.argv.slice(1);
        if (c.name === 'xattr') return (args.some((a) => /^-[a-zA-Z]*[dc]/.test(a)) && (args.includes('com.apple.quarantine') || args.some((a) => /^-[a-zA-Z]*c/.test(a)))) || (args.some((a) => /^-[a-zA-Z]*w/.test(a)) && args.includes('com.apple.quarantine') && false);
        if (c.name === 'spctl') return args.includes('--add');
        return /^unblock-file$/i.test(c.name);
      },
    },
  },
  {
    id: 'masqueraded-file-exec',
    name: 'Program run from a file named as a document',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1036.008',
    description: 'A script or program run from a file whose name claims a document, image or media type: a shell given a .png/.pdf/.docx file (sh /tmp/image.png, . ./photo.jpg), a program path ending in such an extension, or a double extension (report.pdf.sh, invoice.docx.exe).',
    help: 'Naming code as a document hides it from a reviewer and from file-type filters. Check what the file really holds.',
    examples: {
      match: ['sh /tmp/image.png', './report.pdf.sh', 'bash ~/Downloads/invoice.docx'],
      not_match: ['sh ./build.sh', 'file /tmp/image.png', "bash -c 'convert a.png b.jpg'"],
    },
    match: { command: masqueradedExec },
  },
  {
    id: 'timestomp',
    name: 'File times forged',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1070.006',
    description: "Setting a file's timestamps to a chosen value (touch -t/-d/-r/--date/--reference on a file outside the working tree or from a system file's times, SetFile -d/-m, PowerShell .LastWriteTime/.CreationTime assignment), or setting the system clock (date -s, date MMDDhhmm, Set-Date).",
    help: 'Makes a changed file look old. Check which file and why.',
    examples: {
      match: ['touch -t 202001010000 /usr/bin/x', 'touch -r /bin/ls /tmp/backdoor', "powershell -c \"(Get-Item x.exe).LastWriteTime = '01/01/2020'\""],
      not_match: ['touch newfile.txt', 'touch -a notes.md', 'stat -c %y file'],
    },
    match: {
      command: (c) => timestomps(c) || (/^(?:pwsh|powershell)$/i.test(c.name) && /\.(?:LastWriteTime|CreationTime|LastAccessTime)(?:Utc)?\s*=/.test(c.argv.join(' '))),
      raw: /\.(?:LastWriteTime|CreationTime|LastAccessTime)(?:Utc)?\s*=/,
    },
  },
  {
    id: 'library-preload',
    name: 'Library injected into programs',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1574.006',
    description: 'A shared library forced into programs through LD_PRELOAD / LD_AUDIT / DYLD_INSERT_LIBRARIES (for one command or exported), or a program run through the dynamic loader directly.',
    help: 'The library runs inside every program started this way (and can hide from or tamper with them). Check what the library is.',
    examples: {
      match: ['LD_PRELOAD=/tmp/evil.so sudo ls', 'export LD_PRELOAD=/tmp/x.so', 'DYLD_INSERT_LIBRARIES=/tmp/x.dylib /Applications/X.app/Contents/MacOS/X'],
      not_match: ['echo $LD_LIBRARY_PATH', 'LD_LIBRARY_PATH=./lib ./app', 'ldd ./app'],
    },
    match: {
      command: (c) => {
        if (c.assigns.some(([k, v]) => /^(?:LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES)$/.test(k) && v.trim() !== '')) return true;
        if (c.name === 'export' || c.name === 'declare' || c.name === 'setenv') return c.argv.slice(1).some((a) => /^(?:LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES)=\S/.test(a)) || (c.name === 'setenv' && /^(?:LD_PRELOAD|DYLD_INSERT_LIBRARIES)$/.test(c.argv[1] ?? ''));
        return /^ld(?:-linux(?:-x86-64|-aarch64)?)?\.so(?:\.\d+)?$|^ld-linux.*\.so/.test(c.name) && c.argv.length > 1;
      },
      line: (line) => {
        const m = /(?:^|[\s;&|(])(?:export\s+)?(?:LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES)=[^\s;&|]+/.exec(line.text);
        return m ? { source: line.text, start: m.index, end: m.index + m[0].length } : null;
      },
    },
  },
];

/** Linux/macOS idioms with no effect to ask about: hiding processes and files, clearing the kernel
 * ring buffer, editing logs with sed/awk, disabling core dumps and crash reporting. */
/** Every address, as cloud firewall rules spell it. */
const ANYWHERE = String.raw`(?:0\.0\.0\.0\/0|::\/0|\*|Internet|Any)`;

export const EVASION_IDIOM_RULES: Rule[] = [
  idiomRule({
    id: 'cloud-exposure',
    name: 'Cloud storage or firewall opened to everyone',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1562.007',
    description: 'A bucket or object made public or a cloud firewall opened to every address: aws s3api put-bucket-acl/put-object-acl with a public ACL, delete-public-access-block, put-public-access-block with a Block… flag false; aws ec2 authorize-security-group-ingress from 0.0.0.0/0 or ::/0; gcloud compute firewall-rules create/update --source-ranges=0.0.0.0/0; az network nsg rule create/update from * or Internet; gsutil allUsers/allAuthenticatedUsers grants.',
    help: 'Data in the bucket, or the service behind the port, is now reachable by anyone. Check that the exposure was asked for and is limited to what must be public.',
    examples: {
      match: ['aws s3api put-bucket-acl --bucket prod-data --acl public-read', 'aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 0.0.0.0/0', 'gsutil iam ch allUsers:objectViewer gs://prod-data'],
      not_match: ['aws s3api get-bucket-acl --bucket prod-data', 'aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 5432 --cidr 10.0.0.0/16', 'gcloud compute firewall-rules list'],
    },
    idioms: [
      // Amazon S3 canned ACLs (https://docs.aws.amazon.com/AmazonS3/latest/userguide/acl-overview.html#canned-acl) and the account's public access block
      { re: /^\S*aws\s+(?:.*\s)?s3api\s+put-(?:bucket|object)-acl\b.*--(?:acl[= ]["']?public-read(?:-write)?\b|grant-(?:read|write|full-control|read-acp|write-acp)[= ]["']?uri=["']?http:\/\/acs\.amazonaws\.com\/groups\/global\/AllUsers)|^\S*aws\s+(?:.*\s)?s3api\s+delete-(?:bucket-)?public-access-block\b|^\S*aws\s+(?:.*\s)?s3(?:api|control)\s+put-public-access-block\b.*\b(?:BlockPublic(?:Acls|Policy)|IgnorePublicAcls|RestrictPublicBuckets)=false\b/i, names: ['aws'] },
      { re: new RegExp(String.raw`^\S*aws\s+(?:.*\s)?ec2\s+authorize-security-group-ingress\b.*(?:--cidr(?:-ipv6)?[= ]["']?(?:0\.0\.0\.0\/0|::\/0)|CidrIpv?6?["']?\s*[:=]\s*["']?(?:0\.0\.0\.0\/0|::\/0))`, 'i'), names: ['aws'] },
      { re: new RegExp(String.raw`\bgcloud\s+(?:.*\s)?compute\s+firewall-rules\s+(?:create|update)\b.*--source-ranges[= ]["']?(?:[\d./:,]*,)?(?:0\.0\.0\.0\/0|::\/0)`, 'i') },
      { re: new RegExp(String.raw`\baz\s+network\s+nsg\s+rule\s+(?:create|update)\b.*--source-address-prefix(?:es)?[= ]["']?${ANYWHERE}["']?(?:\s|$)`, 'i') },
      { re: /\bgsutil\s+(?:.*\s)?(?:iam\s+ch|acl\s+ch|defacl\s+ch)\b.*\ball(?:Authenticated)?Users\b|\bgcloud\s+storage\s+buckets\s+add-iam-policy-binding\b.*--member[= ]["']?all(?:Authenticated)?Users\b/i },
    ],
  }),
  idiomRule({
    id: 'cloud-audit-disable',
    name: 'Cloud audit logging switched off',
    category: 'defense-evasion',
    action: 'block',
    attack: 'T1562.008',
    description: 'Cloud or Microsoft 365 audit logging and threat detection switched off: aws cloudtrail stop-logging or update-trail --no-…, aws guardduty update-detector --no-enable, aws configservice stop-configuration-recorder, aws ec2 delete-flow-logs, Set-AdminAuditLogConfig -UnifiedAuditLogIngestionEnabled $false, Set-Mailbox -AuditEnabled $false, Set-MailboxAuditBypassAssociation -AuditBypassEnabled $true, Disable-/Remove-AntiPhishRule. Deleting trails, detectors and sinks is cloud-resource-delete.',
    help: 'Whatever is done next in the account leaves no record. No agent task needs it; check who asked.',
    examples: {
      match: ['aws cloudtrail stop-logging --name main', 'aws guardduty update-detector --detector-id d1 --no-enable', 'Set-AdminAuditLogConfig -UnifiedAuditLogIngestionEnabled $false'],
      not_match: ['aws cloudtrail describe-trails', 'aws cloudtrail start-logging --name main', 'Get-AdminAuditLogConfig'],
    },
    idioms: [
      { re: /^\S*aws\s+(?:.*\s)?cloudtrail\s+(?:stop-logging\b|update-trail\b.*\s--no-(?:enable-log-file-validation|is-multi-region-trail|include-global-service-events)\b)/, names: ['aws'] },
      { re: /^\S*aws\s+(?:.*\s)?guardduty\s+update-detector\b.*\s--no-enable\b/, names: ['aws'] },
      { re: /^\S*aws\s+(?:.*\s)?(?:configservice|config)\s+stop-configuration-recorder\b/, names: ['aws'] },
      { re: /^\S*aws\s+(?:.*\s)?ec2\s+delete-flow-logs\b/, names: ['aws'] },
      { re: /\bSet-AdminAuditLogConfig\b.*-UnifiedAuditLogIngestionEnabled\s*:?\s*\$?false\b/i },
      { re: /\bSet-Mailbox\b.*-AuditEnabled\s*:?\s*\$?false\b/i },
      { re: /\bSet-MailboxAuditBypassAssociation\b.*-AuditBypassEnabled\s*:?\s*\$?true\b/i },
      { re: /\b(?:Disable|Remove)-(?:AntiPhish|SafeLinks|SafeAttachment|HostedContentFilter)Rule\b/i },
    ],
  }),
  idiomRule({
    id: 'library-load',
    name: 'Library loaded into a program',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1574.006',
    description: 'A program made to load a shared library from outside the system library directories: dlopen/LoadLibrary/CDLL/Fiddle.dlopen/ffi.load in code, openssl -engine, curl --engine, ssh-keygen -D, ssh -I, nginx load_module, mysql --plugin-dir/--default-auth, bash enable -f, ffmpeg ladspa, ldconfig -f, a `.so` from ./, /tmp, /dev/shm or the home directory.',
    help: 'Code in the library runs inside the program (with its privileges) and out of sight of allow-lists. Check where the library comes from.',
    examples: {
      match: ['openssl req -engine ./lib.so', "python -c 'from ctypes import cdll; cdll.LoadLibrary(\"/tmp/x.so\")'", 'ssh-keygen -D /tmp/evil.so'],
      not_match: ['ldd /usr/lib/x86_64-linux-gnu/libssl.so.3', 'gcc -shared -o build/libfoo.so foo.c', 'openssl req -new -key k.pem -out r.csr'],
    },
    idioms: [
      { re: /\b(?:dlopen|LoadLibrary(?:Ex)?[AW]?|CDLL|cdll\.\w+|WinDLL|Fiddle\.dlopen|ffi\.load|load_extension|DynaLoader::dl_load_file|System\.load(?:Library)?)\s*\(\s*["'][^"']*\.(?:so|dylib|dll)(?:\.\d+)*["']/ },
      { re: /(?:^|\s)(?:-engine|-D|-I|--plugin(?:-dir)?|--default-auth|-load|--load-extension|load_module)\s+["']?(?:\.{1,2}\/|\/tmp\/|\/dev\/shm\/|\/var\/tmp\/|~\/|\/path\/)[^\s"']*(?:\.(?:so|dylib)|lib)\b/ },
      { re: /\bload_module\s+\S+\.so\b/ },
      // bash's `enable -f LIB NAME` loads a builtin from a shared object; curl --engine; ffmpeg's LADSPA filter
      { re: /^enable\s+(?:-\w+\s+)*-\w*f\w*\s+\S+/, names: ['enable'] },
      { re: /(?:^|\s)--engine[=\s]+["']?[^\s"']*\.(?:so|dylib|dll)\b/, names: ['curl'] },
      { re: /\bladspa=(?:[^\s:]*:)*file=[^\s:"']*\.so\b/, names: ['ffmpeg'] },
      // ldconfig -f FILE: a loader cache built from another list of directories
      { re: /^ldconfig\s+(?:-\w+\s+)*-f\s+\S+/, names: ['ldconfig'] },
    ],
  }),
  idiomRule({
    id: 'artifact-hiding',
    name: 'Activity or artifacts hidden',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1564',
    description: 'Hiding files, users or processes: chflags hidden, attrib +h/+s, SetFile -a V, a hidden user (dscl IsHidden / Hide500Users, a UniqueID under 500), mounting over /proc/PID or /proc with hidepid, clearing the kernel ring buffer (dmesg -c/-C), editing entries out of logs (sed -i on /var/log).',
    help: 'Makes what was done harder to find. Check what is hidden.',
    examples: {
      match: ['chflags hidden ~/payload', 'mount -o bind /tmp/empty /proc/1234', 'sudo dmesg -C'],
      not_match: ['chflags nohidden ~/Library', 'mount | grep proc', 'dmesg | tail'],
    },
    idioms: [
      { re: /\bchflags\s+(?:-\w+\s+)*hidden\b/, names: ['chflags'] },
      { re: /\bIsHidden\b.*\b(?:1|yes|true)\b|\bHide500Users\b|\bHiddenUsersList\b/ },
      { re: /\bmount\b.*(?:\bbind\b|\s-B\b|--rbind\b).*\/proc\/(?:\d+|\$)|\bmount\b.*\/proc\/(?:\d+|\$[\w({]+\)?)\s*$/, names: ['mount'] },
      { re: /\bdscl\s+\S+\s+-(?:create|append)\s+\/Users\/\S+\s+UniqueID\s+(?:[1-9]|[1-9]\d|[1-4]\d\d)\b/, names: ['dscl'] },
      { re: /^dmesg\s+(?:-\w*[cC]\b|--clear|--read-clear)/, names: ['dmesg'] },
      { re: /\bsed\b.*-i.*\/var\/log\//, names: ['sed'] },
      // Windows hidden/system attributes, macOS SetFile -a V (invisible), /proc mounted with hidepid
      { re: /^\S*attrib(?:\.exe)?\s+(?:\S+\s+)*\+[hs]\b/i, names: ['attrib'] },
      { re: /^[Ss]et[Ff]ile\s+(?:-\w+\s+)*-a\s+\w*V/, names: ['setfile'] },
      { re: /\bhidepid=[12]\b|\bhidepid=(?:noaccess|invisible)\b/, names: ['mount'] },
    ],
  }),
];
