/**
 * `guard scan --jobs N`: files spread over N jobs, this thread and N - 1 worker threads
 * (node:worker_threads), events yielded in the same order as the one-thread scan of
 * src/scan/scan.ts. Each job takes the next file in input order when it is free.
 *
 * Order: files are yielded one after another in input order. The current file's events are
 * yielded as its worker sends them; a later file's events are held until every earlier file is
 * done. Holding is bounded: past {@link HELD_BYTES} (estimated, see {@link eventBytes}) held for
 * one file, its worker is not acknowledged and stops (src/scan/worker.ts waits after WINDOW
 * unacknowledged batches), so memory is bounded by workers × (HELD_BYTES + WINDOW batches),
 * whatever the input size. The bound is a trade: a worker that may run a whole file ahead keeps
 * both cores busy; one held to a few batches waits for the file before it.
 *
 * Failure: a worker that dies (an uncaught exception, out of memory) costs only the rest of the
 * file it was reading: the events it sent are kept, one INTERNAL_ERROR names the file, the file
 * ends, a new worker takes the next file. Stdin (`-`) is read in the main thread.
 */

import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { expandInputs } from '../capture/files.js';
import type { CaptureError, CaptureFormat } from '../capture/types.js';
import { scanFile, type ScanEvent, type ScanOptions } from './scan.js';
import { AckWindow, type FromWorker, type ToWorker, type WorkerEvent, type WorkerSetup } from './worker-protocol.js';

/**
 * Estimated bytes held for a file that is not yet the current one before its job must wait: 8 MiB.
 * With the main thread as one of the jobs and workers writing their report text, 8 MiB is a whole
 * typical file's report (~6 MB for a 12.5 MB file of the bench); 32 MiB added ~6 MB of peak RSS
 * at 1 GB with no gain in time (docs/performance.md).
 */
export const HELD_BYTES = 8 * 1024 * 1024;

/**
 * Young-generation size of a worker thread's heap, in MB (Node's `resourceLimits`): V8's default
 * (up to 3 × 16 MB semi-spaces) let each worker's heap grow ~15 MB more; 24 MB cost no measurable
 * CPU at 1 GB, smaller sizes cost 10% and more (docs/performance.md, "Memory").
 */
export const WORKER_YOUNG_GENERATION_MB = 24;

/**
 * A rough size of one event in memory, in bytes: its texts (UTF-16, 2 bytes a code unit) and a
 * fixed share for the objects around them.
 */
export function eventBytes(ev: WorkerEvent): number {
  if (ev.kind === 'rendered') return 256 + (typeof ev.text === 'string' ? 2 * ev.text.length : ev.text.length);
  if (ev.kind !== 'reply') return 256;
  const r = ev.verdict.reply;
  let chars = r.text.length + r.reasoning.length;
  for (const c of r.toolCalls) chars += c.argumentsRaw.length;
  for (const c of ev.verdict.recovery.calls) chars += c.argumentsRaw.length;
  return 1024 + 2 * chars;
}

/** Input bytes per thread when `--jobs` is not given: smaller scans do not start threads they cannot use. */
export const AUTO_BYTES_PER_THREAD = 8 * 1024 * 1024;

/** Events per message from a worker. */
export const DEFAULT_BATCH = 64;

/** The default `--jobs`: the cores Node may use (os.availableParallelism). */
export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

/** What {@link scanInputsParallel} needs besides the one-thread options. */
export interface ParallelOptions {
  /** Most worker threads to run (at most one per file); 1 or less scans in this thread. */
  jobs: number;
  /** Bytes held per later file before its worker waits (default {@link HELD_BYTES}). */
  heldBytes?: number;
  /**
   * True when `jobs` is the default rather than the user's `--jobs`: then small inputs use fewer
   * threads (one per {@link AUTO_BYTES_PER_THREAD} of input), since each thread pays its own
   * start-up (the bash grammar and the rule set) before it reads a byte.
   */
  auto?: boolean;
  /**
   * This thread is one of the jobs (default true): `jobs` - 1 worker threads are started. False
   * starts `jobs` workers and leaves this thread to the report (tests of worker behaviour).
   */
  localJob?: boolean;
  /**
   * The worker script (default {@link workerUrl}). Tests inject a wrapper of the real worker
   * (one that fails on purpose); nothing else sets it.
   */
  workerUrl?: URL;
  /**
   * `args` are inputs {@link expandInputs} gave already (files and `-`): each is read as it is,
   * not expanded again, so every one yields its events ending with its `file-end` (a file that
   * vanished meanwhile is an UNREADABLE problem of that file). The scan cache relies on it
   * (src/scan/cache.ts).
   */
  expanded?: boolean;
  /** The worker setup: the same engine settings the main thread's judge came from. */
  setup: Omit<WorkerSetup, 'read' | 'batch'> & { batch?: number };
}

/**
 * The worker script: beside this module once built (dist/scan/worker.js); when this module runs
 * from its TypeScript source (tests), the built one in dist/, which `npm test` builds first.
 */
export function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('../../dist/scan/worker.js', here) : new URL('./worker.js', here);
}

