/** OutputBatcher: report records gathered into fewer writes, in order, never held long. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BATCH_CHARS, BATCH_DELAY_MS, OutputBatcher } from '../../src/cli/batch.js';

afterEach(() => vi.useRealTimers());

describe('OutputBatcher', () => {
  it('writes once BATCH_CHARS have gathered, in order, and the rest on flush', () => {
    const writes: string[] = [];
    const b = new OutputBatcher((s) => void writes.push(s));
    const record = `${'x'.repeat(1023)}\n`;
    const n = BATCH_CHARS / record.length;
    for (let i = 0; i < n - 1; i++) b.add(record);
    expect(writes).toEqual([]);
    b.add(record);
    expect(writes).toEqual([record.repeat(n)]);
    b.add('tail\n');
    b.flush();
    expect(writes).toEqual([record.repeat(n), 'tail\n']);
    b.flush();
    expect(writes).toHaveLength(2);
  });

  it('writes a small batch after BATCH_DELAY_MS, so a live scan shows its records', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const b = new OutputBatcher((s) => void writes.push(s));
    b.add('one\n');
    b.add('two\n');
    vi.advanceTimersByTime(BATCH_DELAY_MS - 1);
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(['one\ntwo\n']);
    b.add('three\n');
    vi.advanceTimersByTime(BATCH_DELAY_MS);
    expect(writes).toEqual(['one\ntwo\n', 'three\n']);
  });
});
