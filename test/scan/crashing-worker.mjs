// A test double of guard's scan worker (src/scan/worker.ts): the real worker, except that once it
// has sent a batch of events for a file whose path ends with `globalThis.guardTestCrashOn` (set by
// the small module ./events.ts crashingWorker writes, which then imports this one), it dies with an uncaught exception, as a bug in guard's own code would throw.
// Injected by tests through ParallelOptions.workerUrl; guard itself ships no such hook.
import { parentPort } from 'node:worker_threads';

const crashOn = globalThis.guardTestCrashOn ?? '\u0000';
const files = new Map();
parentPort.on('message', (msg) => {
  if (msg.type === 'task') files.set(msg.task, msg.file);
});
const post = parentPort.postMessage.bind(parentPort);
let crashed = false;
parentPort.postMessage = (msg) => {
  if (crashed) return; // dying: nothing more reaches the main thread
  post(msg);
  if (msg.type === 'events' && (files.get(msg.task) ?? '').endsWith(crashOn)) {
    crashed = true;
    setImmediate(() => {
      throw new Error(`test crash on ${files.get(msg.task)}`);
    });
  }
};
await import(new URL('../../dist/scan/worker.js', import.meta.url).href);
