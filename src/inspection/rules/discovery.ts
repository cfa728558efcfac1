/**
 * discovery rules: reconnaissance that an agent's ordinary work does not do. ATT&CK tactic TA0007
 * (https://attack.mitre.org/tactics/TA0007/), techniques T1046 (Network Service Discovery), T1018
 * (Remote System Discovery), T1087.002 / T1069.002 / T1482 (domain accounts, groups and trusts),
 * T1518.001 (Security Software Discovery), T1497.001 (Virtualization/Sandbox Evasion: System
 * Checks); the shapes follow Atomic Red Team's discovery tests (https://github.com/redcanaryco/atomic-red-team,
 * `atomics/T1046`, `T1018`, `T1087.002`, `T1518.001`, `T1497.001`).
 *
 * Grading. Every rule here records and none blocks: discovery alone changes nothing, and a
 * demanding operator wants to see it without having replies stopped. The rules are kept to what is
 * reconnaissance by its shape, not by the program: `whoami`, `id`, `uname -a`, `ps aux`, `env`,
 * `ip route`, `arp -a`, `netstat`, `ping HOST`, `systemctl list-units`, `cat /etc/passwd` and
 * listing a directory stay clean (agents run them all day to debug). What fires is a sweep of
 * addresses or ports, a network scanner, a query of the Windows domain (its users, groups,
 * computers, trusts, domain controllers), a process or software listing searched for security
 * products, and hardware data searched for hypervisor vendors (a malware-style "am I in a sandbox"
 * check).
 */
import type { Rule } from '../rule.js';
import type { ShellCommand } from '../shell/model.js';
import { SHELLS } from '../shell/context.js';
import { idiomRule, writtenText } from './idioms.js';

/** Network and port scanners (any run but a help or version request). */
const SCANNERS = new Set(['nmap', 'masscan', 'zmap', 'rustscan', 'naabu', 'unicornscan', 'arp-scan', 'nbtscan', 'fping', 'netdiscover', 'hping3', 'angryip', 'ipscan', 'sx', 'pnscan', 'zmap6']);

/** The name of a command as its basename, lower-cased, `.exe` dropped. */
const nameOf = (c: ShellCommand) => c.name.toLowerCase().replace(/\.exe$/, '');

/** An IPv4 address whose last octet (or last two) is a variable: the target of a sweep
 * (`192.168.1.$ip`, `10.0.$i.$j`, PowerShell `10.0.0.$_`; a loop over a brace range reaches the
 * rules with the range in place of the variable: `10.0.0.{1..254}`). */
