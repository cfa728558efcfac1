/**
 * Static shell word normalisation: the parts of bash expansion that can be done without running
 * anything (quote removal, backslash escapes, ANSI-C `$'…'` decoding, `$HOME`/`${HOME}` → `~`,
 * `$IFS` → a field split, constant variables), and lexical path normalisation.
 * Semantics follow the Bash Reference Manual §3.1.2 (Quoting) and §3.5 (Shell Expansions).
 */

/** Decodes the body of an ANSI-C quoted string `$'…'` (without `$'` and `'`), per Bash §3.1.2.4. */
export function decodeAnsiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[++i]!;
    const simple: Record<string, string> = {
      a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
      '\\': '\\', "'": "'", '"': '"', '?': '?',
    };
    if (n in simple) {
      out += simple[n];
    } else if (n === 'x' || n === 'u' || n === 'U') {
      const max = n === 'x' ? 2 : n === 'u' ? 4 : 8;
      const m = /^[0-9a-fA-F]+/.exec(body.slice(i + 1, i + 1 + max));
      if (!m) {
        out += '\\' + n;
        continue;
      }
      const cp = parseInt(m[0], 16);
      out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
      i += m[0].length;
    } else if (/[0-7]/.test(n)) {
      const m = /^[0-7]{1,3}/.exec(body.slice(i))!;
      out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
      i += m[0].length - 1;
    } else if (n === 'c' && i + 1 < body.length) {
      out += String.fromCharCode(body.charCodeAt(++i) & 0x1f);
    } else {
      out += '\\' + n;
    }
  }
  return out;
}

/** Removes backslash escapes of an unquoted word (`c\url` → `curl`, `\<newline>` → ''). */
export function unescapeBare(text: string): string {
  return text.replace(/\\(\n|[\s\S])/g, (_m, ch: string) => (ch === '\n' ? '' : ch));
}

/** Removes the backslash escapes that are special inside double quotes (`\$ \` \" \\ \<newline>`). */
export function unescapeDouble(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, ch: string) => (ch === '\n' ? '' : ch));
}

/**
 * Normalises a path lexically: `$HOME`-style prefixes must already be `~`; collapses `//`, drops
 * `/./` and a trailing `/` or `/.`, resolves `..` (never above `/` or `~`). Relative paths stay
 * relative. Returns the normalised path; '' stays ''.
 */
export function normalizePath(path: string): string {
  if (path === '') return '';
  let root = '';
  let rest = path;
  if (path === '~' || path.startsWith('~/')) {
    root = '~';
    rest = path.slice(1);
  } else if (path.startsWith('/')) {
    root = '/';
  }
  const out: string[] = [];
  for (const seg of rest.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!root) out.push('..');
      continue;
    }
    out.push(seg);
  }
  if (root === '~') return out.length ? '~/' + out.join('/') : '~';
  if (root === '/') return '/' + out.join('/');
  return out.length ? out.join('/') : '.';
}

/** The last path component of a command word (`/usr/bin/rm` → `rm`). */
export function baseName(word: string): string {
  const i = word.replace(/\/+$/, '').lastIndexOf('/');
  return i >= 0 ? word.slice(i + 1) : word;
}
