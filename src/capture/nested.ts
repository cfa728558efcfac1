/**
 * Reading values nested inside a record of another format (the body of a batch output line, the
 * response of a HAR entry, the `response` of a logging payload) with the same registry of record
 * readers, so every API a body can hold is read in one place. The record reader
 * (./records.ts) hands one to each format reader it opens (no module imports the other).
 */

import type { RecordOutput } from './bodies/common.js';
import type { AdvertisedTool, CaptureFormat } from './types.js';

/** The tools a wrapping request offered: null when it did not say. */
type ToolsOffered = AdvertisedTool[] | null;

/** What one nested value produced: `read` (in a known format, or a known record without a reply), `unknown`, or `failed`. */
export interface NestedStep extends RecordOutput {
  format: CaptureFormat | null;
  status: 'read' | 'unknown' | 'failed';
}

/** A reader of nested values: push them in order (a stream's events one by one), then finish. */
export interface NestedReader {
  /** Reads one value (an array element by element) as the registry classifies it. */
  push(value: unknown, line: number): NestedStep;
  /** What is still open (an unfinished stream). */
  finish(): RecordOutput;
}

/** Opens a fresh nested reader (each nested body is read on its own). */
export type NestedReaders = () => NestedReader;

/** What {@link readNestedValues} read: the replies and problems, and whether any value was in a known format. */
export interface NestedRead extends RecordOutput {
  /** False when every value was in no known format (the caller reports that, naming the value). */
  known: boolean;
}

/**
 * Reads `values` (one body, or a stream's events in order) with one fresh nested reader and
 * finishes it. Replies take `format` (the wrapping record's format) and, where their body named
 * no tools, `advertised` (the tools the wrapping request offered).
 *
 * @param nested the opener the record reader handed the format reader.
 * @param values the nested values, in order.
 * @param line the line of the wrapping record (1-based), where every reply and problem is placed.
 */
export function readNestedValues(nested: NestedReaders, values: readonly unknown[], line: number, format: CaptureFormat, advertised: ToolsOffered): NestedRead {
  const reader = nested();
  const out: NestedRead = { replies: [], errors: [], known: false };
  for (const v of values) {
    const step = reader.push(v, line);
    out.replies.push(...step.replies);
    out.errors.push(...step.errors);
    if (step.status !== 'unknown') out.known = true;
  }
  const rest = reader.finish();
  out.replies.push(...rest.replies);
  out.errors.push(...rest.errors);
  for (const r of out.replies) {
    r.format = format;
    if (r.advertised === null) r.advertised = advertised;
  }
  return out;
}
