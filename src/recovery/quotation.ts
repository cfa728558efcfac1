/**
 * "Is the markup the reply, or a quotation of it?"
 *
 * Markup is a quotation when a markup span starts inside:
 * - a Markdown fenced block (a line indented ≤ 3 spaces opening with ``` or ~~~, closed by a line
 *   with a run of the same character at least as long, or by the end of the text) → `fenced`;
 * - an inline code span (a backtick run closed by the next run of the same length) → `quoted`;
 * - a Markdown block quote (its line starts, after ≤ 3 spaces, with `>`) → `quoted`;
 * - an HTML `<pre>` element → `fenced`; a `<code>`, `<kbd>`, `<samp>` or `<tt>` element, or an HTML
 *   comment `<!-- … -->` (hidden from a reader) → `quoted`; an element or comment never closed runs
 *   to the end of the text (tags inside read blocks, fences and inline code are not HTML);
 * or when the prose just before it frames it as an example ("for example", "e.g.", "like this",
 * "the syntax is", "do not run", …) → `quoted`;
 * or when it sits inside a sentence: prose words before it and after it on its own line, with no
 * backticks (./envelope.ts inSentence) → `quoted`.
 * Fence and backtick runs that lie inside a block a family read to its closer are ignored: DeepSeek
 * V3's ```json and backticks inside argument values belong to the markup, not to Markdown
 * (tool-call-markup.md §C.7). Runs inside markup that no grammar read to its end (a lone opener, a
 * cut or broken block, which runs to the end of the text) are Markdown like any other: in
 * "Use `<tool_call>` tags" the opener's block runs to the end of the text, and ignoring the closing
 * backtick there made the inline code invisible, so the quotation was convicted as a cut leak.
 * An inline code span never crosses a blank line (a paragraph break), as in CommonMark.
 */

import { inSentence } from './envelope.js';
import { normaliseSpans } from './prose.js';

/** Words that frame the following markup as an example; matched in the prose just before it. */
const EXAMPLE_FRAME =
  /\b(?:for example|for instance|e\.g\.|an example|example:|like this|like so|looks like|syntax|such as|do not (?:run|execute|call|use)|don't (?:run|execute|call|use)|never (?:run|execute|call|emit))/i;
/** How many characters of prose before a span are read for an example frame. */
const FRAME_WINDOW = 160;

type Span = [number, number];

/** Index of the span containing i (spans sorted, merged), advancing a cursor; -1 when none. */
class SpanCursor {
  private k = 0;
  constructor(private readonly spans: Span[]) {}
  inside(i: number): boolean {
    while (this.k < this.spans.length && this.spans[this.k]![1] <= i) this.k++;
    return this.k < this.spans.length && this.spans[this.k]![0] <= i;
  }
}

/** Fenced regions [open line start, end of closing line or text end). */
function fencedRegions(text: string, spans: Span[]): Span[] {
  const regions: Span[] = [];
  const cursor = new SpanCursor(spans);
  let open: { start: number; ch: string; len: number } | null = null;
  for (let ls = 0; ls <= text.length; ) {
    const nl = text.indexOf('\n', ls);
    const le = nl < 0 ? text.length : nl;
    let i = ls;
    while (i < le && i - ls < 3 && text[i] === ' ') i++;
    const ch = text[i];
    if ((ch === '`' || ch === '~') && !cursor.inside(i)) {
      let j = i;
      while (j < le && text[j] === ch) j++;
      const len = j - i;
      if (len >= 3) {
        if (open === null) open = { start: ls, ch, len };
        else if (ch === open.ch && len >= open.len && text.slice(j, le).trim() === '') {
          regions.push([open.start, le]);
          open = null;
        }
      }
    }
    if (nl < 0) break;
    ls = nl + 1;
  }
  if (open !== null) regions.push([open.start, text.length]);
  return regions;
}

/** The index just past the next blank line (a line holding only whitespace) at or after `from`, or -1. */
function nextParagraphBreak(text: string, from: number): number {
  for (let nl = text.indexOf('\n', from); nl >= 0; nl = text.indexOf('\n', nl + 1)) {
    let k = nl + 1;
    while (k < text.length && (text[k] === ' ' || text[k] === '\t' || text[k] === '\r')) k++;
    if (text[k] === '\n') return k;
  }
  return -1;
}

/** Inline code regions from backtick runs outside `skip` (read blocks and fences), each within one paragraph. */
function inlineCodeRegions(text: string, skip: Span[]): Span[] {
  const runs: Array<{ at: number; len: number; para: number }> = [];
  const cursor = new SpanCursor(skip);
  let para = 0;
  let brk = nextParagraphBreak(text, 0);
  for (let i = text.indexOf('`'); i >= 0; ) {
    while (brk >= 0 && brk <= i) {
      para++;
      brk = nextParagraphBreak(text, brk);
    }
    let j = i;
    while (j < text.length && text[j] === '`') j++;
    if (!cursor.inside(i)) runs.push({ at: i, len: j - i, para });
    i = text.indexOf('`', j);
  }
  // next[k]: index of the next run with the same length in the same paragraph, by one backward pass.
  const next = new Array<number>(runs.length).fill(-1);
  const lastByLen = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    if (k + 1 < runs.length && runs[k + 1]!.para !== runs[k]!.para) lastByLen.clear();
    next[k] = lastByLen.get(runs[k]!.len) ?? -1;
    lastByLen.set(runs[k]!.len, k);
  }
  const regions: Span[] = [];
  for (let k = 0; k < runs.length; ) {
    const m = next[k]!;
    if (m < 0) { k++; continue; }
    regions.push([runs[k]!.at, runs[m]!.at + runs[m]!.len]);
    k = m + 1;
  }
  return regions;
}

