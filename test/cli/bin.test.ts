// Spawned runs of the built launcher (npm test builds dist/ first).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ndjson, ROOT } from './helpers.js';

const BIN = join(ROOT, 'bin', 'guard.js');

function guard(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!existsSync(join(ROOT, 'dist', 'cli', 'main.js')))('bin/guard.js', () => {
  it('prints its version', () => {
    const r = guard(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('writes the text report when piped too (machine formats need -f), ending with its summary; exit 1 on findings', () => {
    const text = guard(['scan', 'fixtures/cli/findings.jsonl']);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^\nfixtures\/cli\/findings\.jsonl \(guard-reply\)  4 replies · 3 findings · 1 clean\n/);
    expect(text.stdout).toContain('curl-pipe-shell');
    expect(text.stdout).toMatch(/guard: 4 replies in 1 file · 3 findings in 1 file\n/);
    expect(text.stderr).toBe('');
    const r = guard(['scan', '-f', 'ndjson', 'fixtures/cli/findings.jsonl']);
    expect(r.code).toBe(1);
    const recs = ndjson(r.stdout);
    expect(recs.map((x) => x.id)).toEqual(['clean', 'hermes-leak', 'unadvertised-leak', 'dangerous-call']);
    expect(r.stderr).toContain('guard: 1 file, 4 replies; leaks recovered 1, refused 1 (unadvertised 1); rule hits 1');
    expect(r.stderr).toContain('hits by rule: curl-pipe-shell 1');
  });

  it('reads a piped capture from stdin and exits 0 when clean', () => {
    const r = guard(['scan', '-f', 'ndjson', '-'], `${JSON.stringify({ id: 'x', tools: ['bash'], text: 'fine' })}\n`);
    expect(r.code).toBe(0);
    expect(ndjson(r.stdout)).toMatchObject([{ file: '-', line: 1, id: 'x' }]);
  });

  it('exits 2 on malformed input and names the line', () => {
    const r = guard(['scan', '-f', 'text', 'fixtures/cli/malformed.jsonl']);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/malformed\.jsonl:2  error INVALID_JSON/);
  });

  it('exits 2 with a usage message for an unknown option', () => {
    const r = guard(['scan', '--no-such-flag']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--no-such-flag'");
  });

  it('loads the YAML parser and the schema validator only when there is a configuration file', () => {
    // which CommonJS packages a scan loaded, seen from inside the process (start-up cost: docs/performance.md)
    const script = (args: string[]) => `
      const { createRequire } = await import('node:module');
      const { run } = await import(${JSON.stringify(join(ROOT, 'dist', 'cli', 'program.js'))});
      const sink = { write: () => true, isTTY: false, writableNeedDrain: false, on() {}, once() {} };
      const code = await run(${JSON.stringify(args)}, { stdout: sink, stderr: sink, stdin: process.stdin, env: {}, cwd: ${JSON.stringify(ROOT)} });
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify({ code, ajv: loaded.some((f) => f.includes('/ajv/')), yaml: loaded.some((f) => f.includes('/yaml/')) }));`;
    const probe = (args: string[]) => {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script(args)], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    };
    expect(probe(['scan', '-q', '--jobs', '1', 'fixtures/cli/findings.jsonl'])).toEqual({ code: 1, ajv: false, yaml: false });
    expect(probe(['scan', '-q', '--jobs', '1', '-c', 'fixtures/inspection/config/valid.yaml', 'fixtures/cli/findings.jsonl'])).toEqual({ code: 1, ajv: true, yaml: true });
  }, 120_000);

  it('loads the grammars, RE2, the glob matcher, the event stream decoder and the progress bar only when they are used', () => {
    // the CommonJS packages a scan loaded (start-up cost of a cached rescan: docs/performance.md "Incremental rescans")
    const packages = ['web-tree-sitter', 're2-wasm', 'fast-glob', '@smithy/eventstream-codec', 'cli-progress'];
    const script = (args: string[]) => `
      const { createRequire } = await import('node:module');
      const { run } = await import(${JSON.stringify(join(ROOT, 'dist', 'cli', 'program.js'))});
      const sink = { write: () => true, isTTY: false, writableNeedDrain: false, on() {}, once() {} };
      const code = await run(${JSON.stringify(args)}, { stdout: sink, stderr: sink, stdin: process.stdin, env: {}, cwd: ${JSON.stringify(ROOT)} });
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify({ code, loaded: ${JSON.stringify(packages)}.filter((p) => loaded.some((f) => f.includes('/node_modules/' + p + '/'))) }));`;
    const probe = (args: string[]) => {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script(args)], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    };
    const cacheDir = mkdtempSync(join(tmpdir(), 'guard-bin-cache-'));
    try {
      const cached = ['scan', '-q', '--jobs', '1', '-f', 'ndjson', '--cache', '--cache-location', join(cacheDir, 'c'), 'fixtures/cli/findings.jsonl'];
      // a scan judges: the shell parser (RE2 only once a rule's pattern is needed: none is for these replies)
      expect(probe(cached)).toEqual({ code: 1, loaded: ['web-tree-sitter'] });
      // a rescan replaying every file judges nothing
      expect(probe(cached)).toEqual({ code: 1, loaded: [] });
      expect(probe(['scan', '-q', '--jobs', '1', 'fixtures/cli/*.jsonl'])).toMatchObject({ code: 2, loaded: expect.arrayContaining(['web-tree-sitter', 'fast-glob']) });
      expect(probe(['scan', '-q', '--jobs', '1', 'fixtures/cli/*.jsonl']).loaded).not.toContain('cli-progress');
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }, 120_000);
});
