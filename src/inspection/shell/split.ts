/**
 * A cheap, linear pre-scan of shell text that finds where a long command line can be cut into
 * pieces tree-sitter can parse on their own: top-level statements (separated by `;`, `&`, `&&`,
 * `||` or a newline outside any quote, substitution, bracket or compound command) and, inside a
 * statement, the top-level pipe operators (`|`, `|&`) between pipeline stages.
 *
 * Only text too long or too pipe-heavy to parse whole comes here (shell/analyze.ts): tree-sitter's
 * error recovery on a long pipeline costs time and memory that grow much faster than the text
 * (docs/shell-parser.md "Hostile input"). The scan follows the Bash manual's quoting (§3.1.2:
 * backslash, single and double quotes, ANSI-C `$'…'`), comments (§3.1.3), substitutions and
 * expansions (`$( )`, backticks, `${ }`, `$(( ))`, `<( )`), subshells, here-documents (§3.6.6:
 * the body runs from the next newline to the delimiter line; `<<-` strips leading tabs) and the
 * reserved words that open and close compound commands (§3.2.5: if/fi, case/esac, for, while,
 * until and select/done, `{`/`}`). It is an approximation by design: where it is unsure it keeps
 * text together, and pieces it gets wrong still go through the parser (which reports syntax
 * errors) and the raw-text fallback.
 */

import { work } from '../../base/work.js';

/** One top-level statement; `[start, end)` covers it and its trailing separator. */
export interface Statement {
  start: number;
  end: number;
  /** The top-level pipe operators (`|` or `|&`) of the statement: offset and length. */
  pipes: { at: number; length: number }[];
  /** `|` characters in command context at any depth, `||` included (quoted and here-document
   * text excluded). */
  pipeCount: number;
  /** The statement holds something besides blanks and comments. */
  code: boolean;
}

type Frame = 'cmd' | 'paren' | 'bt' | 'dq' | 'brace' | 'arith';

