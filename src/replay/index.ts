/**
 * guard's streaming replay (issue 7): the transform a gateway can run on a live stream, and that
 * `guard replay` runs on a captured one. Pure: no fs, no process. docs/replay.md.
 */

export { ReplaySession, replayFrames } from './engine.js';
export { formatFrame, readJsonlFrames, readSseFrames, type SseFrame, type Wire } from './frames.js';
export { DEFAULT_MAX_HOLD_CHARS, type DecisionCall, type ReplayDecision, type ReplayItem, type ReplayOptions } from './types.js';
