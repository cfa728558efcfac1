/**
 * The streaming replay: an SSE stream in, the stream a client would receive with guard in the
 * path out. Pure: no fs, no process; one event at a time, holding back only what it must.
 *
 * Recovery on the stream (as streaming tool parsers do: sglang's `_ends_with_partial_token`, vLLM's
 * Hermes parser; docs/sources.md "Streaming hold-back"): visible text that may begin family markup
 * is held back. A proper prefix of a token at the end of the text so far (`"<tool_"`) is held until
 * the next text decides it; a whole token starts a hold of the rest of the reply, which is judged
 * by the recovery engine once the reply ends (the verdict needs the whole text: prose ratio,
 * quotation, truncation). A recovered reply's held tail is rebuilt with the calls as the format's
 * own tool-call frames; a reply that is not a leak gets its held frames back unchanged; a refused
 * leak passes as it came (observe, off) or ends the turn with the format's error frame (enforce).
 *
 * Inspection on the stream: every frame that goes out, made by guard or passed through, is
 * checked for the tool calls it moves. When a frame would complete a call's arguments (they parse
 * as a JSON object, or the call ends) the call is inspected; under enforce a `block` verdict cuts
 * the stream there: the frame is replaced by the format's error frame and terminator and nothing
 * after it goes out.
 */

import { jsonErrorMessage } from '../base/json.js';
import { continueName, isObject } from '../capture/streams/common.js';
import { createStreamAccumulator, SSE_FORMAT, sniffStreamPayload, type StreamAccumulator, type StreamApi } from '../capture/streams/index.js';
import { makeToolCall, parseArguments } from '../capture/toolcall.js';
import type { CaptureError, Reply, ToolCallKind } from '../capture/types.js';
import { inspectCalls } from '../inspection/engine.js';
import type { RuleHit } from '../inspection/types.js';
import { ruleHitRecord } from '../verdict/hit-record.js';
import { recoverFromReply } from '../verdict/judge.js';
import type { RecoveryVerdict } from '../recovery/types.js';
import { markupSpans, markupStart } from '../recovery/prefix.js';
import { QUOTATION_REASONS } from '../recovery/types.js';
import type { SseFrame } from './frames.js';
import { createAnthropicAdapter } from './formats/anthropic.js';
import { createChatAdapter } from './formats/openai-chat.js';
import { createResponsesAdapter } from './formats/responses.js';
import { DEFAULT_MAX_HOLD_CHARS, type FormatAdapter, type Framed, type ReplayDecision, type ReplayItem, type ReplayOptions } from './types.js';

/** A structured call being streamed (emission side). */
interface OpenCall {
  key: string;
  id: string | null;
  name: string;
  kind: ToolCallKind;
  args: string;
  /** The argument text last inspected (null: never). */
  inspected: string | null;
  /** Rule ids already reported for this call. */
  rules: Set<string>;
}

const ADAPTERS: Readonly<Record<StreamApi, () => FormatAdapter>> = {
  'openai-chat': createChatAdapter,
  anthropic: createAnthropicAdapter,
  'openai-responses': createResponsesAdapter,
};

/** The text of `text` outside `spans`, from `from` on; '' when only whitespace is left. */
function proseAfter(text: string, spans: Array<[number, number]>, from: number): string {
  let out = '';
  let i = from;
  for (const [a, b] of spans) {
    if (b <= i) continue;
    if (a > i) out += text.slice(i, a);
    i = Math.max(i, b);
  }
  out += text.slice(i);
  return out.trim() === '' ? '' : out;
}

/** Argument text that may be complete: ends with `}` and parses as a JSON object. */
function completeJson(args: string): boolean {
  return args.trimEnd().endsWith('}') && parseArguments(args).value !== null;
}

/** Frames held before the stream's API is known (see `ReplayEngine.unsniffed`). */
const MAX_UNSNIFFED_FRAMES = 256;

function decode(data: string): { ok: true; payload: unknown } | { ok: false; error: string } {
  if (data.trim() === '[DONE]') return { ok: true, payload: '[DONE]' };
  try {
    return { ok: true, payload: JSON.parse(data) };
  } catch (e) {
    return { ok: false, error: jsonErrorMessage(e) };
  }
}

