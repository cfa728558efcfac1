/**
 * Pass 1 of recovery: the markup of a reply's text, read once. The families' marker tokens are
 * looked for first (one prefilter over the text, ./triggers.ts); only when one is present does
 * any family's grammar run. Every family that detects its markup parses it, and the one whose
 * grammar reads the text wins (a complete parse with calls, then the earliest start, then the
 * registry's order): on a token several dialects share (`<tool_call>`), the grammar that parses
 * decides the family, for leaks and quotations alike. A family token left outside the winner's
 * blocks makes the reading `shape` (stray or mixed markup); tokens with no readable block are read
 * as narrated or unread markup (./envelope.ts). With no family token, the shape fallback
 * (./shape.ts) may still see markup-like text around an advertised tool name (family `unknown`).
 */

import { match, shape, type Family, type FamilyMatch, type ParseContext } from './family.js';
import { FAMILIES } from './families/index.js';
import { narratedMarkupSpans, unreadMarkupPieces } from './envelope.js';
import { isSpaceCode, normaliseSpans } from './prose.js';
import { skipWs } from './scan.js';
import { shapeSpans } from './shape.js';
import { keyedFilter, markerTokens } from './triggers.js';

/** Every distinct family token once, labelled with the first family (in registry order) that has it:
 * tokens shared by families (`<tool_call>`) are searched once, not once per family. */
const ALL_MARKERS: ReadonlyArray<{ marker: string; family: string }> = (() => {
  const seen = new Set<string>();
  return FAMILIES.flatMap((f) => f.markers.filter((m) => !seen.has(m) && seen.add(m)).map((marker) => ({ marker, family: f.id })));
})();
/** The members of ALL_MARKERS a text may hold (those whose group character it holds). */
const markersIn = keyedFilter(ALL_MARKERS, (m) => m.marker);
/** Every distinct marker token, in family order. */
export const ALL_MARKER_TOKENS: readonly string[] = markerTokens(FAMILIES);
/** The members of ALL_MARKER_TOKENS a text may hold (the prefilter's groups, ./triggers.ts). */
const tokensIn = keyedFilter(ALL_MARKER_TOKENS, (t) => t);
/** The families that also read markup with no marker (`detectBare`), with their registry order. */
const BARE_FAMILIES = FAMILIES.flatMap((family, order) => (family.detectBare ? [{ family, order }] : []));

/** Markup read from a text: the family's match, plus the blocks it read to their closer. */
export interface Reading extends FamilyMatch {
  /** Blocks read completely (opener to closer). Fence and backtick runs inside them are grammar; a
   * block that failed runs to the end of the text and is not among them. */
  blocks: Array<[number, number]>;
}

/** The first marker of any family that lies outside `spans`, or null. Linear per marker. */
function strayMarker(text: string, spans: Array<[number, number]>): { at: number; marker: string; family: string } | null {
  const merged = normaliseSpans(spans, text.length);
  /** The end of the span holding index i, or -1 when no span holds it. */
  const spanEnd = (i: number) => {
    let lo = 0;
    let hi = merged.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [a, b] = merged[mid]!;
      if (i < a) hi = mid - 1;
      else if (i >= b) lo = mid + 1;
      else return b;
    }
    return -1;
  };
  let first: { at: number; marker: string; family: string } | null = null;
  for (const { marker, family } of markersIn(text)) {
    for (let at = text.indexOf(marker); at >= 0; ) {
      if (first !== null && at >= first.at) break; // a later stray one cannot be the first
      const end = spanEnd(at);
      if (end >= 0) {
        at = text.indexOf(marker, Math.max(end, at + 1)); // the rest of this span is markup
        continue;
      }
      if (first === null || at < first.at) first = { at, marker, family };
      break;
    }
  }
  return first;
}

/**
 * The first family token that the text repeats back to back (only whitespace between): no
 * family's grammar ever does that, so it is a generation loop (`degenerate`), e.g. DeepSeek's
 * section opener stuttered (sgl-project/sglang#5224). Linear per marker.
 */
export function repeatedMarker(text: string): string | null {
  for (const { marker } of markersIn(text)) {
    for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) {
      if (text.startsWith(marker, skipWs(text, at + marker.length))) return marker;
    }
  }
  return null;
}

