/**
 * guard's recovery engine: judges one reply's visible text for leaked tool-call markup
 * (conviction) and decides whether its calls may be read back out (recovery). Pure: no fs, no
 * process, no console. Formats: see ./families/*.ts, each citing its source; docs/recovery.md.
 * Reason codes: ./types.ts REASON_CODES (the one list), docs/reason-codes.md.
 *
 * Order of judgement — the first rule that applies gives the verdict and its single reason code:
 *
 *  1. `structured` (none)   the reply already carries structured tool calls (the family of any
 *                           markup fragment in its text is still reported).
 *  2. `no_text` (none)      the visible text is blank and the reasoning holds no markup.
 *  3. `no_tags` (none)      no family's markup, no stray family token, no markup-like shape, and
 *                           none in the reasoning either.
 *     `quoted` (refused)    (2–3 with markup in the reasoning) markup only in the reasoning:
 *                           reported with its family, never recovered.
 *  4. `fenced` (refused)    the markup starts inside a Markdown fence (not the family's own)
 *                           or an HTML <pre> element.
 *     `quoted` (refused)    ... inside inline code, an HTML <code>/<kbd>/<samp>/<tt> element or
 *                           comment, a block quote, after an example frame, or
 *                           inside a sentence (prose before and after it on its line).
 *  5. `prose` (refused)     prose ratio above options.proseCeiling: a mention, not a leak.
 *                           These three are QUOTATION_REASONS: refused, but carry no candidates.
 *  6. `unknown_family` (refused)  only the shape fallback fired: never recovered.
 *  7. `degenerate` (refused)      the broken markup repeats a family token back to back, or the
 *                                 markup holds more than MAX_RECOVERED_CALLS calls (a loop).
 *  8. `truncated` (refused)       the text was cut: it ends inside the envelope; also a
 *                                 complete-looking envelope in a cut reply.
 *     `shape` (refused)           malformed structure, the text going on (a closer missing before
 *                                 the next opener, junk inside the envelope, mixed or stray tokens,
 *                                 a dialect no grammar reads, markup holding no call).
 *  9. `no_advertised_tools` (refused)  the capture lists no tools and options.tools is empty.
 * 10. `unadvertised` (refused)    any call names a tool not advertised (one refuses them all).
 * 11. `bad_arguments` (refused)   any call's arguments are not a JSON object / fail typing / nest
 *                                 too deep; a closed block whose JSON does not parse.
 * Every refusal carries `candidates`, the calls its family read (for inspection).
 * 12. `ok` (recovered).
 *
 * Why this order: first decide whether the text is a leak at all (4–5; a quotation is not a
 * conviction), then whether the envelope can be read unambiguously (6–8; names and arguments read
 * from a broken envelope mean nothing), then whether its names may be dispatched (9–10), and only
 * then whether the arguments are usable (11).
 */

import type { AdvertisedTool } from '../capture/types.js';
import { match, shape, type Family, type FamilyCall, type FamilyMatch, type ParseContext } from './family.js';
import { FAMILIES } from './families/index.js';
import { recoveredCallId } from './ids.js';
import { callEnvelopes, narratedMarkupSpans, unreadMarkupPieces } from './envelope.js';
import { isSpaceCode, normaliseSpans, proseRatio } from './prose.js';
import { quotationOf } from './quotation.js';
import { skipWs } from './scan.js';
import { shapeSpans } from './shape.js';
import { markerTokens, tokenFilter } from './triggers.js';
import { MAX_RECOVERED_CALLS, REASON_OUTCOME, type CandidateCall, type ReasonCode, type RecoveredCall, type RecoveryInput, type RecoveryOptions, type RecoveryVerdict } from './types.js';

export { proseRatio } from './prose.js';
export { canonicalJson } from '../base/json.js';
export * from './types.js';

export { FAMILIES } from './families/index.js';