/**
 * One stream being replayed. Feed frames with {@link ReplaySession.push}, then call
 * {@link ReplaySession.end}; each returns the items (frames to send, decisions) it produced, in
 * order. Never throws on stream content.
 */
export class ReplaySession {
  private out: ReplayItem[] = [];
  private api: StreamApi | null = null;
  private acc: StreamAccumulator | null = null;
  private fmt: FormatAdapter | null = null;
  private cut = false;
  private lastLine = 0;
  // the reply being streamed
  private pending = '';
  private pendingFrom: Framed | null = null;
  private held: Framed[] | null = null;
  /**
   * Under enforce, data frames before the stream's API is known (JSON that is no event of a stream
   * guard reads): held, not sent, so that a stream guard cannot judge never reaches the client;
   * sent in order once a later event names the API, dropped if none does (the input is then
   * UNKNOWN_FORMAT). At most {@link MAX_UNSNIFFED_FRAMES} are kept.
   */
  private unsniffed: Framed[] = [];
  private heldChars = 0;
  private holdLine = 0;
  private holdOffset = 0;
  private emittedChars = 0;
  private gaveUp = false;
  private calls = new Map<string, OpenCall>();
  private recoveredIds = new Set<string>();
  private stats = { framesIn: 0, framesOut: 0, replies: 0, recovered: 0, refused: 0, hits: 0, maxHeldChars: 0, maxHeldFrames: 0 };

  constructor(private readonly options: ReplayOptions) {}

  /** The stream API the input was recognised as, or null while no event has named it. */
  get streamApi(): StreamApi | null {
    return this.api;
  }

  /** Feeds one input frame. @returns the items it produced (possibly none while text is held). */
  push(frame: SseFrame): ReplayItem[] {
    this.stats.framesIn++;
    if (frame.line > 0) this.lastLine = frame.line;
    if (this.cut) {
      // nothing more goes out, but the input is still read through, so its own problems are reported
      const d = frame.data === undefined || frame.data.trim() === '' ? null : decode(frame.data);
      if (d?.ok && this.acc) for (const e of this.acc.push(d.payload, frame.event, frame.line).errors) this.problem(e);
      return this.drain();
    }
    if (frame.data === undefined || frame.data.trim() === '') {
      this.send({ frame, payload: undefined }); // comments, blank lines, keep-alives
      return this.drain();
    }
    const d = decode(frame.data);
    if (!d.ok) {
      this.problem({ file: '', line: frame.line, code: 'INVALID_JSON', severity: 'error', message: `SSE data is not valid JSON: ${d.error}` });
      this.send({ frame, payload: undefined });
      return this.drain();
    }
    const f: Framed = { frame, payload: d.payload };
    if (!this.fmt) {
      const ping = isObject(d.payload) && d.payload['type'] === 'ping';
      const api = this.options.api ?? (ping ? null : sniffStreamPayload(d.payload, frame.event));
      if (api === null) {
        if (this.options.mode !== 'enforce' || ping) this.send(f);
        else if (this.unsniffed.length < MAX_UNSNIFFED_FRAMES) this.unsniffed.push(f);
        return this.drain();
      }
      this.api = api;
      this.fmt = ADAPTERS[api]();
      this.acc = createStreamAccumulator(api, { file: '', format: SSE_FORMAT[api], advertised: null });
      for (const u of this.unsniffed.splice(0)) this.send(u);
    }
    const fmt = this.fmt;
    fmt.note(d.payload);
    const res = this.acc!.push(d.payload, frame.event, frame.line);
    for (const e of res.errors) this.problem(e);
    if (this.held) {
      this.held.push(f);
      this.heldChars += fmt.textOf(d.payload)?.length ?? 0;
      this.track();
      if (res.replies.length > 0) this.decide(res.replies, null, frame.line);
      else this.checkLimit(frame.line);
      return this.drain();
    }
    const text = this.gaveUp ? null : fmt.textOf(d.payload);
    if (text !== null) this.onText(f, text);
    else if (this.pending !== '' && fmt.endsText(d.payload)) this.flushPending();
    if (res.replies.length > 0) this.decide(res.replies, text === null ? f : null, frame.line);
    else if (text === null) this.send(f);
    return this.drain();
  }

