/**
 * Files a scan reads besides its captures. Found by a red-team run: `--output` overwrote the
 * configuration file and the --baseline file, and a guard.config.yaml that is a link to nothing
 * was ignored (the scan ran with the defaults, silently).
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runGuard } from './helpers.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'guard-other-inputs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FINDINGS = join(ROOT, 'fixtures/cli/findings.jsonl');

describe('--output never overwrites a file the scan reads', () => {
  it('refuses the configuration file (exit 2) and leaves it as it was', async () => {
    const cfg = join(dir, 'cfg.yaml');
    writeFileSync(cfg, 'inspection:\n  mode: observe\n');
    const r = await runGuard(['scan', FINDINGS, '-c', cfg, '-f', 'json', '-o', cfg]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`guard: --output ${cfg} is the configuration file of this scan (${cfg}); refusing to overwrite it\n`);
    expect(readFileSync(cfg, 'utf8')).toBe('inspection:\n  mode: observe\n');
  });

  it('refuses the --baseline file, also through a symbolic link', async () => {
    const base = join(dir, 'base.json');
    expect((await runGuard(['baseline', 'create', FINDINGS, '-o', base])).code).toBe(0);
    const before = readFileSync(base, 'utf8');
    const link = join(dir, 'link.json');
    symlinkSync(base, link);
    for (const out of [base, link]) {
      const r = await runGuard(['scan', FINDINGS, '--baseline', base, '-o', out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`is the --baseline file of this scan (${base}); refusing to overwrite it`);
    }
    expect(readFileSync(base, 'utf8')).toBe(before);
  });
});

describe('guard.config.yaml in the working directory', () => {
  it('a symbolic link to nothing is a configuration error (exit 2), not the defaults', async () => {
    const cwd = join(dir, 'dangling');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(cwd);
    symlinkSync(join(dir, 'missing.yaml'), join(cwd, 'guard.config.yaml'));
    const r = await runGuard(['scan', FINDINGS], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('guard: invalid configuration\nguard.config.yaml: cannot read the configuration (a symbolic link to a file that does not exist)\n');
  });

  it('no file at all still means the built-in defaults', async () => {
    const r = await runGuard(['scan', FINDINGS, '-f', 'ndjson', '-q'], { cwd: dir });
    expect(r.code).toBe(1);
  });
});