/** HTML elements whose content a reader sees as code, not as the reply's own output
 * (HTML Living Standard §4.4.3 `pre`, §4.5.15 `code`, §4.5.17 `samp`, §4.5.18 `kbd`; `tt` is
 * obsolete but still rendered monospace). `pre` is a block, like a fence; the others are inline. */
const QUOTING_ELEMENTS: readonly string[] = ['code', 'pre', 'kbd', 'samp', 'tt'];

/** A region of the text a reader sees as HTML-quoted: `what` is the element name or `comment`. */
interface HtmlRegion {
  span: Span;
  what: string;
}

const isAsciiSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c;

/** The quoting element whose start tag begins at `i` (`<code>`, `<PRE class="x">`, not
 * `<code_x>`, `<tool_call>` or a self-closing `<tt/>`), with the index after its `>`; else null. */
function quotingStartTag(text: string, i: number, findGt: (from: number) => number): { name: string; end: number } | null {
  let j = i + 1;
  while (j < text.length && j - i <= 5) {
    const c = text.charCodeAt(j) | 0x20;
    if (c < 0x61 || c > 0x7a) break; // a-z, either case
    j++;
  }
  const name = text.slice(i + 1, j).toLowerCase();
  if (!QUOTING_ELEMENTS.includes(name)) return null;
  const c = text.charCodeAt(j);
  if (c !== 0x3e && !isAsciiSpace(c)) return null; // the name must end at `>` or an attribute
  const gt = findGt(j);
  if (gt < 0 || text[gt - 1] === '/') return null;
  // "the <pre tag and <tool_call>…" is no tag: a `<` before the `>` means the tag never closed
  const lt = text.indexOf('<', j);
  if (lt >= 0 && lt < gt) return null;
  return { name, end: gt + 1 };
}

/** True when a quoting element's end tag (`</name>`, `</name >`, any case) begins at `i`. */
function isEndTag(text: string, i: number, name: string): boolean {
  if (text[i + 1] !== '/' || text.slice(i + 2, i + 2 + name.length).toLowerCase() !== name) return false;
  let k = i + 2 + name.length;
  while (k < text.length && isAsciiSpace(text.charCodeAt(k))) k++;
  return text[k] === '>';
}

/**
 * Regions of raw HTML that quote what they hold: comments (`<!-- … -->`, hidden from a reader) and
 * the elements of {@link QUOTING_ELEMENTS}, from the start tag to the matching end tag, or to the
 * end of the text when it never comes (as a browser renders it; as an unclosed fence). Tags inside
 * `skip` (blocks a family read to their closer, Markdown fences, inline code) are text, not HTML:
 * `<pre>` in an argument value belongs to the value. A family's own tags (`<tool_call>`,
 * `<function=…>`, `<｜DSML｜…>`, `<|…|>`) are never quoting element names. One forward pass:
 * every search starts where the previous region ended.
 */
