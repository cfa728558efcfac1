/**
 * guard's recovery engine: judges one reply's visible text for leaked tool-call markup
 * (conviction) and decides whether its calls may be read back out (recovery). Pure: no fs, no
 * process, no console. Formats: see ./families/*.ts, each citing its source; docs/recovery.md.
 *
 * Order of judgement — the first rule that applies gives the verdict and its single reason code:
 *
 *  1. `structured` (none)   the reply already carries structured tool calls.
 *  2. `no_text` (none)      the visible text is blank.
 *  3. `no_markup` (none)    no family's markup, no stray family token, no markup-like shape.
 *  4. `quotation` (none)    the markup starts inside a Markdown fence, backticks, or after an
 *                           example frame ("for example", "e.g.", "like this", ...).
 *  5. `prose` (none)        prose ratio above options.proseCeiling: a mention, not a leak.
 *  6. `unknown_family` (refused)  only the shape fallback fired: never recovered.
 *  7. `degenerate` (refused)      malformed or mixed markup, stray tokens, or markup with no call.
 *  8. `truncated` (refused)       the text ends inside the envelope, a closer is missing, or the
 *                                 reply itself was cut (input.truncated).
 *  9. `no_advertised_tools` (refused)  the capture lists no tools and options.tools is empty.
 * 10. `unadvertised` (refused)    any call names a tool not advertised (one refuses them all).
 * 11. `bad_arguments` (refused)   any call's arguments are not a JSON object / fail typing.
 * 12. `ok` (recovered).
 *
 * Why this order: first decide whether the text is a leak at all (4–5; a quotation is not a
 * conviction), then whether the envelope can be read unambiguously (6–8; names and arguments read
 * from a broken envelope mean nothing), then whether its names may be dispatched (9–10), and only
 * then whether the arguments are usable (11).
 */

import type { AdvertisedTool } from '../capture/types.js';
import { degenerate, match, type Family, type FamilyMatch, type ParseContext } from './family.js';
import { deepseek } from './families/deepseek.js';
import { dsml } from './families/dsml.js';
import { glm } from './families/glm.js';
import { granite } from './families/granite.js';
import { harmony } from './families/harmony.js';
import { hermes } from './families/hermes.js';
import { kimi } from './families/kimi.js';
import { llama } from './families/llama.js';
import { minimax } from './families/minimax.js';
import { mistral } from './families/mistral.js';
import { qwen3Coder } from './families/qwen3-coder.js';
import { recoveredCallId } from './ids.js';
import { normaliseSpans, proseRatio } from './prose.js';
import { quotationOf } from './quotation.js';
import { isWs } from './scan.js';
import { shapeSpans } from './shape.js';
import type { ReasonCode, RecoveredCall, RecoveryInput, RecoveryOptions, RecoveryOutcome, RecoveryVerdict } from './types.js';

export { proseRatio } from './prose.js';
export * from './types.js';

/** Every family the engine reads, in tie-break order (when two claim the same offset). */
export const FAMILIES: readonly Family[] = [deepseek, dsml, kimi, harmony, minimax, qwen3Coder, glm, hermes, granite, mistral, llama];

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
  for (const f of FAMILIES) {
    for (const marker of f.markers) {
      for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) {
        if (inside(at)) continue;
        if (first === null || at < first.at) first = { at, marker, family: f.id };
        break;
      }
    }
  }
  return first;
}

/**
 * Finds and parses the family markup in a text: the family whose markup starts first wins; a
 * known token left outside its blocks makes the match degenerate; known tokens with no readable
 * block make a degenerate match of their family. Returns null when no family token is present.
 */
function findMarkup(text: string, ctx: ParseContext): FamilyMatch | null {
  let best: { family: Family; at: number } | null = null;
  for (const family of FAMILIES) {
    const at = family.detect(text);
    if (at >= 0 && (best === null || at < best.at)) best = { family, at };
  }
  if (best !== null) {
    const m = best.family.parse(text, best.at, ctx);
    if (m.problem === null) {
      const stray = strayMarker(text, m.spans);
      if (stray !== null) {
        return match(m.family, [...m.spans, [stray.at, stray.at + stray.marker.length]], m.calls,
          degenerate(`${stray.marker} stands outside the ${m.family} blocks (stray or mixed markup)`));
      }
    }
    return m;
  }
  const stray = strayMarker(text, []);
  if (stray === null) return null;
  // Markup runs from the family's first token to the end of the non-whitespace run glued to its
  // last one: `<parameter=command=create</parameter>` and `<|tool_call_begin|> … <|tool_call_end|>`
  // are all markup, while in "[TOOL_CALLS] marks calls" only the token is.
  let first = text.length;
  let last = 0;
  for (const marker of FAMILIES.find((f) => f.id === stray.family)!.markers) {
    const a = text.indexOf(marker);
    if (a < 0) continue;
    first = Math.min(first, a);
    const z = text.lastIndexOf(marker);
    let end = z + marker.length;
    while (end < text.length && !isWs(text[end])) end++;
    last = Math.max(last, end);
  }
  const spans: Array<[number, number]> = [[first, last]];
  return match(stray.family, spans, [], degenerate(`${stray.marker} with no readable ${stray.family} call`));
}

