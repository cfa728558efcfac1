/**
 * Pass 2 of recovery: the quotation regions of a reply's text, found once. A region is a stretch
 * that a reader sees as something other than the reply's own output: code, a quotation, hidden
 * or inert content, or the model's reasoning. Markup that overlaps a region is a quotation, never
 * a call (./judge.ts).
 *
 * Markdown (CommonMark 0.31.2, https://spec.commonmark.org/0.31.2/, and GitHub Flavored Markdown
 * 0.29-gfm, https://github.github.com/gfm/):
 * - fenced code blocks (§4.5: ``` or ~~~, at most three spaces of indentation, closed by a run of
 *   the same character at least as long, or by the end of the text) → `fenced`;
 * - indented code blocks (§4.4: four spaces or a tab, not interrupting a paragraph) → `fenced`;
 * - code spans (§6.1: a backtick run closed by a run of the same length, within one paragraph)
 *   → `quoted`;
 * - block quotes (§5.1, with lazy continuation lines and block quotes inside list items) → `quoted`;
 * - list items (§5.2, `-`, `*`, `+`, `1.`, `1)`) and headings (§4.2) → `quoted`;
 * - tables (GFM §4.10: a row of `|` cells with a delimiter row, or any line opening with `|`, a
 *   cell a multi-line block breaks out of) and strike-through (GFM §6.5,
 *   `~~…~~`) → `quoted`;
 * - math (`$$…$$`, `\[…\]`, `\(…\)`, as MathJax and KaTeX render them) → `quoted`;
 * - strong emphasis (§6.2, `**…**`, `__…__` paired within a paragraph) and footnote definitions
 *   (GFM's `[^label]: …`, with their continuation lines) → `quoted`.
 * HTML (HTML Living Standard, https://html.spec.whatwg.org/): elements that show their content as
 * code or a quotation (`pre` → `fenced`; `code`, `kbd`, `samp`, `tt`, `var`, `blockquote`, `q`,
 * `cite`, `del`, `strike`, and `s` except where it opens the text, as the `<s>` start-of-text token
 * of Llama and Mistral templates does), presentational elements (`b`, `strong`, `i`, `em`, `u`, `mark`, `ins`, `small`,
 * `big`, `sup`, `sub`, `abbr`, `dfn`, `font`), XML CDATA sections, elements whose content is inert or not rendered (`xmp`,
 * `textarea`, `script`, `style`, `template`, `noscript`, `iframe`, `object`, `details`), any
 * element hidden by its attributes (`hidden`, `aria-hidden="true"`, a `style` with
 * `display:none`, `visibility:hidden`, `opacity:0` or `font-size:0`), and comments → `quoted`.
 * Other markup languages: Org mode blocks, AsciiDoc delimited blocks, reStructuredText literal
 * blocks and code directives (→ `fenced`), Pandoc/MyST fenced divs, Jinja/Liquid raw blocks,
 * Textile `bq.`/`bc.` blocks, subtitle cues (SRT, WebVTT, SBV, LRC lines) and WebVTT files, Ruby, Perl POD and `#if 0` block comments,
 * Handlebars, JSP, FreeMarker and `%%` comments, TeX `\iffalse`, Haskell `{-…-}` and Lisp `#|…|#`
 * comments, shell and Ruby here-documents, and YAML block scalars (→ `quoted`): {@link DELIMITERS}.
 * Lines that hold recorded or someone else's text (→ `quoted`, {@link lineBlocks}): unified diffs,
 * line comments, time-stamped log, caption and chat lines, the output after a terminal prompt line,
 * and quoted or forwarded e-mail. Any other HTML element that holds content (`<aside>`, `<output>`, `<div>`,
 * `<dd>`…), closed after the markup → `quoted`. A Markdown link's text is read by ./intent.ts.
 * Reasoning: `<think>`, `<thinking>`, `<reasoning>`,
 * `<reflection>` and `◁think▷` blocks written into the visible text → `quoted` (reasoning is never
 * recovered).
 *
 * Regions are searched outside `grammar`: the blocks a family read to their closer, whose fences,
 * backticks and tags belong to the markup (DeepSeek V3's ```json, an HTML value of an argument).
 * Every search moves forward: linear in the text.
 */

import { work } from '../base/work.js';
import { normaliseSpans } from './prose.js';

/** [start, end) in UTF-16 code units. */
export type Span = [number, number];

/** Why a region quotes what it holds: the reason code it gives, and a short description. */
export interface Region {
  span: Span;
  reason: 'fenced' | 'quoted';
  /** e.g. `inside a Markdown fence`, `inside an HTML <details> element`. */
  detail: string;
  /** For reasoning written into the text (`<think>`, `◁think▷`): where its content ends (its closing tag starts, or the text's end). */
  reasoningEnd?: number;
}

/** A cursor telling whether indices (visited in increasing order) lie in sorted disjoint spans. */
class SpanCursor {
  private k = 0;
  constructor(private readonly spans: readonly Span[]) {}
  inside(i: number): boolean {
    while (this.k < this.spans.length && this.spans[this.k]![1] <= i) this.k++;
    return this.k < this.spans.length && this.spans[this.k]![0] <= i;
  }
  /** The same test for any index, in any order (a binary search; the cursor does not move). */
  holds(i: number): boolean {
    let lo = 0;
    let hi = this.spans.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.spans[mid]![1] <= i) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.spans.length && this.spans[lo]![0] <= i;
  }
}

/** One line of the text: [start, end) without its `\n`. */
interface Line {
  start: number;
  end: number;
}

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  for (let s = 0; s <= text.length; ) {
    const nl = text.indexOf('\n', s);
    const e = nl < 0 ? text.length : nl;
    out.push({ start: s, end: e > s && text[e - 1] === '\r' ? e - 1 : e });
    if (nl < 0) break;
    s = nl + 1;
  }
  return out;
}

const isBlank = (text: string, l: Line): boolean => text.slice(l.start, l.end).trim() === '';

/** Columns of leading indentation (a tab counts 4) and the index of the first other character. */
function indentOf(text: string, l: Line): { cols: number; at: number } {
  let cols = 0;
  let i = l.start;
  while (i < l.end && (text[i] === ' ' || text[i] === '\t')) {
    cols += text[i] === '\t' ? 4 - (cols % 4) : 1;
    i++;
  }
  return { cols, at: i };
}

