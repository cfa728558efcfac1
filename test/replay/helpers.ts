/** Shared helpers of the replay tests: running the transform in process and reading its output. */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSseText } from '../../src/capture/sse.js';
import type { Reply } from '../../src/capture/types.js';
import { compileRuleSet, initInspection } from '../../src/inspection/index.js';
import type { InspectionMode } from '../../src/inspection/types.js';
import { DEFAULT_PROSE_CEILING } from '../../src/recovery/types.js';
import { replayFrames } from '../../src/replay/engine.js';
import { formatFrame, readSseFrames, type SseFrame } from '../../src/replay/frames.js';
import type { ReplayDecision } from '../../src/replay/types.js';
import { ROOT } from '../cli/helpers.js';

export const REPLAY_FIXTURES = join(ROOT, 'fixtures/replay');

/** The result of one replay: the frames sent, the output text and the decisions. */
export interface Replayed {
  frames: SseFrame[];
  text: string;
  decisions: ReplayDecision[];
}

async function* once<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

/** Reads a whole SSE text into frames (the text may be given in any chunking). */
export async function framesOf(text: string | string[]): Promise<SseFrame[]> {
  const out: SseFrame[] = [];
  for await (const f of readSseFrames(once(Array.isArray(text) ? text : [text]))) out.push(f);
  return out;
}

let ready: Promise<void> | null = null;

/** Replays frames with the built-in rules. */
export async function replay(frames: SseFrame[], opts: { mode?: InspectionMode; tools?: string[] | null } = {}): Promise<Replayed> {
  ready ??= initInspection();
  await ready;
  const ruleSet = compileRuleSet();
  const sent: SseFrame[] = [];
  const decisions: ReplayDecision[] = [];
  const options = { recovery: { proseCeiling: DEFAULT_PROSE_CEILING, tools: opts.tools ?? null }, ruleSet, mode: opts.mode ?? 'observe' };
  for await (const item of replayFrames(once(frames), options)) {
    if (item.kind === 'frame') sent.push(item.frame);
    else decisions.push(item.decision);
  }
  return { frames: sent, text: sent.map((f) => formatFrame(f, 'sse')).join(''), decisions };
}

/** Replays an SSE text. */
export async function replayText(text: string, opts: { mode?: InspectionMode; tools?: string[] | null } = {}): Promise<Replayed> {
  return replay(await framesOf(text), opts);
}

/** The replies the capture layer reads from an SSE text. */
export function repliesOf(text: string): Reply[] {
  return parseSseText(text, { file: 'x.sse', line: 1, advertised: null, format: 'openai-chat-sse' }).replies;
}

export function fixture(name: string): string {
  return readFileSync(join(REPLAY_FIXTURES, name), 'utf8');
}

/** The visible text a frame's payload adds (Chat choice 0 content, Anthropic text_delta, Responses output_text.delta). */
export function textOfPayload(p: any): string | null {
  if (p === null || typeof p !== 'object') return null;
  if (Array.isArray(p.choices)) return typeof p.choices[0]?.delta?.content === 'string' ? p.choices[0].delta.content : null;
  if (p.type === 'content_block_delta' && p.delta?.type === 'text_delta') return p.delta.text;
  if (p.type === 'response.output_text.delta') return p.delta;
  return null;
}

function withTextPayload(p: any, text: string): any {
  const c = JSON.parse(JSON.stringify(p));
  if (Array.isArray(c.choices)) c.choices[0].delta.content = text;
  else if (c.type === 'content_block_delta') c.delta.text = text;
  else c.delta = text;
  return c;
}

/**
 * Rebuilds a stream with its visible text cut into the given pieces: every text delta frame is
 * removed and one delta per piece is put where the first one was (event name and envelope of
 * the first delta kept). Returns the frames and the whole text.
 */
export function resplit(frames: SseFrame[], cut: (text: string) => string[]): { frames: SseFrame[]; text: string } {
  const deltas = frames.filter((f) => f.data !== undefined && f.data !== '[DONE]' && textOfPayload(JSON.parse(f.data)) !== null);
  const text = deltas.map((f) => textOfPayload(JSON.parse(f.data!))!).join('');
  const template = deltas[0]!;
  const payload = JSON.parse(template.data!);
  const pieces = cut(text).filter((p) => p !== '');
  const out: SseFrame[] = [];
  for (const f of frames) {
    if (f === template) {
      for (const piece of pieces) {
        const nf: SseFrame = { line: f.line, data: JSON.stringify(withTextPayload(payload, piece)) };
        if (f.event !== undefined) nf.event = f.event;
        out.push(nf);
      }
    } else if (!deltas.includes(f)) out.push(f);
  }
  return { frames: out, text };
}

/** The visible text of every text delta frame sent, in order. */
export function sentTexts(r: Replayed): string[] {
  return r.frames.flatMap((f) => {
    if (f.data === undefined || f.data === '[DONE]' || f.data.trim() === '') return [];
    const t = textOfPayload(JSON.parse(f.data));
    return t === null || t === '' ? [] : [t];
  });
}
