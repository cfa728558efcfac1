/**
 * The markup envelope of markup that no family grammar could read to the end.
 *
 * A family parser that reads a block completely knows its envelope exactly: from the opener to the
 * closer, argument values included, whatever they say. When the parse fails (a defect, a stray
 * token, tokens with no readable block), the text from the first token on is not one envelope: a
 * reply that discusses markup interleaves family tokens with sentences ("<tool_call>get_weather
 * then <arg_key>city</arg_key> pairs and </tool_call>"), and counting everything from the first
 * token to the last (or to the end of the text) as markup made such narration measure like a leak.
 *
 * Here the text from `start` is split into words at whitespace, where a double-quoted run on one
 * line (`name="read file"`) stays one word and a JSON object or array stays one piece (even across
 * lines, or to the end of the text when it is cut there). A piece is markup when it holds a family
 * token, is JSON, or is any other non-prose word (`functions.get_weather:0`, `to=functions.x`,
 * `--flag`, `v3`); it is prose when it is a {@link isProseWord plain word}. Whitespace counts for
 * neither (src/recovery/prose.ts), so the markup spans returned are the region minus its prose
 * words. Linear in the text: each marker is found with one `indexOf` pass and every JSON scan
 * either ends where scanning resumes or consumes the rest of the text.
 */

import { isSpaceCode, normaliseSpans } from './prose.js';
import { scanJson } from './scan.js';

/**
 * A word of natural-language prose: letters (with inner apostrophes or hyphens), optionally
 * opened by `(` or a typographic quote and closed by punctuation (`,.;:!?…)` and closing quotes).
 * Digits, underscores, `<>[]{}|=/"` and other symbols make a word markup-like (`get_weather`,
 * `glm45`, `</tool_call>`, `[ARGS]`).
 */
