/**
 * What Aider applies from one reply: the file edits its coders read out of the reply text and the
 * shell blocks its edit-block coders offer to run. Each is the format's own tool call (issue 15
 * point 3), inspected like any call:
 *
 * - a shell block: kind `text-command`, name `bash`, arguments `{command}` (text-command.ts);
 * - a SEARCH/REPLACE block: kind `text-edit`, name `edit_file`, arguments
 *   `{file_path, old_string, new_string}`;
 * - a whole-file block: kind `text-edit`, name `write_file`, arguments `{file_path, content}`;
 * - a unified diff (one per ```` ```diff ```` fence) or a patch (the whole reply): kind `text-edit`,
 *   name `apply_patch`, arguments `{patch}`.
 *
 * The texts are kept exactly as the reply holds them (Aider's own clean-up of a block, such as
 * `strip_quoted_wrapping`, happens when it applies the edit and changes no path).
 *
 * Source: Aider-AI/aider @ 5dc9490bb35f9729ef2c95d00a19ccd30c26339c
 * (https://github.com/Aider-AI/aider/tree/5dc9490bb35f9729ef2c95d00a19ccd30c26339c/aider/coders):
 * - `editblock_coder.py` `find_original_update_blocks`, `find_filename`, `strip_filename`
 *   (edit formats `diff`, `diff-fenced`, `editor-diff`, `editor-diff-fenced`): HEAD
 *   `^<{5,9} SEARCH>?\s*$`, DIVIDER `^={5,9}\s*$`, UPDATED `^>{5,9} REPLACE\s*$` on stripped lines;
 *   the file name is found in the three lines above the HEAD (walking up while they are fences),
 *   else the previous block's; a block with no file name, or left open, fails the whole parse and
 *   Aider applies nothing and runs nothing;
 * - `wholefile_coder.py` `get_edits` (`whole`, `editor-whole`): a line starting with the fence opens
 *   a block named by the line above it (stripped of `*`, `:`, backticks and leading `#`), else by
 *   the last chat file the prose named in backticks, else by the only chat file; otherwise the
 *   parse fails; one edit per file, the most reliable name first;
 * - `udiff_coder.py` `find_diffs` (`udiff`, `udiff-simple`): every block opened by a line starting
 *   with ```` ```diff ````;
 * - `patch_coder.py` `get_edits` (`patch`): the whole reply, when its first line starts
 *   `*** Begin Patch` or any line starts `@@`, `*** Update File:`, `*** Add File:` or
 *   `*** Delete File:`;
 * - `ask`, `architect` (the architect's own answer), `help` and `context` apply nothing. An edit
 *   format guard does not know, or none named, is read as an edit-block one, so nothing runs
 *   uninspected.
 */

import { makeToolCall } from '../toolcall.js';
import type { ToolCall } from '../types.js';
import { textCommandCall } from './text-command.js';

/** How Aider reads edits out of a reply, by edit format. */
export type AiderEditStyle = 'edit-block' | 'whole' | 'udiff' | 'patch' | 'none';

const STYLES: ReadonlyMap<string, AiderEditStyle> = new Map([
  ['diff', 'edit-block'],
  ['diff-fenced', 'edit-block'],
  ['editor-diff', 'edit-block'],
  ['editor-diff-fenced', 'edit-block'],
  ['whole', 'whole'],
  ['editor-whole', 'whole'],
  ['udiff', 'udiff'],
  ['udiff-simple', 'udiff'],
  ['patch', 'patch'],
  ['ask', 'none'],
  ['architect', 'none'],
  ['help', 'none'],
  ['context', 'none'],
]);

/** The edit style of an Aider edit format (`diff`, `whole`, …); null or an unknown format reads as `edit-block`. */
export function aiderEditStyle(format: string | null): AiderEditStyle {
  return (format !== null && STYLES.get(format)) || 'edit-block';
}

/** What the session says about the files in the chat (`> Added app.py to the chat.` lines). */
export interface AiderChatFiles {
  readonly files: ReadonlySet<string>;
}

/**
 * The calls Aider makes from one reply, in reply order.
 *
 * @param reply the reply text as Aider logged it (reasoning removed)
 * @param style the session's edit style ({@link aiderEditStyle})
 * @param shell whether the coder offers to run shell blocks (edit-block coders, unless the session
 *   runs with `--no-suggest-shell-commands` or is an architect's editor)
 * @param chat the files in the chat, for the whole-file coder's fallbacks
 * @returns the tool calls; empty when Aider's parse of the reply fails (it then applies nothing)
 */
export function aiderCalls(reply: string, style: AiderEditStyle, shell: boolean, chat: AiderChatFiles): ToolCall[] {
  switch (style) {
    case 'edit-block':
      return editBlockCalls(reply, shell, chat);
    case 'whole':
      return wholeFileCalls(reply, chat);
    case 'udiff':
      return udiffCalls(reply);
    case 'patch':
      return patchCalls(reply);
    case 'none':
      return [];
  }
}