/** Fenced code blocks [open line start, end of closing line or text end), outside `grammar`. */
function fences(text: string, lines: Line[], grammar: SpanCursor): Region[] {
  const out: Region[] = [];
  let open: { start: number; ch: string; len: number } | null = null;
  for (const l of lines) {
    const { cols, at } = indentOf(text, l);
    const ch = text[at];
    if (cols > 3 || (ch !== '`' && ch !== '~') || grammar.inside(at)) continue;
    let j = at;
    while (j < l.end && text[j] === ch) j++;
    const len = j - at;
    if (len < 3) continue;
    if (open === null) {
      // a backtick fence's info string holds no backtick (CommonMark §4.5)
      if (ch === '`' && text.slice(j, l.end).includes('`')) continue;
      open = { start: l.start, ch, len };
    } else if (ch === open.ch && len >= open.len && text.slice(j, l.end).trim() === '') {
      out.push({ span: [open.start, l.end], reason: 'fenced', detail: 'inside a Markdown fence' });
      open = null;
    }
  }
  if (open !== null) out.push({ span: [open.start, text.length], reason: 'fenced', detail: 'inside a Markdown fence' });
  return out;
}

/** A list item's marker: CommonMark's (`-`, `*`, `+`, `1.`, `1)`), Pandoc's letters (`a)`, `B.`), and the bullet characters of pasted lists (`•`, `◦`, `‣`, `▪`, `–`). */
const LIST_MARKER = /^(?:[-*+•◦‣▪–]|\d{1,9}[.)]|[a-zA-Z][.)])(?:[ \t]|$)/;
const HEADING = /^#{1,6}(?:[ \t]|$)/;
/** A GFM footnote definition (`[^label]: …`, GitHub's extension of link reference definitions). */
const FOOTNOTE = /^\[\^[^\]\s]{1,64}\]:/;
/** A link reference definition's label (CommonMark §4.7): `[label]: destination`. */
const LINK_DEFINITION = /^\[[^\]\n]{1,999}\]:/;
/**
 * A line of Org mode fixed-width text (`: text`, Org manual §12.6 "Literal Examples") or a
 * definition list's definition (Pandoc, PHP Markdown Extra: `: definition`).
 */
const COLON_LINE = /^:(?:[ \t]|$)/;
/**
 * A line of a unified diff (GNU diffutils "Unified Format"): an added or removed line, `+` or `-`
 * written right before its text (`+<tool_call>`; `+ x` and `- x` are list items).
 */
const DIFF_LINE = /^[+-](?=\S)/;
/** A unified diff's hunk header (`@@ -10,3 +10,7 @@`): the lines after it that open with ` `, `+`, `-` or `\` are the hunk. */
const HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;
/** A line of a hunk: context (` `), added (`+`), removed (`-`), or `\ No newline at end of file`. */
const HUNK_LINE = /^[ +\-\\]/;
/** A line that shows its text holds a diff: a hunk header, a file header (`--- a/x`, `+++ b/x`, `diff --git`, `Index:`), or an added or removed line. Tested on lines outside grammar blocks (an argument value's `-->` is no diff). */
const DIFF_EVIDENCE = /^(?:@@ -\d|\+\+\+ \S|--- \S|diff --git |Index: \S|[+-](?![+-]{2}(?:\s|$))\S)/;
/**
 * A line comment of a source or configuration language written before the markup on its line
 * (`// <tool_call>`, `-- …` in SQL and Lua, `; …` in INI and Lisp, `REM …` in batch files, `% …` in TeX and
 * MATLAB, `' …` in Visual Basic).
 */
const LINE_COMMENT = /^(?:\/\/|--(?!-)|;|rem(?=\s)|%+(?=\s)|'(?=\s))/i;
/**
 * A line that opens with a time stamp: a log line (`2024-06-03 10:12:00 INFO …`, `[2024-06-03T10:12:00Z] …`)
 * a timed lyric, caption or transcript line (LRC `[00:12.34] …`, `[Narrator, 00:01:12] …`, `00:01:12 Speaker 1: …`, an
 * Advanced SubStation `Dialogue: 0,0:00:01.00,…` event); what follows the stamp is recorded text.
 */
const TIMESTAMP_LINE = /^(?:Dialogue: \d{1,3},|(?:\[[^\]\n]{0,40}\b\d{1,2}:\d{2}\b[^\]\n]{0,24}\]|\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?(?=[ \t])|\[\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?\]|\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?\]?)[ \t])/;
/**
 * A prompt line of a terminal or REPL session followed by a command (`$ cat reply.txt`, `>>> print(x)`,
 * `In [3]: …`, `PS C:\> …`, `user@host:~$ …`): the lines after it, to a blank line or the next prompt, are its output.
 */