/** Advertised names: the capture's list, else the user's `--tools`, else null (unknown). */
function advertisedNames(advertised: AdvertisedTool[] | null | undefined, tools: string[] | null | undefined): Set<string> | null {
  if (Array.isArray(advertised)) return new Set(advertised.map((t) => t.name));
  if (Array.isArray(tools) && tools.length > 0) return new Set(tools);
  return null;
}

function verdict(
  outcome: RecoveryOutcome,
  reason: ReasonCode,
  family: string | null,
  ratio: number | null,
  detail: string,
  calls: RecoveredCall[] = [],
): RecoveryVerdict {
  return { outcome, reason, family, proseRatio: ratio, calls, detail };
}

function judge(input: RecoveryInput, options: RecoveryOptions): RecoveryVerdict {
  const text = typeof input.text === 'string' ? input.text : '';
  const advertised = Array.isArray(input.advertised) ? input.advertised : null;
  const schemas = new Map((advertised ?? []).map((t) => [t.name, t.schema] as const));
  const ctx: ParseContext = { schemaOf: (name) => schemas.get(name) };
  const names = advertisedNames(advertised, options?.tools);
  const ceiling = typeof options?.proseCeiling === 'number' ? options.proseCeiling : 0;

  if (Array.isArray(input.toolCalls) && input.toolCalls.length > 0) {
    return verdict('none', 'structured', null, null, 'the reply carries structured tool calls, so its text is not judged');
  }
  if (text.trim() === '') return verdict('none', 'no_text', null, null, 'the reply has no visible text');

  let m = findMarkup(text, ctx);
  if (m === null) {
    const spans = shapeSpans(text, names ? [...names] : []);
    if (spans.length > 0) m = match('unknown', spans, []);
  }
  if (m === null) return verdict('none', 'no_markup', null, null, 'no tool-call markup in the text');

  const ratio = proseRatio(text, m.spans);
  const quoted = quotationOf(text, m.spans);
  if (quoted !== null) return verdict('none', 'quotation', m.family, ratio, `the ${m.family} markup is quoted (${quoted})`);
  if (ratio > ceiling) {
    return verdict('none', 'prose', m.family, ratio, `prose ratio ${ratio.toFixed(2)} is above the ceiling ${ceiling}: the markup is mentioned, not emitted`);
  }
  if (m.family === 'unknown') {
    return verdict('refused', 'unknown_family', 'unknown', ratio, 'markup-like text around an advertised tool name, in no known family');
  }
  if (m.problem !== null) return verdict('refused', m.problem.reason, m.family, ratio, `${m.family} markup: ${m.problem.detail}`);
  if (input.truncated === true) return verdict('refused', 'truncated', m.family, ratio, 'the reply itself was cut off, so more calls may be missing');
  if (m.calls.length === 0) return verdict('refused', 'degenerate', m.family, ratio, `${m.family} markup holds no call`);
  if (names === null) {
    return verdict('refused', 'no_advertised_tools', m.family, ratio, 'the capture does not list the advertised tools and none were given');
  }
  const stranger = m.calls.find((c) => !names.has(c.name));
  if (stranger !== undefined) {
    return verdict('refused', 'unadvertised', m.family, ratio, `the markup calls "${stranger.name.slice(0, 80)}", which the request did not advertise`);
  }
  const bad = m.calls.find((c) => c.arguments === null);
  if (bad !== undefined) {
    return verdict('refused', 'bad_arguments', m.family, ratio, `arguments of "${bad.name}": ${bad.argumentsError ?? 'not a JSON object'}`);
  }
  const seed = typeof input.idSeed === 'string' ? input.idSeed : '';
  const calls: RecoveredCall[] = m.calls.map((c, i) => ({
    id: recoveredCallId(seed, i, c.name, c.argumentsRaw),
    name: c.name,
    arguments: c.arguments!,
    argumentsRaw: c.argumentsRaw,
  }));
  const n = calls.length;
  return verdict('recovered', 'ok', m.family, ratio, `${n} ${m.family} call${n === 1 ? '' : 's'} recovered`, calls);
}

/**
 * Judges one reply's visible text: is there leaked tool-call markup (conviction), and may its
 * calls be read back out (recovery)?
 *
 * @param input the reply: visible `text`, `reasoning` (judged apart: `reasoningMarkup` is set when
 *   it holds family markup; it is never recovered into a call), `advertised` tools (null when the
 *   capture does not say), structured `toolCalls`, `truncated`, and `idSeed` for call ids.
 * @param options `proseCeiling` (ratio 0..1; use DEFAULT_PROSE_CEILING) and `tools`, the names
 *   to trust when `advertised` is null.
 * @returns the verdict: outcome none | recovered | refused, one reason code (precedence in the
 *   module header), the family, the prose ratio 0..1 (null without markup) and the calls (only
 *   when recovered; arguments exactly as the markup gave them).
 * Never throws: an internal failure on some text is reported as refused / `degenerate`.
 */
export function recoverReply(input: RecoveryInput, options: RecoveryOptions): RecoveryVerdict {
  let v: RecoveryVerdict;
  try {
    v = judge(input, options);
  } catch (e) {
    v = verdict('refused', 'degenerate', null, null, `the markup could not be read: ${(e as Error)?.message ?? String(e)}`);
  }
  try {
    const reasoning = typeof input?.reasoning === 'string' ? input.reasoning : '';
    if (reasoning.trim() !== '' && findMarkup(reasoning, { schemaOf: () => undefined }) !== null) v.reasoningMarkup = true;
  } catch {
    v.reasoningMarkup = true;
  }
  return v;
}