const PROSE_WORD = /^[(“‘]?\p{L}[\p{L}\p{M}'’-]*[)”’,.;:!?…]*$/u;

/** Longer runs of letters are not words of a sentence but generated junk (`MMMM…` after a loop). */
const MAX_PROSE_WORD = 30;

/** True when `word` (no whitespace) is a plain word of prose ({@link PROSE_WORD}, at most
 * {@link MAX_PROSE_WORD} UTF-16 code units). */
export function isProseWord(word: string): boolean {
  return word.length <= MAX_PROSE_WORD && PROSE_WORD.test(word);
}

/** End of the double-quoted run opened at `q` on its line (index past the closing quote), or -1. */
function quotedEnd(text: string, q: number): number {
  for (let j = q + 1; j < text.length; j++) {
    const ch = text[j];
    if (ch === '\\') j++;
    else if (ch === '"') return j + 1;
    else if (ch === '\n') return -1;
  }
  return -1;
}

/** One markup piece of unread markup: its extent, and whether it holds a family token. */
export interface MarkupPiece {
  span: [number, number];
  token: boolean;
}

/**
 * Markup pieces of the text from `start` to its end, for markup no grammar read to the end (module
 * header for the rules).
 *
 * @param text the reply's visible text.
 * @param start String index where the markup region starts (its first family token, or the start
 *   of the non-whitespace run glued to it).
 * @param markers every family token known (any of them inside a word makes the word markup).
 * @returns pieces in text order, disjoint ([start, end) String offsets); the characters of the
 *   region outside them are whitespace or prose words.
 */
export function unreadMarkupPieces(text: string, start: number, markers: readonly string[]): MarkupPiece[] {
  // Token occurrences from `start`, sorted: a word holding one is markup.
  const hits: number[] = [];
  const ends: number[] = [];
  for (const marker of markers) {
    for (let at = text.indexOf(marker, start); at >= 0; at = text.indexOf(marker, at + marker.length)) {
      hits.push(at);
      ends.push(at + marker.length);
    }
  }
  const order = hits.map((_, k) => k).sort((a, b) => hits[a]! - hits[b]!);
  let h = 0;
  const pieces: MarkupPiece[] = [];
  const mark = (a: number, b: number, token: boolean) => {
    const last = pieces[pieces.length - 1];
    if (last !== undefined && last.span[1] >= a) {
      last.span[1] = Math.max(last.span[1], b);
      last.token ||= token;
    } else pieces.push({ span: [a, b], token });
  };
  let i = start;
  while (i < text.length) {
    if (isSpaceCode(text.charCodeAt(i))) { i++; continue; }
    const a = i;
    if (text[i] === '{' || text[i] === '[') {
      const scan = scanJson(text, i);
      if (scan.end < 0) { mark(a, text.length, false); break; } // JSON cut by the end of the text
      mark(a, scan.end, false); // balanced, or up to a mismatched bracket: markup-like either way
      i = scan.end;
      continue;
    }
    // One word: up to whitespace, a double-quoted run on one line kept whole.
    let holdsQuote = false;
    while (h < order.length && ends[order[h]!]! <= a) h++;
    for (let more = true; more; ) {
      while (i < text.length && !isSpaceCode(text.charCodeAt(i))) {
        if (text[i] === '"') {
          holdsQuote = true;
          const q = quotedEnd(text, i);
          i = q < 0 ? i + 1 : q;
        } else i++;
      }
      // a token that holds spaces (`< | DSML | `) and starts in this word runs past its end: the
      // word goes on to the token's end and what is glued to it
      more = false;
      for (let k = h; k < order.length && hits[order[k]!]! < i; k++) {
        if (ends[order[k]!]! > i) {
          i = ends[order[k]!]!;
          more = true;
        }
      }
    }
    const holdsToken = h < order.length && hits[order[h]!]! < i;
    if (holdsToken || holdsQuote || !isProseWord(text.slice(a, i))) {
      // A token followed by JSON inside the same word (`<|tool_call_argument_begin|>{"a": "b c"}`):
      // the JSON is part of the markup even where it holds whitespace.
      const brace = holdsToken ? lastJsonStart(text, a, i, hits, ends, order, h) : -1;
      if (brace >= 0) {
        const scan = scanJson(text, brace);
        if (scan.end < 0) { mark(a, text.length, true); break; }
        if (scan.end > i) i = scan.end;
      }
      mark(a, i, holdsToken);
    }
  }
  return pieces;
}

/**
 * The pieces of unread markup when it is narrated: when some piece holding a family token sits
 * inside a sentence ({@link inSentence}), the markup from `start` is read as words of prose that
 * quote tokens, and its pieces are returned; otherwise null, and the caller keeps the envelope its
 * parser gave (a broken or cut call block, from its opener to the end of the text, all markup).
 *
 * @param text the reply's visible text.
 * @param start where the unread markup starts (String index).
 * @param markers every family token known.
 * @param grammar spans the family read as its own grammar in the failed block
 *   (FamilyMatch.grammarSpans): their words are the grammar's, not prose (LLM-jp-4.1's harmony
 *   headers, `<|channel|> commentary to=functions.x<|message|>`, hold plain words between tokens).
 * @returns the pieces' spans, sorted and disjoint, or null.
 */
export function narratedMarkupSpans(text: string, start: number, markers: readonly string[], grammar: ReadonlyArray<readonly [number, number]> = []): Array<[number, number]> | null {
  const pieces = unreadMarkupPieces(text, start, markers);
  const spans = grammar.length === 0 ? pieces.map((p) => p.span) : normaliseSpans([...pieces.map((p) => p.span), ...grammar], text.length);
  const inline = inSentence(text, spans, markers);
  return inline.some(Boolean) ? spans : null;
}

/** The index of a `{`/`[` right after the last token inside the word [a, i), or -1. */
function lastJsonStart(text: string, a: number, i: number, hits: number[], ends: number[], order: number[], h: number): number {
  let end = -1;
  for (let k = h; k < order.length && hits[order[k]!]! < i; k++) end = Math.max(end, ends[order[k]!]!);
  if (end < a || end >= i) return -1;
  return text[end] === '{' || text[end] === '[' ? end : -1;
}

/**
 * Which markup spans sit inside a sentence: a prose word stands before the span on the same line
 * and another after it on the same line (words read outside every span), and the span is not
 * glued to prose words on both sides (chat-format tokens between two messages, `gluedInText`). Such markup is quoted in
 * the running text ("the template emits <minimax:tool_call>…</minimax:tool_call> and expects the
 * server to parse it"), never a call block of its own: a leaked block starts at the start of the
 * text or of a line, or right after a sentence, and the reply stops or goes on to a new line after
 * it. One forward pass plus one backward pass over the text.
 *
 * @param text the reply's visible text.
 * @param spans markup spans, sorted, disjoint (normaliseSpans of ./prose.ts).
 * @param markers when given, only a span holding one of these family tokens can be inside a
 *   sentence (a quoted word or an identifier in a sentence is not quoted markup).
 * @returns for each span, true when it lies inside a sentence.
 */
export function inSentence(text: string, spans: ReadonlyArray<readonly [number, number]>, markers?: readonly string[]): boolean[] {
  // Line number of each span's start and end, and of each prose word in the gaps, in text order.
  const startLine: number[] = [];
  const endLine: number[] = [];
  const words: Array<{ at: number; line: number }> = [];
  let line = 0;
  let i = 0;
  for (let k = 0; k <= spans.length; k++) {
    const gapEnd = k < spans.length ? spans[k]![0] : text.length;
    while (i < gapEnd) {
      if (isSpaceCode(text.charCodeAt(i))) {
        if (text[i] === '\n') line++;
        i++;
        continue;
      }
      const a = i;
      while (i < gapEnd && !isSpaceCode(text.charCodeAt(i))) i++;
      if (isProseWord(text.slice(a, i))) words.push({ at: a, line });
    }
    if (k === spans.length) break;
    startLine.push(line);
    for (; i < spans[k]![1]; i++) if (text[i] === '\n') line++;
    endLine.push(line);
  }
  // which spans hold a token: searched only once some span has prose on both sides on its lines
  let holds: boolean[] | null = null;
  const holdsAt = (k: number) => markers === undefined || (holds ??= holdsToken(text, spans, markers))[k]!;
  const out = new Array<boolean>(spans.length).fill(false);
  let w = 0;
  let lastBefore = -1; // line of the last prose word before the current span
  for (let k = 0; k < spans.length; k++) {
    while (w < words.length && words[w]!.at < spans[k]![0]) lastBefore = words[w++]!.line;
    const next = words[w];
    out[k] = lastBefore === startLine[k] && next !== undefined && next.line === endLine[k] && holdsAt(k) && !gluedInText(text, spans[k]![0], spans[k]![1]);
  }
  return out;
}

/** For each span (sorted, disjoint), whether a token starts inside it. One indexOf pass per marker. */
function holdsToken(text: string, spans: ReadonlyArray<readonly [number, number]>, markers: readonly string[]): boolean[] {
  const starts: number[] = [];
  for (const marker of markers) {
    for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) starts.push(at);
  }
  starts.sort((a, b) => a - b);
  let h = 0;
  return spans.map(([a, b]) => {
    while (h < starts.length && starts[h]! < a) h++;
    return h < starts.length && starts[h]! < b;
  });
}

const LETTER = /[\p{L}\p{M}'’-]/u;
const CLOSING_PUNCT = /[)”’,.;:!?…]/;
const OPENS_MARKUP = /[<[{|｜]/;
const CLOSES_MARKUP = /[>\]}|｜]/;

/**
 * True when the word around a span starts with a prose word glued to the span's first markup
 * character and ends with a prose word glued to its last (`…reply.<|end|><|start|>assistant
 * <|channel|>final<|message|>Hello`): chat-format tokens written between the messages of the
 * running text, as a template renders them, not markup quoted in a sentence, which stands apart
 * from its words (`emits <minimax:tool_call>… and`) or ends in an identifier (`function<｜tool▁sep｜>get_weather`).
 */
function gluedInText(text: string, s: number, e: number): boolean {
  let ws = s;
  while (ws > 0 && !isSpaceCode(text.charCodeAt(ws - 1))) ws--;
  let we = e;
  while (we < text.length && !isSpaceCode(text.charCodeAt(we))) we++;
  let i = ws;
  while (i < we && LETTER.test(text[i]!)) i++;
  const hasHead = i > ws;
  while (i < we && CLOSING_PUNCT.test(text[i]!)) i++;
  if (!hasHead || i >= we || !OPENS_MARKUP.test(text[i]!)) return false;
  let j = we;
  while (j > ws && CLOSING_PUNCT.test(text[j - 1]!)) j--;
  const k = j;
  while (j > ws && LETTER.test(text[j - 1]!)) j--;
  return j < k && j > ws && CLOSES_MARKUP.test(text[j - 1]!);
}

/**
 * The call envelopes among markup spans: the spans (sorted and merged) less those that sit inside a
 * sentence ({@link inSentence}), whose characters are words of that sentence. The prose ratio is
 * measured over these.
 *
 * @param text the reply's visible text.
 * @param spans markup spans [start, end) in String offsets, any order.
 * @returns the envelopes, sorted and disjoint.
 */
export function callEnvelopes(text: string, spans: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const merged = normaliseSpans(spans, text.length);
  const inline = inSentence(text, merged);
  return merged.filter((_, k) => !inline[k]);
}
