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
