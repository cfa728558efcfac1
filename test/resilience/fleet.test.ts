/**
 * The README's fleet example (Scanning at fleet scale): GNU parallel runs one `guard scan` per
 * capture file and concatenates the NDJSON in input order. Runs when `parallel` is on PATH.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ndjson, ROOT } from '../cli/helpers.js';

const hasParallel = spawnSync('sh', ['-c', 'command -v parallel'], { encoding: 'utf8' }).status === 0;
const GUARD = join(ROOT, 'bin/guard.js');

describe('scanning beyond one machine', () => {
  it.skipIf(!hasParallel)('GNU parallel over the files gives the same NDJSON as one scan of the directory', () => {
    // the README example, with `guard` spelled as the built binary
    const example = `find fixtures/capture/anthropic fixtures/capture/openai-chat -type f | LC_ALL=C sort \\
  | parallel --will-cite --keep-order --jobs 4 'node ${GUARD} scan --jobs 1 --format ndjson --quiet {}' > "$OUT"`;
    const out = join(ROOT, 'node_modules/.cache-fleet-test.ndjson');
    spawnSync('sh', ['-c', example], { cwd: ROOT, env: { ...process.env, OUT: out, NO_COLOR: '1' }, encoding: 'utf8' });
    const fleet = execFileSync('cat', [out], { encoding: 'utf8' });
    execFileSync('rm', ['-f', out]);
    const one = spawnSync(process.execPath, [GUARD, 'scan', 'fixtures/capture/anthropic', 'fixtures/capture/openai-chat', '--jobs', '1', '--format', 'ndjson', '--quiet'], { cwd: ROOT, encoding: 'utf8' });
    expect(one.stdout.length).toBeGreaterThan(3_000);
    expect(fleet).toBe(one.stdout);
    expect(new Set(ndjson(fleet).map((r) => r['file'])).size).toBe(6);
  }, 120_000);

  it.skipIf(!hasParallel)('a stream on stdin split into blocks of whole lines (parallel --pipe) reads every reply', () => {
    const r = spawnSync(
      'sh',
      ['-c', `cat fixtures/corpus/public.jsonl fixtures/corpus/team-quotations.jsonl | parallel --will-cite --pipe --block 12k --keep-order 'node ${GUARD} scan --jobs 1 --format ndjson --quiet -'`],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const records = ndjson(r.stdout);
    expect(records.filter((x) => 'recovery' in x)).toHaveLength(23 + 22);
    expect(records.every((x) => x['file'] === '-')).toBe(true);
  }, 120_000);
});