/** One file of the scan and what has arrived for it. */
interface Task {
  index: number;
  file: string;
  /** Batches received and not yet yielded, with the worker that sent each; `acked` once it was told it may go on. */
  queue: Batch[];
  /** Estimated bytes of the batches in `queue`. */
  held: number;
  done: boolean;
  replies: number;
  errors: number;
  formats: Set<CaptureFormat>;
}

interface Batch {
  events: WorkerEvent[];
  bytes: number;
  from: PoolWorker | AckWindow | null;
  acked: boolean;
}

interface PoolWorker {
  thread: Worker;
  task: Task | null;
  ready: boolean;
}

/** The INTERNAL_ERROR for a file whose worker died while reading it. */
export function workerFailure(file: string, what: string): CaptureError {
  return {
    file,
    line: null,
    code: 'INTERNAL_ERROR',
    message: `guard's worker thread failed while reading this file (${what}); the results before the failure are reported, the rest of the file was not scanned; please report it`,
    severity: 'error',
  };
}

/**
 * Scans the captures named by `args` like {@link import('./scan.js').scanInputs}, with the files
 * spread over up to `parallel.jobs` jobs: this thread and up to `parallel.jobs - 1` worker threads.
 *
 * @returns the same events in the same order as the one-thread scan (for the same inputs and
 *   engines), except that a file whose worker died ends with an INTERNAL_ERROR (line null) and a
 *   `file-end` counting what was received. With `setup.render`, a worker's replies and problems
 *   arrive as `rendered` events (report text and counts, src/scan/report-pipeline.ts) in their
 *   place; files read in this thread (stdin, or a scan without workers) still yield events.
 */
export async function* scanInputsParallel(args: string[], options: ScanOptions, parallel: ParallelOptions): AsyncGenerator<WorkerEvent> {
  const { inputs, errors } = parallel.expanded ? { inputs: args, errors: [] } : await expandInputs(args, options.cwd);
  for (const error of errors) yield { kind: 'error', error };
  const remote = inputs.filter((f) => f !== '-');
  let threads = Math.min(parallel.jobs, remote.length);
  if (parallel.auto && threads > 1) threads = Math.min(threads, Math.ceil((await totalBytes(remote, options.cwd)) / AUTO_BYTES_PER_THREAD));
  if (threads <= 1) {
    for (const file of inputs) yield* scanFile(file, options);
    return;
  }
  const pool = new Pool(inputs, options, parallel, threads);
  try {
    for (const task of pool.tasks) {
      if (task.file === '-') {
        yield* scanFile('-', options);
        task.done = true;
        continue;
      }
      for (;;) {
        const batch = task.queue.shift();
        if (batch) {
          task.held -= batch.bytes;
          yield* batch.events;
          pool.ack(batch);
          continue;
        }
        if (task.done) break;
        await pool.change();
      }
    }
  } finally {
    await pool.close();
  }
}

/** The summed size of the files in bytes (a file that cannot be stat'ed counts 0: its reader reports it). */
async function totalBytes(files: string[], cwd: string): Promise<number> {
  let sum = 0;
  for (const f of files) sum += await stat(resolve(cwd, f)).then((st) => st.size, () => 0);
  return sum;
}

/** The worker threads and the files they read. */
class Pool {
  readonly tasks: Task[];
  private readonly pending: Task[];
  private readonly workers = new Set<PoolWorker>();
  private current = 0;
  private wake: (() => void) | null = null;
  private closed = false;
  private readonly setup: WorkerSetup;
  private readonly heldBytes: number;
  private readonly script: URL;
  /**
   * The main thread as one of the jobs: it reads and judges files in its own event loop, between
   * writing the report, so `--jobs N` starts N - 1 worker threads (each thread has its own engines,
   * start-up and garbage collector: one thread fewer is less memory and less CPU).
   */
  private readonly local = new AckWindow();

  /** @param threads the jobs: this thread and threads - 1 worker threads. */
  constructor(inputs: string[], private readonly options: ScanOptions, parallel: ParallelOptions, threads: number) {
    this.tasks = inputs.map((file, index) => ({ index, file, queue: [], held: 0, done: false, replies: 0, errors: 0, formats: new Set() }));
    this.heldBytes = parallel.heldBytes ?? HELD_BYTES;
    this.script = parallel.workerUrl ?? workerUrl();
    this.pending = this.tasks.filter((t) => t.file !== '-');
    this.setup = { ...parallel.setup, read: options.read ?? {}, batch: parallel.setup.batch ?? DEFAULT_BATCH };
    const local = parallel.localJob !== false;
    for (let i = local ? 1 : 0; i < threads; i++) this.spawn();
    // this thread starts on the first file at once, while the workers load their engines
    if (local) void this.runLocal();
  }

