/**
 * Pass 3 of recovery: is the markup the reply, or is it framed as something else? The prose
 * around the markup (before it, between its blocks, after it) is read for the framing vocabulary
 * (./framing/): a refusal, a negated instruction, an attribution to someone else, an example, a
 * transcript label, a question. Markup enclosed in quotation marks is a quotation; calls separated
 * by narrative are not one reply's calls. Prefer a refusal when unsure: a false refusal falls back
 * to the cut, a false acceptance dispatches a call nobody made.
 */

import { compressPadding, findFraming, isFramingPadding } from './framing/index.js';
import type { Span } from './structure.js';

/** Characters of prose read on each side of the markup (the nearest to it), counted after framing's normalisation (runs of whitespace one character). */
export const FRAMING_WINDOW = 1000;

/**
 * Where to cut the raw text on one side of the markup so that it holds about twice the framing
 * window in characters that are not padding: the window reads the normalised text, and
 * normalising 64 KiB of ordinary prose per reply cost more than the rest of recovery. Padding
 * (runs of newlines, spaces, invisible characters) is stepped over however long it is, so no
 * amount of it pushes framing out of the window (70 000 newlines after "Do not run this." did,
 * when the raw text read was capped at 64 KiB); {@link sideText} compresses it before it is read.
 * `from` is the markup's edge; `step` -1 reads backwards, +1 forwards; `until` is where to stop
 * at the latest (the text's edge, or the next block).
 */
function rawEdge(text: string, from: number, step: -1 | 1, until = step < 0 ? 0 : text.length): number {
  let seen = 0;
  let k = from;
  const limit = until;
  while (k !== limit && seen < 2 * FRAMING_WINDOW) {
    const c = step < 0 ? text[k - 1]! : text[k]!;
    if (!isFramingPadding(c)) seen++;
    k += step;
  }
  return k;
}

/** The raw text [a, b) as framing reads it: long padding runs compressed ({@link compressPadding}). */
const sideText = (text: string, a: number, b: number): string => compressPadding(text.slice(a, b));

/**
 * Opening quotation marks and the closing marks each may pair with (Unicode Ps/Pi/Pf marks a
 * reader sees as quoting, in the pairings of the languages that use them: German `„…“` and
 * `»…«`, Polish and Hungarian `„…”`, Swedish and Finnish `”…”` and `’…’`, French `«…»`).
 */
const QUOTE_PAIRS: ReadonlyMap<string, string> = new Map([
  ['“', '”'],
  ['‘', '’'],
  ['«', '»'],
  ['‹', '›'],
  ['»', '«»'],
  ['›', '‹›'],
  ['„', '“”'],
  ['‚', '‘’'],
  ['”', '”'],
  ['’', '’'],
  ['「', '」'],
  ['『', '』'],
  ['"', '"'],
  ["'", "'"],
  // full-width and other scripts' quotation marks and title brackets
  ['＂', '＂'],
  ['＇', '＇'],
  ['〝', '〞〟'],
  ['‟', '”'],
  ['｢', '｣'],
  ['《', '》'],
  ['〈', '〉'],
  ['″', '″'],
  ['❝', '❞'],
  ['❛', '❜'],
  ['【', '】'],
  ['〖', '〗'],
]);

/** True when `close` is a closing mark of the opening mark `open` ({@link QUOTE_PAIRS}). */
const closes = (open: string, close: string | undefined): boolean => close !== undefined && close !== '' && (QUOTE_PAIRS.get(open)?.includes(close) ?? false);

/** Emphasis delimiters right around the markup (`*…*`, `_…_`, `==…==` highlight, `++…++` insert): the markup is shown styled, not emitted. */
const EMPHASIS = ['**', '__', '*', '_', '==', '++', '~'];

/** Why the framing refuses the markup. */
export interface Framed {
  /** `quoted`: framed as a quotation; `interleaved`: calls separated by narrative. */
  reason: 'quoted' | 'interleaved';
  detail: string;
}

const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/u.test(c);

/** The index of the first non-space character before `i` (or -1) and after `i` (or length). */
function prevNonSpace(text: string, i: number): number {
  let k = i - 1;
  while (k >= 0 && isSpace(text[k])) k--;
  return k;
}
function nextNonSpace(text: string, i: number): number {
  let k = i;
  while (k < text.length && isSpace(text[k])) k++;
  return k;
}

