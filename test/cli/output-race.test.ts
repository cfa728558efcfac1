/**
 * Race-free output (issue: reliability): the report is written to a temporary file beside its
 * destination and renamed into place, so swapping `out.jsonl` for a link to the input between the
 * overwrite check and the end of the scan can never write into the input (a red-team run replaced
 * the input in 11 of 150 runs). The swap runs while guard scans.
 */
import { spawn } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const record = (i: number) => JSON.stringify({ id: `r${i}`, tools: ['bash'], text: `reply ${i}` });

function scan(dir: string): Promise<number> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/guard.js'), 'scan', '-q', '--jobs', '1', 'victim.jsonl', '-o', 'out.jsonl'], { cwd: dir, stdio: 'ignore' });
    child.on('exit', (code) => done(code ?? -1));
  });
}

describe('output files', () => {
  it('swapping the output for a link to the input during a scan never changes the input', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'guard-race-'));
    const victim = `${Array.from({ length: 3000 }, (_, i) => record(i)).join('\n')}\n`;
    writeFileSync(join(dir, 'victim.jsonl'), victim);
    try {
      for (let run = 0; run < 12; run++) {
        const out = join(dir, 'out.jsonl');
        try {
          unlinkSync(out);
        } catch {
          // not there
        }
        writeFileSync(out, '');
        const running = scan(dir);
        // swap repeatedly while the scan runs
        let swaps = 0;
        const timer = setInterval(() => {
          try {
            unlinkSync(out);
            if (swaps++ % 2 === 0) symlinkSync('victim.jsonl', out);
            else writeFileSync(out, '');
          } catch {
            // raced with guard's rename
          }
        }, 1);
        await running;
        clearInterval(timer);
        expect(readFileSync(join(dir, 'victim.jsonl'), 'utf8')).toBe(victim);
      }
      // no temporary file is left behind
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      expect(lstatSync(join(dir, 'victim.jsonl')).isFile()).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