/** Every family's distinctive tokens (for the stray and repetition checks). */
const ALL_MARKERS: ReadonlyArray<{ marker: string; family: string }> = FAMILIES.flatMap((f) => f.markers.map((marker) => ({ marker, family: f.id })));
const ALL_MARKER_TOKENS: readonly string[] = markerTokens(FAMILIES);
/** True when a text holds one of ALL_MARKER_TOKENS (the prefilter, ./triggers.ts). */
const holdsMarker = tokenFilter(ALL_MARKER_TOKENS);

/** The first marker of any family that lies outside `spans`, or null. Linear per marker. */
function strayMarker(text: string, spans: Array<[number, number]>): { at: number; marker: string; family: string } | null {
  const merged = normaliseSpans(spans, text.length);
  const inside = (i: number) => {
    let lo = 0;
    let hi = merged.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [a, b] = merged[mid]!;
      if (i < a) hi = mid - 1;
      else if (i >= b) lo = mid + 1;
      else return true;
    }
    return false;
  };
  let first: { at: number; marker: string; family: string } | null = null;
  for (const { marker, family } of ALL_MARKERS) {
    for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) {
      if (inside(at)) continue;
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
function repeatedMarker(text: string): string | null {
  for (const { marker } of ALL_MARKERS) {
    for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) {
      if (text.startsWith(marker, skipWs(text, at + marker.length))) return marker;
    }
  }
  return null;
}

/** Markup found in a text: the match, plus the spans of the blocks its family read to their closer. */
type Found = FamilyMatch & {
  /** Blocks read completely (opener to closer). Fence and backtick runs inside them are grammar; a
   * block that failed runs to the end of the text and is not among them (./quotation.ts). */
  blocks: Array<[number, number]>;
};

/**
 * Finds and parses the family markup in a text: the family whose markup starts first wins; a
 * known token left outside its blocks makes the match `shape` (stray or mixed markup); known
 * tokens with no readable block make a `shape` match of their family. Returns null when no family
 * token is present.
 */
