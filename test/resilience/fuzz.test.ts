/**
 * Property tests (fast-check): random byte mutations and truncations of every capture fixture
 * never crash guard, never hang it (each input is read and judged within a time bound), report
 * every problem with its file and line, and leave every intact reply scanned.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';
import type { ReplyVerdict } from '../../src/verdict/judge.js';
import { scanBytes, WHOLE_FILE_CODES, type ScanResult } from './helpers.js';

const FIXTURES = join(ROOT, 'fixtures/capture');
/** Most time one mutated fixture may take to read and judge (they are at most ~100 KB). */
const BOUND_MS = 3000;

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? filesUnder(p) : /\.(jsonl|json|sse|ndjson|har|eventstream|yaml|yml|traj|history|md)$/.test(name) && name !== 'manifest.yaml' && name !== 'README.md' ? [p] : [];
    });
}

const fixtures = filesUnder(FIXTURES).map((path) => ({ name: relative(ROOT, path), bytes: readFileSync(path) }));

/** The number of lines of `bytes` as the line reader counts them (LF, CRLF and lone CR end a line). */
function lineCount(bytes: Buffer): number {
  const text = bytes.toString('latin1');
  const ends = text.match(/\r\n|\r|\n/g)?.length ?? 0;
  return ends + (/[\r\n]$/.test(text) || text.length === 0 ? 0 : 1);
}

/** A binary capture (an AWS event stream body): its problems name a frame or a byte offset instead of a line. */
const isBinary = (name: string): boolean => name.endsWith('.eventstream');

/** Every problem names the file, and a line within it (a frame or byte offset in a binary capture) unless it concerns the whole file. */
function expectLocated(r: ScanResult, name: string, bytes: Buffer): void {
  expect(r.ends).toBe(1);
  expect(r.ms).toBeLessThan(BOUND_MS);
  const lines = Math.max(1, lineCount(bytes));
  for (const e of r.errors) {
    expect(e.file).toBe(name);
    expect(e.code).not.toBe('INTERNAL_ERROR');
    if (e.line === null && isBinary(name) && !WHOLE_FILE_CODES.has(e.code)) expect(e.message, `${e.code} in a binary capture names no frame: ${e.message}`).toMatch(/\bframe \d+|byte offset \d+/);
    else if (e.line === null) expect(WHOLE_FILE_CODES.has(e.code), `${e.code} without a line: ${e.message}`).toBe(true);
    else {
      expect(Number.isInteger(e.line)).toBe(true);
      expect(e.line).toBeGreaterThanOrEqual(1);
      expect(e.line).toBeLessThanOrEqual(lines);
    }
  }
  for (const v of r.verdicts) {
    expect(v.reply.source.file).toBe(name);
    expect(v.reply.source.line).toBeGreaterThanOrEqual(1);
    expect(v.reply.source.line).toBeLessThanOrEqual(lines);
  }
}

/** A fixture with a list of byte edits: overwrite, insert, delete, at positions scaled to its length. */
const mutation = fc.record({
  fixture: fc.nat({ max: fixtures.length - 1 }),
  edits: fc.array(
    fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), kind: fc.constantFrom('set', 'insert', 'delete'), byte: fc.integer({ min: 0, max: 255 }) }),
    { minLength: 1, maxLength: 8 },
  ),
  cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
});

function applyEdits(bytes: Buffer, edits: Array<{ at: number; kind: string; byte: number }>): Buffer {
  let b = Buffer.from(bytes);
  for (const e of edits) {
    const i = Math.min(b.length, Math.floor(e.at * b.length));
    if (e.kind === 'set' && i < b.length) b[i] = e.byte;
    else if (e.kind === 'insert') b = Buffer.concat([b.subarray(0, i), Buffer.from([e.byte]), b.subarray(i)]);
    else if (e.kind === 'delete' && i < b.length) b = Buffer.concat([b.subarray(0, i), b.subarray(i + 1)]);
  }
  return b;
}

