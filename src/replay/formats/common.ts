/** Helpers shared by the replay's format adapters. */

import type { SseFrame } from '../frames.js';
import type { Framed } from '../types.js';

export { isObject, nonEmpty } from '../../capture/streams/common.js';

/** A frame guard makes (no raw text, line 0). */
export function made(payload: unknown, event?: string): Framed {
  const frame: SseFrame = { line: 0, data: typeof payload === 'string' ? payload : JSON.stringify(payload) };
  if (event !== undefined) frame.event = event;
  return { frame, payload };
}

/** `f` with a new payload: same event name, id and line, no raw text (it is re-serialised). */
export function rewritten(f: Framed, payload: unknown): Framed {
  const frame: SseFrame = { line: f.frame.line, data: JSON.stringify(payload) };
  if (f.frame.event !== undefined) frame.event = f.frame.event;
  if (f.frame.id !== undefined) frame.id = f.frame.id;
  return { frame, payload };
}

/** A deep copy of a JSON value. */
export function copy<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
