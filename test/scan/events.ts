import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
/** Test helper: every event of a scan, in order. */
import type { ScanEvent } from '../../src/scan/scan.js';
import type { WorkerEvent } from '../../src/scan/worker-protocol.js';

/**
 * Collects a scan's events. Scans started without `setup.render` yield only scan events; a
 * `rendered` event here is a bug, so it throws.
 */
export async function collectEvents(events: AsyncIterable<WorkerEvent>): Promise<ScanEvent[]> {
  const out: ScanEvent[] = [];
  for await (const ev of events) {
    if (ev.kind === 'rendered') throw new Error(`unexpected rendered event for ${ev.file}`);
    out.push(ev);
  }
  return out;
}

/**
 * The URL of a worker script that runs the test double of the scan worker (./crashing-worker.mjs),
 * which dies after its first batch of a file whose path ends with `suffix`. Worker URLs lose their
 * query string, so the suffix is written into a small module of its own, in a temporary folder.
 */
export function crashingWorker(suffix: string): URL {
  const dir = mkdtempSync(join(tmpdir(), 'guard-crash-'));
  const file = join(dir, 'worker.mjs');
  const double = new URL('./crashing-worker.mjs', import.meta.url).href;
  writeFileSync(file, `globalThis.guardTestCrashOn = ${JSON.stringify(suffix)};\nawait import(${JSON.stringify(double)});\n`);
  return pathToFileURL(file);
}
