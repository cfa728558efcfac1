/**
 * Custom patterns that would exhaust re2-wasm's fixed 16 MiB heap (red-team report, issue 4
 * class 13: 25 rules `(\pL|\pN|\pS){1000}` printed ~30 emscripten "Cannot enlarge memory arrays
 * (OOM)" lines and a stack trace on `guard rules check`). They are configuration problems with a
 * pointer (the CLI adds file:line), never a crash, and nothing reaches stderr.
 */
import { afterEach, beforeAll, expect, test, vi } from 'vitest';
import { compilePattern, compileRuleSet, initInspection, RuleSetError } from '../../src/inspection/index.js';
import { compileBuiltinPattern, estimateProgramBytes, regexEngineMessage, type TextPattern } from '../../src/inspection/pattern.js';

beforeAll(async () => {
  await initInspection();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const rule = (i: number, command: string) => ({ id: `big-${i}`, description: `big ${i}`, command });

function problemsOf(f: () => unknown): { message: string; pointer: string }[] {
  try {
    f();
  } catch (err) {
    if (err instanceof RuleSetError) return err.problems.map((p) => ({ message: p.message, pointer: p.pointer ?? '' }));
    throw err;
  }
  return [];
}

test('the estimate follows the measured heap use: Unicode classes and . cost most, counted repetitions multiply', () => {
  expect(estimateProgramBytes('a{1000}')).toBe(100_000);
  expect(estimateProgramBytes('.{1000}')).toBe(300_000);
  expect(estimateProgramBytes('\\pL{10}')).toBe(245_760);
  expect(estimateProgramBytes('(\\pL|\\pN|\\pS){1000}')).toBe(73_728_000);
  expect(estimateProgramBytes('\\bpsql\\b.*\\bprod\\b')).toBe(1500);
  expect(estimateProgramBytes('(a|b)(c)')).toBe(300);
});

test("the tester's 25 rules of (\\pL|\\pN|\\pS){1000}: one 'pattern too big' problem per rule, nothing on stderr", () => {
  const stderr = vi.spyOn(process.stderr, 'write');
  const warn = vi.spyOn(console, 'warn');
  const error = vi.spyOn(console, 'error');
  const problems = problemsOf(() => compileRuleSet({ custom: Array.from({ length: 25 }, (_, i) => rule(i, '(\\pL|\\pN|\\pS){1000}')) }));
  expect(problems).toHaveLength(25);
  expect(problems[0]!.pointer).toBe('/custom/0/command');
  expect(problems[24]!.pointer).toBe('/custom/24/command');
  expect(problems[0]!.message).toMatch(/^`command` pattern does not compile: pattern too big: counted repetitions expand to about 70\.3 MiB of compiled program \(limit 2\.0 MiB\)/);
  expect(stderr).not.toHaveBeenCalled();
  expect(warn).not.toHaveBeenCalled();
  expect(error).not.toHaveBeenCalled();
});

test('a custom pattern over the program budget is refused before it is compiled', () => {
  expect(() => compilePattern('\\pL{20}x')).toThrow(/^pattern too slow: counted repetitions expand to about 480 KiB of compiled program \(budget 32 KiB for a custom pattern\)/);
});

test('an out-of-memory abort the estimate did not foresee is an error with a short message; freeing patterns makes room again', () => {
  const warn = vi.spyOn(console, 'warn');
  const stderr = vi.spyOn(process.stderr, 'write');
  const kept: TextPattern[] = [];
  let failure: Error | null = null;
  for (let i = 0; i < 200 && !failure; i++) {
    try {
      kept.push(compileBuiltinPattern('[^x]{1000}')); // 300 KB estimated, under the per-pattern limit
    } catch (err) {
      failure = err as Error;
    }
  }
  expect(failure?.message).toBe('pattern too big: the regex engine ran out of memory compiling it (its heap is 16 MiB for all patterns); use smaller repetition counts or narrower classes');
  expect(kept.length).toBeGreaterThan(10);
  expect(regexEngineMessage()).toMatch(/Cannot enlarge memory arrays/);
  expect(warn).not.toHaveBeenCalled();
  expect(stderr).not.toHaveBeenCalled();
  for (const p of kept) p.dispose();
  expect(compileBuiltinPattern('[^x]{1000}').find('x'.repeat(10))).toBeNull();
  expect(compilePattern('a+b').find('xaab')).toEqual({ start: 1, end: 4 });
});
