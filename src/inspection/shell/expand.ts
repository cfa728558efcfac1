/**
 * Static parts of bash expansion that need more than one word at a time: brace expansion of
 * a whole command text (Bash Reference Manual §3.5.1), parameter-expansion operators (§3.5.3),
 * `printf` formatting (§4.2 `printf`), and glob matching of pathnames (§3.5.8.1) against a list
 * of known paths. Nothing here runs a command or touches the file system.
 */

/** Most words one brace expansion may produce; past it the word is left as written. */
export const MAX_BRACE_WORDS = 64;

const OPEN = '\uE000';
const COMMA = '\uE001';
const CLOSE = '\uE002';

/**
 * Brace-expands every unquoted word of a shell text: `{rm,-rf,/}` → `rm -rf /`,
 * `/{etc,usr}` → `/etc /usr`, `{1..3}` → `1 2 3`. Quoted text, `${…}`, `$(…)` and backticks are
 * kept as written (their braces are not expansion braces). Returns the rewritten text, or null
 * when no word holds a brace expansion (the common case, decided by one regex test first).
 * A word whose expansion would exceed {@link MAX_BRACE_WORDS} words is left as written.
 */
export function expandBracesInText(text: string): string | null {
  if (!/\{[^{}]*(?:,|\.\.)/.test(text)) return null;
  let out = '';
  let word = '';
  let changed = false;
  const flush = () => {
    if (word.includes(OPEN)) {
      const words = braceExpand(word) ?? [word];
      const joined = words.map(unmark).join(' ');
      if (words.length > 1 || joined !== unmark(word)) changed = true;
      out += joined;
    } else {
      out += word;
    }
    word = '';
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\') {
      word += text.slice(i, i + 2);
      i += 2;
    } else if (c === "'" || (c === '$' && text[i + 1] === "'")) {
      const from = c === '$' ? i + 2 : i + 1;
      let j = from;
      while (j < text.length && text[j] !== "'") j += c === '$' && text[j] === '\\' ? 2 : 1;
      word += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      word += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '$' && (text[i + 1] === '{' || text[i + 1] === '(')) {
      const j = matching(text, i + 1);
      word += text.slice(i, j + 1);
      i = j + 1;
    } else if (/[\s;&|()<>]/.test(c)) {
      flush();
      out += c;
      i++;
    } else {
      word += c === '{' ? OPEN : c === ',' ? COMMA : c === '}' ? CLOSE : c;
      i++;
    }
  }
  flush();
  return changed ? out : null;
}

/** Index of the bracket closing the one at `at` (`{` or `(`), skipping quotes; the end when unclosed. */
function matching(text: string, at: number): number {
  const open = text[at]!;
  const close = open === '{' ? '}' : ')';
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') i++;
    else if (c === "'") i = Math.max(i, text.indexOf("'", i + 1) < 0 ? text.length : text.indexOf("'", i + 1));
    else if (c === open) depth++;
    else if (c === close && --depth === 0) return i;
  }
  return text.length - 1;
}

function unmark(s: string): string {
  return s.replace(/[\uE000-\uE002]/g, (m) => (m === OPEN ? '{' : m === COMMA ? ',' : '}'));
}

/** Expands the marked braces of one word (markers stand for unquoted `{`, `,`, `}`); null when
 * the expansion would pass {@link MAX_BRACE_WORDS} words. */
function braceExpand(word: string): string[] | null {
  for (let i = word.indexOf(OPEN); i >= 0; i = word.indexOf(OPEN, i + 1)) {
    let depth = 0;
    const commas: number[] = [];
    let end = -1;
    for (let j = i; j < word.length; j++) {
      const c = word[j];
      if (c === OPEN) depth++;
      else if (c === CLOSE && --depth === 0) {
        end = j;
        break;
      } else if (c === COMMA && depth === 1) commas.push(j);
    }
    if (end < 0) break;
    const pre = word.slice(0, i);
    const post = word.slice(end + 1);
    let alts: string[] | null = null;
    if (commas.length) {
      alts = [];
      let from = i + 1;
      for (const k of [...commas, end]) {
        alts.push(word.slice(from, k));
        from = k + 1;
      }
    } else {
      alts = sequence(word.slice(i + 1, end));
    }
    if (!alts) continue;
    if (alts.length > MAX_BRACE_WORDS) return null;
    const out: string[] = [];
    for (const a of alts) {
      const words = braceExpand(pre + a + post);
      if (words === null || out.length + words.length > MAX_BRACE_WORDS) return null;
      out.push(...words);
    }
    return out;
  }
  return [word];
}

/** `1..5`, `a..e`, `10..0..2` → the words of the sequence; null when not a sequence. */
function sequence(body: string): string[] | null {
  const n = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(body);
  if (n) {
    const a = Number(n[1]);
    const b = Number(n[2]);
    const step = Math.abs(Number(n[3] ?? 1)) || 1;
    if (Math.abs(b - a) / step >= MAX_BRACE_WORDS) return null;
    const out: string[] = [];
    for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? step : -step) out.push(String(v));
    return out;
  }
  const c = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(body);
  if (c) {
    const a = c[1]!.charCodeAt(0);
    const b = c[2]!.charCodeAt(0);
    const out: string[] = [];
    for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? 1 : -1) out.push(String.fromCharCode(v));
    return out;
  }
  return null;
}

