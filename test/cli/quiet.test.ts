/**
 * `--quiet` as ESLint defines it: only what fails the scan. Bug: `guard scan -q` with the text
 * format still printed every finding (quotations, recovered leaks) and the closing summary.
 */

import { describe, expect, it } from 'vitest';
import { runGuard } from './helpers.js';

const FILE = 'fixtures/capture/guard-reply/public-leaks.jsonl';

describe('guard scan -q (text)', () => {
  it('lists only the failing findings, with no summary', async () => {
    const full = await runGuard(['scan', FILE]);
    const quiet = await runGuard(['scan', '-q', FILE]);
    expect(quiet.code).toBe(full.code);
    expect(quiet.code).toBe(1);
    const lines = (t: string) => t.split('\n').filter((l) => /^ {2}[✗·] /.test(l));
    const failing = lines(full.stdout).filter((l) => l.startsWith('  ✗'));
    expect(lines(full.stdout).length).toBeGreaterThan(failing.length); // the capture has non-failing findings too
    expect(lines(quiet.stdout)).toEqual(failing);
    expect(failing).toHaveLength(4);
    expect(quiet.stdout).not.toContain('guard:');
    expect(quiet.stdout).not.toContain('exit 1');
    expect(quiet.stderr).toBe('');
  });

  it('prints nothing when nothing fails, and keeps the exit code', async () => {
    const r = await runGuard(['scan', '-q', '--fail-on', 'block', FILE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
  });

  it('lists error-level input problems, not warnings', async () => {
    const r = await runGuard(['scan', '-q', 'fixtures/capture/anthropic-batch/results-with-errored-expired-canceled.synthetic.jsonl', 'fixtures/bad-input']);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/ error [A-Z_]+ /);
    expect(r.stdout).not.toMatch(/ warning [A-Z_]+ /);
  });

  it('refuses --quiet with --verbose', async () => {
    const r = await runGuard(['scan', '-q', '-v', FILE]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--quiet lists only what fails the scan and --verbose every reply: give one');
  });
});