  /** End of input: judges a reply left open, lets go of held text, and adds the summary. */
  end(): ReplayItem[] {
    if (!this.cut) {
      // a call the input left open is inspected with what arrived
      const blocked = this.inspectCalls([...this.calls.values()], true, this.lastLine);
      if (blocked) this.cutWith('block', 'guard_blocked', blocked, this.lastLine);
    }
    if (this.acc) {
      const res = this.acc.finish();
      for (const e of res.errors) this.problem(e);
      if (!this.cut && res.replies.length > 0) this.decide(res.replies, null, this.lastLine);
    }
    if (!this.cut) {
      for (const h of this.held ?? []) this.send(h);
      this.held = null;
      if (this.pending !== '') this.flushPending();
    }
    const s = this.stats;
    this.decision({
      type: 'summary',
      api: this.api,
      frames_in: s.framesIn,
      frames_out: s.framesOut,
      replies: s.replies,
      recovered: s.recovered,
      refused: s.refused,
      hits: s.hits,
      cut: this.cut,
      max_held_chars: s.maxHeldChars,
      max_held_frames: s.maxHeldFrames,
    });
    return this.drain();
  }

  private drain(): ReplayItem[] {
    const items = this.out;
    this.out = [];
    return items;
  }

  private decision(decision: ReplayDecision): void {
    this.out.push({ kind: 'decision', decision });
  }

  private problem(e: CaptureError): void {
    this.decision({ type: 'problem', line: e.line, code: e.code, severity: e.severity, message: e.message });
  }

  private track(): void {
    const chars = this.held ? this.heldChars : this.pending.length;
    const frames = this.held ? this.held.length : this.pending !== '' ? 1 : 0;
    this.stats.maxHeldChars = Math.max(this.stats.maxHeldChars, chars);
    this.stats.maxHeldFrames = Math.max(this.stats.maxHeldFrames, frames);
  }

  /** A text delta: sends what cannot begin markup, holds the rest. */
  private onText(f: Framed, text: string): void {
    const fmt = this.fmt!;
    const before = this.pending;
    const from = this.pendingFrom;
    const s = before + text;
    this.pending = '';
    this.pendingFrom = null;
    const start = markupStart(s);
    const sendText = (t: string) => {
      if (before === '' && t === text) this.send(f);
      else if (t !== '') this.send(fmt.withText(f, t));
      this.emittedChars += t.length;
    };
    if (start === null || (!start.complete && fmt.endsText(f.payload))) {
      sendText(s);
      return;
    }
    sendText(s.slice(0, start.at));
    if (start.complete) {
      // the held text starts in the frame that began the partial token, when there was one
      this.held = [fmt.withText(from ?? f, s.slice(start.at))];
      this.heldChars = s.length - start.at;
      this.holdLine = (from ?? f).frame.line;
      this.holdOffset = this.emittedChars;
    } else {
      this.pending = s.slice(start.at);
      this.pendingFrom = f;
    }
    this.track();
    if (this.held) this.checkLimit(f.frame.line);
  }

  /** Sends held partial-token text as a text delta of its own (the run of text ended). */
  private flushPending(): void {
    const text = this.pending;
    const from = this.pendingFrom!;
    this.pending = '';
    this.pendingFrom = null;
    this.send(this.fmt!.textFrame(from, text));
    this.emittedChars += text.length;
  }

  /** Past the hold cap: stop holding this reply. */
  private checkLimit(line: number): void {
    const max = this.options.maxHoldChars ?? DEFAULT_MAX_HOLD_CHARS;
    if (!this.held || this.heldChars <= max) return;
    const enforce = this.options.mode === 'enforce';
    this.stats.refused++;
    const detail = `more than ${max} characters of text held back after a markup token; the reply is no longer held`;
    this.decision({ type: 'refused', line: this.holdLine, reason: 'hold_limit', family: null, detail, action: enforce ? 'ended' : 'passed' });
    if (enforce) {
      this.cutWith('refused', 'guard_refused', `guard: ${detail}`, line);
      return;
    }
    const held = this.held;
    this.held = null;
    this.gaveUp = true;
    for (const h of held) this.send(h);
  }