describe('fuzzing the capture fixtures', () => {
  it(`reads ${fixtures.length} fixtures (the property below covers each)`, () => {
    expect(fixtures.length).toBeGreaterThan(90);
    // the new readers' fixtures are among them: Ollama NDJSON, HAR, binary event streams
    for (const ext of ['.ndjson', '.har', '.eventstream']) expect(fixtures.some((f) => f.name.endsWith(ext)), ext).toBe(true);
    // and the readers of files that are not JSON by name: Aider's chat and LLM histories, SWE-agent's .traj
    for (const ext of ['.aider.chat.history.md', '.aider.llm.history', '.traj']) expect(fixtures.some((f) => f.name.endsWith(ext)), ext).toBe(true);
    // every capture format's folder has a fixture the properties mutate
    for (const dir of readdirSync(FIXTURES).filter((d) => statSync(join(FIXTURES, d)).isDirectory())) expect(fixtures.some((f) => f.name.startsWith(`fixtures/capture/${dir}/`)), dir).toBe(true);
  });

  it('never crashes or hangs on random byte edits, and locates every problem', async () => {
    await fc.assert(
      fc.asyncProperty(mutation, async ({ fixture, edits, cuts }) => {
        const { name, bytes } = fixtures[fixture]!;
        const mutated = applyEdits(bytes, edits);
        const r = await scanBytes(name, mutated, cuts.map((c) => Math.floor(c * mutated.length)));
        expectLocated(r, name, mutated);
      }),
      { numRuns: 1000, seed: 8 },
    );
  });

  it('never crashes or hangs on any truncation of any fixture (every 1/16th of each, and random cuts)', async () => {
    for (const { name, bytes } of fixtures) {
      for (let k = 0; k < 16; k++) {
        const cut = bytes.subarray(0, Math.floor((bytes.length * k) / 16));
        expectLocated(await scanBytes(name, cut), name, cut);
      }
    }
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: fixtures.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), async (f, at) => {
        const { name, bytes } = fixtures[f]!;
        const cut = bytes.subarray(0, Math.floor(at * bytes.length));
        expectLocated(await scanBytes(name, cut), name, cut);
      }),
      { numRuns: 200, seed: 9 },
    );
  });
});

/**
 * JSON Lines fixtures whose records each sit on one line (a line may hold several replies: the
 * choices of one Chat completion), so a damaged line can cost only its own replies.
 */
const ONE_REPLY_PER_LINE = [
  'fixtures/capture/anthropic/message.synthetic.jsonl',
  'fixtures/capture/openai-chat/completions.synthetic.jsonl',
  'fixtures/capture/guard-reply/public-leaks.jsonl',
  'fixtures/corpus/public.jsonl',
  'fixtures/corpus/team-leaks.jsonl',
  'fixtures/corpus/team-quotations.jsonl',
];

/** Verdicts by `line#k`, the k-th reply read from that line. */
function keyed(verdicts: ReplyVerdict[]): Map<string, ReplyVerdict> {
  const out = new Map<string, ReplyVerdict>();
  for (const v of verdicts) {
    let k = 0;
    while (out.has(`${v.reply.source.line}#${k}`)) k++;
    out.set(`${v.reply.source.line}#${k}`, v);
  }
  return out;
}

describe('a damaged line costs only its own reply', () => {
  const files = ONE_REPLY_PER_LINE.map((name) => ({ name, bytes: readFileSync(join(ROOT, name)) }));

  it('the clean files give one reply per line', async () => {
    for (const { name, bytes } of files) {
      const r = await scanBytes(name, bytes);
      const lines = bytes.toString('utf8').trimEnd().split('\n').length;
      expect([...new Set(r.verdicts.map((v) => v.reply.source.line))]).toEqual(Array.from({ length: lines }, (_, i) => i + 1));
      expect(r.errors).toEqual([]);
    }
  });

  it('every other line is still scanned, with the same verdicts, when any one line, the first too, is damaged', async () => {
    const clean = await Promise.all(files.map(async (f) => scanBytes(f.name, f.bytes)));
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: files.length - 1 }),
        fc.nat(),
        fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), kind: fc.constantFrom('set', 'insert', 'delete'), byte: fc.integer({ min: 1, max: 255 }).filter((b) => b !== 0x0a && b !== 0x0d) }), { minLength: 1, maxLength: 6 }),
        async (f, lineSeed, edits) => {
          const { name, bytes } = files[f]!;
          const lines = bytes.toString('utf8').trimEnd().split('\n');
          // any line, the first too: sniffLayout looks past a damaged first line (src/capture/detect.ts)
          const target = lineSeed % lines.length;
          const damaged = lines.map((l, i) => (i === target ? applyEdits(Buffer.from(l), edits) : Buffer.from(l)));
          const mutated = Buffer.concat(damaged.flatMap((b) => [b, Buffer.from('\n')]));
          const r = await scanBytes(name, mutated);
          expectLocated(r, name, mutated);
          const byLine = keyed(r.verdicts);
          for (const [key, before] of keyed(clean[f]!.verdicts)) {
            if (before.reply.source.line === target + 1) continue;
            const after = byLine.get(key);
            expect(after, `line ${before.reply.source.line} of ${name} lost after damaging line ${target + 1}`).toBeDefined();
            expect(after!.recovery).toEqual(before.recovery);
            expect(after!.inspection).toEqual(before.inspection);
          }
        },
      ),
      { numRuns: 500, seed: 10 },
    );
  });
});