function findMarkup(text: string, ctx: ParseContext): Found | null {
  // Prefilter (./triggers.ts): without any family's marker no detect fires and no token is stray.
  if (!holdsMarker(text)) return null;
  let best: { family: Family; at: number } | null = null;
  for (const family of FAMILIES) {
    const at = family.detect(text);
    if (at >= 0 && (best === null || at < best.at)) best = { family, at };
  }
  if (best !== null) {
    const parsed = best.family.parse(text, best.at, ctx);
    // A parser that fails pushes its failed block last (from its opener to the end of the text).
    const blocks = parsed.problem === null ? parsed.spans : parsed.spans.slice(0, -1);
    const m = envelopeOf(text, parsed);
    if (m.problem === null) {
      const stray = strayMarker(text, m.spans);
      if (stray !== null) {
        const sm = match(m.family, [...m.spans, [stray.at, stray.at + stray.marker.length]], m.calls,
          shape(`${stray.marker} stands outside the ${m.family} blocks (stray or mixed markup)`));
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
  // last markup word: `<parameter=command=create</parameter>`, `<|tool_call_begin|> functions.f:0
  // {"a": 1} <|tool_call_end|>` and chat-format tokens between messages (`…<|end|><|start|>
  // assistant<|channel|>final<|message|>…`) are all markup, while in "[TOOL_CALLS] marks calls,
  // then the name follows" only the token is.
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
  const narrated = narratedMarkupSpans(text, last[0], ALL_MARKER_TOKENS);
  return narrated === null ? m : { ...m, spans: [...m.spans.slice(0, -1), ...narrated] };
}

/** Advertised names: the capture's list, else the user's `--tools`, else null (unknown). */
function advertisedNames(advertised: AdvertisedTool[] | null | undefined, tools: string[] | null | undefined): Set<string> | null {
  if (Array.isArray(advertised)) return new Set(advertised.map((t) => t.name));
  if (Array.isArray(tools) && tools.length > 0) return new Set(tools);
  return null;
}

/** A verdict; the outcome follows from the reason (types.ts REASON_OUTCOME). */
function verdict(reason: ReasonCode, family: string | null, ratio: number | null, detail: string, calls: RecoveredCall[] = []): RecoveryVerdict {
  return { outcome: REASON_OUTCOME[reason], reason, family, proseRatio: ratio, calls, candidates: [], detail };
}

/** The calls a family read, as candidates of a refused reply (the first `max`), with their ids. */
function candidatesOf(calls: readonly FamilyCall[], seed: string, max: number): CandidateCall[] {
  return calls.slice(0, max).map((c, i) => ({
    id: recoveredCallId(seed, i, c.name, c.arguments, c.argumentsRaw),
    name: c.name,
    arguments: c.arguments,
    argumentsRaw: c.argumentsRaw,
    argumentsError: c.argumentsError,
  }));
}

const NO_SCHEMA: ParseContext = { schemaOf: () => undefined };

/** The family of markup in a text other than the visible text (reasoning, fragments), or null. */
function familyIn(text: string): string | null {
  return text.trim() === '' ? null : (findMarkup(text, NO_SCHEMA)?.family ?? null);
}

function judge(input: RecoveryInput, options: RecoveryOptions, reasoningFamily: string | null): RecoveryVerdict {
  const text = typeof input.text === 'string' ? input.text : '';
  const advertised = Array.isArray(input.advertised) ? input.advertised : null;
  const schemas = new Map((advertised ?? []).map((t) => [t.name, t.schema] as const));
  const ctx: ParseContext = { schemaOf: (name) => schemas.get(name) };
  const names = advertisedNames(advertised, options?.tools);
  const ceiling = typeof options?.proseCeiling === 'number' ? options.proseCeiling : 0;

  if (Array.isArray(input.toolCalls) && input.toolCalls.length > 0) {
    // Not a leak; but a fragment of markup in the text (an opener left beside the structured call,
    // NousResearch/hermes-agent#46537, llama-server qwen3-coder) stays visible through its family.
    const frag = text.trim() === '' ? null : findMarkup(text, ctx);
    const seen = frag === null ? '' : ` (its text holds ${frag.family} markup, not judged as a leak)`;
    return verdict('structured', frag?.family ?? null, frag === null ? null : proseRatio(text, callEnvelopes(text, frag.spans)),
      `the reply carries structured tool calls${seen}`);
  }
  const inReasoning = (what: string) =>
    verdict('quoted', reasoningFamily, null, `${what}; ${reasoningFamily} markup appears only in the reasoning, which is never recovered`);
  if (text.trim() === '') return reasoningFamily !== null ? inReasoning('the visible text is blank') : verdict('no_text', null, null, 'the reply has no visible text');

  let m = findMarkup(text, ctx);
  if (m === null) {
    const spans = shapeSpans(text, names ? [...names] : []);
    if (spans.length > 0) m = { ...match('unknown', spans, []), blocks: [] };
  }
  if (m === null) {
    return reasoningFamily !== null ? inReasoning('no markup in the visible text') : verdict('no_tags', null, null, 'no tool-call markup in the text');
  }

  const ratio = proseRatio(text, callEnvelopes(text, m.spans));
  const quoted = quotationOf(text, m.spans, ALL_MARKER_TOKENS, m.blocks);
  if (quoted !== null) return verdict(quoted.reason, m.family, ratio, `the ${m.family} markup is quoted (${quoted.detail})`);
  if (ratio > ceiling) {
    return verdict('prose', m.family, ratio, `prose ratio ${ratio.toFixed(2)} is above the ceiling ${ceiling}: the markup is mentioned, not emitted`);
  }
  // From here on the reply is a leak: every refusal carries the calls its family read, for inspection.
  const seed = typeof input.idSeed === 'string' ? input.idSeed : '';
  const maxCalls = typeof options?.maxCalls === 'number' && options.maxCalls >= 0 ? Math.floor(options.maxCalls) : MAX_RECOVERED_CALLS;
  const found = m;
  const refuse = (reason: ReasonCode, detail: string): RecoveryVerdict =>
    ({ ...verdict(reason, found.family, ratio, detail), candidates: candidatesOf(found.calls, seed, maxCalls) });
  if (m.family === 'unknown') return refuse('unknown_family', 'markup-like text around an advertised tool name, in no known family');
  if (m.problem !== null || m.calls.length === 0) {
    const loop = repeatedMarker(text);
    if (loop !== null) return refuse('degenerate', `${m.family} markup repeats ${loop} back to back (a generation loop)`);
  }
  if (m.calls.length > maxCalls) {
    return refuse('degenerate', `${m.family} markup holds ${m.calls.length} calls, more than the ${maxCalls} one reply may carry (a generation loop)`);
  }
  if (m.problem !== null) return refuse(m.problem.reason, `${m.family} markup: ${m.problem.detail}`);
  if (input.truncated === true) return refuse('truncated', 'the reply itself was cut off, so more calls may be missing');
  if (m.calls.length === 0) return refuse('shape', `${m.family} markup holds no call`);
  if (names === null) return refuse('no_advertised_tools', 'the capture does not list the advertised tools and none were given');
  // A call whose own JSON does not parse has no name to check: it is bad_arguments below.
  const stranger = m.calls.find((c) => c.nameUnread !== true && !names.has(c.name));
  if (stranger !== undefined) {
    return refuse('unadvertised', `the markup calls "${stranger.name.slice(0, 80)}", which the request did not advertise`);
  }
  const bad = m.calls.find((c) => c.arguments === null);
  if (bad !== undefined) {
    const why = bad.argumentsError ?? 'the arguments are not a JSON object';
    return refuse('bad_arguments', bad.nameUnread === true ? `${m.family} markup: the block is closed, but ${why}` : `arguments of "${bad.name.slice(0, 80)}": ${why}`);
  }
  const calls: RecoveredCall[] = m.calls.map((c, i) => ({
    id: recoveredCallId(seed, i, c.name, c.arguments!),
    name: c.name,
    arguments: c.arguments!,
    argumentsRaw: c.argumentsRaw,
  }));
  const n = calls.length;
  return verdict('ok', m.family, ratio, `${n} ${m.family} call${n === 1 ? '' : 's'} recovered`, calls);
}

/**
 * Judges one reply's visible text: is there leaked tool-call markup (conviction), and may its
 * calls be read back out (recovery)?
 *
 * @param input the reply: visible `text`, `reasoning` (judged apart: `reasoningMarkup` is set when
 *   it holds family markup, and markup found only there gives `quoted` with its family; it is never
 *   recovered into a call), `advertised` tools (null when the capture does not say), structured
 *   `toolCalls`, `truncated`, and `idSeed`, the reply's occurrence in its transcript, for call ids.
 * @param options `proseCeiling` (ratio 0..1; use DEFAULT_PROSE_CEILING) and `tools`, the names
 *   to trust when `advertised` is null.
 * @returns the verdict: outcome none | recovered | refused, one reason code (precedence in the
 *   module header; the list is REASON_CODES), the family seen, the prose ratio 0..1 (null without
 *   visible markup), the calls (only when recovered; arguments exactly as the markup gave them;
 *   ids per ./ids.ts; at most options.maxCalls, default MAX_RECOVERED_CALLS) and, only when
 *   refused, the candidates: the calls the family read, for inspection, never to dispatch.
 * Never throws: an internal failure on some text is reported as refused / `shape`.
 */
export function recoverReply(input: RecoveryInput, options: RecoveryOptions): RecoveryVerdict {
  let reasoningFamily: string | null = null;
  let reasoningUnreadable = false;
  try {
    reasoningFamily = familyIn(typeof input?.reasoning === 'string' ? input.reasoning : '');
  } catch {
    reasoningUnreadable = true;
  }
  let v: RecoveryVerdict;
  try {
    v = judge(input, options, reasoningFamily);
  } catch (e) {
    v = verdict('shape', null, null, `the markup could not be read: ${(e as Error)?.message ?? String(e)}`);
  }
  if (reasoningFamily !== null || reasoningUnreadable) v.reasoningMarkup = true;
  return v;
}