/** The index of the first character at or after `i` that is neither whitespace nor a string literal's escaped one (`\\n`, `\\r`, `\\t`: the markup as a JSON string's line, `"<tool_call>…\\n"`), or the length. */
function nextNonEscapedSpace(text: string, i: number): number {
  let k = nextNonSpace(text, i);
  while (text[k] === '\\' && /[nrt]/.test(text[k + 1] ?? '')) k = nextNonSpace(text, k + 2);
  return k;
}

/** How far before the markup (characters) an opening quotation mark whose closing mark follows the markup is looked for. */
const QUOTE_LOOKBACK = 300;

/**
 * True when the span is enclosed in a pair of quotation marks: only whitespace between, or the
 * closing mark right after the span and its opening mark earlier in the same paragraph, with no
 * closing mark between (`“Run:\n<tool_call>…</tool_call>”`: a quotation whose first line is a
 * label). For a mark that opens and closes alike (`"`), the opening one must start its line.
 * Escaped whitespace after the span is stepped over, as a string literal holds it.
 */
function enclosedInQuotes(text: string, [a, b]: Span): boolean {
  const p = prevNonSpace(text, a);
  if (p < 0) return false;
  const n = nextNonEscapedSpace(text, b);
  if (n >= text.length) return false;
  const end = text[n]!;
  if (closes(text[p]!, end)) return true;
  for (let k = p; k >= 0 && k >= a - QUOTE_LOOKBACK; k--) {
    const c = text[k]!;
    if (c === '\n' && text[k - 1] === '\n') return false;
    if (c === end && !closes(c, c)) return false;
    if (!closes(c, end)) continue;
    if (end !== c) return true;
    return k === 0 || text[k - 1] === '\n';
  }
  return false;
}

/** The emphasis delimiter right around the span (only whitespace between), or null. */
function enclosedInEmphasis(text: string, [a, b]: Span): string | null {
  const p = prevNonSpace(text, a) + 1;
  const n = nextNonSpace(text, b);
  for (const d of EMPHASIS) {
    if (p >= d.length && text.startsWith(d, p - d.length) && text.startsWith(d, n)) return d;
  }
  return null;
}

/**
 * The end of a data document's key that introduces a value: a JSON member name opening its line
 * or following `{`, `,` or `[` (RFC 8259 §4, `"source": [`, `"text": "`; not `Run "make":`), an
 * element of a JSON array after a string element (a notebook cell's `"source": ["## Title\\n",`),
 * a YAML key with a block scalar indicator (YAML 1.2.2 §8.1, `content: |-`, `run: >`, after a
 * tag or an anchor: `content: !!str |`), or an assignment of a TOML, INI, shell or Python key,
 * bare or opening a string (`body = """`, `body = """\\`, `cmd = r"""`, `payload =`, `PAYLOAD=`), then only spaces and at most one line break before the markup.
 */
const VALUE_KEY = /(?:^|[\n{,[])[ \t]*(?:"(?:[^"\\\n]|\\.){1,200}"|'(?:[^'\\\n]|\\.){1,200}')[ \t]*:[ \t]*[[{"']?[ \t]*\n?[ \t]*$|(?:^|[\n{,[])[ \t]*"(?:[^"\\\n]|\\.){0,200}"[ \t]*,[ \t]*\n?[ \t]*$|(?:^|\n)[ \t]*(?:- )?[\w.-]{1,80}[ \t]*:[ \t]*(?:[!&][^\s]{1,40}[ \t]+){0,2}[|>][+-]?[1-9]?[+-]?[ \t]*\n[ \t]*$|(?:^|\n)[ \t]*[\w.-]{1,80}[ \t]*=[ \t]*(?:[rbfu]{0,2}(?:"""|'''|"|')\\?)?[ \t]*\n?[ \t]*$/;

/** True when the span stands as the value of a key of a JSON or YAML document (a notebook cell's `"source": [`, a YAML `content: |`): data shown, not emitted. */
function valueOfDataKey(text: string, [a]: Span): boolean {
  return VALUE_KEY.test(text.slice(Math.max(0, a - 300), a));
}

/** Brackets that enclose the elements of a data document's array or object (JSON, YAML flow collections, Python literals). */
const COLLECTION_PAIRS: ReadonlyMap<string, string> = new Map([['[', ']'], ['{', '}']]);

/** True when the span is the only thing inside a pair of brackets (`[\n<tool_call>…</tool_call>\n]`): an element of a collection shown as data, not emitted. */
function enclosedInCollection(text: string, [a, b]: Span): boolean {
  const p = prevNonSpace(text, a);
  const n = nextNonSpace(text, b);
  return p >= 0 && n < text.length && COLLECTION_PAIRS.get(text[p]!) === text[n];
}

/** A line that defines a link reference (CommonMark §4.7), anywhere in a reply. */
const DEFINITION_LINE = /(?:^|\n)[ ]{0,3}\[[^\]\n]{1,999}\]:/;

