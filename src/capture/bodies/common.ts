/**
 * Small helpers shared by the body and transcript readers: JSON value guards, the context a
 * record is read in, and error construction.
 */

import type { AdvertisedTool, CaptureError, CaptureErrorCode, CaptureFormat, Reply } from '../types.js';

/** A JSON object (not null, not an array). */
export type JsonObject = Record<string, unknown>;

/** True when `v` is a JSON object (not null, not an array). */
export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `v` when it is a string, else undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** `v` when it is an array, else an empty array. */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/**
 * The list a record keeps under `key` (its calls, content blocks, choices): the array itself, or
 * none when the key is absent or null. Any other value (an object holding one call, a string, a
 * number) is not the format's shape: it is reported as an INVALID_RECORD error naming the key,
 * for what it holds is not judged, and no list is read.
 *
 * @param record the object that holds the list.
 * @param key the list's key, as the message names it (`name` when given instead).
 * @param report receives the message of a value that is not a list.
 * @returns the list, or an empty one.
 */
export function listAt(record: JsonObject, key: string, report: (message: string) => void, name = key): unknown[] {
  const v = record[key];
  if (Array.isArray(v)) return v;
  if (v !== undefined && v !== null) report(`${name} is ${shapeOf(v)}, not a list: it was not read, and what it holds (text, a call) is not judged`);
  return [];
}

/**
 * The text a record keeps under `key`: the string, or undefined when the key is absent or null.
 * Any other value is reported as {@link listAt} reports a value that is not a list.
 *
 * @returns the string, or undefined.
 */
export function textAt(record: JsonObject, key: string, report: (message: string) => void, name = key): string | undefined {
  const v = record[key];
  if (typeof v === 'string') return v;
  if (v !== undefined && v !== null) report(`${name} is ${shapeOf(v)}, not text: it was not read, and what it holds (text, a call) is not judged`);
  return undefined;
}

/** Where and how one record is being read. */
export interface RecordContext {
  file: string;
  /** 1-based line where the record starts. */
  line: number;
  /** The format stamped on replies made from this record. */
  format: CaptureFormat;
  /** Tools the surrounding request advertised; null when unknown. */
  advertised: AdvertisedTool[] | null;
  /**
   * Where the record stands when its line does not say (`message 3` of a one-line message list),
   * named in problem messages.
   */
  where?: string;
}

/** What reading one record produced, in input order within the record. */
export interface RecordOutput {
  replies: Reply[];
  errors: CaptureError[];
}

/**
 * A short description of a JSON value's shape for messages: its type, or an object's first six
 * keys (`an object with keys a, b, ...`).
 */
export function shapeOf(value: unknown): string {
  if (value === null || typeof value !== 'object') return `a JSON ${value === null ? 'null' : typeof value}`;
  if (Array.isArray(value)) return 'a JSON array';
  const keys = Object.keys(value);
  if (keys.length === 0) return 'an empty object';
  return `an object with keys ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', ...' : ''}`;
}

/** An output with nothing in it. */
export function emptyOutput(): RecordOutput {
  return { replies: [], errors: [] };
}

/** Builds a {@link CaptureError}. `line` null means the problem concerns the whole file. */
export function captureError(
  file: string,
  line: number | null,
  code: CaptureErrorCode,
  message: string,
  severity: 'error' | 'warning' = 'error',
): CaptureError {
  return { file, line, code, message, severity };
}

/**
 * Joins the texts of a reply's content blocks (or parts) with nothing between them, as the SDKs'
 * final-text helpers do, and remembers where one block ended and the next began
 * (`Reply.textBreaks`): the recovery engine never reads markup across a block boundary, since no
 * parser glues a call together from two blocks (a non-text block between them included).
 */
export class TextJoiner {
  private readonly parts: string[] = [];
  private length = 0;
  /** Offsets in the joined text where a block boundary lies (between two non-empty texts). */
  readonly breaks: number[] = [];

  /** Appends one block's text; `inner` are boundaries inside it (offsets in `s`). */
  add(s: string, inner: readonly number[] = []): void {
    if (s === '') return;
    if (this.length > 0) this.breaks.push(this.length);
    for (const b of inner) this.breaks.push(this.length + b);
    this.parts.push(s);
    this.length += s.length;
  }

  get text(): string {
    return this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
  }

  /** `{textBreaks}` when any boundary was seen, else nothing (for spreading into a Reply). */
  get breakField(): { textBreaks?: number[] } {
    return this.breaks.length > 0 ? { textBreaks: this.breaks } : {};
  }
}
