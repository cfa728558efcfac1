/**
 * Files a scan reads besides its captures. Found by a red-team run: `--output` overwrote the
 * configuration file and the --baseline file, and a guard.config.yaml that is a link to nothing
 * was ignored (the scan ran with the defaults, silently).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, linkSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

describe('--output and a capture read on stdin (found by a red-team run: `scan - -o in.jsonl < in.jsonl` replaced the capture)', () => {
  /** Runs the built CLI with stdin redirected from `file`. */
  const withStdinFrom = (file: string, args: string[]) => {
    const fd = openSync(file, 'r');
    try {
      return spawnSync(process.execPath, [join(ROOT, 'bin/guard.js'), ...args], { cwd: dir, stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8' });
    } finally {
      closeSync(fd);
    }
  };

  it.each([
    ['scan', ['scan', '-', '-o']],
    ['baseline create', ['baseline', 'create', '-', '-o']],
  ])('%s refuses to write over the file on stdin, by name or hard link, and leaves it whole', (_name, args) => {
    const input = join(dir, 'stdin-in.jsonl');
    copyFileSync(FINDINGS, input);
    const hard = join(dir, 'stdin-hard.jsonl');
    rmSync(hard, { force: true });
    linkSync(input, hard);
    for (const out of [input, hard]) {
      const r = withStdinFrom(input, [...args, out]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`--output ${out} is the file read on stdin; refusing to overwrite it`);
    }
    expect(readFileSync(input, 'utf8')).toBe(readFileSync(FINDINGS, 'utf8'));
    // another output file is fine
    expect(withStdinFrom(input, [...args, join(dir, 'stdin-out.json')]).status).not.toBe(2);
  });
});

describe('guard.config.yaml in the working directory', () => {
  it('a symbolic link to nothing is a configuration error (exit 2), not the defaults', async () => {
    const cwd = join(dir, 'dangling');
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