  /** This thread's job: the next file in input order while any is left (see `local`). */
  private async runLocal(): Promise<void> {
    const local = this.local;
    for (let task = this.pending.shift(); task !== undefined && !local.stopped; task = this.pending.shift()) {
      let batch: ScanEvent[] = [];
      const flush = async (): Promise<void> => {
        await local.room();
        this.receive(task!, batch, local);
        local.sent();
        batch = [];
      };
      try {
        for await (const ev of scanFile(task.file, this.options)) {
          if (local.stopped || task.done) return; // closing, or every file failed (failRest)
          batch.push(ev);
          if (batch.length >= this.setup.batch) await flush();
        }
        if (batch.length > 0) await flush();
        task.done = true;
      } catch (e) {
        // scanFile reports bad input itself: this is a bug in guard, costing the rest of the file
        this.fail(task, e instanceof Error ? `${e.name}: ${e.message}` : String(e));
      }
      this.notify();
    }
  }

  /** Resolves at the next message or worker exit. */
  change(): Promise<void> {
    return new Promise((ok) => (this.wake = ok));
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** Tells the job that sent `batch` that the batch was taken (at most once). */
  ack(batch: Batch): void {
    if (batch.acked) return;
    batch.acked = true;
    if (batch.from instanceof AckWindow) batch.from.acked();
    else batch.from?.thread.postMessage({ type: 'ack' } satisfies ToWorker);
  }

  /**
   * Queues a batch of `task`'s events from a job: a later file's batches are taken at once up to
   * heldBytes; the current file's when the report takes them.
   */
  private receive(task: Task, events: WorkerEvent[], from: PoolWorker | AckWindow): void {
    let bytes = 0;
    for (const ev of events) {
      this.count(task, ev);
      bytes += eventBytes(ev);
    }
    const batch: Batch = { events, bytes, from, acked: false };
    task.queue.push(batch);
    task.held += bytes;
    if (task.index !== this.currentIndex() && task.held <= this.heldBytes) this.ack(batch);
    this.notify();
  }

  private spawn(): void {
    const thread = new Worker(this.script, { workerData: this.setup, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
    const w: PoolWorker = { thread, task: null, ready: false };
    this.workers.add(w);
    thread.on('message', (msg: FromWorker) => this.onMessage(w, msg));
    let failure: string | null = null;
    thread.on('error', (e) => (failure = `${e.name}: ${e.message}`));
    thread.on('exit', (code) => this.onExit(w, failure ?? `exit code ${code}`));
  }

  /** Gives the worker the next file in input order, if any. */
  private assign(w: PoolWorker): void {
    const task = this.pending.shift();
    w.task = task ?? null;
    if (!task) {
      void w.thread.terminate();
      return;
    }
    w.thread.postMessage({ type: 'task', task: task.index, file: task.file, abs: resolve(this.options.cwd, task.file) } satisfies ToWorker);
  }

  private onMessage(w: PoolWorker, msg: FromWorker): void {
    switch (msg.type) {
      case 'ready':
        w.ready = true;
        this.assign(w);
        return;
      case 'init-error':
        // the same config compiled in the main thread, so this is a bug: report it on every file left
        this.failRest(`the worker could not start: ${msg.message}`);
        void w.thread.terminate();
        return;
      case 'events':
        this.receive(this.tasks[msg.task]!, msg.events, w);
        return;
      case 'progress':
        this.options.onRead?.(this.tasks[msg.task]!.file, msg.bytes);
        return;
      case 'done': {
        const task = this.tasks[msg.task]!;
        task.done = true;
        this.assign(w);
        this.notify();
        return;
      }
    }
  }

  /** The index of the first task not yet fully yielded (an estimate: the consumer moves it). */
  private currentIndex(): number {
    while (this.current < this.tasks.length && this.tasks[this.current]!.done && this.tasks[this.current]!.queue.length === 0) this.current++;
    return this.current;
  }

  private count(task: Task, ev: WorkerEvent): void {
    if (ev.kind === 'rendered') {
      task.replies += ev.summary.replies;
      task.errors += ev.summary.errors + ev.summary.warnings;
      for (const f of ev.formats) task.formats.add(f);
    } else if (ev.kind === 'reply') {
      task.replies++;
      task.formats.add(ev.verdict.reply.format);
    } else if (ev.kind === 'error') task.errors++;
  }

  private onExit(w: PoolWorker, what: string): void {
    this.workers.delete(w);
    const task = w.task;
    if (!this.closed && task && !task.done) {
      this.fail(task, what);
      if (this.pending.length > 0) this.spawn();
    }
    this.notify();
  }

  /** Ends a task whose worker died: its INTERNAL_ERROR, then its file-end. */
  private fail(task: Task, what: string): void {
    if (task.done) return;
    const lastBatch = task.queue[task.queue.length - 1];
    const ended = lastBatch?.events[lastBatch.events.length - 1]?.kind === 'file-end';
    if (!ended) {
      task.errors++;
      const events: WorkerEvent[] = [
        { kind: 'error', error: workerFailure(task.file, what) },
        { kind: 'file-end', file: task.file, formats: [...task.formats], replies: task.replies, errors: task.errors },
      ];
      task.queue.push({ events, bytes: 0, from: null, acked: true });
    }
    task.done = true;
  }

  private failRest(what: string): void {
    this.closed = true;
    for (const task of this.tasks) if (task.file !== '-') this.fail(task, what);
    this.pending.length = 0;
    this.notify();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.local.stop();
    await Promise.all([...this.workers].map((w) => w.thread.terminate()));
  }
}