function htmlRegions(text: string, skip: Span[]): HtmlRegion[] {
  const regions: HtmlRegion[] = [];
  // `>` searches memoised: "<code <code <code …" with no `>` would otherwise rescan the tail each time
  let gtFrom = -1;
  let gtAt = -1;
  const findGt = (from: number) => {
    if (gtFrom < 0 || from < gtFrom || (gtAt >= 0 && gtAt < from)) {
      gtFrom = from;
      gtAt = text.indexOf('>', from);
    }
    return gtAt;
  };
  const opens = new SpanCursor(skip);
  const closes = new SpanCursor(skip);
  for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i + 1)) {
    if (opens.inside(i)) continue;
    let end = -1;
    let what: string;
    if (text.startsWith('<!--', i)) {
      what = 'comment';
      // `<!-->` and `<!--->` are empty comments (HTML §13.2.5.43-44)
      if (text[i + 4] === '>') end = i + 5;
      else if (text.startsWith('->', i + 4)) end = i + 6;
      else {
        for (let k = text.indexOf('-->', i + 4); k >= 0; k = text.indexOf('-->', k + 1)) {
          if (!closes.inside(k)) {
            end = k + 3;
            break;
          }
        }
      }
    } else {
      const tag = quotingStartTag(text, i, findGt);
      if (tag === null) continue;
      what = tag.name;
      for (let k = text.indexOf('</', tag.end); k >= 0; k = text.indexOf('</', k + 2)) {
        if (!closes.inside(k) && isEndTag(text, k, tag.name)) {
          end = text.indexOf('>', k) + 1;
          break;
        }
      }
    }
    if (end < 0) {
      regions.push({ span: [i, text.length], what });
      break;
    }
    regions.push({ span: [i, end], what });
    i = end - 1;
  }
  return regions;
}

/** The first region holding the start of some span (spans and regions sorted), or null. */
function regionHoldingStart<R extends { span: Span }>(spans: Span[], regions: R[]): R | null {
  let r = 0;
  for (const [s] of spans) {
    while (r < regions.length && regions[r]!.span[1] <= s) r++;
    if (r < regions.length && regions[r]!.span[0] <= s) return regions[r]!;
  }
  return null;
}

function startsInside(spans: Span[], regions: Span[]): boolean {
  let r = 0;
  for (const [s] of spans) {
    while (r < regions.length && regions[r]![1] <= s) r++;
    if (r < regions.length && regions[r]![0] <= s) return true;
  }
  return false;
}

/** True when the line holding some span's start opens (after ≤ 3 spaces) with `>`: a Markdown
 * block quote. Spans sorted; one forward pass over the text. */
function startsInBlockQuote(text: string, spans: Span[]): boolean {
  let lineStart = 0;
  let nl = text.indexOf('\n');
  for (const [s] of spans) {
    while (nl >= 0 && nl < s) {
      lineStart = nl + 1;
      nl = text.indexOf('\n', nl + 1);
    }
    let k = lineStart;
    while (k < s && k - lineStart < 3 && text[k] === ' ') k++;
    if (k < s && text[k] === '>') return true;
  }
  return false;
}

/** How the markup is quoted: `fenced` (a Markdown fence) or `quoted` (everything else), and how. */
export interface Quotation {
  reason: 'fenced' | 'quoted';
  detail: string;
}

/**
 * Says whether the markup spans are quoted (module header for the rules).
 *
 * @param text the reply's visible text.
 * @param markupSpans [start, end) offsets of the markup (String indices).
 * @param markers every family token: only a span holding one can be quoted inside a sentence.
 * @param blocks the spans of blocks a family read to their closer (default: all of `markupSpans`):
 *   fence and backtick runs inside them are markup, not Markdown; runs anywhere else count.
 * @returns the quotation (`fenced` / `quoted` with a short description), or null.
 */
export function quotationOf(
  text: string,
  markupSpans: Array<[number, number]>,
  markers: readonly string[],
  blocks: Array<[number, number]> = markupSpans,
): Quotation | null {
  const spans = normaliseSpans(markupSpans, text.length);
  if (spans.length === 0) return null;
  const grammar = normaliseSpans(blocks, text.length);
  const fences = fencedRegions(text, grammar);
  if (startsInside(spans, fences)) return { reason: 'fenced', detail: 'inside a Markdown fence' };
  const inline = inlineCodeRegions(text, normaliseSpans([...grammar, ...fences], text.length));
  if (startsInside(spans, inline)) return { reason: 'quoted', detail: 'inside backticks (inline code)' };
  const html = regionHoldingStart(spans, htmlRegions(text, normaliseSpans([...grammar, ...fences, ...inline], text.length)));
  if (html !== null) {
    if (html.what === 'comment') return { reason: 'quoted', detail: 'inside an HTML comment' };
    return { reason: html.what === 'pre' ? 'fenced' : 'quoted', detail: `inside an HTML <${html.what}> element` };
  }
  if (startsInBlockQuote(text, spans)) return { reason: 'quoted', detail: 'inside a Markdown block quote' };
  let prevEnd = 0;
  for (const [s, e] of spans) {
    const window = text.slice(Math.max(prevEnd, s - FRAME_WINDOW), s);
    const m = EXAMPLE_FRAME.exec(window);
    if (m) return { reason: 'quoted', detail: `framed as an example ("${m[0]}")` };
    prevEnd = e;
  }
  if (inSentence(text, spans, markers).some(Boolean)) return { reason: 'quoted', detail: 'inside a sentence (prose before and after it on its line)' };
  return null;
}
