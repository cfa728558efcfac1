/**
 * A report that cannot be written never passes: a full disk (/dev/full answers every write with
 * ENOSPC) under --output, --events or stdout ends guard with exit 2 and a message naming the file.
 * Found by a red-team run: --output /dev/full exited 0 or 1 with no message and no report, and a
 * full stdout crashed with a stack trace and exit 1.
 */
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runGuard } from './helpers.js';

const FULL = '/dev/full';

describe.skipIf(!existsSync(FULL))('writing to a full disk', () => {
  it.each([
    ['json', '1'],
    ['sarif', '2'],
    ['ndjson', '1'],
    ['ndjson', '2'],
    ['junit', '1'],
    ['html', '1'],
    ['markdown', '1'],
    ['text', '1'],
    ['github', '1'],
  ])('scan -f %s --jobs %s -o /dev/full: exit 2, the file named', async (format, jobs) => {
    const r = await runGuard(['scan', 'fixtures/capture', '-f', format, '--jobs', jobs, '-o', FULL, '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`guard: cannot write --output ${FULL}: ENOSPC: no space left on device, write; the output is incomplete\n`);
  });

  it('replay --events /dev/full: exit 2, the file named', async () => {
    const r = await runGuard(['replay', 'fixtures/capture/sse/synthetic-openai-chat-interleaved-tool-calls.sse', '--events', FULL]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`guard: cannot write --events ${FULL}: ENOSPC: no space left on device, write; the output is incomplete\n`);
  });

  it('stdout on a full disk: exit 2 with a message, no stack trace', () => {
    const fd = openSync(FULL, 'w');
    try {
      const r = spawnSync(process.execPath, [join(ROOT, 'bin/guard.js'), 'scan', 'fixtures/cli/findings.jsonl', '-f', 'ndjson', '-q'], { cwd: ROOT, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toBe('guard: cannot write to stdout (ENOSPC: no space left on device, write); the output is incomplete; exit 2\n');
    } finally {
      closeSync(fd);
    }
  });

  it('stdout on a full disk, one line on stderr every time: no summary before the error (found by red-team round 2)', () => {
    const fd = openSync(FULL, 'w');
    try {
      for (const format of ['junit', 'ndjson', 'json']) {
        for (let i = 0; i < 3; i++) {
          const r = spawnSync(process.execPath, [join(ROOT, 'bin/guard.js'), 'scan', 'fixtures/cli/clean.jsonl', '-f', format, '--jobs', '1'], { cwd: ROOT, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
          expect([r.status, r.stderr]).toEqual([2, 'guard: cannot write to stdout (ENOSPC: no space left on device, write); the output is incomplete; exit 2\n']);
        }
      }
    } finally {
      closeSync(fd);
    }
  }, 180_000);

  it('stderr on a full disk: exit 2 (the summary cannot be written), stdout still complete', () => {
    const fd = openSync(FULL, 'w');
    try {
      const scan = spawnSync(process.execPath, [join(ROOT, 'bin/guard.js'), 'scan', 'fixtures/cli/clean.jsonl', '-f', 'ndjson'], { cwd: ROOT, stdio: ['ignore', 'pipe', fd], encoding: 'utf8' });
      expect(scan.status).toBe(2);
      expect(scan.stdout.trim().split('\n').length).toBeGreaterThan(0);
      const replay = spawnSync(process.execPath, [join(ROOT, 'bin/guard.js'), 'replay', 'fixtures/replay/anthropic-dangerous-call.sse'], { cwd: ROOT, stdio: ['ignore', 'pipe', fd], encoding: 'utf8' });
      expect(replay.status).toBe(2);
    } finally {
      closeSync(fd);
    }
  });

  it('a writable --output still gets the whole report (exit 1 for the findings)', async () => {
    const out = join(ROOT, 'node_modules', '.write-errors-test.ndjson');
    const r = await runGuard(['scan', 'fixtures/cli/findings.jsonl', '-f', 'ndjson', '-o', out, '-q']);
    expect(r.code).toBe(1);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(4);
    rmSync(out);
  });
});