/**
 * True when the span is a Markdown link's text (`[…](url)`, `[…][ref]`, or a shortcut reference
 * `[…]` where the reply defines a link reference, CommonMark §6.3): shown as a link, not emitted.
 */
function enclosedInLinkText(text: string, [a, b]: Span): boolean {
  const p = prevNonSpace(text, a);
  const n = nextNonSpace(text, b);
  if (p < 0 || text[p] !== '[') return false;
  return text.startsWith('](', n) || text.startsWith('][', n) || (text[n] === ']' && DEFINITION_LINE.test(text));
}

/** A Markdown thematic break on a line of its own (CommonMark §4.1): calls on either side of it stand in separate sections. */
const THEMATIC_BREAK = /(?:^|\n)[ ]{0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})(?:\n|$)/;

/** True when the text holds a letter or a digit (a word of narrative). */
const holdsWords = (s: string): boolean => /[\p{L}\p{N}]/u.test(s);

/**
 * Reads the framing of markup.
 *
 * @param text the reply's visible text.
 * @param spans the markup spans, sorted and disjoint (the envelopes of the family's blocks and
 *   their tokens).
 * @param callSpans the spans that hold calls (a subset of `spans`; harmony's analysis and final
 *   messages are markup that holds none).
 * @returns why the markup is not the reply's own call, or null when nothing frames it.
 */
export function framingOf(text: string, spans: readonly Span[], callSpans: readonly Span[]): Framed | null {
  if (spans.length === 0) return null;
  for (const s of spans) {
    if (enclosedInQuotes(text, s)) return { reason: 'quoted', detail: 'inside quotation marks' };
    if (enclosedInLinkText(text, s)) return { reason: 'quoted', detail: 'inside the text of a Markdown link' };
    if (valueOfDataKey(text, s)) return { reason: 'quoted', detail: 'the value of a key of a JSON or YAML document' };
    if (enclosedInCollection(text, s)) return { reason: 'quoted', detail: 'an element of a bracketed collection ([…], {…})' };
    const emphasis = enclosedInEmphasis(text, s);
    if (emphasis !== null) return { reason: 'quoted', detail: `inside Markdown emphasis (${emphasis}…${emphasis})` };
  }
  const first = spans[0]![0];
  const last = spans[spans.length - 1]![1];
  const before = sideText(text, rawEdge(text, first, -1), first);
  const after = sideText(text, last, rawEdge(text, last, 1));
  // a question after markup that holds no call (chat-format tokens around a final answer) frames nothing
  const found = findFraming(before, 'before', FRAMING_WINDOW) ?? findFraming(after, callSpans.length > 0 ? 'after' : 'between', FRAMING_WINDOW, 'start');
  if (found) return { reason: 'quoted', detail: `framed as ${found.framing.entry.says} ("${found.words.slice(0, 60)}")` };
  const callStarts = callSpans.map((s) => s[0]);
  const callEnds = callSpans.map((s) => s[1]);
  for (let k = 0; k + 1 < spans.length; k++) {
    const a = spans[k]![1];
    const b = spans[k + 1]![0];
    if (b <= a) continue;
    const gap = sideText(text, a, rawEdge(text, a, 1, b));
    const divided = THEMATIC_BREAK.test(gap);
    if (!holdsWords(gap) && !divided) continue;
    const framing = findFraming(gap, 'between', 2 * FRAMING_WINDOW, 'start');
    if (framing) return { reason: 'quoted', detail: `framed as ${framing.framing.entry.says} ("${framing.words.slice(0, 60)}")` };
    const callBefore = callEnds.some((e) => e <= a);
    const callAfter = callStarts.some((s) => s >= b);
    if (callBefore && callAfter) {
      return { reason: 'interleaved', detail: divided ? 'a thematic break (---) stands between the calls: they stand in separate sections' : 'narrative text stands between the calls, so which of them the model meant to make is unclear' };
    }
  }
  return null;
}
