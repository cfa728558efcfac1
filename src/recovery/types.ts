/**
 * Public types of the recovery engine (pure: no fs, no process, no chalk).
 *
 * Reason codes are guard's recovery contract (docs/recovery.md; the first ones were derived from
 * the steps of CodeAF's `MachineryLeak`, docs/sources.md "Origin: CodeAF's MachineryLeak"), extended
 * with the checks recovery needs. Every verdict names one code, and
 * docs/reason-codes.md documents each with an example.
 */

import type { AdvertisedTool, ToolCall } from '../capture/types.js';

/**
 * Model family (dialect) label of convicted markup: `deepseek-v3`, `deepseek-v3.1`, `dsml-v3.2`,
 * `dsml-v4`, `hermes`, `qwen3-coder`, `functionary-v3.1`, `glm`, `minimax`, `kimi-k2`, `harmony`,
 * `mistral`, `llama`, `llama4`, `granite`; `unknown` is the shape fallback.
 */
export type MarkupFamily = string;

/**
 * Every reason code, in precedence order (the first that applies to a reply decides its verdict;
 * see ./judge.ts). This list is the single source of the codes: the type below, docs/reason-codes.md
 * (checked by test/recovery/reason-codes.test.ts) and the README table follow it.
 */
export const REASON_CODES = [
  /** none: the reply already carries structured tool calls; not a leak, whatever its text says. */
  'structured',
  /** none: the reply has no visible text (and its reasoning holds no markup). */
  'no_text',
  /** none: no tool-call markup in the visible text (and none in the reasoning). */
  'no_tags',
  /** refused (a quotation): the markup sits inside a Markdown fence that is not part of the family's grammar, or an HTML <pre>. */
  'fenced',
  /** refused (a quotation): the markup is inline code, in an HTML <code>/<kbd>/<samp>/<tt> element or comment, in a block quote, framed as an example, or only in reasoning. */
  'quoted',
  /** refused (a quotation): too much prose around the markup (prose ratio above the ceiling). */
  'prose',
  /** refused: complete calls written at the end of the reasoning, with no visible reply after them: the model's call was lost in its thinking. */
  'in_reasoning',
  /** refused: markup-like text of no known family (shape fallback): never recovered by guesswork. */
  'unknown_family',
  /** refused: a generation loop: a token repeated back to back, or more than MAX_RECOVERED_CALLS calls. */
  'degenerate',
  /** refused: narrative text stands between the calls, so which of them the model meant to make is unclear. */
  'interleaved',
  /** refused: the text was cut: it ends inside the envelope, or the reply itself was cut. */
  'truncated',
  /** refused: structure malformed rather than cut: a closer missing before the next opener, junk, mixed dialects, stray tokens. */
  'shape',
  /** refused: the capture does not record the advertised tools and the user supplied none. */
  'no_advertised_tools',
  /** refused: a call names a tool the request did not advertise (one refuses the whole reply). */
  'unadvertised',
  /** refused: a complete envelope whose arguments are not a JSON object, fail typing, or nest too deep. */
  'bad_arguments',
  /** refused: the arguments do not fit the advertised tool's JSON Schema (a missing required property, a wrong type, a property the schema forbids). */
  'schema_mismatch',
  /** recovered: every point of the contract holds. */
  'ok',
] as const;

/** Why a reply was (not) recovered: one of {@link REASON_CODES}. */
export type ReasonCode = (typeof REASON_CODES)[number];

/**
 * The outcome each reason code goes with (`none`: no leaked markup to act on; `refused`: markup
 * not recovered, a leak or, for {@link QUOTATION_REASONS}, a quotation; `recovered`: read back out).
 */
export const REASON_OUTCOME: Readonly<Record<ReasonCode, RecoveryOutcome>> = {
  structured: 'none',
  no_text: 'none',
  no_tags: 'none',
  fenced: 'refused',
  quoted: 'refused',
  prose: 'refused',
  in_reasoning: 'refused',
  unknown_family: 'refused',
  degenerate: 'refused',
  interleaved: 'refused',
  truncated: 'refused',
  shape: 'refused',
  no_advertised_tools: 'refused',
  unadvertised: 'refused',
  bad_arguments: 'refused',
  schema_mismatch: 'refused',
  ok: 'recovered',
};

export type RecoveryOutcome = 'none' | 'recovered' | 'refused';

/**
 * The refusals where guard judged the markup a quotation rather than a leak: `fenced`, `quoted`
 * and `prose` (issue 3, contract point 4). Their outcome is `refused` (the markup stays visible in
 * every report), but they carry no candidates, and by default they do not fail a scan: an assistant
 * explaining `<tool_call>` syntax is not a finding for CI (`--fail-on quoted` makes them fail;
 * src/report/findings.ts gives them level `note`).
 */
export const QUOTATION_REASONS: ReadonlySet<ReasonCode> = new Set<ReasonCode>(['fenced', 'quoted', 'prose']);

