/** `--jobs`: digits only, and at most MAX_JOBS_PER_CORE threads per core (found by a red-team run: `--jobs 1000` asked for ~30 GB). */
import { describe, expect, it } from 'vitest';
import { jobsFlag, MAX_JOBS_PER_CORE } from '../../src/cli/commands/scan.js';
import { positiveInt } from '../../src/cli/flags.js';

describe('--jobs', () => {
  it('defaults to the cores and keeps a value up to MAX_JOBS_PER_CORE per core', () => {
    expect(jobsFlag(undefined, 2)).toBe(2);
    expect(jobsFlag('1', 2)).toBe(1);
    expect(jobsFlag('3', 2)).toBe(3);
    expect(jobsFlag(String(MAX_JOBS_PER_CORE * 2), 2)).toBe(8);
  });

  it('lowers larger values to MAX_JOBS_PER_CORE per core', () => {
    expect(jobsFlag('9', 2)).toBe(8);
    expect(jobsFlag('1000', 2)).toBe(8);
    expect(jobsFlag('1000', 16)).toBe(64);
  });

  it.each(['0', '-1', '1.5', '1e1', 'abc', '', '0x10', '99999999999999999999'])('refuses %j as a usage error', (v) => {
    expect(() => jobsFlag(v, 2)).toThrow(`--jobs must be a positive whole number, got '${v}'`);
    expect(() => positiveInt('--jobs', v)).toThrow();
  });
});
