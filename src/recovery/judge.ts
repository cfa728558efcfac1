/**
 * Pass 4 of recovery: the verdict on one reply, from the markup read (./markup.ts), the
 * quotation regions of its text (./structure.ts), the framing around it (./intent.ts) and the
 * prose ratio (./prose.ts), each computed once.
 *
 * Order of judgement — the first rule that applies gives the verdict and its single reason code:
 *
 *  1. `structured` (none)   the reply already carries structured tool calls; markup in its text is
 *                           still reported with its family, and when it is not a quotation it is
 *                           `besideStructured`, with its calls as candidates.
 *  2. `no_text` (none)      the visible text is blank and the reasoning holds no markup.
 *  3. `no_tags` (none)      no family's markup, no stray family token, no markup-like shape, and
 *                           none in the reasoning either.
 *     `quoted` (refused)    (2–3 with markup in the reasoning) markup only in the reasoning.
 *  4. `fenced` (refused)    the markup lies in a Markdown fence or indented code block (not the
 *                           family's own), or an HTML <pre> element.
 *     `quoted` (refused)    ... in inline code, a block quote, a list item, a table, a heading,
 *                           strike-through, math, quoting, inert, hidden or reasoning HTML, an
 *                           HTML comment, or quotation marks; inside a sentence; or framed by the
 *                           prose around it (a refusal, a negation, an attribution, an example, a
 *                           transcript label, a question).
 *     `shape` (refused)    the model went on past its call in the family's grammar (a tool result
 *                           it wrote itself, a final answer): a leak whatever the prose ratio.
 *     `in_reasoning` (refused) instead of `quoted`: complete calls end the reasoning (a `<think>`
 *                           block closing the reply, or the reasoning of a reply with blank text),
 *                           unframed: the call was lost in the thinking; inspected, never recovered.
 *  5. `prose` (refused)     prose ratio above options.proseCeiling: a mention, not a leak (an
 *                           unframed announcing preface, ./preface.ts, is left out of the ratio).
 *                           These three are QUOTATION_REASONS: refused, but carry no candidates.
 *  6. `unknown_family` (refused)  only the shape fallback fired: never recovered.
 *  7. `degenerate` (refused)      a family token repeated back to back, or more than
 *                                 MAX_RECOVERED_CALLS calls (a generation loop).
 *     `interleaved` (refused)     narrative text between the calls.
 *  8. `truncated` (refused)       the text was cut: it ends inside the envelope; also a
 *                                 complete-looking envelope in a cut reply.
 *     `shape` (refused)           malformed or ambiguous structure (a closer missing before the next
 *                                 opener, junk inside the envelope, mixed or stray tokens, markup
 *                                 across two content blocks, a parameter named twice or with
 *                                 surrounding whitespace, markup holding no call).
 *  9. `no_advertised_tools` (refused)  the capture lists no tools and options.tools is empty.
 * 10. `unadvertised` (refused)    any call names a tool not advertised (one refuses them all).
 * 11. `bad_arguments` (refused)   any call's arguments are not a JSON object / fail typing / nest
 *                                 too deep; a closed block whose JSON does not parse.
 *     `schema_mismatch` (refused) arguments that do not fit the advertised tool's schema.
 * Every refusal from 6 on carries `candidates`, the calls its family read (for inspection).
 * 12. `ok` (recovered).
 *
 * Why this order: first decide whether the text is a leak at all (4–5; a quotation is not a
 * conviction), then whether the envelope can be read unambiguously (6–8; names and arguments read
 * from a broken envelope mean nothing), then whether its names may be dispatched (9–10), and only
 * then whether the arguments are usable (11).
 */

import type { AdvertisedTool } from '../capture/types.js';
import type { FamilyCall, ParseContext } from './family.js';
import { recoveredCallId } from './ids.js';
import { callEnvelopes, inSentence } from './envelope.js';
import { framingOf } from './intent.js';
import { ALL_MARKER_TOKENS, familyMarkup, readMarkup, repeatedMarker, type Reading } from './markup.js';
import { normaliseSpans, proseRatio } from './prose.js';
import { announcingPreface, leadingReasoning } from './preface.js';
import { quotationRegions, quotingRegion, type Region } from './structure.js';
import { markupLines } from './shape.js';
import { schemaMismatch } from './validate.js';
import {
  MAX_RECOVERED_CALLS,
  REASON_OUTCOME,
  type CandidateCall,
  type ReasonCode,
  type RecoveredCall,
  type RecoveryInput,
  type RecoveryOptions,
  type RecoveryVerdict,
} from './types.js';

/** Advertised names: the capture's list, else the user's `--tools`, else null (unknown). */
function advertisedNames(advertised: AdvertisedTool[] | null | undefined, tools: string[] | null | undefined): Set<string> | null {
  if (Array.isArray(advertised)) return new Set(advertised.map((t) => t.name));
  if (Array.isArray(tools) && tools.length > 0) return new Set(tools);
  return null;
}

