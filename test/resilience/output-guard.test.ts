/**
 * `--output` never overwrites an input of the scan, however it is named: the path itself (tested
 * in test/cli/report-output.test.ts), a symbolic link to it, a hard link to it, or a relative
 * spelling of it. The input is left byte for byte.
 */

import { linkSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGuard } from '../cli/helpers.js';

let dir: string;
const CAPTURE = '{"id":"a","tools":["bash"],"text":"","tool_calls":[{"name":"bash","arguments":{"command":"rm -rf /"}}]}\n';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'guard-output-'));
  writeFileSync(join(dir, 'caps.jsonl'), CAPTURE);
  symlinkSync(join(dir, 'caps.jsonl'), join(dir, 'soft.jsonl'));
  linkSync(join(dir, 'caps.jsonl'), join(dir, 'hard.jsonl'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--output refuses to overwrite an input', () => {
  for (const [what, output] of [
    ['a symbolic link to the input', 'soft.jsonl'],
    ['a hard link to the input', 'hard.jsonl'],
    ['a relative spelling of the input', './sub/../caps.jsonl'],
  ] as const) {
    it(`refuses ${what} (exit 2), with --jobs 1 and --jobs 2`, async () => {
      for (const jobs of ['1', '2']) {
        const r = await runGuard(['scan', 'caps.jsonl', '--format', 'ndjson', '-o', output, '--jobs', jobs], { cwd: dir });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain('is an input of this scan');
        expect(readFileSync(join(dir, 'caps.jsonl'), 'utf8')).toBe(CAPTURE);
      }
    });
  }
});
