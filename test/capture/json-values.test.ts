import { describe, expect, it } from 'vitest';
import { JsonValueSplitter, type SplitEvent } from '../../src/capture/json-values.js';

function split(lines: string[], max = 1 << 20): SplitEvent[] {
  const s = new JsonValueSplitter(max);
  return [...lines.flatMap((l, i) => s.feed(l, i + 1)), ...s.end()];
}

describe('JsonValueSplitter', () => {
  it('splits array elements, ignoring brackets and escaped quotes inside strings', () => {
    const ev = split(['[{"a":"]\\"}"},', ' [1, {"b": "["}],', '"str,ing", 42, true', ']']);
    expect(ev).toEqual([
      { kind: 'value', text: '{"a":"]\\"}"}', line: 1, tainted: false },
      { kind: 'value', text: '[1, {"b": "["}]', line: 2, tainted: false },
      { kind: 'value', text: '"str,ing"', line: 3, tainted: false },
      { kind: 'value', text: '42', line: 3, tainted: false },
      { kind: 'value', text: 'true', line: 3, tainted: false },
    ]);
  });

  it('keeps a multi-line value with its line breaks and start line', () => {
    const ev = split(['', '{', '  "a": 1', '}', '{"b": 2}']);
    expect(ev).toEqual([
      { kind: 'value', text: '{\n  "a": 1\n}', line: 2, tainted: false },
      { kind: 'value', text: '{"b": 2}', line: 5, tainted: false },
    ]);
  });

  it('marks a value tainted when one of its lines was', () => {
    const s = new JsonValueSplitter(1000);
    expect(s.feed('[{"a":', 1)).toEqual([]);
    expect(s.feed('"x"},', 2, true)).toEqual([{ kind: 'value', text: '{"a":\n"x"}', line: 1, tainted: true }]);
    expect(s.feed('{"b":1}]', 3)).toEqual([{ kind: 'value', text: '{"b":1}', line: 3, tainted: false }]);
  });

  it('reports stray text, an over-size value, and a value cut short', () => {
    expect(split(['oops {"a":1}'])).toEqual([{ kind: 'error', line: 1, message: 'unexpected character "o" at column 1' }]);
    expect(split(['[{"a":"0123456789"}, {"b":1}]'], 10)).toEqual([
      { kind: 'too-large', line: 1, bytes: 18 },
      { kind: 'value', text: '{"b":1}', line: 1, tainted: false },
    ]);
    expect(split(['{"a":', '[1,'])).toEqual([{ kind: 'error', line: 1, message: 'the document ends inside the JSON value that starts here' }]);
  });
});