/** A verdict; the outcome follows from the reason (types.ts REASON_OUTCOME). */
export function verdict(reason: ReasonCode, family: string | null, ratio: number | null, detail: string, calls: RecoveredCall[] = []): RecoveryVerdict {
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

/**
 * Whether the markup of a reading is not the reply's own call: a quotation (`fenced`, `quoted`:
 * a quoting region, a sentence, or framing prose) or calls separated by narrative
 * (`interleaved`), with a short description; null when it is the reply.
 */
export function quotationOf(text: string, m: Reading): { reason: 'fenced' | 'quoted' | 'interleaved'; detail: string; region?: Region } | null {
  const spans = normaliseSpans(m.spans, text.length);
  const region = quotingRegion(spans, quotationRegions(text, m.blocks), text.length);
  if (region !== null) return { reason: region.reason, detail: region.detail, region };
  if (inSentence(text, spans, ALL_MARKER_TOKENS).some(Boolean)) return { reason: 'quoted', detail: 'inside a sentence (prose before and after it on its line)' };
  const callSpans = m.callSpans !== undefined ? normaliseSpans(m.callSpans, text.length) : m.calls.length > 0 ? spans : [];
  // a tool result the model made up after its call ("Observation: the page says …") is not prose
  // framing the call: framing is read only up to it (the continuation refuses the reply `shape`)
  const framed = m.continuedAt !== undefined ? text.slice(0, m.continuedAt) : text;
  return framingOf(framed, spans.filter(([a]) => a < framed.length), callSpans.filter(([a]) => a < framed.length));
}

/**
 * True when the markup is complete calls written last in a reasoning text that ends the reply:
 * nothing but whitespace after the calls up to `end` (the reasoning's end), nothing after the
 * reasoning in the visible text (`after`), and nothing framing them (a draft, a quotation, a
 * refusal in the thinking stays a quotation).
 */
function lostInReasoning(text: string, m: Reading, end: number, after: string): boolean {
  if (m.problem !== null || m.calls.length === 0 || m.family === 'unknown' || after.trim() !== '') return false;
  const spans = normaliseSpans(m.spans, text.length);
  const last = spans[spans.length - 1]!;
  if (last[1] > end || text.slice(last[1], end).trim() !== '') return false;
  const callSpans = m.callSpans !== undefined ? normaliseSpans(m.callSpans, text.length) : spans;
  return framingOf(text.slice(0, end), spans, callSpans) === null;
}

/** True when some markup span runs across a content-block boundary. */
function crossesBreak(spans: ReadonlyArray<readonly [number, number]>, breaks: readonly number[] | undefined): boolean {
  if (!breaks || breaks.length === 0) return false;
  return spans.some(([a, b]) => breaks.some((k) => k > a && k < b));
}

/**
 * Judges one reply (module header).
 *
 * @param input the reply.
 * @param options the ceiling, the user's tools and the call limit.
 * @param reasoningFamily the family of markup found in the reasoning, or null.
 */
export function judgeRecovery(input: RecoveryInput, options: RecoveryOptions, reasoningFamily: string | null): RecoveryVerdict {
  const text = typeof input.text === 'string' ? input.text : '';
  const advertised = Array.isArray(input.advertised) ? input.advertised : null;
  const schemas = new Map((advertised ?? []).map((t) => [t.name, t.schema] as const));
  const ctx: ParseContext = { schemaOf: (name) => schemas.get(name) };
  const names = advertisedNames(advertised, options?.tools);
  const ceiling = typeof options?.proseCeiling === 'number' ? options.proseCeiling : 0;

  if (Array.isArray(input.toolCalls) && input.toolCalls.length > 0) {
    // Not a leak; but a fragment of markup in the text (an opener left beside the structured call,
    // NousResearch/hermes-agent#46537, llama-server qwen3-coder) stays visible through its family.
    const frag = text.trim() === '' ? null : familyMarkup(text, ctx);
    if (frag === null) return verdict('structured', null, null, 'the reply carries structured tool calls');
    const ratio = proseRatio(text, callEnvelopes(text, frag.spans), frag.calls);
    const q = quotationOf(text, frag);
    if (q !== null && q.reason !== 'interleaved') {
      return verdict('structured', frag.family, ratio, `the reply carries structured tool calls (its text quotes ${frag.family} markup: ${q.detail})`);
    }
    // markup beside the structured calls reached the user as text: a finding of its own, its calls inspected
    const seed = typeof input.idSeed === 'string' ? input.idSeed : '';
    const v = verdict('structured', frag.family, ratio, `the reply carries structured tool calls, and its text also holds ${frag.family} markup that reached the user as text`);
    return { ...v, candidates: candidatesOf(frag.calls, seed, MAX_RECOVERED_CALLS), besideStructured: true };
  }
  const seed = typeof input.idSeed === 'string' ? input.idSeed : '';
  const maxCalls = typeof options?.maxCalls === 'number' && options.maxCalls >= 0 ? Math.floor(options.maxCalls) : MAX_RECOVERED_CALLS;
  const inReasoning = (what: string) => {
    const reasoning = typeof input.reasoning === 'string' ? input.reasoning : '';
    const r = text.trim() === '' ? familyMarkup(reasoning, ctx) : null;
    if (r !== null && lostInReasoning(reasoning, r, reasoning.length, '')) {
      return { ...verdict('in_reasoning', r.family, null, `${what}, and the reasoning ends with complete ${r.family} calls: the call was lost in the thinking (never recovered)`), candidates: candidatesOf(r.calls, seed, maxCalls) };
    }
    return verdict('quoted', reasoningFamily, null, `${what}; ${reasoningFamily} markup appears only in the reasoning, which is never recovered`);
  };
  if (text.trim() === '') return reasoningFamily !== null ? inReasoning('the visible text is blank') : verdict('no_text', null, null, 'the reply has no visible text');

  const m = readMarkup(text, ctx, names ? [...names] : null);
  if (m === null) {
    return reasoningFamily !== null ? inReasoning('no markup in the visible text') : verdict('no_tags', null, null, 'no tool-call markup in the text');
  }

  // a reading that can never be recovered (no family, or an envelope its family could not read)
  // found only its tokens: the markup-like lines around them are its envelope too (shape.ts)
  const unreadable = m.family === 'unknown' || m.problem !== null || m.calls.length === 0;
  const envelope = normaliseSpans(callEnvelopes(text, unreadable ? markupLines(text, m.spans) : m.spans), text.length);
  const quoted = quotationOf(text, m);
  // an announcing preface ("I'll check the status first.") is the model introducing its own call:
  // not prose around a quotation, so the ratio leaves it out (only when nothing frames the markup)
  // (enveloped markup only: a bare JSON or pythonic call is recovered only as the whole reply)
  const enveloped = (from: number) => m.family === 'unknown' || ALL_MARKER_TOKENS.some((t) => text.includes(t, from));
  // so is the model's own reasoning before its call, left in the text (leadingReasoning): the
  // preface after it is judged on its own
  const thought = quoted === null && envelope.length > 0 ? leadingReasoning(text, envelope) : 0;
  const firstAfter = Math.max(thought, envelope.find(([, b]) => b > thought)?.[0] ?? 0);
  const announced = quoted === null && envelope.length > 0 ? announcingPreface(text.slice(thought), firstAfter - thought) : 0;
  const preface = thought + (announced > 0 && enveloped(thought + announced) ? announced : 0);
  const ratio = proseRatio(text.slice(preface), envelope.map(([a, b]) => [a - preface, b - preface] as [number, number]), m.calls);
  const refuse = (reason: ReasonCode, detail: string): RecoveryVerdict => ({ ...verdict(reason, m.family, ratio, detail), candidates: candidatesOf(m.calls, seed, maxCalls) });
  if (quoted !== null && quoted.reason !== 'interleaved') {
    const end = quoted.region?.reasoningEnd;
    if (end !== undefined && lostInReasoning(text, m, end, text.slice(quoted.region!.span[1]))) {
      return refuse('in_reasoning', `${m.family} calls end the <think> block that ends the reply: the call was lost in the thinking (never recovered)`);
    }
    return verdict(quoted.reason, m.family, ratio, `the ${m.family} markup is quoted (${quoted.detail})`);
  }
  // a call followed, in the family's grammar, by its made-up result or a final answer is a leak
  // (the model kept writing), whatever prose that answer adds
  if (m.continued !== undefined) return refuse('shape', `${m.family} markup: ${m.continued}`);
  if (ratio > ceiling) {
    return verdict('prose', m.family, ratio, `prose ratio ${ratio.toFixed(2)} is above the ceiling ${ceiling}: the markup is mentioned, not emitted`);
  }
  // From here on the reply is a leak: every refusal carries the calls its family read, for inspection.
  if (m.family === 'unknown') return refuse('unknown_family', 'markup-like text around an advertised tool name, in no known family');
  if (m.problem !== null || m.calls.length === 0) {
    const loop = repeatedMarker(text);
    if (loop !== null) return refuse('degenerate', `${m.family} markup repeats ${loop} back to back (a generation loop)`);
  }
  if (m.calls.length > maxCalls) {
    return refuse('degenerate', `${m.family} markup holds ${m.calls.length} calls, more than the ${maxCalls} one reply may carry (a generation loop)`);
  }
  if (quoted !== null) return refuse('interleaved', `${m.family} markup: ${quoted.detail}`);
  if (crossesBreak(m.spans, input.breaks)) return refuse('shape', `${m.family} markup runs across two content blocks of the reply (or around a non-text block), which no parser joins`);
  if (m.problem !== null) return refuse(m.problem.reason, `${m.family} markup: ${m.problem.detail}`);
  if (input.truncated === true) return refuse('truncated', 'the reply itself was cut off, so more calls may be missing');
  if (m.calls.length === 0) return refuse('shape', `${m.family} markup holds no call`);
  const ambiguous = m.calls.find((c) => c.shapeError !== undefined);
  if (ambiguous !== undefined) return refuse('shape', `${m.family} markup: ${ambiguous.shapeError}`);
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
  for (const c of m.calls) {
    const mismatch = schemaMismatch(c.arguments!, schemas.get(c.name));
    if (mismatch !== null) return refuse('schema_mismatch', `arguments of "${c.name.slice(0, 80)}" do not fit its schema: ${mismatch}`);
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
