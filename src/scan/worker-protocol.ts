/**
 * The messages between `guard scan --jobs N` (src/scan/parallel.ts) and its worker threads
 * (src/scan/worker.ts). Every message is plain data (structured clone, HTML Living Standard
 * §2.7.3), so a verdict arrives in the main thread with the same fields and key order it had in
 * the worker.
 */

import type { ReadOptions } from '../capture/read.js';
import type { JudgeSettings } from '../verdict/engines.js';
import type { RenderedEvent, RenderSetup } from './report-pipeline.js';
import type { ScanEvent } from './scan.js';

/** What a worker sends for its file: events, or with {@link WorkerSetup.render} report text. */
export type WorkerEvent = ScanEvent | RenderedEvent;

/** What each worker is started with (its `workerData`). */
export interface WorkerSetup {
  /** The validated engine settings of the main thread: the worker builds the same judge from them. */
  settings: JudgeSettings;
  read: ReadOptions;
  /** Events per message: larger batches clone less often, smaller ones stream sooner. */
  batch: number;
  /**
   * Send `text` and `reasoning` as '' for replies in which recovery found no markup (outcome
   * `none`): no report reads them (a leak's fingerprint reads the text only when there is a leak),
   * and they are most of the bytes cloned and held. The CLI sets it; a library caller that reads
   * the texts leaves it unset.
   */
  slim?: boolean;
  /**
   * Write the report of replies and problems in the worker (src/scan/report-pipeline.ts): the
   * worker sends report text and counts instead of verdicts, so the main thread only writes. The
   * CLI sets it for NDJSON and GitHub output without a baseline.
   */
  render?: RenderSetup;
}

/** Main thread → worker. */
export type ToWorker =
  /** Read `abs` and judge every reply; `file` is the path as given, copied into every event. */
  | { type: 'task'; task: number; file: string; abs: string }
  /** The main thread took one batch this worker sent: it may send another. */
  | { type: 'ack' };

/** Worker → main thread. */
export type FromWorker =
  | { type: 'ready' }
  /** The worker could not start (its engines did not initialise). */
  | { type: 'init-error'; message: string }
  | { type: 'events'; task: number; events: WorkerEvent[] }
  /** Bytes of the task's file read so far (for progress; at most every PROGRESS_MS). */
  | { type: 'progress'; task: number; bytes: number }
  /** Every event of the task was sent (the last batch ended with its `file-end`). */
  | { type: 'done'; task: number };

/** Least time between two progress messages of a worker, in ms. */
export const PROGRESS_MS = 100;

/** Unacknowledged batches a worker may have in flight before it waits (bounds the buffer per worker). */
export const WINDOW = 4;

/**
 * The batches a job (a worker thread, or the main thread reading as one of the jobs) has sent and
 * the report has not yet taken: it sends more only while fewer than {@link WINDOW} are out.
 */
export class AckWindow {
  private inFlight = 0;
  private wake: (() => void) | null = null;
  /** Set when the scan is closing: {@link room} no longer waits. */
  stopped = false;

  sent(): void {
    this.inFlight++;
  }

  acked(): void {
    this.inFlight--;
    this.resume();
  }

  /** Resolves once fewer than WINDOW batches are unacknowledged, or the window is stopped. */
  async room(): Promise<void> {
    while (this.inFlight >= WINDOW && !this.stopped) await new Promise<void>((ok) => (this.wake = ok));
  }

  stop(): void {
    this.stopped = true;
    this.resume();
  }

  private resume(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }
}