const SWEPT_ADDRESS = /\b\d{1,3}\.\d{1,3}\.(?:\d{1,3}\.)?(?:\$[{(]?[\w_]|\{\d+\.\.\d+\})/;
/** A probe of such an address inside a PowerShell script block. */
const SWEPT_PROBE = /\b(?:ping|Test-Connection|Test-NetConnection|tnc)\b[^|;\n]*?\b\d{1,3}\.\d{1,3}\.(?:\d{1,3}\.)?\$[{(]?[\w_]|\bTest-NetConnection\b[^|;\n]*-Port\s+\$/i;

/**
 * True when a command scans hosts or ports: a scanner run on a target, `ping`/`arping`/
 * `Test-Connection` of an address built from a loop variable, `nc -z` over a port range or six
 * or more ports, a write to `/dev/tcp/HOST/$PORT` (or a dynamic host), PowerShell `Test-NetConnection
 * -Port $p` / `New-Object Net.Sockets.TcpClient($h, $p)` with a variable port.
 */
export function scansNetwork(c: ShellCommand): boolean {
  const name = nameOf(c);
  const args = c.argv.slice(1);
  if (SCANNERS.has(name)) return args.length > 0 && !args.every((a) => /^--?(?:h|help|V|version)$/.test(a));
  const text = () => `${args.join(' ')} ${writtenText(c)}`;
  if (/^(?:ping|ping6|arping|fping|test-connection|test-netconnection|tnc)$/.test(name) && SWEPT_ADDRESS.test(text())) return true;
  // PowerShell script blocks reach here as arguments of ForEach-Object / % (`1..254 | % { Test-Connection 10.0.0.$_ }`)
  if (/^(?:foreach-object|%|foreach)$/.test(name) && SWEPT_PROBE.test(text())) return true;
  if (/^(?:test-netconnection|tnc)$/.test(name) && /-Port\s+\$/i.test(text())) return true;
  if (/^(?:nc|ncat|netcat)$/.test(name) && args.some((a) => /^-[a-zA-Z]*z/.test(a))) {
    const ports = args.filter((a) => /^\d+(?:-\d+)?$/.test(a));
    // a range, or more ports than a service check waits for (`nc -z db 5432 6379` is a readiness probe)
    return ports.some((p) => /^\d+-\d+$/.test(p)) || ports.length >= 6;
  }
  if (c.redirects.some((r) => /^\/dev\/(?:tcp|udp)\/[^/]+\/(?:\$|\{\d+\.\.\d+\})|^\/dev\/(?:tcp|udp)\/[^/]*(?:\$|\{\d+\.\.\d+\})[^/]*\/\d/.test(r.target))) return true;
  return c.redirects.length === 0 && args.length > 0 && /TcpClient/i.test(writtenText(c)) && /\bNet\.Sockets\.TcpClient\b[^)]*,\s*\$\w+/i.test(text());
}

/** Names of security products: EDR and antivirus agents, host firewalls, audit and log shippers,
 * vulnerability scanners (as their processes, services and bundles are named). */
const SECURITY_PRODUCT = /falcon(?:d|-sensor|ctl)?\b|crowdstrike|csagent|carbon ?black|cbagentd|cbdefense|cbosxsensorservice|cbdaemon|sentinel(?:one|agent|d|ctl)|msmpeng|windefend|defender|mdatp|wdavdaemon|sysmon|santad|little\\? ?snitch|\blulu\b|blockblock|knockknock|osqueryd|xagt|cylance|sophos|symantec|mcafee|kaspersky|bitdefender|\beset\b|trend ?micro|\bvirus|antivirus|wazuh|ossec|auditbeat|packetbeat|filebeat|winlogbeat|td-agent|nessusd|splunkd|tanium|qualys|elastic-agent|velociraptor|icinga2|bareos-fd/gi;
/** The ones that name an EDR or antivirus product by themselves (one is enough); the others
 * (log shippers, monitoring agents) count from two names on. */
const CORE_PRODUCT = /falcon|crowdstrike|csagent|carbon|cbagent|cbdefense|cbosx|cbdaemon|sentinel|msmpeng|windefend|defender|mdatp|wdav|sysmon|santad|snitch|lulu|blockblock|knockknock|osquery|xagt|cylance|sophos|symantec|mcafee|kaspersky|bitdefender|eset|trend|virus|wazuh|ossec/i;

/** Programs that list processes, services, drivers or installed software. */
const LISTERS = /^(?:ps|top|htop|pgrep|pidof|tasklist|get-process|gps|get-service|gsv|systemctl|service|launchctl|sc|wmic|get-wmiobject|gwmi|get-ciminstance|gcim|kextstat|kmutil|lsmod|driverquery|fltmc|ls|dir|get-childitem|gci|find|brew|dpkg|dpkg-query|rpm|apt|pkgutil|system_profiler|netstat|ss|lsof|get-itemproperty)$/;
/** Programs that filter what they are fed (or search a file) for a pattern. */
const FILTERS = /^(?:grep|egrep|fgrep|rg|findstr|select-string|sls|where-object|where|\?|awk)$/;

/** True when a pattern names one EDR/antivirus product or at least two security products. */
function namesSecurityProducts(text: string): boolean {
  const found = new Set([...text.matchAll(SECURITY_PRODUCT)].map((m) => m[0].toLowerCase()));
  return found.size >= 2 || [...found].some((f) => CORE_PRODUCT.test(f));
}

/** The text a filter stage filters by (its arguments, or for a PowerShell script block the
 * written text: `?{$_.Description -like "*virus*"}`). */
const filterText = (c: ShellCommand) => `${c.argv.join(' ')} ${writtenText(c)}`;

/**
 * True when a command looks for security products among processes, services or software: a
 * filter stage after a listing (`ps aux | egrep 'falcond|osqueryd'`, `Get-Process | ?{$_.Description
 * -like "*virus*"}`) or `pgrep`/`pidof` naming them, whose pattern names one EDR or antivirus
 * product or two security products.
 */
export function searchesSecurityProducts(c: ShellCommand): boolean {
  const name = nameOf(c);
  if (/^(?:pgrep|pidof)$/.test(name)) return namesSecurityProducts(c.argv.slice(1).join(' '));
  const first = c.pipeline?.stages[0];
  const filterStage = FILTERS.test(name) || /^\?\{|^where-object/i.test(c.argv[0] ?? '');
  if (!filterStage || c.pipeline === null || c.stage === 0 || first === undefined || !LISTERS.test(nameOf(first))) return false;
  return namesSecurityProducts(filterText(c));
}

/** Hypervisor vendors and their guest drivers as hardware data and module lists show them
 * (`kvm` and `virtio` are left out: developers check for them to run emulators). */
const HYPERVISOR = /virtualbox|\bvbox\w*|vmware|\bvmw\w*|vmxnet|parallels|\bprl_\w+|innotek|\boracle\b|\bxen\b|xen-\w+|\bqemu\b|\bbochs\b|hyper-?v\b|virtual ?machine|\bvmm\b/i;
/** Programs and files that show hardware, firmware or kernel-module data. */
const HARDWARE_INFO = /^(?:dmidecode|ioreg|system_profiler|lshw|lspci|lsmod|kldstat|kextstat|sysctl|hostnamectl|dmesg|wmic|get-wmiobject|gwmi|get-ciminstance|gcim|lsscsi|lsusb)$/;
const HARDWARE_FILE = /^\/sys\/class\/dmi\/id\/|^\/proc\/scsi\/scsi$|^\/proc\/modules$|^\/sys\/hypervisor\//;

/**
 * True when hardware data is searched for a hypervisor vendor: a filter after a hardware or
 * module listing (`dmidecode | grep -i virtualbox`, `lsmod | grep vboxguest`,
 * `ioreg -l | grep -e Manufacturer | grep -i vmware`) or a search of the DMI and module files
 * (`grep vmw /proc/modules`, `cat /sys/class/dmi/id/product_name | grep -i vmware`).
 */
export function checksForVirtualMachine(c: ShellCommand): boolean {
  const name = nameOf(c);
  // macOS: the hypervisor's name or presence (`sysctl -n hw.hv_vendor`, `kern.hv_vmm_present`), or a
  // model that is not a Mac (`sysctl -n hw.model | grep -v Mac`)
  if (name === 'sysctl') return c.argv.slice(1).some((a) => /^(?:hw\.hv_vendor|kern\.hv_vmm_present)$/.test(a));
  if (!FILTERS.test(name)) return false;
  const earlierStages = c.pipeline?.stages.slice(0, c.stage) ?? [];
  if (c.argv.includes('-v') && c.argv.some((a) => /^'?Mac'?$/.test(a)) && earlierStages.some((s) => (nameOf(s) === 'sysctl' && s.argv.includes('hw.model')) || (nameOf(s) === 'system_profiler' && s.argv.includes('SPHardwareDataType')))) return true;
  const pattern = c.argv.slice(1).filter((a) => !HARDWARE_FILE.test(a)).join(' ');
  if (!HYPERVISOR.test(pattern)) return false;
  if (c.argv.slice(1).some((a) => HARDWARE_FILE.test(a))) return true;
  const earlier = c.pipeline?.stages.slice(0, c.stage) ?? [];
  return earlier.some((s) => HARDWARE_INFO.test(nameOf(s)) || s.argv.slice(1).some((a) => HARDWARE_FILE.test(a)));
}

/** PowerShell checks of the machine model or firmware against hypervisor names, and the WMI
 * class that only real hardware fills (a missing thermal zone means a VM). */
const WMI_VM_CHECK = /\b(?:Win32_ComputerSystem|Win32_BIOS|Win32_BaseBoard|Win32_ComputerSystemProduct)\b[\s\S]{0,400}?\b(?:VMware|VirtualBox|Virtual Machine|VBOX|Xen|QEMU|Parallels|innotek)\b|\bMSAcpi_ThermalZoneTemperature\b/i;

/** True when a command lists the entries of a credential store (names, not the secrets). */
const STORE_LISTERS = new Set(['cmdkey', 'vaultcmd', 'kubectl', 'oc', 'aws', 'gcloud', 'az', 'vault', 'op', 'bw']);

export function listsCredentialStore(c: ShellCommand): boolean {
  const name = nameOf(c);
  if (!STORE_LISTERS.has(name)) return false;
  const a = c.argv.slice(1).map((x) => x.toLowerCase());
  const at = (i: number) => a.filter((x) => !x.startsWith('-'))[i] ?? '';
  switch (name) {
    case 'cmdkey':
      return a.some((x) => /^\/list\b/.test(x));
    case 'vaultcmd':
      return a.some((x) => /^\/list(?:creds|schema|properties)?\b/.test(x));
    case 'kubectl':
    case 'oc':
      // names only; reading them (-o yaml/json, describe) is kubernetes-secret-read
      return at(0) === 'get' && /^(?:secrets?|secret\/.*)$/.test(at(1)) && !a.some((x) => /^-o|^--output/.test(x));
    case 'aws':
      return (at(0) === 'secretsmanager' && at(1) === 'list-secrets') || (at(0) === 'ssm' && at(1) === 'describe-parameters');
    case 'gcloud':
      return at(0) === 'secrets' && at(1) === 'list';
    case 'az':
      return at(0) === 'keyvault' && /^(?:secret|key|certificate)$/.test(at(1)) && at(2) === 'list';
    case 'vault':
      return at(0) === 'list' || (at(0) === 'kv' && at(1) === 'list');
    case 'op':
      return at(0) === 'item' && at(1) === 'list';
    case 'bw':
      // `bw list items` prints the secrets too: password-manager-read; folders, collections and organizations are names
      return at(0) === 'list' && /^(?:folders|collections|org-collections|organizations|org-members)$/.test(at(1));
    default:
      return false;
  }
}

/** Programs that search or print text: a cmdlet name in their arguments is data (`grep -rn Get-ADUser scripts/`);
 * shells are left out too, their payloads are analysed as commands of their own. */
const TEXT_TOOLS = /^(?:grep|egrep|fgrep|rg|ag|ack|findstr|select-string|sls|echo|printf|cat|sed|awk|less|head|tail|git|write-host|write-output)$/;

/** {@link idiomRule}, except for commands of {@link TEXT_TOOLS}, and only on commands whose text
 * holds one of the words `prefilter` finds (a cheap test before the idioms). */
function idiomRuleForCommands(spec: Parameters<typeof idiomRule>[0], prefilter: RegExp): Rule {
  const rule = idiomRule(spec);
  const matches = rule.match.command!;
  return { ...rule, match: { ...rule.match, command: (c, line) => !TEXT_TOOLS.test(nameOf(c)) && !SHELLS.has(c.name) && prefilter.test(writtenText(c)) && matches(c, line) } };
}

/** A find(1) -perm test naming the setuid or setgid bit (`-perm -4000`, `-perm /6000`, `-perm -u=s`,
 * `-perm -g+s`): https://www.gnu.org/software/findutils/manual/html_node/find_html/Mode-Bits.html. */
const SETID_PERM = /^[-/+]?(?:0?[2467][0-7]{3}|(?:[ugoa]*[ugo][ugoa]*[=+][rwxXt]*s[rwxXt]*)(?:,.*)?)$/;

/** Searches for programs that run with more privilege than their caller: find -perm with the setuid or
 * setgid bit, getcap -r (file capabilities, getcap(8)). The list a local privilege escalation starts from
 * (GTFOBins' SUID and Capabilities entries: https://gtfobins.github.io/). */
function searchesPrivilegedFiles(c: ShellCommand): boolean {
  const args = c.argv.slice(1);
  if (c.name === 'find') return args.some((a, i) => a === '-perm' && SETID_PERM.test(args[i + 1] ?? ''));
  if (c.name === 'getcap') return args.includes('-r');
  return false;
}

export const DISCOVERY_RULES: Rule[] = [
  {
    id: 'privileged-file-search',
    name: 'setuid programs or file capabilities searched for',
    category: 'discovery',
    action: 'record',
    attack: 'T1083',
    description: 'A search for programs that run with more privilege than their caller: find -perm with the setuid or setgid bit (-4000, /6000, -u=s, -g+s), getcap -r.',
    help: 'The first step of a local privilege escalation: each setuid program or capability found is checked against known escapes. A build or packaging task seldom needs it; check why.',
    examples: {
      match: ['find / -perm -4000 -type f 2>/dev/null', 'find / -perm -u=s -type f', 'getcap -r / 2>/dev/null'],
      not_match: ['find . -perm -644 -type f', 'find . -perm /u+x -name "*.sh"', 'getcap /usr/bin/ping'],
    },
    match: { command: searchesPrivilegedFiles },
  },
  {
    id: 'credential-store-enumeration',
    name: 'Credential stores listed',
    category: 'discovery',
    action: 'record',
    attack: 'T1555',
    description: 'Listing what a credential store holds, without reading the secrets yet: Windows cmdkey /list and vaultcmd /list /listcreds, kubectl get secrets (names), aws secretsmanager list-secrets, aws ssm describe-parameters, gcloud secrets list, az keyvault secret list, vault kv list / vault list, op item list, bw list folders/collections/organizations (bw list items prints the secrets: password-manager-read).',
    help: 'The step before reading a secret: it shows which credentials are there to take. Check which secret the task needs; reading one is credential access (kubernetes-secret-read, keychain-access).',
    examples: {
      match: ['cmdkey /list', 'kubectl get secrets -A', 'aws secretsmanager list-secrets'],
      not_match: ['kubectl get pods -A', 'aws s3 ls', 'vault status'],
    },
    match: { command: listsCredentialStore },
  },
  {
    id: 'network-scan',
    name: 'Hosts or ports scanned',
    category: 'discovery',
    action: 'record',
    attack: 'T1046',
    description: 'A network or port scanner run on a target (nmap, masscan, zmap, rustscan, naabu, arp-scan, nbtscan, fping, netdiscover, hping3), a ping sweep (ping/arping/Test-Connection of an address built from a loop variable), nc -z over a port range or six or more ports, a write to /dev/tcp/HOST/$PORT, Test-NetConnection -Port $p.',
    help: 'Maps which machines and services are reachable, the usual step before moving to them. An agent checking one service uses one host and one port; check what the sweep was for.',
    examples: {
      match: ['nmap 10.0.0.5', 'for i in $(seq 1 254); do ping -c1 -W1 10.1.2.$i; done', 'nc -zv 10.0.0.5 1-1024'],
      not_match: ['nmap --version', 'ping -c 3 github.com', 'nc -zv db.internal 5432'],
    },
    match: { command: scansNetwork },
  },
  idiomRuleForCommands({
    id: 'domain-enumeration',
    name: 'Windows domain enumerated',
    category: 'discovery',
    action: 'record',
    attack: 'T1087.002',
    description: 'Queries of an Active Directory domain for its users, groups, computers, policies, trusts or domain controllers: net user/group/view/accounts … /domain, nltest /domain_trusts /dclist, dsquery, Get-AD* cmdlets, PowerView Get-Net*/Get-Domain*, [adsisearcher], ldapsearch under DC=…, SRV lookups of _ldap._tcp.dc._msdcs.',
    help: 'Lists the accounts, groups and machines worth attacking next (domain admins, trusts, controllers). A coding task has no need for it; check who asked.',
    examples: {
      match: ['net group "Domain Admins" /domain', 'nltest /domain_trusts', 'Get-ADUser -Filter *'],
      not_match: ['net start', 'git config user.name', 'nslookup example.com'],
    },
    idioms: [
      { re: /^\S*net1?(?:\.exe)?\s+(?:user|users|group|groups|localgroup|accounts|view|computer|time)\b.*\s\/do(?:main)?\b/i, names: ['net', 'net1'] },
      { re: /^\S*nltest(?:\.exe)?\s+.*\/(?:domain_trusts|trusted_domains|dclist|dsgetdc|parentdomain|dcname)\b/i, names: ['nltest'] },
      { re: /^\S*dsquery(?:\.exe)?\s+\S/i, names: ['dsquery'] },
      { re: /\bGet-AD(?:User|Group|GroupMember|Computer|Object|Domain|DomainController|Trust|Forest|DefaultDomainPasswordPolicy|FineGrainedPasswordPolicy|PrincipalGroupMembership|OrganizationalUnit|ServiceAccount)\b/i },
      { re: /\bGet-(?:Net|Domain)(?:User|Group|GroupMember|Computer|Controller|Trust|ForestTrust|OU|GPO|Share)\b|\bInvoke-(?:ShareFinder|UserHunter|BloodHound)\b/i },
      { re: /\[adsisearcher\]|\bDirectoryServices\.DirectorySearcher\b|\[adsi\]\s*["']?LDAP:\/\//i },
      { re: /^\S*ldapsearch\s.*\s-b\s*["']?[^"'\s]*\bDC=/i, names: ['ldapsearch'] },
      { re: /_ldap\._tcp\.(?:dc|gc|pdc)\._msdcs\b|_kerberos\._tcp\.dc\._msdcs\b/i },
      { re: /\bGet-GPO\b.*\s-All\b/i },
    ],
  }, /\/do|nltest|dsquery|Get-|Invoke-|adsi|DirectorySearcher|ldapsearch|_msdcs/i),
  {
    id: 'security-software-discovery',
    name: 'Security products looked for',
    category: 'discovery',
    action: 'record',
    attack: 'T1518.001',
    description: 'Looking for security products: a process, service or software listing filtered for EDR, antivirus, audit or log-shipping agents (ps aux | egrep \'falcond|osqueryd\', pgrep -l wazuh-agent, Get-Process | ?{$_.Description -like "*virus*"}), the Windows Security Center antivirus list, Get-MpComputerStatus / Get-MpPreference, fltmc filter listing.',
    help: 'Malware checks which defences run before choosing how to evade them. An agent has no reason to look for the EDR; check why.',
    examples: {
      match: ["ps aux | egrep 'falcond|osqueryd|santad'", 'pgrep -l wazuh-agent', 'wmic /Namespace:\\\\root\\SecurityCenter2 Path AntiVirusProduct Get displayName'],
      not_match: ['ps aux | grep python', 'pgrep -f gunicorn', 'systemctl status filebeat'],
    },
    match: {
      command: (c) => searchesSecurityProducts(c) || /\broot[\\/]+SecurityCenter2?\b|\bGet-Mp(?:ComputerStatus|Preference|ThreatDetection)\b/i.test(writtenText(c)) || (nameOf(c) === 'fltmc' && (c.argv.length === 1 || /^(?:filters|instances)$/i.test(c.argv[1] ?? ''))),
      raw: /\broot[\\/]+SecurityCenter2?\b[^"]*AntiVirusProduct|\bGet-Mp(?:ComputerStatus|Preference|ThreatDetection)\b/i,
    },
  },
  {
    id: 'virtualization-check',
    name: 'Checked for a virtual machine',
    category: 'discovery',
    action: 'record',
    attack: 'T1497.001',
    description: 'Hardware data searched for a hypervisor vendor: dmidecode, ioreg, system_profiler, lshw, lspci, lsmod, kldstat, sysctl or DMI files filtered for VirtualBox, VMware, Parallels, Xen, QEMU, Hyper-V (or their guest drivers), a macOS model filtered for what is not a Mac, sysctl hw.hv_vendor / kern.hv_vmm_present; PowerShell Win32_ComputerSystem/Win32_BIOS compared with hypervisor names; MSAcpi_ThermalZoneTemperature.',
    help: 'Malware checks whether it runs in an analysis sandbox before showing what it does. An agent has no reason to; check what the command is part of.',
    examples: {
      match: ["sudo dmidecode | grep -iE 'virtualbox|vmware'", 'lsmod | grep -i vboxguest', "ioreg -l | grep -e Manufacturer | grep -iE 'VMware|Parallels'"],
      not_match: ['lsmod | grep kvm', 'lspci | grep -i nvidia', 'grep -rn vmware docs/'],
    },
    match: {
      command: checksForVirtualMachine,
      line: (line) => {
        const m = WMI_VM_CHECK.exec(line.text);
        return m ? { source: line.text, start: m.index, end: m.index + m[0].length } : null;
      },
      raw: WMI_VM_CHECK,
    },
  },
];
