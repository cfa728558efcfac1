/** Tool-call arguments that repeat a key (issue 14 leftover): a warning names the call and key, and both values are inspected. */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { duplicatedKeys } from '../../src/inspection/readings.js';
import { ndjson, runGuard } from '../cli/helpers.js';

describe('duplicated keys in tool-call arguments', () => {
  it('duplicatedKeys lists the repeated top-level keys once each, in order, and nothing else', () => {
    expect(duplicatedKeys('{"command":"rm -rf /","cwd":"/","command":"ls","cwd":"/tmp","x":{"a":1,"a":2}}')).toEqual(['command', 'cwd']);
    expect(duplicatedKeys('{"comm\\u0061nd":"rm -rf /","command":"ls"}')).toEqual(['command']);
    expect(duplicatedKeys('{"command":"ls","x":{"command":"rm -rf /"}}')).toEqual([]);
    expect(duplicatedKeys('["a","a"]')).toEqual([]);
  });

  it('a call whose arguments say "rm -rf /" then "ls" for command is a DUPLICATE_KEY warning naming it, and the first value still hits (jobs 1 and 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'guard-dupkey-'));
    const file = join(dir, 'dup.jsonl');
    const args = '{"command":"rm -rf / --no-preserve-root","command":"ls"}';
    writeFileSync(file, `${JSON.stringify({ id: 'dup', tools: ['bash'], text: '', tool_calls: [{ id: 'c', name: 'bash', arguments: args }] })}\n${JSON.stringify({ id: 'one', tools: ['bash'], text: '', tool_calls: [{ id: 'd', name: 'bash', arguments: '{"command":"ls"}' }] })}\n`);
    for (const jobs of ['1', '2']) {
      const r = await runGuard(['scan', file, '-f', 'ndjson', '--jobs', jobs]);
      const records = ndjson(r.stdout);
      const warnings = records.filter((x) => x['error']);
      expect(warnings.map((w) => [w['line'], (w['error'] as Record<string, unknown>)['code'], (w['error'] as Record<string, unknown>)['severity']])).toEqual([[1, 'DUPLICATE_KEY', 'warning']]);
      expect((warnings[0]!['error'] as Record<string, unknown>)['message']).toContain('bash (call c): "command"');
      const dup = records.find((x) => x['id'] === 'dup')!;
      expect((dup['inspection'] as { hits: Array<{ rule: string }> }).hits.map((h) => h.rule)).toEqual(['rm-rf-root']);
      expect(r.code).toBe(1);
    }
  });
});
