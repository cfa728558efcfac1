/**
 * The README's fleet example (Scanning at fleet scale): GNU parallel runs one `guard scan` per
 * capture file and concatenates the NDJSON in input order. Runs when `parallel` is on PATH.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ndjson, ROOT } from '../cli/helpers.js';

const hasParallel = spawnSync('sh', ['-c', 'command -v parallel'], { encoding: 'utf8' }).status === 0;
const GUARD = join(ROOT, 'bin/guard.js');

describe('scanning beyond one machine', () => {
  it.skipIf(!hasParallel)('GNU parallel over the files gives the same NDJSON as one scan of the directories, and the job log keeps each exit code', () => {
    // the README example (find by extension, -n files per process, --joblog), with `guard` spelled
    // as the built binary, 2 files per process, and a directory of unreadable input among them
    const log = join(ROOT, 'node_modules/.cache-fleet-test.tsv');
    const out = join(ROOT, 'node_modules/.cache-fleet-test.ndjson');
    const find = `find fixtures/capture/anthropic fixtures/capture/openai-chat fixtures/bad-input -type f \\( -name '*.jsonl' -o -name '*.ndjson' -o -name '*.json' -o -name '*.sse' -o -name '*.txt' -o -name '*.log' \\) | LC_ALL=C sort`;
    const example = `${find} \\
  | parallel --will-cite --keep-order --jobs 4 -n 2 --joblog "$LOG" \\
      'node ${GUARD} scan --jobs 1 --format ndjson --quiet {}' > "$OUT"`;
    const run = spawnSync('sh', ['-c', example], { cwd: ROOT, env: { ...process.env, OUT: out, LOG: log, NO_COLOR: '1' }, encoding: 'utf8' });
    const fleet = readFileSync(out, 'utf8');
    const exits = readFileSync(log, 'utf8').trim().split('\n').slice(1).map((l) => Number(l.split('\t')[6]));
    rmSync(out);
    rmSync(log);
    const files = execFileSync('sh', ['-c', find], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n');
    const one = spawnSync(process.execPath, [GUARD, 'scan', ...files, '--jobs', '1', '--format', 'ndjson', '--quiet'], { cwd: ROOT, encoding: 'utf8' });
    expect(one.stdout.length).toBeGreaterThan(3_000);
    expect(fleet).toBe(one.stdout);
    expect(one.status).toBe(2);
    // parallel counts failed jobs (its exit code); the job log keeps which exited 2 (input not read)
    expect(run.status).toBe(exits.filter((e) => e !== 0).length);
    expect(exits).toContain(2);
    expect(exits.length).toBe(Math.ceil(files.length / 2));
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