const OPENERS = new Set(['if', 'case', 'for', 'while', 'until', 'select']);
const CLOSERS = new Set(['fi', 'esac', 'done', '}']);
/** Reserved words after which the next word is again in command position. */
const LEADERS = new Set(['then', 'do', 'else', 'elif', '!', 'time', 'if', 'while', 'until', '{']);
const WORD_END = /[\s;&|()<>"'`\\$]/;
const BLANK = /\s/;
const WORD_START_BEFORE = /[\s;&|()]/;

/**
 * Splits shell text into top-level statements. Linear in the text length; never throws.
 *
 * @param text shell text of any length.
 * @returns the statements in order; together they cover the whole text.
 */
export function splitStatements(text: string): Statement[] {
  const out: Statement[] = [];
  const n = text.length;
  const stack: Frame[] = ['cmd'];
  const heredocs: { delim: string; strip: boolean }[] = [];
  let kw = 0;
  let cmdPos = true;
  let stmt = fresh(0);
  let i = 0;
  const close = (at: number) => {
    stmt.end = at;
    out.push(stmt);
    stmt = fresh(at);
    cmdPos = true;
  };
  let steps = 0;
  while (i < n) {
    steps++;
    const c = text[i]!;
    const top = stack[stack.length - 1]!;
    if (top === 'dq') {
      if (c === '\\') i += 2;
      else if (c === '"') {
        stack.pop();
        i++;
      } else if (c === '`') {
        stack.push('bt');
        i++;
      } else if (c === '$' && (text[i + 1] === '(' || text[i + 1] === '{')) i = openDollar(text, i, stack);
      else i++;
      continue;
    }
    const topLevel = stack.length === 1 && kw === 0;
    if (c === '\n') {
      i = heredocs.length ? skipHeredocs(text, i + 1, heredocs) : i + 1;
      if (topLevel) close(i);
      else cmdPos = true;
      continue;
    }
    if (BLANK.test(c)) {
      i++;
      continue;
    }
    if (c === '#' && top !== 'arith' && (i === 0 || WORD_START_BEFORE.test(text[i - 1]!))) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? n : nl;
      continue;
    }
    stmt.code = true;
    if (c === '\\') {
      i += 2;
      cmdPos = false;
    } else if (c === "'") {
      const q = text.indexOf("'", i + 1);
      i = q < 0 ? n : q + 1;
      cmdPos = false;
    } else if (c === '$' && text[i + 1] === "'") {
      let j = i + 2;
      while (j < n && text[j] !== "'") j += text[j] === '\\' ? 2 : 1;
      i = j + 1;
      cmdPos = false;
    } else if (c === '"') {
      stack.push('dq');
      i++;
      cmdPos = false;
    } else if (c === '`') {
      if (top === 'bt') stack.pop();
      else stack.push('bt');
      i++;
    } else if (c === '$' && (text[i + 1] === '(' || text[i + 1] === '{')) {
      i = openDollar(text, i, stack);
      cmdPos = false;
    } else if (c === '(') {
      stack.push(top === 'arith' ? 'arith' : 'paren');
      i++;
      cmdPos = true;
    } else if (c === ')') {
      if (top === 'paren' || top === 'arith') stack.pop();
      i++;
      cmdPos = true; // `f() {` opens a body; after a subshell only operators follow anyway
    } else if (c === '}' && top === 'brace') {
      stack.pop();
      i++;
    } else if (top === 'arith') {
      i++;
    } else if (c === '<' && text[i + 1] === '<' && text[i + 2] !== '<') {
      i = readHeredocStart(text, i + 2, heredocs);
    } else if (c === '|' && text[i - 1] !== '>') {
      const double = text[i + 1] === '|';
      const len = double || text[i + 1] === '&' ? 2 : 1;
      stmt.pipeCount += double ? 2 : 1;
      if (topLevel && double) close(i + 2);
      else if (topLevel) stmt.pipes.push({ at: i, length: len });
      i += len;
      cmdPos = true;
    } else if (c === ';' || (c === '&' && text[i - 1] !== '>' && text[i - 1] !== '<' && text[i + 1] !== '>')) {
      const len = text[i + 1] === c ? 2 : 1;
      i += len;
      if (topLevel) close(i);
      else cmdPos = true;
    } else if (/[<>&|]/.test(c)) {
      i++;
    } else {
      let j = i;
      while (j < n && !WORD_END.test(text[j]!)) j++;
      if (j === i) j++;
      const word = text.slice(i, j);
      if (cmdPos && (word === '{' || OPENERS.has(word))) kw++;
      else if (cmdPos && CLOSERS.has(word)) kw = Math.max(0, kw - 1);
      cmdPos = cmdPos && LEADERS.has(word);
      i = j;
    }
  }
  if (stmt.start < n || out.length === 0) {
    stmt.end = n;
    out.push(stmt);
  }
  work.prescanSteps += steps;
  return out;
}

function fresh(start: number): Statement {
  return { start, end: start, pipes: [], pipeCount: 0, code: false };
}

/** Opens `$(`, `$((` or `${` at `i`; returns the index after the opener. */
function openDollar(text: string, i: number, stack: Frame[]): number {
  if (text[i + 1] === '{') {
    stack.push('brace');
    return i + 2;
  }
  stack.push('paren');
  if (text[i + 2] === '(') {
    stack.push('arith');
    return i + 3;
  }
  return i + 2;
}

/** Reads the delimiter after `<<` (at `i`), records the here-document; returns the index after. */
function readHeredocStart(text: string, i: number, heredocs: { delim: string; strip: boolean }[]): number {
  let j = i;
  const strip = text[j] === '-';
  if (strip) j++;
  while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
  const from = j;
  while (j < text.length && !/[\s;&|()<>]/.test(text[j]!)) j++;
  const delim = text.slice(from, j).replace(/["'\\]/g, '');
  if (delim) heredocs.push({ delim, strip });
  return j;
}

/** Skips the bodies of the pending here-documents, starting at a line start; returns the index
 * after the last delimiter line (the text length when one is missing). */
function skipHeredocs(text: string, i: number, heredocs: { delim: string; strip: boolean }[]): number {
  let j = i;
  for (const h of heredocs) {
    while (j < text.length) {
      const nl = text.indexOf('\n', j);
      const lineEnd = nl < 0 ? text.length : nl;
      let line = text.slice(j, lineEnd);
      if (h.strip) line = line.replace(/^\t+/, '');
      j = nl < 0 ? text.length : nl + 1;
      if (line === h.delim) break;
    }
  }
  heredocs.length = 0;
  return j;
}
