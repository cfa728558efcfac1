/**
 * Public types of the streaming replay (pure: no fs, no process). See docs/replay.md.
 */

import type { StreamApi } from '../capture/streams/index.js';
import type { CaptureErrorCode, ToolCallKind } from '../capture/types.js';
import type { RuleSet } from '../inspection/ruleset.js';
import type { InspectionMode } from '../inspection/types.js';
import type { RuleHitRecord } from '../verdict/hit-record.js';
import type { ReasonCode, RecoveryOptions } from '../recovery/types.js';
import type { SseFrame } from './frames.js';

/** What the replay needs: the engines' settings, as `resolveEngines` builds them for scan. */
export interface ReplayOptions {
  recovery: RecoveryOptions;
  ruleSet: Pick<RuleSet, 'rules'>;
  /** `enforce` cuts the stream at a blocked call and ends a refused leak with an error frame;
   * `observe` passes both through and reports them; `off` skips inspection. */
  mode: InspectionMode;
  /** The stream's API when known; otherwise sniffed from the first recognisable payload. */
  api?: StreamApi;
  /**
   * Most visible text (UTF-16 code units) held back for one reply once markup has started
   * (default {@link DEFAULT_MAX_HOLD_CHARS}). Past it the reply is no longer held: observe
   * releases what was held, enforce ends the turn (reason `hold_limit`).
   */
  maxHoldChars?: number;
}

/** Default cap on held text per reply: 1 MiB of UTF-16 code units. */
export const DEFAULT_MAX_HOLD_CHARS = 1024 * 1024;

/** A call as it appears in decisions. */
export interface DecisionCall {
  id: string | null;
  name: string;
}

/**
 * One decision of the replay, written as one NDJSON record (keys snake_case, as every guard output;
 * schema/replay-decision.schema.json). `line` is the 1-based input line of
 * the frame that led to it (for a recovery: where the held text began).
 */
export type ReplayDecision =
  /** Held text was leaked markup and its calls were recovered: emitted as tool-call frames. */
  | { type: 'recovered'; line: number; family: string | null; calls: DecisionCall[]; held_chars: number; held_frames: number; detail: string }
  /** Held text turned out not to be a leak (prose, quotation...): emitted unchanged. */
  | { type: 'released'; line: number; reason: ReasonCode; family: string | null; held_chars: number; held_frames: number }
  /** A leak that is not recovered. `passed`: the text went out as it came (observe/off);
   * `ended`: the turn ended with the format's error frame (enforce). */
  | { type: 'refused'; line: number; reason: ReasonCode | 'hold_limit'; family: string | null; detail: string; action: 'passed' | 'ended' }
  /** A rule hit on a call (structured, or recovered by this replay). */
  | ({ type: 'hit'; line: number; origin: 'structured' | 'recovered' } & RuleHitRecord)
  /** The stream was cut: an error frame replaced the frame at `line` and nothing after it went out. */
  | { type: 'cut'; line: number; cause: 'block' | 'refused'; code: string; message: string }
  /** An input problem (bad JSON in a data field, a stream cut short...). */
  | { type: 'problem'; line: number | null; code: CaptureErrorCode; severity: 'error' | 'warning'; message: string }
  /** Totals, once at the end. Held amounts are maxima over the whole input. */
  | {
      type: 'summary';
      api: StreamApi | null;
      frames_in: number;
      frames_out: number;
      replies: number;
      recovered: number;
      refused: number;
      hits: number;
      cut: boolean;
      /** Largest amount of visible text held back at any moment (UTF-16 code units). */
      max_held_chars: number;
      /** Largest number of input frames held back (wholly or in part) at any moment. */
      max_held_frames: number;
    };

/** What the replay yields, in order: frames to send, and decisions. */
export type ReplayItem = { kind: 'frame'; frame: SseFrame } | { kind: 'decision'; decision: ReplayDecision };

/** A frame with its decoded payload ('[DONE]' as a string, undefined when it has no data). */
export interface Framed {
  frame: SseFrame;
  payload: unknown;
}

/** A change to a structured call that one frame carries (the emission side's bookkeeping). */
export type CallUpdate =
  | {
      /** Identifies the call within the reply (choice:index, block index, output index). */
      key: string;
      id?: string | undefined;
      /** The name, or a piece of it: joined with the name so far, a repeat kept once (`continueName`). */
      name?: string | undefined;
      kind?: ToolCallKind;
      /** Argument text appended. */
      delta?: string;
      /** The complete argument value (a string as captured, or a decoded object). */
      full?: unknown;
      /** The call is over with this frame. */
      end?: boolean;
    }
  /** Every open call of the reply (or of one Chat choice) is over. */
  | { endAll: true; choice?: number };

/** What a format adapter needs to rebuild the end of a reply whose held text was recovered. */
export interface RecoveredTailInput {
  held: Framed[];
  /** Text outside the markup, after the hold point ('' when none). */
  prose: string;
  /** The reply's visible text after recovery: what went out before the hold, plus `prose`. */
  visibleText: string;
  calls: Array<{ id: string; name: string; argumentsRaw: string }>;
}

/**
 * One streaming API's wire details (the SDK stream types in docs/sources.md "API bodies and
 * streams"): where visible text is, how to rewrite it, which frames end a text run, how calls move,
 * and the frames guard makes.
 */
export interface FormatAdapter {
  /** Arrival bookkeeping (ids, indexes, sequence numbers) for frames the adapter will make. */
  note(payload: unknown): void;
  /** The visible text this frame adds to the reply, or null when it is not a text delta. */
  textOf(payload: unknown): string | null;
  /** The frame with its visible text replaced (event name and id kept). */
  withText(f: Framed, text: string): Framed;
  /** A text delta made from the template frame `f` (for held text let go before a non-text frame). */
  textFrame(f: Framed, text: string): Framed;
  /** True when the frame ends a run of text deltas (text cannot continue across it). */
  endsText(payload: unknown): boolean;
  /** The frames replacing the held tail of a reply whose leaked calls were recovered. */
  recoveredTail(input: RecoveredTailInput): Framed[];
  /** The frames ending the turn with an error: the format's error event and its terminator. */
  errorTail(code: string, message: string): Framed[];
  /** The call changes a frame carries. */
  callUpdates(payload: unknown): CallUpdate[];
  /** A new reply starts (after one ended). */
  reset(): void;
}
