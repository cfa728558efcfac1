import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/io.js';
import { megabytes, progressWanted, ScanProgress } from '../../src/cli/progress.js';

function io(stderr: { isTTY?: boolean; columns?: number }, env: Record<string, string> = {}): CliIO {
  return { stdout: new PassThrough(), stderr: Object.assign(new PassThrough(), stderr), stdin: new PassThrough(), env, cwd: '/' };
}

describe('progressWanted', () => {
  it('shows progress only on a terminal, outside CI, not under TERM=dumb or --quiet', () => {
    expect(progressWanted(io({ isTTY: true, columns: 120 }), false)).toBe(true);
    // a terminal of unknown width (0 columns): cli-progress draws 80 columns, at most ten times a second
    expect(progressWanted(io({ isTTY: true, columns: 0 }), false)).toBe(true);
    expect(progressWanted(io({ isTTY: true, columns: 30 }), false)).toBe(false);
    expect(progressWanted(io({ isTTY: false, columns: 120 }), false)).toBe(false);
    expect(progressWanted(io({ isTTY: true, columns: 120 }, { CI: 'true' }), false)).toBe(false);
    expect(progressWanted(io({ isTTY: true, columns: 120 }, { TERM: 'dumb' }), false)).toBe(false);
    expect(progressWanted(io({ isTTY: true, columns: 120 }), true)).toBe(false);
  });
});

describe('ScanProgress', () => {
  it('draws files, bytes, speed, ETA and findings, and ends with the throughput', async () => {
    const err = Object.assign(new PassThrough(), { isTTY: true, columns: 160 });
    let text = '';
    err.on('data', (d: Buffer) => (text += d.toString()));
    const p = new ScanProgress(err as never, ['-', '-'], '/');
    p.read('a', 5_000_000);
    await new Promise((r) => setTimeout(r, 250));
    p.setFindings(3);
    p.fileDone('a');
    p.read('b', 1_000_000);
    await new Promise((r) => setTimeout(r, 250));
    p.stop({ replies: 10, files: 2 });
    expect(text).toMatch(/scanning .* files 1\/2 \| [\d.]+\/[\d.?]+ MB \| [\d.]+ MB\/s \| ETA \S+ \| findings 3/);
    expect(text).toMatch(/guard: read 6\.00 MB in [\d.]+ s \([\d.]+ MB\/s\), 10 replies in 2 files\n$/);
    expect(megabytes(1_234_567)).toBe('1.23');
  });
});