/** The fence openers Aider takes for shell commands. */
const SHELL_STARTS = ['```bash', '```sh', '```shell', '```cmd', '```batch', '```powershell', '```ps1', '```zsh', '```fish', '```ksh', '```csh', '```tcsh'];
const FENCE = '```';
/**
 * The fences Aider chooses among (`all_fences`, aider/coders/base_coder.py): the first whose
 * opener no chat file holds, so which one a session used is not in the history; every one is tried.
 */
const FENCES: ReadonlyArray<readonly [string, string]> = [
  ['```', '```'],
  ['````', '````'],
  ...['source', 'code', 'pre', 'codeblock', 'sourcecode'].map((t) => [`<${t}>`, `</${t}>`] as const),
];
/** The fence a line opens with (the longest opener that matches), or null. */
const fenceOf = (line: string): readonly [string, string] | null => {
  let best: readonly [string, string] | null = null;
  for (const f of FENCES) {
    if (!line.startsWith(f[0]) || (best && f[0].length <= best[0].length)) continue;
    // a tag fence stands alone on its line (with a language at most): `<code>` in a sentence opens nothing
    if (f[0].startsWith('<') && !/^[\w+-]*\s*$/.test(line.slice(f[0].length))) continue;
    best = f;
  }
  return best;
};
const HEAD = /^<{5,9} SEARCH>?\s*$/;
const DIVIDER = /^={5,9}\s*$/;
const UPDATED = /^>{5,9} REPLACE\s*$/;

/** Python's `str.strip()` / `splitlines(keepends=True)` as Aider's parsers use them. */
const pyStrip = (s: string): string => s.replace(/^\s+|\s+$/g, '');
const linesOf = (text: string): string[] => text.split(/(?<=\n)/).filter((l) => l !== '');

function editBlockCalls(reply: string, shell: boolean, chat: AiderChatFiles): ToolCall[] {
  const lines = linesOf(reply);
  const at = (i: number): string => pyStrip(lines[i]!);
  const out: ToolCall[] = [];
  let current: string | null = null;
  let i = 0;
  while (i < lines.length) {
    const line = at(i);
    const nextIsEditBlock = (i + 1 < lines.length && HEAD.test(at(i + 1))) || (i + 2 < lines.length && HEAD.test(at(i + 2)));
    if (SHELL_STARTS.some((s) => line.startsWith(s)) && !nextIsEditBlock) {
      const content: string[] = [];
      i++;
      while (i < lines.length && !at(i).startsWith(FENCE)) content.push(lines[i++]!);
      if (i < lines.length) i++; // the closing fence
      const command = content.join('');
      if (shell && command.trim() !== '') out.push(textCommandCall(command));
      continue;
    }
    if (HEAD.test(line)) {
      // a block whose SEARCH is empty (a new file) is named as written (`valid_fnames` None)
      const newFile = i + 1 < lines.length && DIVIDER.test(at(i + 1));
      const name: string | null = findFilename(lines.slice(Math.max(0, i - 3), i), newFile ? { files: new Set() } : chat) ?? current;
      if (name === null) return []; // "Bad/missing filename": the parse fails
      current = name;
      const search: string[] = [];
      i++;
      while (i < lines.length && !DIVIDER.test(at(i))) search.push(lines[i++]!);
      if (i >= lines.length) return [];
      const replace: string[] = [];
      i++;
      while (i < lines.length && !(UPDATED.test(at(i)) || DIVIDER.test(at(i)))) replace.push(lines[i++]!);
      if (i >= lines.length) return [];
      out.push(makeToolCall(null, 'edit_file', 'text-edit', { file_path: name, old_string: search.join(''), new_string: replace.join('') }));
    }
    i++;
  }
  return out;
}

/** `find_filename` with no valid file names known: the candidates of up to three lines above a HEAD, nearest first, walking up while they are fences; the first with a dot, else the first. */
function findFilename(above: string[], chat: AiderChatFiles): string | null {
  const names: string[] = [];
  for (const line of above.reverse()) {
    const name = stripFilename(line);
    if (name) names.push(name);
    if (!fenceOf(line)) break;
  }
  // the chat's files first: an exact name, then a base name (Aider also tries a close fuzzy match)
  const exact = names.find((n) => chat.files.has(n));
  if (exact) return exact;
  for (const n of names) for (const f of chat.files) if (n === f.split('/').pop()) return f;
  for (const n of names) {
    // difflib.get_close_matches(n, chat files, n=1, cutoff=0.8)
    let best: string | null = null;
    let bestRatio = 0.8;
    for (const f of chat.files) {
      const r = similarity(n, f);
      if (r >= bestRatio && (best === null || r > bestRatio)) [best, bestRatio] = [f, r];
    }
    if (best !== null) return best;
  }
  return names.find((n) => n.includes('.')) ?? names[0] ?? null;
}

/**
 * Python's `difflib.SequenceMatcher(None, a, b).ratio()` for short strings (file names): twice the
 * characters of the Ratcliff/Obershelp matching blocks over the total length. Names longer than
 * 256 characters compare as unlike (0), which keeps this bounded.
 */
