/**
 * Done-when of issue 7: replaying a clean capture in observe mode gives back a stream whose
 * parsed content (text, calls, finish reason) equals the original, and `guard scan` says the
 * same about both. Runs over every SSE and chunk fixture, and over every SSE file of
 * ../shared/captures when that folder exists (skipped otherwise).
 */

import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCapture } from '../../src/capture/read.js';
import { ndjson, ROOT, runGuard } from '../cli/helpers.js';

const SHARED = join(ROOT, '../shared/captures');

function filesIn(dir: string, pattern: RegExp): string[] {
  return existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir).filter((f) => pattern.test(f)).map((f) => join(dir, f)) : [];
}

const FIXTURES = [
  ...filesIn(join(ROOT, 'fixtures/capture/sse'), /\.sse$/),
  ...filesIn(join(ROOT, 'fixtures/capture/chunks'), /\.chunks\.jsonl$/),
];
const SHARED_SSE = existsSync(SHARED)
  ? readdirSync(SHARED).flatMap((d) => filesIn(join(SHARED, d), /\.sse$/))
  : [];

/** What a scan says about each reply, without the file name. */
function verdicts(stdout: string): unknown[] {
  return ndjson(stdout)
    .filter((r) => r['recovery'] !== undefined || r['code'] !== undefined)
    .map(({ file: _file, ...rest }) => rest);
}

/** Text, calls, finish reason and truncation of every reply the capture layer reads. */
async function contentOf(file: string, text: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of readCapture(file, Readable.from([Buffer.from(text)]))) {
    if (item.kind !== 'reply') continue;
    const r = item.reply;
    out.push({ text: r.text, reasoning: r.reasoning, calls: r.toolCalls, finishReason: r.finishReason, truncated: r.truncated, id: r.id });
  }
  return out;
}

async function checkFile(file: string): Promise<void> {
  const out = await runGuard(['replay', file, '--mode', 'observe']);
  expect(out.stderr.trim().split('\n').length).toBeGreaterThan(0);
  const decisions = ndjson(out.stderr);
  expect(decisions.at(-1)).toMatchObject({ type: 'summary', recovered: 0, cut: false });
  expect(decisions.filter((d) => d['type'] === 'recovered' || d['type'] === 'cut')).toEqual([]);
  const original = await contentOf(file, readFileSync(file, 'utf8'));
  expect(original.length).toBeGreaterThan(0);
  expect(await contentOf(file, out.stdout)).toEqual(original);
  const dir = mkdtempSync(join(tmpdir(), 'guard-replay-'));
  const copy = join(dir, basename(file));
  writeFileSync(copy, out.stdout);
  const before = await runGuard(['scan', file, '-f', 'ndjson', '-q']);
  const after = await runGuard(['scan', copy, '-f', 'ndjson', '-q']);
  expect(after.code).toBe(before.code);
  expect(verdicts(before.stdout).length).toBeGreaterThan(0);
  expect(verdicts(after.stdout)).toEqual(verdicts(before.stdout));
  // nothing was held back on these captures beyond a partial token: the bytes are the same
  const held = decisions.at(-1)!['max_held_chars'] as number;
  if (held === 0) expect(out.stdout).toBe(readFileSync(file, 'utf8'));
}

describe('replay of clean captures in observe mode', () => {
  it('has fixtures to run on', () => {
    expect(FIXTURES.length).toBeGreaterThanOrEqual(30);
  });
  it.each(FIXTURES.map((f) => [basename(f), f]))('%s', async (_name, file) => {
    await checkFile(file);
  });
});

describe.skipIf(SHARED_SSE.length === 0)('replay of ../shared/captures SSE files in observe mode', () => {
  it.each(SHARED_SSE.map((f) => [basename(f), f]))('%s', async (_name, file) => {
    await checkFile(file);
  });
});
