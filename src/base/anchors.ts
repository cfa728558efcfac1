/**
 * A literal prefilter for regular expressions: for a pattern, literal strings of which every match
 * holds at least one. A text (lower-cased, {@link lowerForAnchors}) that holds none of them cannot
 * match, so the pattern is not run on it. Derived from the pattern's own source, never listed by
 * hand. Used by the framing vocabulary (../recovery/framing/index.ts; test/recovery/framing-anchors.test.ts
 * checks on random texts built from the vocabulary's words that the filtered reading finds exactly
 * what the full one does) and by the built-in raw patterns of inspection (../inspection/engine.ts;
 * test/inspection/raw-anchors.test.ts checks every rule vector both ways).
 */

/** What one atom of a pattern contributes: a literal character, a group's anchors, or nothing known. */
type Atom = { kind: 'char'; ch: string } | { kind: 'group'; req: string[] | null } | { kind: 'none' };

/**
 * Literal strings (ASCII, lower case) of which every match of `source` holds at least one, or null
 * when no such set is known (an alternative that needs no literal, or syntax this reader does not
 * know: it gives up rather than guess).
 *
 * Only ASCII characters and characters without case (CJK, Thai, Arabic…, which match only
 * themselves) are taken as literals, lower-cased: case-insensitively (JavaScript's `i` with or
 * without `u`, RE2's `(?i)`) an ASCII letter matches itself in either case and three other
 * characters (the Kelvin sign, which lower-cases to `k`; the long s `ſ` and the dotless ı, which
 * {@link lowerForAnchors} folds to `s` and `i`), and case-sensitively a literal of the text is one
 * of its lower-cased text too; every other atom (classes, escapes such as `\w` or
 * `\p{L}`, `.`, assertions, back-references, letters of other cased scripts, anything optional)
 * ends a literal run and contributes nothing.
 *
 * @param source a regular expression's source (JavaScript syntax).
 * @returns the anchors, or null.
 */
export function requiredLiterals(source: string): string[] | null {
  let pos = 0;
  let failed = false;

  const alternation = (): string[] | null => {
    const alts: Array<string[] | null> = [sequence()];
    while (source[pos] === '|') {
      pos++;
      alts.push(sequence());
    }
    if (alts.some((a) => a === null)) return null;
    return [...new Set(alts.flat() as string[])];
  };

  const sequence = (): string[] | null => {
    const candidates: string[][] = [];
    let run = '';
    const flush = (): void => {
      if (run !== '') candidates.push([run]);
      run = '';
    };
    while (pos < source.length && source[pos] !== '|' && source[pos] !== ')') {
      const atom = readAtom();
      const { min, max } = quantifier();
      if (atom.kind === 'char') {
        if (min === 0) flush();
        else {
          run += atom.ch;
          if (max !== 1) flush();
        }
      } else {
        flush();
        if (atom.kind === 'group' && min >= 1 && atom.req !== null) candidates.push(atom.req);
      }
    }
    flush();
    if (candidates.length === 0) return null;
    const shortest = (c: string[]): number => Math.min(...c.map((s) => s.length));
    return candidates.reduce((best, c) => (shortest(c) > shortest(best) || (shortest(c) === shortest(best) && c.length < best.length) ? c : best));
  };

  const literal = (ch: string): Atom => {
    if (ch.length !== 1) return { kind: 'none' };
    if (ch.charCodeAt(0) < 0x80) return { kind: 'char', ch: ch.toLowerCase() };
    // a character without case (CJK, Thai, Arabic…) matches only itself
    return ch.toLowerCase() === ch && ch.toUpperCase() === ch ? { kind: 'char', ch } : { kind: 'none' };
  };

  const readAtom = (): Atom => {
    const c = source[pos]!;
    if (c === '(') {
      pos++;
      let lookaround = false;
      if (source[pos] === '?') {
        const rest = source.slice(pos, pos + 3);
        if (rest.startsWith('?:')) pos += 2;
        else if (rest.startsWith('?=') || rest.startsWith('?!')) (pos += 2), (lookaround = true);
        else if (rest === '?<=' || rest === '?<!') (pos += 3), (lookaround = true);
        else if (rest.startsWith('?<')) {
          const close = source.indexOf('>', pos);
          if (close < 0) failed = true;
          pos = close < 0 ? source.length : close + 1;
        } else failed = true;
      }
      const req = alternation();
      if (source[pos] !== ')') failed = true;
      pos++;
      return lookaround ? { kind: 'none' } : { kind: 'group', req };
    }
    if (c === '[') {
      pos++;
      if (source[pos] === '^') pos++;
      if (source[pos] === ']') pos++;
      while (pos < source.length && source[pos] !== ']') pos += source[pos] === '\\' ? 2 : 1;
      if (source[pos] !== ']') failed = true;
      pos++;
      return { kind: 'none' };
    }
    if (c === '\\') {
      const e = source[pos + 1];
      pos += 2;
      if (e === undefined) {
        failed = true;
        return { kind: 'none' };
      }
      if ((e === 'p' || e === 'P' || e === 'u') && source[pos] === '{') {
        const close = source.indexOf('}', pos);
        pos = close < 0 ? source.length : close + 1;
        return { kind: 'none' };
      }
      if (e === 'k' && source[pos] === '<') {
        const close = source.indexOf('>', pos);
        pos = close < 0 ? source.length : close + 1;
        return { kind: 'none' };
      }
      if (e === 'u') return (pos += 4), { kind: 'none' };
      if (e === 'x') return (pos += 2), { kind: 'none' };
      if (e === 'c') return (pos += 1), { kind: 'none' };
      // letters and digits after a backslash are classes, assertions, control characters or back-references
      if (/[A-Za-z0-9]/.test(e)) return { kind: 'none' };
      return literal(e);
    }
    pos++;
    if (c === '.' || c === '^' || c === '$') return { kind: 'none' };
    if (c === '*' || c === '+' || c === '?' || c === '{' || c === '}' || c === ']') {
      failed = true; // a quantifier with nothing before it, or a brace this reader does not know
      return { kind: 'none' };
    }
    const cp = source.codePointAt(pos - 1)!;
    if (cp > 0xffff) pos++;
    return literal(String.fromCodePoint(cp));
  };

  const quantifier = (): { min: number; max: number } => {
    const c = source[pos];
    let q = { min: 1, max: 1 };
    if (c === '?') (q = { min: 0, max: 1 }), pos++;
    else if (c === '*') (q = { min: 0, max: Infinity }), pos++;
    else if (c === '+') (q = { min: 1, max: Infinity }), pos++;
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(pos));
      if (!m) {
        failed = true;
        pos++;
        return { min: 0, max: Infinity };
      }
      pos += m[0].length;
      q = { min: Number(m[1]), max: m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]) };
    } else return q;
    if (source[pos] === '?') pos++; // lazy: the same bounds
    return q;
  };

  const req = alternation();
  if (failed || pos !== source.length) return null;
  return req;
}

/**
 * `text` as the anchors ({@link requiredLiterals}) are searched in: lower-cased, with the long s
 * (U+017F) and the dotless ı (U+0131), which case-insensitive matching may take for `s` and `i` but
 * `toLowerCase` keeps, folded to `s` and `i`.
 */
export function lowerForAnchors(text: string): string {
  const lower = text.toLowerCase();
  return /[ſı]/.test(lower) ? lower.replace(/ſ/g, 's').replace(/ı/g, 'i') : lower;
}