/** The start of the non-whitespace run that holds index `i` (`function<｜tool▁sep｜>` → `f`). */
function runStart(text: string, i: number): number {
  while (i > 0 && !isSpaceCode(text.charCodeAt(i - 1))) i--;
  return i;
}

/**
 * The envelope of a match that failed. A family parser that stops at a defect marks its last block
 * as running to the end of the text: right for a broken or cut call block, but a reply that
 * narrates markup ("<tool_call>get_weather then <arg_key>city</arg_key> pairs and </tool_call>")
 * would count all its sentences as markup. When that block's tokens sit inside sentences, its
 * envelope is re-measured as pieces (./envelope.ts narratedMarkupSpans); complete blocks keep
 * their spans.
 */
function envelopeOf(text: string, m: FamilyMatch): FamilyMatch {
  if (m.problem === null || m.spans.length === 0) return m;
  const last = m.spans[m.spans.length - 1]!;
  if (last[1] < text.length) return m;
  const narrated = narratedMarkupSpans(text, last[0], ALL_MARKER_TOKENS, m.grammarSpans ?? []);
  return narrated === null ? m : { ...m, spans: [...m.spans.slice(0, -1), ...narrated] };
}

/**
 * The match with {@link FamilyMatch.continued} set when one of the family's result tokens
 * ({@link Family.results}) follows the end of its first call's block: the model wrote the tool's
 * answer itself.
 */
function withContinuation(text: string, m: FamilyMatch, family: Family): FamilyMatch {
  if (m.continued !== undefined || !family.results || m.calls.length === 0) return m;
  const firstCall = (m.callSpans ?? m.spans)[0];
  if (firstCall === undefined) return m;
  let at = -1;
  let found = '';
  for (const token of family.results) {
    const k = text.indexOf(token, firstCall[1]);
    if (k >= 0 && (at < 0 || k < at)) {
      at = k;
      found = token.trim();
    }
  }
  return at < 0 ? m : { ...m, continued: `${found} after the call: the model wrote the tool's result itself`, continuedAt: at };
}

/** A family's parse of the text, with where its markup starts. */
interface Parsed {
  family: Family;
  at: number;
  order: number;
  match: FamilyMatch;
}

/** The better of two parses: a complete one with calls, then the earlier start, then the registry's order. */
function better(a: Parsed, b: Parsed): Parsed {
  const good = (p: Parsed) => p.match.problem === null && p.match.calls.length > 0;
  if (good(a) !== good(b)) return good(a) ? a : b;
  if (a.at !== b.at) return a.at < b.at ? a : b;
  return a.order <= b.order ? a : b;
}

/**
 * Reads the family markup of a text (module header).
 *
 * @param text the reply's visible text.
 * @param ctx what the parsers may ask about the request (tool schemas).
 * @param names the advertised tool names (for the shape fallback), or null.
 * @returns the reading, or null when the text holds no markup at all.
 */
export function readMarkup(text: string, ctx: ParseContext, names: readonly string[] | null): Reading | null {
  const found = familyMarkup(text, ctx);
  if (found !== null) return found;
  const spans = shapeSpans(text, names ?? []);
  if (spans.length > 0) return { ...match('unknown', spans, []), blocks: [] };
  // two or more (one alone at the end is a reply cut at its first token, which a stream may show)
  const fragments = fragmentLines(text);
  return fragments.length > 1 ? { ...match('unknown', fragments, [], shape('tool-call tag fragments with no call')), blocks: [] } : null;
}

/** A line that is nothing but the opening of a tool-call tag: `<function`, `<tool_call`, `</invoke>`. */
const FRAGMENT_LINE = /^[ \t]*<\/?(?:function|function_calls?|tool_calls?|tool_use|invoke|parameter)(?:[ \t]*>|=[^\s<>]*>?)?[ \t]*$/gm;

/**
 * The lines of a text that hold only a tool-call tag's opening (a generation that stopped at its
 * first token, block/goose#9662's two bare `<function` lines): markup no family reads. Linear.
 */
export function fragmentLines(text: string): Array<[number, number]> {
  if (!text.includes('<')) return [];
  const out: Array<[number, number]> = [];
  for (const m of text.matchAll(FRAGMENT_LINE)) if (m[0].trim() !== '') out.push([m.index, m.index + m[0].length]);
  return out;
}

