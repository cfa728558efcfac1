/**
 * The chunk size a capture file is read in (src/scan/scan.ts readChunkBytes): its size and a byte
 * for a small file, so that 10 000 small files do not each allocate 256 KiB buffers; files read
 * in one chunk of their size and in several chunks give every reply.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MIN_READ_CHUNK_BYTES, READ_CHUNK_BYTES, readChunkBytes, scanFile, type ScanEvent } from '../../src/scan/scan.js';
import { createJudge } from '../../src/verdict/engines.js';
import type { JudgeOptions } from '../../src/verdict/judge.js';

let dir: string;
let judge: JudgeOptions;

beforeAll(async () => {
  judge = await createJudge({ recovery: { proseCeiling: 0.43, tools: null }, mode: 'observe', rules: {} });
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'guard-read-chunk-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('readChunkBytes', () => {
  it('is the size and a byte for a file between 16 KiB and 256 KiB, the bounds otherwise', async () => {
    const sized = (name: string, bytes: number) => {
      writeFileSync(join(dir, name), 'x'.repeat(bytes));
      return readChunkBytes(join(dir, name));
    };
    expect(MIN_READ_CHUNK_BYTES).toBe(16 * 1024);
    expect(READ_CHUNK_BYTES).toBe(256 * 1024);
    expect(await sized('empty', 0)).toBe(16 * 1024);
    expect(await sized('small', 2400)).toBe(16 * 1024);
    expect(await sized('mid', 100_000)).toBe(100_001);
    expect(await sized('big', 1_000_000)).toBe(256 * 1024);
    // not a file, or gone: the full chunk size (the stream reports the problem itself)
    expect(await readChunkBytes(dir)).toBe(256 * 1024);
    expect(await readChunkBytes(join(dir, 'missing'))).toBe(256 * 1024);
  });

  it('reads every reply of a file read in one chunk of its size and of one read in several', async () => {
    const line = (i: number) => `${JSON.stringify({ id: `r${i}`, tools: ['get_weather'], text: `reply ${i} ${'.'.repeat(500)}` })}\n`;
    const ids = async (name: string, n: number): Promise<string[]> => {
      writeFileSync(join(dir, name), Array.from({ length: n }, (_, i) => line(i)).join(''));
      const out: string[] = [];
      for await (const ev of scanFile(name, { judge, cwd: dir, stdin: process.stdin }) as AsyncIterable<ScanEvent>) {
        if (ev.kind === 'reply') out.push(ev.verdict.reply.id ?? '');
        if (ev.kind === 'error') throw new Error(ev.error.message);
      }
      return out;
    };
    const want = (n: number) => Array.from({ length: n }, (_, i) => `r${i}`);
    expect(await ids('one.jsonl', 1)).toEqual(want(1));
    expect(await ids('hundred.jsonl', 100)).toEqual(want(100));
    // ~330 KB: a 256 KiB chunk and the rest
    expect(await ids('several.jsonl', 600)).toEqual(want(600));
  });
});