function similarity(a: string, b: string): number {
  if (a.length + b.length === 0) return 1;
  if (a.length > 256 || b.length > 256) return 0;
  // difflib's real_quick_ratio and quick_ratio bounds first: most names are ruled out without the search
  if ((2 * Math.min(a.length, b.length)) / (a.length + b.length) < 0.8) return 0;
  const counts = new Map<string, number>();
  for (const ch of b) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let common = 0;
  for (const ch of a) {
    const n = counts.get(ch) ?? 0;
    if (n > 0) {
      counts.set(ch, n - 1);
      common++;
    }
  }
  if ((2 * common) / (a.length + b.length) < 0.8) return 0;
  const matched = (a0: number, a1: number, b0: number, b1: number): number => {
    let best = 0;
    let bi = 0;
    let bj = 0;
    for (let i = a0; i < a1; i++) {
      for (let j = b0; j < b1; j++) {
        let k = 0;
        while (i + k < a1 && j + k < b1 && a[i + k] === b[j + k]) k++;
        if (k > best) [best, bi, bj] = [k, i, j];
      }
    }
    return best === 0 ? 0 : best + matched(a0, bi, b0, bj) + matched(bi + best, a1, bj + best, b1);
  };
  return (2 * matched(0, a.length, 0, b.length)) / (a.length + b.length);
}

/** `strip_filename`: a line as a file name, or null (`...`, a bare fence). */
function stripFilename(line: string): string | null {
  let name = pyStrip(line);
  if (name === '...') return null;
  const fence = fenceOf(name);
  if (fence) {
    const candidate = name.slice(fence[0].length);
    return candidate && (candidate.includes('.') || candidate.includes('/')) ? candidate : null;
  }
  name = name.replace(/:+$/, '').replace(/^#+/, '');
  name = pyStrip(name).replace(/^`+|`+$/g, '').replace(/^\*+|\*+$/g, '');
  return name || null;
}

function wholeFileCalls(reply: string, chat: AiderChatFiles): ToolCall[] {
  const lines = linesOf(reply);
  const chatFiles = [...chat.files];
  type Source = 'block' | 'saw' | 'chat';
  const edits: { name: string; source: Source; content: string[] }[] = [];
  let saw: string | null = null;
  let open: { name: string; source: Source; content: string[]; fence: readonly [string, string] } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence: readonly [string, string] | null = open ? (line.startsWith(open.fence[0]) || line.startsWith(open.fence[1]) ? open.fence : null) : fenceOf(line);
    if (fence) {
      if (open) {
        edits.push(open);
        open = null;
        saw = null;
        continue;
      }
      let name = '';
      let source: Source = 'block';
      if (i > 0) {
        name = pyStrip(pyStrip(lines[i - 1]!).replace(/^\*+|\*+$/g, '').replace(/:+$/, '').replace(/^`+|`+$/g, '').replace(/^#+/, ''));
        if (name.length > 250) name = '';
        const base = name.split('/').pop()!;
        if (name && !chat.files.has(name) && chat.files.has(base)) name = base;
      }
      if (!name) {
        if (saw) [name, source] = [saw, 'saw'];
        else if (chatFiles.length === 1) [name, source] = [chatFiles[0]!, 'chat'];
        else return []; // "No filename provided": the parse fails
      }
      open = { name, source, content: [], fence };
    } else if (open) {
      open.content.push(line);
    } else {
      for (const word of pyStrip(line).split(/\s+/)) {
        const w = word.replace(/[.:,;!]+$/, '');
        for (const f of chatFiles) if (w === `\`${f}\``) saw = f;
      }
    }
  }
  if (open) edits.push(open);
  const seen = new Set<string>();
  const out: ToolCall[] = [];
  for (const source of ['block', 'saw', 'chat'] as const) {
    for (const e of edits) {
      if (e.source !== source || seen.has(e.name)) continue;
      seen.add(e.name);
      out.push(makeToolCall(null, 'write_file', 'text-edit', { file_path: e.name, content: e.content.join('') }));
    }
  }
  return out;
}

function udiffCalls(reply: string): ToolCall[] {
  const lines = linesOf(reply.endsWith('\n') ? reply : `${reply}\n`);
  const out: ToolCall[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('```diff')) continue;
    const block: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith(FENCE); i++) block.push(lines[i]!);
    if (block.some((l) => l.trim() !== '')) out.push(makeToolCall(null, 'apply_patch', 'text-edit', { patch: block.join('') }));
  }
  return out;
}

const PATCH_LIKE = /^(?:@@|\*\*\* Update File:|\*\*\* Add File:|\*\*\* Delete File:)/m;

function patchCalls(reply: string): ToolCall[] {
  if (reply.trim() === '') return [];
  const lines = reply.split('\n');
  const sentinel = lines.length >= 2 && lines[0]!.startsWith('*** Begin Patch');
  return sentinel || PATCH_LIKE.test(reply) ? [makeToolCall(null, 'apply_patch', 'text-edit', { patch: reply })] : [];
}
