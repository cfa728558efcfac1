/**
 * Reading values nested inside a record of another format (the body of a batch output line, the
 * response of a HAR entry, the `response` of a logging payload) with the same registry of record
 * readers, so every API a body can hold is read in one place. The record reader
 * (./records.ts) hands one to each format reader it opens (no module imports the other).
 */

import type { RecordOutput } from './bodies/common.js';
import type { CaptureFormat } from './types.js';

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