  /** A reply ended: judge its text, then send, rebuild or refuse what was held. */
  private decide(replies: Reply[], endFrame: Framed | null, line: number): void {
    this.stats.replies += replies.length;
    if (!this.held && this.pending !== '') this.flushPending();
    const reply = replies[0]!;
    const v = recoverFromReply(reply, this.options.recovery);
    const held = this.held;
    this.held = null;
    const at = held ? this.holdLine : reply.source.line;
    // a quotation (fenced, quoted, prose) is refused but is no leak: it is released, never cut
    const refusedLeak = v.outcome === 'refused' && !QUOTATION_REASONS.has(v.reason);
    if (held && v.outcome === 'recovered') {
      const prose = proseAfter(reply.text, markupSpans(reply.text), this.holdOffset);
      this.stats.recovered++;
      this.decision({
        type: 'recovered',
        line: at,
        family: v.family,
        calls: v.calls.map((c) => ({ id: c.id, name: c.name })),
        held_chars: this.heldChars,
        held_frames: held.length,
        detail: v.detail,
      });
      for (const c of v.calls) this.recoveredIds.add(c.id);
      const tail = this.fmt!.recoveredTail({ held, prose, visibleText: reply.text.slice(0, this.holdOffset) + prose, calls: v.calls });
      for (const t of tail) this.send(t, at);
    }
    // the calls a refused leak's family parsed reached the client as text: inspect them as scan does
    if (refusedLeak) this.inspectCandidates(v, at);
    if (held && v.outcome === 'recovered') {
      // handled above
    } else if (refusedLeak && this.options.mode === 'enforce') {
      this.stats.refused++;
      this.decision({ type: 'refused', line: at, reason: v.reason, family: v.family, detail: v.detail, action: 'ended' });
      this.cutWith('refused', 'guard_refused', `guard: leaked ${v.family ?? 'tool-call'} markup refused (${v.reason}): ${v.detail}`, endFrame?.frame.line ?? line);
    } else {
      if (refusedLeak) {
        this.stats.refused++;
        this.decision({ type: 'refused', line: at, reason: v.reason, family: v.family, detail: v.detail, action: 'passed' });
      } else if (v.outcome === 'recovered') {
        // markup that began before any family token went out unheld: it cannot be taken back
        this.stats.refused++;
        this.decision({ type: 'refused', line: at, reason: v.reason, family: v.family, detail: `${v.detail}, but the markup had already been sent`, action: 'passed' });
      } else if (held) {
        this.decision({ type: 'released', line: at, reason: v.reason, family: v.family, held_chars: this.heldChars, held_frames: held.length });
      }
      for (const h of held ?? []) this.send(h);
      if (endFrame) this.send(endFrame);
    }
    this.resetReply();
  }