/** A call read back out of leaked markup. */
export interface RecoveredCall {
  /** Deterministic id: the same reply yields the same ids; two identical calls get different ids. */
  id: string;
  name: string;
  /** The arguments object, contents and types exactly as the markup gave them. */
  arguments: Record<string, unknown>;
  /** The argument text as it appeared in the markup (JSON text, or the serialised parameters). */
  argumentsRaw: string;
}

/**
 * A call a family parsed out of a reply that was refused: never recovered or handed on as a call,
 * but the markup reached the user as text, and another harness may parse and run it, so
 * src/scan/judge.ts inspects it. Same id scheme as a recovered call (src/recovery/ids.ts).
 */
export interface CandidateCall {
  id: string;
  /** The name as written; '' when the call's own JSON did not parse (Hermes-style call objects). */
  name: string;
  /** The arguments as parsed, or null when they did not parse, did not type, or nest deeper than
   * MAX_ARGUMENT_DEPTH (then `argumentsRaw` is '' for the deep case). */
  arguments: Record<string, unknown> | null;
  /** The argument text as it appeared in the markup (the call's whole JSON when its name is unread). */
  argumentsRaw: string;
  /** Why `arguments` is null, else null. */
  argumentsError: string | null;
}

/** The engine's verdict on one reply. */
export interface RecoveryVerdict {
  outcome: RecoveryOutcome;
  reason: ReasonCode;
  /**
   * The markup family seen, or null when there is none. Set whenever markup was seen, even when
   * nothing is recovered: for `structured` (markup fragments beside structured calls) and for
   * `quoted` markup found only in the reasoning, it names the family of that markup.
   */
  family: MarkupFamily | null;
  /** Prose outside the markup / whole visible text, 0..1; null when there is no markup. */
  proseRatio: number | null;
  /** Recovered calls; empty unless `outcome` is `recovered`. */
  calls: RecoveredCall[];
  /**
   * Calls the family read out of a refused reply's markup (complete calls only; those before a
   * defect when the envelope is broken; at most MAX_RECOVERED_CALLS), for inspection: the markup
   * reached the user as text. Empty unless `outcome` is `refused`, or the markup stands beside
   * structured calls ({@link RecoveryVerdict.besideStructured}); never set for quotations, prose or
   * fenced markup ({@link QUOTATION_REASONS}: not a leak, nothing another harness would run).
   */
  candidates: CandidateCall[];
  /** One human sentence on why, for reports (never includes secrets beyond the tool name). */
  detail: string;
  /** True when leaked markup was found in reasoning text (reported, never recovered). */
  reasoningMarkup?: boolean;
  /**
   * True when a reply with structured tool calls (reason `structured`) also shows tool-call markup
   * in its visible text that is not a quotation: the markup reached the user as text, so it is a
   * finding of its own and its calls are `candidates` (inspected, never dispatched).
   */
  besideStructured?: boolean;
}

/** What the engine needs from a reply. */
export interface RecoveryInput {
  text: string;
  reasoning?: string;
  /** Advertised tools from the capture; null when it does not say. */
  advertised: AdvertisedTool[] | null;
  toolCalls: ToolCall[];
  truncated: boolean;
  /**
   * The reply's occurrence in its transcript, mixed into every call id so identical calls in two
   * replies of one session get different ids (src/verdict/judge.ts passes `${line}:${reply id}`).
   * Must not depend on anything that changes between runs over the same capture.
   */
  idSeed?: string;
  /**
   * Offsets in `text` where one content block ended and the next began, or where a non-text block
   * stood between two text blocks (`Reply.textBreaks`): markup never runs across one.
   */
  breaks?: readonly number[];
}

export interface RecoveryOptions {
  /** Maximum prose ratio (0..1) at which a convicted reply is still recovered. */
  proseCeiling: number;
  /** Tool names supplied by the user (`--tools`), used when the capture has none. */
  tools?: string[] | null;
  /** Most calls one reply may carry (default MAX_RECOVERED_CALLS); more is `degenerate`. */
  maxCalls?: number;
}

/**
 * The most calls recovered from one reply (count). A reply whose markup holds more is refused as
 * `degenerate`: a model repeating a call thousands of times is in a generation loop, not making
 * parallel calls (real parallel calls number in the tens). It also bounds the work of inspecting a
 * reply's calls (candidates are capped at the same number) and of hashing their ids.
 */
export const MAX_RECOVERED_CALLS = 256;

/**
 * The default prose ceiling (ratio 0..1): a convicted reply is recovered only when at most 43% of
 * its non-whitespace text lies outside the call envelopes. Chosen on the labelled corpus
 * (fixtures/corpus, docs/recovery.md "Default ceiling"): leaks measure at most 0.267, quotations at
 * least 0.747; 0.43 is `guard ceiling --suggest`'s bound, one third of the gap above the largest
 * leak, so it sits nearer the leaks (a false refusal loses a turn, a false acceptance runs a call
 * nobody made). `guard ceiling` checks it; test/recovery/ceiling.test.ts pins both corpora.
 */
export const DEFAULT_PROSE_CEILING = 0.43;
