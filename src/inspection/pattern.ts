/**
 * Operator-supplied regular expressions, run on RE2 (npm `re2-wasm`, Google's RE2 compiled to
 * WebAssembly, shipped inside the package: nothing is downloaded or built at install time). RE2
 * matches in time linear in the input, so no custom pattern can hang guard the way a
 * backtracking JavaScript `RegExp` can on `(a+)+$` (research note inspection-rules.md §D.2,
 * "ReDoS in user rules"). RE2 syntax is close to JavaScript's but has no lookaround and no
 * backreferences; such patterns are refused when the rule set is built.
 */
import { RE2 } from 're2-wasm';

/** A compiled custom pattern. */
export interface TextPattern {
  /** The pattern as written. */
  readonly source: string;
  /**
   * The first match in `text`, as UTF-16 offsets (`start` inclusive, `end` exclusive), or null.
   * Never throws: an engine failure counts as no match.
   */
  find(text: string): { start: number; end: number } | null;
}

/** Flags a custom pattern may carry: `i` (ignore case), `m` (multi-line `^`/`$`), `s` (`.` matches newline). */
export const PATTERN_FLAGS = /^[ims]*$/;

/**
 * Compiles a custom pattern on RE2.
 *
 * @param source the pattern (RE2 syntax; see https://github.com/google/re2/wiki/Syntax).
 * @param flags any of `i`, `m`, `s`.
 * @returns the compiled pattern.
 * @throws Error whose message says why the pattern does not compile (RE2's own message, e.g.
 *   `invalid perl operator: (?=` for a lookahead, `missing ): (a` for an unclosed group).
 */
export function compilePattern(source: string, flags = ''): TextPattern {
  if (!PATTERN_FLAGS.test(flags)) throw new Error(`flags may only hold i, m and s (got ${JSON.stringify(flags)})`);
  const reFlags = `${[...new Set(flags)].join('')}u`;
  let re: RE2;
  try {
    new RE2(source, reFlags); // compiled as written first, so messages quote the pattern as written
    re = new RE2(withoutCaptures(source), reFlags);
  } catch (err) {
    // re2-wasm prefixes "Invalid regular expression: /…/u: "; keep only the reason
    const msg = (err as Error).message;
    throw new Error(msg.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, ''));
  }
  return {
    source,
    find(text: string) {
      try {
        re.lastIndex = 0;
        const m = re.exec(text);
        if (!m) return null;
        const start = utf16Offset(text, m.index);
        return { start, end: start + (m[0] ?? '').length };
      } catch {
        return null;
      }
    },
  };
}

/**
 * Turns capturing groups into non-capturing ones. Only the bounds of the whole match are used,
 * and without groups to fill RE2 answers from its DFA (a 64 KiB argument: milliseconds) instead
 * of its slower submatch engine (`(a+)+$`: close to a second).
 */
function withoutCaptures(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += source.slice(i, i + 2);
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      if (source[i + 1] === ']' || (source[i + 1] === '^' && source[i + 2] === ']')) {
        // a leading ] is a literal member of the class
        const lead = source[i + 1] === '^' ? '^]' : ']';
        out += lead;
        i += lead.length;
      }
    } else if (c === '(' && source[i + 1] !== '?') out += '(?:';
    else if (c === '(' && /^\(\?P?<[A-Za-z_]\w*>/.test(source.slice(i))) {
      const m = /^\(\?P?<[A-Za-z_]\w*>/.exec(source.slice(i))!;
      out += '(?:';
      i += m[0].length - 1;
    } else out += c;
  }
  return out;
}

/** RE2 reports match positions in code points; converts one to a UTF-16 offset in `text`. */
function utf16Offset(text: string, codePoints: number): number {
  if (!/[\uD800-\uDFFF]/.test(text)) return codePoints;
  let i = 0;
  for (let n = 0; n < codePoints && i < text.length; n++) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
  }
  return i;
}
