import { describe, expect, it } from 'vitest';
import { ARGUMENTS_TOO_DEEP, argumentsTooDeep, jsonDepthExceeds, makeToolCall, parseArguments } from '../../src/capture/toolcall.js';

/** `{"a":{"a":...1}}` nested `depth` levels, built without recursion. */
function deepObject(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

describe('jsonDepthExceeds', () => {
  it('counts object and array levels; scalars have depth 0', () => {
    expect(jsonDepthExceeds('x', 0)).toBe(false);
    expect(jsonDepthExceeds({}, 0)).toBe(true);
    expect(jsonDepthExceeds({}, 1)).toBe(false);
    expect(jsonDepthExceeds({ a: [1] }, 1)).toBe(true);
    expect(jsonDepthExceeds({ a: [1] }, 2)).toBe(false);
    // flat values (depth 1) against limits 0 and 1
    expect(jsonDepthExceeds({ command: 'ls', n: 1, ok: null }, 1)).toBe(false);
    expect(jsonDepthExceeds({ command: 'ls', n: 1, ok: null }, 0)).toBe(true);
    expect(jsonDepthExceeds([1, 'two', null], 1)).toBe(false);
    expect(jsonDepthExceeds([1, 'two', null], 0)).toBe(true);
    // the deep path is the second of several siblings
    expect(jsonDepthExceeds([[], { b: 1 }, [[[3]]]], 3)).toBe(true);
    expect(jsonDepthExceeds([[], { b: 1 }, [[[3]]]], 4)).toBe(false);
  });

  it('measures a 1,000,000-level value without overflowing the stack', () => {
    expect(jsonDepthExceeds(deepObject(1_000_000), 512)).toBe(true);
    expect(jsonDepthExceeds(deepObject(512), 512)).toBe(false);
  });

  it('stops on a cyclic value', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(jsonDepthExceeds(cyclic, 512)).toBe(true);
  });
});

describe('makeToolCall on deep arguments (report: JSON.stringify overflowed the stack)', () => {
  it('refuses a decoded object nested 5000 levels without serialising it', () => {
    const call = makeToolCall('c', 'bash', 'function', deepObject(5000));
    expect(call).toEqual({ id: 'c', name: 'bash', kind: 'function', argumentsRaw: '', arguments: null, argumentsError: ARGUMENTS_TOO_DEEP });
    expect(argumentsTooDeep(call)).toBe(true);
  });

  it('keeps a 512-level object', () => {
    const call = makeToolCall('c', 'bash', 'function', deepObject(512));
    expect(call.argumentsError).toBeNull();
    expect(call.argumentsRaw).toBe(`${'{"a":'.repeat(512)}1${'}'.repeat(512)}`);
    expect(argumentsTooDeep(call)).toBe(false);
  });

  it('parseArguments refuses a deep string and names why', () => {
    expect(parseArguments(`${'['.repeat(600)}${']'.repeat(600)}`)).toEqual({ value: null, error: ARGUMENTS_TOO_DEEP });
    expect(parseArguments('{"command":"ls"}')).toEqual({ value: { command: 'ls' }, error: null });
  });
});
