/**
 * Hostile inputs of reliability round 9 (issue 14), each the input that showed the problem,
 * generated on the fly: guard runs as a separate process with a small heap, so a blow-up is a
 * crash here rather than a slow test.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'guard-bad-input-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `guard ARGS` in a process whose JavaScript heap is capped at `heapMiB`. */
function guardWithHeap(heapMiB: number, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [`--max-old-space-size=${heapMiB}`, join(ROOT, 'bin/guard.js'), ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('bad input in bounded memory', () => {
  it('an SSE stream followed by 3 million blank lines: the layout sniff keeps one of them, not all (a 20 million-line run took 1.9 GB)', () => {
    const file = join(dir, 'blank-run.sse');
    const chunk = '{"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"hi"}}]}';
    writeFileSync(file, `data: ${chunk}\n${'\n'.repeat(3_000_000)}data: [DONE]\n\n`);
    // the blank lines held as line objects need some 300 MB; guard itself needs under 64 MB
    const r = guardWithHeap(96, ['scan', '--jobs', '1', '-f', 'ndjson', '-q', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { line: number; format: string; truncated: boolean });
    expect(records.map((x) => [x.line, x.format, x.truncated])).toEqual([[1, 'openai-chat-sse', false]]);
  }, 60_000);
});
