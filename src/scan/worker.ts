/**
 * A worker thread of `guard scan --jobs N`: initialises the engines once from the same
 * settings as the main thread (the bash grammar via initInspection, the rule set compiled from
 * the same settings), then reads and judges one file per task, sending its events in
 * batches. At most {@link WINDOW} batches are unacknowledged at a time, so a worker never runs far
 * ahead of the report being written.
 *
 * Run only as a worker (src/scan/parallel.ts starts it); importing it elsewhere does nothing.
 */

import { createReadStream } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { readCaptureBatches } from '../capture/read.js';
import { createJudge } from '../verdict/engines.js';
import type { JudgeOptions } from '../verdict/judge.js';
import { RenderingPipeline } from './report-pipeline.js';
import { readChunkBytes, replyEvents, slimmed, type ScanEvent } from './scan.js';
import { AckWindow, PROGRESS_MS, type FromWorker, type ToWorker, type WorkerSetup } from './worker-protocol.js';

/** Sends a message to the main thread. */
function send(msg: FromWorker): void {
  parentPort!.postMessage(msg);
}


async function runTask(task: number, file: string, abs: string, setup: WorkerSetup, judge: JudgeOptions, window: AckWindow): Promise<void> {
  let batch: ScanEvent[] = [];
  let batches = 0;
  const rendering = setup.render ? new RenderingPipeline(setup.render) : null;
  const flush = async (): Promise<void> => {
    await window.room();
    send({ type: 'events', task, events: rendering ? rendering.render(batch, file) : batch });
    window.sent();
    batch = [];
    batches++;
  };
  const input = createReadStream(abs, { highWaterMark: await readChunkBytes(abs) });
  let told = 0;
  for await (const items of readCaptureBatches(file, input, setup.read)) {
    const now = Date.now();
    if (now - told >= PROGRESS_MS) {
      told = now;
      send({ type: 'progress', task, bytes: input.bytesRead });
    }
    for (const item of items) {
      if (item.kind === 'reply') for (const ev of replyEvents(item.reply, judge)) batch.push(slimmed(ev, setup.slim === true && !rendering));
      else if (item.kind === 'error') batch.push({ kind: 'error', error: item.error });
      else batch.push(item);
      if (batch.length >= setup.batch) await flush();
    }
  }
  if (batch.length > 0 || batches === 0) await flush();
  send({ type: 'done', task });
}

async function main(): Promise<void> {
  if (!parentPort) return;
  const setup = workerData as WorkerSetup;
  let judge: JudgeOptions;
  try {
    judge = await createJudge(setup.settings);
  } catch (e) {
    send({ type: 'init-error', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
    return;
  }
  const window = new AckWindow();
  // tasks run one at a time, in the order they were given
  let chain: Promise<void> = Promise.resolve();
  parentPort.on('message', (msg: ToWorker) => {
    if (msg.type === 'ack') window.acked();
    else chain = chain.then(() => runTask(msg.task, msg.file, msg.abs, setup, judge, window));
  });
  send({ type: 'ready' });
}

void main();