  /** Reports rule hits on the candidate calls of a refused leak (never dispatched, never cut for). */
  private inspectCandidates(v: RecoveryVerdict, line: number): void {
    if (this.options.mode === 'off' || v.candidates.length === 0) return;
    const calls = v.candidates.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments, argumentsRaw: c.argumentsRaw, origin: 'recovered' as const }));
    for (const hit of inspectCalls(calls, this.options.ruleSet, this.options.mode).hits) {
      this.stats.hits++;
      this.decision(hitDecision(line, 'recovered', hit));
    }
  }

  private resetReply(): void {
    this.pending = '';
    this.pendingFrom = null;
    this.held = null;
    this.heldChars = 0;
    this.emittedChars = 0;
    this.holdOffset = 0;
    this.gaveUp = false;
    this.calls.clear();
    this.recoveredIds.clear();
    this.fmt?.reset();
  }

  /** Ends the stream: the format's error frames replace everything from here on. */
  private cutWith(cause: 'block' | 'refused', code: string, message: string, line: number): void {
    this.decision({ type: 'cut', line, cause, code, message });
    for (const f of this.fmt?.errorTail(code, message) ?? []) {
      this.out.push({ kind: 'frame', frame: f.frame });
      this.stats.framesOut++;
    }
    this.cut = true;
    this.held = null;
    this.pending = '';
  }

  /** Sends one frame after inspecting the calls it moves (`line`: where a made frame comes from). */
  private send(f: Framed, line = f.frame.line): void {
    if (this.cut) return;
    if (this.fmt && f.payload !== undefined) {
      const touched = this.applyCalls(f.payload);
      const blocked = this.inspectCalls(touched.calls, false, line, touched.ended);
      if (blocked) {
        this.cutWith('block', 'guard_blocked', blocked, line);
        return;
      }
    }
    this.out.push({ kind: 'frame', frame: f.frame });
    this.stats.framesOut++;
  }

  /** Applies a frame's call updates; returns the calls it touched and those it ended. */
  private applyCalls(payload: unknown): { calls: OpenCall[]; ended: Set<OpenCall> } {
    const calls = new Set<OpenCall>();
    const ended = new Set<OpenCall>();
    for (const u of this.fmt!.callUpdates(payload)) {
      if ('endAll' in u) {
        for (const c of this.calls.values()) {
          if (u.choice !== undefined && !c.key.startsWith(`${u.choice}:`)) continue;
          calls.add(c);
          ended.add(c);
        }
        continue;
      }
      let c = this.calls.get(u.key);
      if (!c) {
        if (u.delta === undefined && u.full === undefined && u.name === undefined && u.id === undefined) continue;
        c = { key: u.key, id: null, name: '', kind: u.kind ?? 'function', args: '', inspected: null, rules: new Set() };
        this.calls.set(u.key, c);
      }
      if (u.id !== undefined) c.id = u.id;
      c.name = continueName(c.name || undefined, u.name) ?? '';
      if (u.kind !== undefined) c.kind = u.kind;
      if (u.delta !== undefined) c.args += u.delta;
      if (u.full !== undefined) c.args = typeof u.full === 'string' ? u.full : (JSON.stringify(u.full) ?? '');
      calls.add(c);
      if (u.end) ended.add(c);
    }
    return { calls: [...calls], ended };
  }

  /**
   * Inspects the calls whose arguments look complete (or that ended) and changed since their last
   * inspection; reports new hits. @returns the block message when one is blocked, else null.
   */
  private inspectCalls(calls: OpenCall[], final: boolean, line: number, ended: Set<OpenCall> = new Set()): string | null {
    if (this.options.mode === 'off') return null;
    for (const c of calls) {
      const over = final || ended.has(c);
      const raw = c.kind === 'custom' || c.kind === 'custom_tool_call';
      if (!over && (raw || !completeJson(c.args))) continue;
      if (c.inspected === c.args) continue;
      c.inspected = c.args;
      const args = c.args === '' && this.api === 'anthropic' ? '{}' : c.args;
      const tc = makeToolCall(c.id, c.name, c.kind, args);
      const origin = c.id !== null && this.recoveredIds.has(c.id) ? 'recovered' : 'structured';
      const v = inspectCalls([{ id: tc.id, name: tc.name, arguments: tc.arguments, argumentsRaw: tc.argumentsRaw, origin }], this.options.ruleSet, this.options.mode);
      for (const hit of v.hits) {
        if (c.rules.has(hit.rule)) continue;
        c.rules.add(hit.rule);
        this.stats.hits++;
        this.decision(hitDecision(line, origin, hit));
      }
      if (v.outcome === 'block') {
        const rules = v.hits.filter((h) => h.action === 'block').map((h) => h.rule);
        return `guard: the call to "${c.name}" is blocked by ${rules.length === 1 ? 'rule' : 'rules'} ${rules.join(', ')}`;
      }
    }
    return null;
  }
}

/**
 * Replays a stream of SSE frames as a client behind guard would receive it.
 *
 * @param frames the input events in order (from {@link readSseFrames} or {@link readJsonlFrames},
 *   or a gateway's own parser; `raw` is optional, frames without it are re-serialised).
 * @param options engine settings (recovery options, compiled rule set, mode), the API when known,
 *   and the hold cap.
 * @returns frames to send and decisions, in order; the last item is the `summary` decision.
 *   Formats: OpenAI Chat, Anthropic Messages and OpenAI Responses streams (docs/sources.md "API
 *   bodies and streams"). Never throws on stream content (only if `frames` throws).
 */
export async function* replayFrames(frames: AsyncIterable<SseFrame>, options: ReplayOptions): AsyncGenerator<ReplayItem> {
  const session = new ReplaySession(options);
  for await (const frame of frames) yield* session.push(frame);
  yield* session.end();
}

/** The decision record of a rule hit (snake_case keys, as every guard output). */
function hitDecision(line: number, origin: 'structured' | 'recovered', hit: RuleHit): ReplayDecision {
  return { type: 'hit', line, origin, ...ruleHitRecord(hit) };
}