/** A `${…}` body split into its parts: `X:-/` → name X, op `:-`, arg `/`. */
export interface ParameterExpansion {
  /** Variable name, positional digit or special (`@`, `*`, `#`, `?`). */
  name: string;
  /** `@` or `*` for `${a[@]}`/`${a[*]}`, another subscript as written, or null. */
  index: string | null;
  /** `:-` `-` `:=` `=` `:?` `?` `:+` `+` `%` `%%` `#` `##`, `len` for `${#x}`, or null (plain). */
  op: string | null;
  arg: string;
}

/** Splits a `${…}` body (without `${` and `}`); null for forms not modelled (`${x/a/b}`, `${x:1:2}`, `${!x}`, `${x@P}`). */
export function parseParameter(body: string): ParameterExpansion | null {
  const len = /^#([A-Za-z_][A-Za-z0-9_]*|[0-9@*])$/.exec(body);
  if (len) return { name: len[1]!, index: null, op: 'len', arg: '' };
  const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(?:\[([^\]]*)\])?(:[-=?+]|[-=?+]|%%|%|##|#)?([\s\S]*)$/.exec(body);
  if (!m) return null;
  if (!m[3] && m[4]) return null;
  return { name: m[1]!, index: m[2] ?? null, op: m[3] ?? null, arg: m[4] ?? '' };
}

/**
 * Removes a glob-pattern prefix (`#`, `##`) or suffix (`%`, `%%`) from a known value, as
 * `${v#pat}` does; the shortest match for a single operator, the longest for a double one.
 */
export function removeAffix(value: string, op: string, pattern: string): string {
  const re = globRegExpSource(pattern, true);
  const longest = op.length === 2;
  if (op[0] === '#') {
    const lens = [...Array(value.length + 1).keys()];
    for (const n of longest ? lens.reverse() : lens) if (new RegExp(`^(?:${re})$`, 's').test(value.slice(0, n))) return value.slice(n);
    return value;
  }
  const starts = [...Array(value.length + 1).keys()];
  for (const n of longest ? starts : starts.reverse()) if (new RegExp(`^(?:${re})$`, 's').test(value.slice(n))) return value.slice(0, n);
  return value;
}

/** True when the text holds a glob character (`*`, `?`, `[…]`). */
export function hasGlob(text: string): boolean {
  return /[*?]|\[[^\]]+\]/.test(text);
}

/** RegExp source for a glob; `*` and `?` do not cross `/` unless `crossSlash`. */
function globRegExpSource(glob: string, crossSlash = false): string {
  let out = '';
  const any = crossSlash ? '[\\s\\S]' : '[^/]';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') out += `${any}*`;
    else if (c === '?') out += any;
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      let set = glob.slice(i + 1, end);
      if (set[0] === '!' || set[0] === '^') set = '^' + set.slice(1);
      out += `[${set.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else out += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return out;
}

/** The candidates a pathname glob matches (`/e*c` matches `/etc`); `*` and `?` do not match `/`. */
export function globMatches(glob: string, candidates: readonly string[]): string[] {
  let re: RegExp;
  try {
    re = new RegExp(`^${globRegExpSource(glob)}$`);
  } catch {
    return [];
  }
  return candidates.filter((c) => re.test(c));
}

/**
 * What `printf FORMAT ARGS…` prints for literal arguments: `%s`, `%b`, `%d`, `%c`, `%%`, and the
 * escapes `\n`, `\t`, `\\`; the format is reused while arguments remain (as bash does). Other
 * conversions print their argument as `%s` would. Escapes: `\n \t \r \\ \a \b \e \f \v`, `\xHH`, `\uHHHH`
 * and octal `\NNN` / `\0NNN` (bash's printf builtin).
 */
export function printfOutput(args: readonly string[]): string {
  const [format = '', ...rest] = args;
  const esc = (s: string) =>
    s.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|0?[0-7]{1,3}|[ntr\\abefv])/g, (_m, e: string) => {
      if (e[0] === 'x' || e[0] === 'u') return String.fromCharCode(parseInt(e.slice(1), 16));
      if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
      return ({ n: '\n', t: '\t', r: '\r', '\\': '\\', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v' } as Record<string, string>)[e]!;
    });
  let out = '';
  let k = 0;
  for (let round = 0; round < 64; round++) {
    let used = 0;
    out += esc(format).replace(/%(%|[-+ #0-9.]*[a-zA-Z])/g, (_m, conv: string) => {
      if (conv === '%') return '%';
      used++;
      const v = rest[k++] ?? '';
      return conv.endsWith('b') ? esc(v) : conv.endsWith('c') ? v.slice(0, 1) : v;
    });
    if (used === 0 || k >= rest.length) break;
  }
  return out;
}
