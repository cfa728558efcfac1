/**
 * Public types of the recovery engine (pure: no fs, no process, no chalk).
 *
 * Reason codes follow the proposal in ../shared/research/tool-call-markup.md §A.4, extended with
 * the checks recovery needs. Every refusal names one code; the README lists them all.
 */

import type { AdvertisedTool, ToolCall } from '../capture/types.js';

/**
 * Model family (dialect) label of convicted markup: `deepseek-v3`, `deepseek-v3.1`, `dsml-v3.2`,
 * `dsml-v4`, `hermes`, `qwen3-coder`, `llama3-function`, `glm`, `minimax`, `kimi-k2`, `harmony`,
 * `mistral`, `llama`, `llama4`, `granite`; `unknown` is the shape fallback.
 */
export type MarkupFamily = string;

/** Why a reply was (not) recovered. */
export type ReasonCode =
  /** Recovered: every point of the contract holds. */
  | 'ok'
  /** The reply has no visible text. */
  | 'no_text'
  /* Outcome `none` for no_text, no_markup, structured, quotation, prose; `refused` for the rest. */
  /** No tool-call markup in the text. */
  | 'no_markup'
  /** The reply already carries structured tool calls: not a leak, whatever its text says. */
  | 'structured'
  /** The markup sits inside a Markdown fence, backticks or an "example" frame: a quotation. */
  | 'quotation'
  /** Too much prose around the markup (prose ratio above the ceiling). */
  | 'prose'
  /** A call names a tool the request did not advertise. */
  | 'unadvertised'
  /** The capture does not record the advertised tools and the user supplied none. */
  | 'no_advertised_tools'
  /** Arguments do not parse as a JSON object (or a typed parameter fails). */
  | 'bad_arguments'
  /** The envelope is incomplete: the reply ends inside the markup. */
  | 'truncated'
  /** Markup is malformed or mixes dialects in a way no grammar reads unambiguously. */
  | 'degenerate'
  /** Markup-like text of no known family: reported, never recovered by guesswork. */
  | 'unknown_family';

export type RecoveryOutcome = 'none' | 'recovered' | 'refused';

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

/** The engine's verdict on one reply. */
export interface RecoveryVerdict {
  outcome: RecoveryOutcome;
  reason: ReasonCode;
  /** The markup family convicted, or null when there is no markup. */
  family: MarkupFamily | null;
  /** Prose outside the markup / whole visible text, 0..1; null when there is no markup. */
  proseRatio: number | null;
  /** Recovered calls; empty unless `outcome` is `recovered`. */
  calls: RecoveredCall[];
  /** One human sentence on why, for reports (never includes secrets beyond the tool name). */
  detail: string;
  /** True when leaked markup was found in reasoning text (reported, never recovered). */
  reasoningMarkup?: boolean;
}

/** What the engine needs from a reply. */
export interface RecoveryInput {
  text: string;
  reasoning?: string;
  /** Advertised tools from the capture; null when it does not say. */
  advertised: AdvertisedTool[] | null;
  toolCalls: ToolCall[];
  truncated: boolean;
  /** Seed for deterministic call ids, e.g. `file:line`. */
  idSeed?: string;
}

export interface RecoveryOptions {
  /** Maximum prose ratio (0..1) at which a convicted reply is still recovered. */
  proseCeiling: number;
  /** Tool names supplied by the user (`--tools`), used when the capture has none. */
  tools?: string[] | null;
}

/**
 * The default prose ceiling (ratio 0..1): a convicted reply is recovered only when at most half of
 * its non-whitespace text lies outside the markup. Calibrated on the cases (docs/recovery.md):
 * real leaks measure 0–0.16 (a short preface at most), prose that mentions markup 0.76–0.91.
 * `guard ceiling` checks it against a labelled corpus.
 */
export const DEFAULT_PROSE_CEILING = 0.5;