const PROMPT_LINE = /^(?:(?:In|Out) ?\[\d{0,5}\]:(?: |$)|(?:\$|>>>|In ?\[\d{0,5}\]:|PS [A-Za-z]:\\[^>\n]{0,200}>|[\w.-]{1,64}@[\w.-]{1,64}:[^\s$#]{0,200}[$#]|irb\([\w.]{1,40}\):\d{1,6}:\d{1,6}>|(?:sqlite|mysql|mongo|redis[\w.:-]{0,40})>|[\w-]{1,40}=[#>]|❯|>|[A-Za-z]:\\[^>\n]{0,200}>) \S)/;
/**
 * The header of a quoted or forwarded e-mail (Outlook's `-----Original Message-----`, Gmail's
 * `---------- Forwarded message ---------`, Apple Mail's `Begin forwarded message:`, and their
 * translations; a `From:` line followed by another header line): what follows is the quoted message.
 */
const EMAIL_HEADER = /^(?:-{2,} ?(?:original message|forwarded message|weitergeleitete nachricht|urspr\u00fcngliche nachricht|message d'origine|message transf\u00e9r\u00e9|mensaje original|mensaje reenviado|\u0438\u0441\u0445\u043e\u0434\u043d\u043e\u0435 \u0441\u043e\u043e\u0431\u0449\u0435\u043d\u0438\u0435|\u043f\u0435\u0440\u0435\u0441\u044b\u043b\u0430\u0435\u043c\u043e\u0435 \u0441\u043e\u043e\u0431\u0449\u0435\u043d\u0438\u0435) ?-{2,}|begin forwarded message:)\s*$/i;
/** A chat log line (IRC, Matrix and Slack exports: `<bob> …`, `[10:42] <@bob> …`): what follows the nick is someone's message. */
const CHAT_LINE = /^(?:\[[^\]\n]{1,24}\] ?)?<[@+%&~]?([A-Za-z][A-Za-z0-9\[\]\\^{}`-]{0,15})> \S/;
/** True for a chat log line whose nick is not an HTML element's name (`<p> text` is HTML) nor a tool-call tag's (`<function_call> {…}`: nicks here hold no `_`, `:` or `|`). */
function isChatLine(raw: string): boolean {
  const m = CHAT_LINE.exec(raw);
  if (!m) return false;
  const name = m[1]!.toLowerCase();
  if (/call|tool|func|invoke|param|arg|action|plugin/.test(name)) return false;
  return !(QUOTING.has(name) || INERT.has(name) || CONTAINER.has(name) || PRESENTATIONAL.has(name) || MATERIAL.has(name) || NAMED_MATERIAL.has(name) || REASONING.has(name) || HTML_VOID.has(name));
}
/** HTML elements with no content, and others a chat nick is never taken for. */
const HTML_VOID = new Set(['br', 'hr', 'img', 'wbr', 'input', 'meta', 'link', 'area', 'base', 'col', 'embed', 'source', 'track', 'param', 's', 'strike', 'del']);
const EMAIL_FROM = /^from: \S/i;
const EMAIL_NEXT_HEADER = /^(?:to|sent|date|subject|cc):/i;

/**
 * Line-based blocks: indented code, block quotes (with lazy continuation), list items, headings,
 * table rows. Lines inside fences and grammar blocks are skipped.
 */
function lineBlocks(text: string, lines: Line[], skip: SpanCursor): Region[] {
  const out: Region[] = [];
  let prevBlank = true;
  let inQuote = false;
  let inCode = false;
  let inList = false;
  let inFootnote = false;
  let inHunk = false;
  const diff = lines.some((l) => !skip.holds(l.start) && DIFF_EVIDENCE.test(text.slice(l.start, l.end)));
  for (let n = 0; n < lines.length; n++) {
    const l = lines[n]!;
    const blank = isBlank(text, l);
    const { cols, at } = indentOf(text, l);
    if (blank) {
      prevBlank = true;
      inQuote = false;
      inFootnote = false;
      continue;
    }
    const raw = text.slice(l.start, l.end);
    if (!skip.inside(l.start)) {
      if (HUNK_HEADER.test(raw)) inHunk = true;
      else if (inHunk && !HUNK_LINE.test(raw)) inHunk = false;
      if (PROMPT_LINE.test(raw) && n + 1 < lines.length) {
        // its output: the lines after it, to a blank line or the next prompt line (lines inside a grammar block are part of it)
        let k = n + 1;
        while (k < lines.length && (skip.inside(lines[k]!.start) || (!isBlank(text, lines[k]!) && !PROMPT_LINE.test(text.slice(lines[k]!.start, lines[k]!.end))))) k++;
        if (k > n + 1) out.push({ span: [lines[n + 1]!.start, lines[k - 1]!.end], reason: 'quoted', detail: 'inside the output of a terminal session (after a prompt line)' });
      }
      if (EMAIL_HEADER.test(raw.trim()) || (EMAIL_FROM.test(raw) && n + 1 < lines.length && EMAIL_NEXT_HEADER.test(text.slice(lines[n + 1]!.start, lines[n + 1]!.end)))) {
        out.push({ span: [l.start, text.length], reason: 'quoted', detail: 'inside a quoted or forwarded e-mail' });
      }
      // a diff's lines: inside a hunk, an added or removed line, or a context line (one space) in a text that holds a diff
      if (inHunk || DIFF_LINE.test(raw) || (diff && cols === 1 && raw[0] === ' ')) out.push({ span: [l.start, l.end], reason: 'quoted', detail: 'inside a diff (unified format)' });
      if (cols <= 3 && LINE_COMMENT.test(text.slice(at, l.end))) out.push({ span: [l.start, l.end], reason: 'quoted', detail: 'inside a line comment' });
      if (isChatLine(raw)) out.push({ span: [l.start, l.end], reason: 'quoted', detail: 'inside a chat log line (<nick> message)' });
      if (TIMESTAMP_LINE.test(raw)) out.push({ span: [l.start, l.end], reason: 'quoted', detail: 'inside a time-stamped log or caption line' });
    }
    // a line inside a block (or fence) is part of it; the line a block starts on is read up to the block
    if (skip.inside(l.start)) {
      // a grammar block opening right under a block quote line continues it (CommonMark §5.1 lazy continuation, read as a reader sees it)
      if (inQuote && !prevBlank) out.push({ span: [l.start, l.end], reason: 'quoted', detail: 'inside a Markdown block quote' });
      prevBlank = false;
      inCode = false;
      inQuote = false;
      continue;
    }
    const rest = text.slice(at, l.end);
    const span: Span = [l.start, l.end];
    // indented code: four columns, after a blank line (or the start), not inside a list item
    if (cols >= 4 && (prevBlank || inCode) && !inList) {
      inCode = true;
      out.push({ span, reason: 'fenced', detail: 'inside an indented code block' });
      prevBlank = false;
      continue;
    }
    inCode = false;
    let body = rest;
    if (LIST_MARKER.test(body)) {
      inList = true;
      out.push({ span, reason: 'quoted', detail: 'inside a Markdown list item' });
      body = body.replace(LIST_MARKER, '').trimStart();
    } else if (prevBlank && cols === 0) inList = false;
    if (cols <= 3 && body.startsWith('>')) {
      inQuote = true;
      out.push({ span, reason: 'quoted', detail: 'inside a Markdown block quote' });
    } else if (inQuote && !prevBlank) {
      // a lazy continuation line of the open block quote (CommonMark §5.1)
      out.push({ span, reason: 'quoted', detail: 'inside a Markdown block quote' });
    } else if ((cols <= 3 && FOOTNOTE.test(rest)) || (inFootnote && !prevBlank)) {
      // a footnote's text (and its continuation lines) is a note about the reply, not the reply
      inFootnote = true;
      out.push({ span, reason: 'quoted', detail: 'inside a Markdown footnote' });
    } else if (cols <= 3 && LINK_DEFINITION.test(rest)) {
      out.push({ span, reason: 'quoted', detail: 'inside a Markdown link reference definition' });
    } else if (cols <= 3 && COLON_LINE.test(rest)) {
      out.push({ span, reason: 'fenced', detail: 'inside an Org fixed-width line or a definition list item' });
    } else if (cols <= 3 && HEADING.test(rest)) {
      out.push({ span, reason: 'quoted', detail: 'inside a Markdown heading' });
    } else if (cols <= 3 && (rest.startsWith('|') || (isTableRow(rest) && (isTableNeighbour(text, lines[n - 1]) || isTableNeighbour(text, lines[n + 1]))))) {
      out.push({ span, reason: 'quoted', detail: 'inside a Markdown table' });
    } else if (inList && cols >= 2 && !prevBlank) {
      out.push({ span, reason: 'quoted', detail: 'inside a Markdown list item' });
    }
    prevBlank = false;
  }
  return out;
}

/** The opening line of a block another markup language delimits, and how to find its closing line. */
interface Delimiter {
  open: RegExp;
  /** The closing line, given the opening match (tested on the trimmed line). */
  close: (m: RegExpExecArray) => RegExp;
  reason: Region['reason'];
  detail: string;
  /**
   * When the block counts only with its closing line, looked for within {@link MAX_PAIR_LINES}
   * (else a block left open runs to the end): a delimiter without its pair is a rule or a stray
   * line. Absent: never.
   */
  needsClose?: (m: RegExpExecArray, line: string) => boolean;
}

const always = (): boolean => true;

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Blocks delimited by lines in the markup languages models also write: Org mode blocks
 * (`#+BEGIN_SRC` … `#+END_SRC`, any block name; Org manual §12.6 "Blocks"), AsciiDoc delimited
 * blocks (`----` listing, `....` literal, `____` quote, `++++` passthrough: the same delimiter
 * line, four or more characters; AsciiDoc Language "Delimited blocks"), Pandoc/MyST fenced divs and
 * admonitions (`:::` with a name, closed by a run of at least as many colons), Jinja/Liquid raw
 * blocks (`{% raw %}` … `{% endraw %}`), and shell here-documents (`<<EOF`, `<<-'EOF'`, `<<"EOF"`:
 * POSIX sh §2.7.4) whose body is data, not output.
 */
const DELIMITERS: readonly Delimiter[] = [
  { open: /^#\+begin_(\w+)/i, close: (m) => new RegExp(`^#\\+end_${escapeRe(m[1]!)}\\b`, 'i'), reason: 'fenced', detail: 'inside an Org mode block' },
  { open: /^(-{4,}|\.{4,}|_{4,}|\+{4,}|\/{4,})$/, close: (m) => new RegExp(`^${escapeRe(m[1]!)}$`), reason: 'fenced', detail: 'inside an AsciiDoc delimited block', needsClose: always },
  { open: /^(:{3,})\s*(?:\{[^}\n]{0,80}\}|[\w-]+)/, close: (m) => new RegExp(`^:{${m[1]!.length},}\\s*$`), reason: 'quoted', detail: 'inside a fenced div (:::)', needsClose: always },
  { open: /^\{%-?\s*(raw|highlight|comment|codeblock|code)\b[^%\n]{0,80}-?%\}/, close: (m) => new RegExp(`\\{%-?\\s*end${m[1]!}\\s*-?%\\}`), reason: 'quoted', detail: 'inside a template raw block' },
  { open: /^\{\{\{\{\s*raw\s*\}\}\}\}/, close: () => /\{\{\{\{\s*\/raw\s*\}\}\}\}/, reason: 'quoted', detail: 'inside a template raw block' },
  { open: /^\{\{[<%]\s*(highlight|code|raw)\b/, close: (m) => new RegExp(`\\{\\{[<%]\\s*\\/${m[1]!}\\s*[>%]\\}\\}`), reason: 'quoted', detail: 'inside a Hugo shortcode block' },
  { open: /^\[(quote|code|noparse|pre)(?:=[^\]\n]{0,80})?\]/i, close: (m) => new RegExp(`\\[\\/${m[1]!}\\]`, 'i'), reason: 'quoted', detail: 'inside a BBCode block' },
  // LaTeX environments that typeset their body verbatim or as a quotation
  { open: /^\\begin\{(lstlisting|verbatim\*?|Verbatim|minted|quote|quotation|comment|alltt|BVerbatim|LVerbatim|tcolorbox)\}/, close: (m) => new RegExp(`^\\\\end\\{${escapeRe(m[1]!)}\\}`), reason: 'fenced', detail: 'inside a LaTeX verbatim or quotation environment' },
  // Jira / Confluence wiki markup: {code}, {code:lang}, {noformat}, {quote}, {panel} blocks
  { open: /^\{(code|noformat|quote|panel)(?::[^}\n]{0,80})?\}/i, close: (m) => new RegExp(`\\{${m[1]!}\\}\\s*$`, 'i'), reason: 'fenced', detail: 'inside a Jira/Confluence wiki block', needsClose: always },
  // block comments of source languages: Ruby `=begin`…`=end`, Perl POD (`=pod`, `=head1`…`=cut`), C/C++ `#if 0`…`#endif`
  { open: /^=begin\b/, close: () => /^=end\b/, reason: 'quoted', detail: 'inside a Ruby block comment (=begin…=end)' },
  { open: /^=(?:pod|head[1-6]|over|item|for)\b/, close: () => /^=cut\b/, reason: 'quoted', detail: 'inside Perl POD documentation' },
  { open: /^\\iffalse\b/, close: () => /^\\fi\b/, reason: 'quoted', detail: 'inside a disabled TeX block (\\iffalse…\\fi)' },
  { open: /^#\s*if\s+(?:0|false)\b/, close: () => /^#\s*endif\b/, reason: 'quoted', detail: 'inside a disabled C preprocessor block (#if 0)' },
  // Textile block quotes, code and preformatted blocks (`bq. `, `bc. `, `pre. `, extended with `..`), to the blank line
  { open: /^(?:bq|bc|pre|notextile)(?:\([^)\n]{0,40}\))?\.\.? /, close: () => /^$/, reason: 'quoted', detail: 'inside a Textile block quote or code block' },
  // a subtitle cue (SubRip .srt, WebVTT: https://www.w3.org/TR/webvtt1/#webvtt-cue-timings): its timing line and text, to the blank line;
  // the timing as lenient players read it (no spaces or tabs around `-->`, fractions of 0 to 3 digits or frames after a colon, one-digit hours)
  { open: /^(?:\d{1,3}:)?\d{1,2}:\d{2}(?:[.,:]\d{1,3})?[ \t]*-->[ \t]*(?:\d{1,3}:)?\d{1,2}:\d{2}(?:[.,:]\d{1,3})?(?:[ \t]|$)/, close: () => /^$/, reason: 'quoted', detail: 'inside a subtitle cue (SRT, WebVTT)' },
  // a YouTube SubViewer (.sbv) cue: `0:00:01.000,0:00:04.000` and its text, to the blank line
  { open: /^\d{1,2}:\d{2}:\d{2}\.\d{3},\d{1,2}:\d{2}:\d{2}\.\d{3}$/, close: () => /^$/, reason: 'quoted', detail: 'inside a subtitle cue (SBV)' },
  // a line of timed lyrics (LRC: `[mm:ss.xx]` and the line's text), to the blank line
  { open: /^\[\d{1,3}:\d{2}\.\d{2,3}\]/, close: () => /^$/, reason: 'quoted', detail: 'inside a line of timed lyrics (LRC)' },
  // an Advanced SubStation Alpha event line (`Dialogue: 0,0:00:01.00,0:00:04.00,…`), a MicroDVD line (`{100}{200}…`), to the blank line
  { open: /^Dialogue: ?\d+,\d{1,2}:\d{2}:\d{2}[.,]\d{2},/i, close: () => /^$/, reason: 'quoted', detail: 'inside a subtitle event (ASS/SSA)' },
  { open: /^\{\d+\}\{\d+\}/, close: () => /^$/, reason: 'quoted', detail: 'inside a subtitle line (MicroDVD)' },
  // a SAMI caption (`<SYNC Start=1000>`), to its end tag or the end of the text
  { open: /^<sync\s+start\s*=/i, close: () => /<\/(?:sync|body|sami)>/i, reason: 'quoted', detail: 'inside a subtitle caption (SAMI)' },
  // a WebVTT file (https://www.w3.org/TR/webvtt1/#file-structure: `WEBVTT` then a space, a tab or a line break): all that follows its header is the file's
  { open: /^\ufeff?WEBVTT(?:[ \t]|$)/, close: () => /(?!)/, reason: 'quoted', detail: 'inside a WebVTT file' },
  // a Markdown comment written as a link reference definition whose title runs over lines: `[//]: # (` … `)`
  { open: /^\[(?:\/\/|comment|#)\]: ?(?:#|<>) ?\($/i, close: () => /^\)$/, reason: 'quoted', detail: 'inside a Markdown comment ([//]: # (…))', needsClose: always },
  { open: /<<[-~]?\s*\\?(['"]?)([A-Za-z_]\w{0,31})\1(?:\s*$|(?=[\s;|&>)]))/, close: (m) => new RegExp(`^${escapeRe(m[2]!)}$`), reason: 'quoted', detail: 'inside a shell here-document',
    // an operator inside a line (`cat <<EOF > notes.txt`) counts only with its closing line
    needsClose: (m, line) => m.index + m[0].length < line.length },
];

/** How far (in lines) the closing delimiter of an AsciiDoc block or a fenced div is looked for. */
const MAX_PAIR_LINES = 400;

/** reST: an explicit markup block (a directive such as `.. code-block::`, or a comment `..`) or a paragraph ended by `::`, and its indented body (reStructuredText Markup Specification, "Literal Blocks", "Directives"). */
const REST_LITERAL = /^\.\.(?: |$)|(?:^|[^:]):: *$/;
/** A YAML block scalar's header (YAML 1.2.2 §8.1: `key: |`, `- key: >-`, `key: |2`): its indented body is a string value. */
const YAML_BLOCK_SCALAR = /^(?:- +)?(?:[\w.-]{1,64}|"[^"\n]{1,64}"|'[^'\n]{1,64}') *: +[|>][1-9]?[+-]?[1-9]? *(?:#[^\n]*)?$/;

/** Blocks of {@link DELIMITERS} and reST literal blocks, outside `skip` (fences and grammar blocks). */
function delimitedBlocks(text: string, lines: Line[], skip: SpanCursor): Region[] {
  const out: Region[] = [];
  for (let n = 0; n < lines.length; n++) {
    const l = lines[n]!;
    if (skip.inside(l.start)) continue;
    const { cols, at } = indentOf(text, l);
    const line = text.slice(at, l.end).trimEnd();
    if (cols <= 3) {
      let found = false;
      for (const d of DELIMITERS) {
        const m = d.open.exec(line);
        if (!m) continue;
        const close = d.close(m);
        // a closing line a block needs is looked for within MAX_PAIR_LINES (a bounded search keeps the pass linear)
        const paired = d.needsClose?.(m, line) ?? false;
        const limit = paired ? Math.min(lines.length, n + 1 + MAX_PAIR_LINES) : lines.length;
        let k = n + 1;
        while (k < limit && !close.test(text.slice(lines[k]!.start, lines[k]!.end).trim())) k++;
        if (k >= limit && paired) continue;
        out.push({ span: [l.start, k < lines.length ? lines[k]!.end : text.length], reason: d.reason, detail: d.detail });
        n = k;
        found = true;
        break;
      }
      if (found) continue;
    }
    const yaml = YAML_BLOCK_SCALAR.test(line);
    if (yaml || REST_LITERAL.test(line)) {
      // the body: the following lines indented deeper than the marker line, blank lines between
      let k = n + 1;
      let end = -1;
      while (k < lines.length) {
        const b = lines[k]!;
        if (isBlank(text, b)) {
          k++;
          continue;
        }
        if (indentOf(text, b).cols <= cols) break;
        end = b.end;
        k++;
      }
      if (end > 0) {
        out.push(yaml ? { span: [l.start, end], reason: 'quoted', detail: 'inside a YAML block scalar (a string value)' } : { span: [l.start, end], reason: 'fenced', detail: 'inside a reStructuredText literal block' });
        n = k - 1;
      }
    }
  }
  return out;
}

/** A GFM table row: starts or ends with `|`, or holds at least two `|`. */
function isTableRow(s: string): boolean {
  const t = s.trim();
  return t.startsWith('|') || t.endsWith('|') || (t.match(/\|/g)?.length ?? 0) >= 2;
}

const DELIMITER_ROW = /^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?$/;

/** A line next to a table row that makes it a table: the delimiter row, or another row. */
function isTableNeighbour(text: string, l: Line | undefined): boolean {
  if (!l) return false;
  const s = text.slice(l.start, l.end).trim();
  return DELIMITER_ROW.test(s) && s.includes('-');
}

/** The index just past the next blank line at or after `from`, or -1. */
function nextParagraphBreak(text: string, from: number): number {
  for (let nl = text.indexOf('\n', from); nl >= 0; nl = text.indexOf('\n', nl + 1)) {
    let k = nl + 1;
    while (k < text.length && (text[k] === ' ' || text[k] === '\t' || text[k] === '\r')) k++;
    if (text[k] === '\n') return k;
  }
  return -1;
}

/**
 * Paired delimiter runs within one paragraph (code spans: backticks of one length; strike-through:
 * `~~`; display math `$$`), outside `skip`. One backward pass pairs each run with the next of the
 * same kind in its paragraph.
 */
function pairedRuns(text: string, ch: string, skip: SpanCursor, exactLength: number | null, reason: Region['reason'], detail: string): Region[] {
  const runs: Array<{ at: number; len: number; para: number }> = [];
  let para = 0;
  let brk = nextParagraphBreak(text, 0);
  for (let i = text.indexOf(ch); i >= 0; ) {
    while (brk >= 0 && brk <= i) {
      para++;
      brk = nextParagraphBreak(text, brk);
    }
    let j = i;
    while (j < text.length && text[j] === ch) j++;
    const len = j - i;
    if (!skip.inside(i) && (exactLength === null || len === exactLength)) runs.push({ at: i, len, para });
    i = text.indexOf(ch, j);
  }
  const next = new Array<number>(runs.length).fill(-1);
  const lastByLen = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    if (k + 1 < runs.length && runs[k + 1]!.para !== runs[k]!.para) lastByLen.clear();
    next[k] = lastByLen.get(runs[k]!.len) ?? -1;
    lastByLen.set(runs[k]!.len, k);
  }
  const out: Region[] = [];
  for (let k = 0; k < runs.length; ) {
    const m = next[k]!;
    if (m < 0) {
      k++;
      continue;
    }
    out.push({ span: [runs[k]!.at, runs[m]!.at + runs[m]!.len], reason, detail });
    k = m + 1;
  }
  return out;
}

/** Pairs of an opening and a closing token on the same paragraph (`\(`…`\)`, `\[`…`\]`). */
function bracketPairs(text: string, open: string, close: string, skip: SpanCursor, detail: string): Region[] {
  const out: Region[] = [];
  for (let i = text.indexOf(open); i >= 0; ) {
    if (skip.inside(i)) {
      i = text.indexOf(open, i + open.length);
      continue;
    }
    const e = text.indexOf(close, i + open.length);
    if (e < 0) break;
    const brk = nextParagraphBreak(text, i);
    if (brk >= 0 && brk < e) {
      i = text.indexOf(open, brk);
      continue;
    }
    out.push({ span: [i, e + close.length], reason: 'quoted', detail });
    i = text.indexOf(open, e + close.length);
  }
  return out;
}

/** Elements whose content a reader sees as code or as a quotation (`pre` is a block, like a fence). */
const QUOTING = new Set(['pre', 'code', 'kbd', 'samp', 'tt', 'var', 'blockquote', 'q', 'cite', 'del', 'strike', 'nowiki', 'syntaxhighlight', 'source', 'figure', 'math', 'svg']);
/**
 * Wrapper elements that prompts and tools use for material from elsewhere (retrieved documents,
 * search results, tool output, untrusted content, examples): markup inside is that material,
 * never the reply's own call. Names only; no template of the families guard reads wraps a call in them.
 */
const MATERIAL = new Set(['document', 'documents', 'search_result', 'search_results', 'untrusted', 'untrusted_content', 'untrusted_input', 'untrusted_text', 'external_content', 'tool_response', 'tool_result', 'tool_output', 'function_results', 'function_result', 'webpage', 'web_page', 'page_content', 'retrieved_context', 'context_document', 'excerpt', 'snippet', 'email', 'transcript', 'example', 'examples', 'sample', 'quote', 'quotation', 'citation', 'attachment', 'file_content']);
/**
 * Wrapper names for material from elsewhere that prose also names as tags (`the <input> field`):
 * markup inside counts as that material only when the element is closed after it. Not `user`:
 * Ollama's Laguna parser reads a call inside `<user>…</user>`, so such markup stays a leak whose
 * calls are inspected (verified-parsers.test.ts, laguna-user-wrapped-not-a-call).
 */
const NAMED_MATERIAL = new Set(['human', 'system', 'user_input', 'user_message', 'input', 'context', 'payload', 'injected', 'injection', 'prompt', 'message']);
/**
 * Elements of XML data documents that hold a value: Apple property lists
 * (https://www.apple.com/DTDs/PropertyList-1.0.dtd: `plist`, `dict`, `array`, `string`) and
 * XML-RPC (`value`, `string`). Markup inside, closed after it, is a document's data, not emitted.
 */
const DATA_VALUE = new Set(['plist', 'dict', 'array', 'string', 'value']);
/**
 * Elements that style what they hold as text for a reader (bold, italics, highlight, small print,
 * super- and subscript, abbreviations, definitions): no template wraps a model's own call in them,
 * so markup inside is shown, not emitted.
 */
const PRESENTATIONAL = new Set(['a', 'b', 'strong', 'i', 'em', 'u', 'mark', 'ins', 'small', 'big', 'sup', 'sub', 'abbr', 'dfn', 'font']);
/** Elements whose content is inert or not rendered as the reply (HTML §4.12, §4.10.11, §4.11.1, obsolete `xmp`). */
const INERT = new Set(['xmp', 'textarea', 'script', 'style', 'template', 'noscript', 'iframe', 'object', 'details', 'listing', 'plaintext', 'noembed', 'noframes', 'title', 'head']);
/**
 * The other elements of the HTML Living Standard (§4, "The elements of HTML", and the obsolete
 * `center`, `marquee`, `blink`, `nobr`) that hold content: markup a reply wraps in one of them, with
 * its end tag after the markup, is laid out as part of a document (an aside, a form's output, a
 * section, a definition), not emitted. Only counted when the element is closed after the markup
 * (an unclosed `<p>` named in prose is not a container), and never `s`: `<s>`…`</s>` are also the
 * begin and end of sequence tokens of Llama and Mistral templates around a raw completion.
 */
const CONTAINER = new Set(['address', 'article', 'aside', 'bdi', 'bdo', 'blink', 'body', 'button', 'canvas', 'caption', 'center', 'data', 'datalist', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'html', 'label', 'legend', 'li', 'main', 'map', 'marquee', 'menu', 'meter', 'nav', 'nobr', 'ol', 'optgroup', 'option', 'output', 'p', 'picture', 'progress', 'rp', 'rt', 'ruby', 'section', 'select', 'slot', 'span', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'ul', 'video', 'audio']);
/** Reasoning written into the visible text (a template's thinking tags). */
const REASONING = new Set(['think', 'thinking', 'reasoning', 'reflection', 'thought']);
/** Attributes that hide an element. */
const HIDDEN_ATTRIBUTES = /(?:^|\s)(?:hidden(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?(?=\s|\/|$)|aria-hidden\s*=\s*["']?true)/i;
const HIDDEN_STYLE = /style\s*=\s*("[^"]*"|'[^']*')/i;
const HIDING_DECLARATION =
  /display\s*:\s*none|visibility\s*:\s*hidden|opacity\s*:\s*0(?:\.0*)?(?![.\d])|font-size\s*:\s*0(?![.\d])|color\s*:\s*transparent|clip-path\s*:\s*inset\(\s*(?:50|100)%|clip\s*:\s*rect\(\s*0|(?:left|top|right|text-indent|margin-left)\s*:\s*-\d{3,}|(?:^|[;"'\s])(?:height|max-height|width|max-width)\s*:\s*0(?![.\d])|color\s*:\s*(?:#fff(?:fff)?|white)\b[^"']{0,80}background(?:-color)?\s*:\s*(?:#fff(?:fff)?|white)\b|background(?:-color)?\s*:\s*(?:#fff(?:fff)?|white)\b[^"']{0,80}[;\s]color\s*:\s*(?:#fff(?:fff)?|white)\b/i;
/** Class names of the common CSS frameworks that hide an element (Bootstrap, Tailwind, WordPress). */
const HIDING_CLASS = /class\s*=\s*["'][^"']*\b(?:hidden|sr-only|visually-hidden|d-none|invisible|screen-reader-text)\b/i;

/** An element's start tag at `i`: its lower-case name, attribute text and the index after `>`. */
function startTag(text: string, i: number): { name: string; attrs: string; end: number } | null {
  let j = i + 1;
  while (j < text.length && j - i <= 32 && /[A-Za-z0-9_]/.test(text[j]!)) j++;
  if (j === i + 1) return null;
  const name = text.slice(i + 1, j).toLowerCase();
  const c = text[j];
  if (c !== '>' && c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r' && c !== '/') return null;
  // "the <pre tag and <tool_call>…": a `<` before the `>` means the tag never closed. The `>` is
  // looked for only up to the next `<`, so each character is stepped over for one tag at most
  // (searching the whole tail made 100 000 unclosed "<code " openers quadratic)
  const lt = text.indexOf('<', j);
  const stop = lt < 0 ? text.length : lt;
  let gt = j;
  while (gt < stop && text[gt] !== '>') gt++;
  work.recoveryScanChars += gt - j;
  if (gt >= stop) return null;
  if (text[gt - 1] === '/') return null;
  return { name, attrs: text.slice(j, gt), end: gt + 1 };
}

/**
 * The end (after `>`) of the matching end tag of `name` from `from`, outside `skip`, or -1.
 * `lower` is `text` lower-cased, once per text (lower-casing it per element made 40 000
 * `<code>a</code>` pairs quadratic: 24 s).
 */
function endTagEnd(text: string, lower: string, name: string, from: number, skip: SpanCursor): number {
  for (let k = lower.indexOf(`</${name}`, from); k >= 0; k = lower.indexOf(`</${name}`, k + 2)) {
    let m = k + 2 + name.length;
    while (m < text.length && /\s/.test(text[m]!)) m++;
    if (text[m] === '>' && !skip.holds(k)) return m + 1;
  }
  return -1;
}

/** Why an element quotes or hides its content, or null. */
function elementQuotes(name: string, attrs: string): { reason: Region['reason']; detail: string; needsClose?: true } | null {
  if (name === 'pre') return { reason: 'fenced', detail: 'inside an HTML <pre> element' };
  if (QUOTING.has(name) || INERT.has(name) || PRESENTATIONAL.has(name)) return { reason: 'quoted', detail: `inside an HTML <${name}> element` };
  if (REASONING.has(name)) return { reason: 'quoted', detail: `inside a <${name}> reasoning block` };
  if (MATERIAL.has(name)) return { reason: 'quoted', detail: `inside a <${name}> element (material from elsewhere)` };
  if (name === 'dialog' && !/(?:^|\s)open\b/i.test(attrs)) return { reason: 'quoted', detail: 'inside a closed HTML <dialog> element' };
  const style = HIDDEN_STYLE.exec(attrs);
  if (HIDDEN_ATTRIBUTES.test(attrs) || HIDING_CLASS.test(attrs) || (style !== null && HIDING_DECLARATION.test(style[1]!))) {
    return { reason: 'quoted', detail: `inside a hidden HTML <${name}> element` };
  }
  if (CONTAINER.has(name)) return { reason: 'quoted', detail: `inside an HTML <${name}> element`, needsClose: true };
  if (NAMED_MATERIAL.has(name)) return { reason: 'quoted', detail: `inside a <${name}> element (material from elsewhere)`, needsClose: true };
  if (DATA_VALUE.has(name)) return { reason: 'quoted', detail: `inside a <${name}> element of an XML data document`, needsClose: true };
  return null;
}

/** HTML regions: quoting, inert, reasoning and hidden elements, and comments, outside `skip`. */
function htmlRegions(text: string, skip: SpanCursor): Region[] {
  const out: Region[] = [];
  let lower: string | null = null;
  // names of container elements with no end tag after some index: none after any later one either
  // (without it, 100 000 unclosed `<p>` would each search the rest of the text)
  const unclosed = new Set<string>();
  for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i + 1)) {
    if (skip.inside(i)) continue;
    if (text.startsWith('<!--', i)) {
      let end: number;
      if (text[i + 4] === '>') end = i + 5;
      else if (text.startsWith('->', i + 4)) end = i + 6;
      else {
        const k = text.indexOf('-->', i + 4);
        end = k < 0 ? text.length : k + 3;
      }
      out.push({ span: [i, end], reason: 'quoted', detail: 'inside an HTML comment' });
      i = end - 1;
      continue;
    }
    if (text.startsWith('<![CDATA[', i)) {
      // XML character data: text shown literally (an unclosed section runs to the end)
      const k = text.indexOf(']]>', i + 9);
      const end = k < 0 ? text.length : k + 3;
      out.push({ span: [i, end], reason: 'quoted', detail: 'inside an XML CDATA section' });
      i = end - 1;
      continue;
    }
    const tag = startTag(text, i);
    if (tag === null) continue;
    // `<s>` opening the text is a template's begin-of-sequence token; anywhere else it strikes its content through
    // (no template writes it after text, so there it runs to its end tag or, when the family's own
    // grammar holds the `</s>` end-of-sequence token, to the end of the text)
    const why = tag.name === 's' ? (text.slice(0, i).trim() === '' ? null : { reason: 'quoted' as const, detail: 'inside an HTML <s> element (struck through)' }) : elementQuotes(tag.name, tag.attrs);
    if (why === null) continue;
    if (lower === null) {
      lower = text.toLowerCase();
      work.recoveryScanChars += text.length;
    }
    if (why.needsClose && unclosed.has(tag.name)) continue;
    const close = endTagEnd(text, lower, tag.name, tag.end, skip);
    // a container element counts only with its end tag (an unclosed `<p>` named in prose holds nothing)
    if (close < 0 && why.needsClose) {
      unclosed.add(tag.name);
      continue;
    }
    const end = close < 0 ? text.length : close;
    const reasoning = REASONING.has(tag.name) ? { reasoningEnd: close < 0 ? text.length : text.lastIndexOf('<', close - 1) } : {};
    out.push({ span: [i, end], reason: why.reason, detail: why.detail, ...reasoning });
    if (close < 0) break;
    i = end - 1;
  }
  // ◁think▷ … ◁/think▷ (Kimi's thinking delimiters)
  for (let i = text.indexOf('◁think▷'); i >= 0; ) {
    if (skip.inside(i)) {
      i = text.indexOf('◁think▷', i + 1);
      continue;
    }
    const e = text.indexOf('◁/think▷', i);
    const end = e < 0 ? text.length : e + '◁/think▷'.length;
    out.push({ span: [i, end], reason: 'quoted', detail: 'inside a ◁think▷ reasoning block', reasoningEnd: e < 0 ? text.length : e });
    if (e < 0) break;
    i = text.indexOf('◁think▷', end);
  }
  return out;
}

/**
 * Every quotation region of a text.
 *
 * @param text the reply's visible text.
 * @param grammar the blocks a family read to their closer ([start, end) String offsets): nothing
 *   inside them opens a region.
 * @returns regions sorted by start; they may overlap (a fence inside a list item).
 */
export function quotationRegions(text: string, grammar: ReadonlyArray<readonly [number, number]>): Region[] {
  const blocks = normaliseSpans(grammar, text.length);
  const lines = linesOf(text);
  const fenced = fences(text, lines, new SpanCursor(blocks));
  const code = normaliseSpans([...blocks, ...fenced.map((r) => r.span)], text.length);
  const inline = pairedRuns(text, '`', new SpanCursor(code), null, 'quoted', 'inside backticks (inline code)');
  const literal = normaliseSpans([...code, ...inline.map((r) => r.span)], text.length);
  const html = htmlRegions(text, new SpanCursor(literal));
  const regions = [
    ...fenced,
    ...inline,
    ...html,
    ...lineBlocks(text, lines, new SpanCursor(code)),
    ...delimitedBlocks(text, lines, new SpanCursor(code)),
    ...pairedRuns(text, '~', new SpanCursor(literal), 2, 'quoted', 'inside strike-through (~~…~~)'),
    ...pairedRuns(text, '*', new SpanCursor(literal), 2, 'quoted', 'inside bold text (**…**)'),
    ...pairedRuns(text, '_', new SpanCursor(literal), 2, 'quoted', 'inside bold text (__…__)'),
    ...pairedRuns(text, '$', new SpanCursor(literal), 2, 'quoted', 'inside display math ($$…$$)'),
    ...bracketPairs(text, '\\[', '\\]', new SpanCursor(literal), 'inside display math (\\[…\\])'),
    ...bracketPairs(text, '\\(', '\\)', new SpanCursor(literal), 'inside inline math (\\(…\\))'),
    ...bracketPairs(text, '{#', '#}', new SpanCursor(literal), 'inside a template comment ({#…#})'),
    ...bracketPairs(text, '{{!--', '--}}', new SpanCursor(literal), 'inside a Handlebars comment ({{!--…--}})'),
    ...bracketPairs(text, '{-', '-}', new SpanCursor(literal), 'inside a Haskell block comment ({-…-})'),
    ...bracketPairs(text, '#|', '|#', new SpanCursor(literal), 'inside a Lisp block comment (#|…|#)'),
    ...bracketPairs(text, '<%--', '--%>', new SpanCursor(literal), 'inside a JSP comment (<%--…--%>)'),
    ...bracketPairs(text, '<#--', '-->', new SpanCursor(literal), 'inside a FreeMarker comment (<#--…-->)'),
    ...pairedRuns(text, '%', new SpanCursor(literal), 2, 'quoted', 'inside a %%…%% comment (Mermaid, MATLAB)'),
  ];
  return regions.sort((a, b) => a.span[0] - b.span[0] || a.span[1] - b.span[1]);
}

/** Precedence of region kinds when several hold the markup: the first in this list is reported. */
const DETAIL_ORDER = ['Markdown fence', 'inline code', 'HTML', 'reasoning', 'block quote', 'indented code', 'list item', 'table', 'heading'];

/**
 * The region that quotes the markup: the first (by {@link DETAIL_ORDER}) of the regions that
 * overlap a markup span, or null. A span that runs to the end of the text (a block no grammar
 * read to its end) counts only where it starts: what follows a cut block is not part of it.
 *
 * @param spans markup spans, sorted and disjoint.
 * @param length the text's length.
 */
export function quotingRegion(spans: readonly Span[], regions: readonly Region[], length: number): Region | null {
  const hits: Region[] = [];
  for (const r of regions) {
    for (const [a, e] of spans) {
      const b = e >= length ? a + 1 : e;
      if (r.span[0] < b && a < r.span[1]) {
        hits.push(r);
        break;
      }
    }
  }
  if (hits.length === 0) return null;
  const rank = (r: Region) => {
    const k = DETAIL_ORDER.findIndex((d) => r.detail.includes(d));
    return k < 0 ? DETAIL_ORDER.length : k;
  };
  return hits.reduce((best, r) => (rank(r) < rank(best) ? r : best));
}