/**
 * A bare reading (no marker) with the next run of the same family's markup after it joined: a
 * bare family reads one run of consecutive calls, so a call written after prose that follows the
 * run (`{…}\n{…}\nQuoted from the ticket:\n{…}`) was left in the prose, unread, and the first run
 * recovered. Joined, the prose between the runs is read by the intent pass (framing, narrative
 * between calls). One more run is enough: the prose between the two runs already decides.
 */
function withLaterBareRun(text: string, best: Parsed, ctx: ParseContext): Parsed {
  const m = best.match;
  if (!best.family.detectBare || m.problem !== null || m.spans.length === 0) return best;
  const end = m.spans[m.spans.length - 1]![1];
  if (end >= text.length) return best;
  const rest = text.slice(end);
  const at = best.family.detectBare(rest, rest.length);
  if (at < 0) return best;
  const next = best.family.parse(text, end + at, ctx);
  if (next.problem !== null || next.calls.length === 0 || next.spans.length === 0 || next.spans[0]![0] < end) return best;
  return { ...best, match: { ...m, spans: [...m.spans, ...next.spans], calls: [...m.calls, ...next.calls] } };
}

/** The family markup of a text (no shape fallback), or null when no family token is present. */
export function familyMarkup(text: string, ctx: ParseContext): Reading | null {
  const tokens = tokensIn(text).filter((t) => text.includes(t));
  const marked = tokens.length > 0;
  let best: Parsed | null = null;
  const consider = (family: Family, at: number, order: number) => {
    const parsed: Parsed = { family, at, order, match: family.parse(text, at, ctx) };
    best = best === null ? parsed : better(best, parsed);
  };
  // Markup read without a marker (a bare JSON call, a pythonic list) counts only before the first
  // family token and the first markup a family detects: a token claims the text from it on, so JSON
  // inside a family's envelope, or after its stray opener, is never read bare.
  let firstMarked = text.length;
  if (marked) {
    for (const t of tokens) {
      // only an occurrence before the earliest one found so far matters: search no further
      const at = (firstMarked >= text.length ? text : text.substring(0, firstMarked + t.length - 1)).indexOf(t);
      if (at >= 0 && at < firstMarked) firstMarked = at;
    }
    FAMILIES.forEach((family, order) => {
      const at = family.detect(text);
      if (at < 0) return;
      firstMarked = Math.min(firstMarked, at);
      consider(family, at, order);
    });
  }
  if (firstMarked > 0) {
    for (const { family, order } of BARE_FAMILIES) {
      const at = family.detectBare!(text, firstMarked);
      if (at >= 0 && at < firstMarked) consider(family, at, order);
    }
  }
  if (best === null && !marked) return null;
  if (best !== null && !marked) best = withLaterBareRun(text, best, ctx);
  if (best !== null) {
    const parsed = (best as Parsed).match;
    // A parser that fails pushes its failed block last (from its opener to the end of the text);
    // its own tokens in it may still be grammar (FamilyMatch.grammarSpans).
    const blocks = parsed.problem === null ? parsed.spans : [...parsed.spans.slice(0, -1), ...(parsed.grammarSpans ?? [])];
    const m = withContinuation(text, envelopeOf(text, parsed), (best as Parsed).family);
    if (m.problem === null) {
      const stray = strayMarker(text, m.spans);
      if (stray !== null) {
        const sm = match(m.family, [...m.spans, [stray.at, stray.at + stray.marker.length]], m.calls, shape(`${stray.marker} stands outside the ${m.family} blocks (stray or mixed markup)`));
        return { ...sm, blocks };
      }
    }
    return { ...m, blocks };
  }
  const stray = strayMarker(text, []);
  if (stray === null) return null;
  // Tokens with no readable block. Narrated (a token inside a sentence): the markup is the words
  // holding tokens, JSON and other non-prose words, and the sentences between them are prose
  // (./envelope.ts). Otherwise one envelope runs from the word of the first token to the end of the
  // last markup word.
  const from = runStart(text, stray.at);
  const narrated = narratedMarkupSpans(text, from, ALL_MARKER_TOKENS);
  let spans: Array<[number, number]>;
  if (narrated !== null) spans = narrated;
  else {
    const pieces = unreadMarkupPieces(text, from, ALL_MARKER_TOKENS);
    spans = [[from, pieces.length === 0 ? from : pieces[pieces.length - 1]!.span[1]]];
  }
  return { ...match(stray.family, spans, [], shape(`${stray.marker} with no readable ${stray.family} call`)), blocks: [] };
}
