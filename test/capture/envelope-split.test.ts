import { describe, expect, it } from 'vitest';
import { JsonValueSplitter, type SplitEvent } from '../../src/capture/json-values.js';

function split(text: string, claim: (key: string, head: Record<string, unknown>) => string | null, max = 1 << 20): SplitEvent[] {
  const s = new JsonValueSplitter(max, (key, head) => claim(key, head() ?? {}));
  const out: SplitEvent[] = [];
  text.split('\n').forEach((l, i) => out.push(...s.feed(l, i + 1)));
  out.push(...s.end());
  return out;
}

const values = (evs: SplitEvent[]) => evs.map((e) => (e.kind === 'value' ? [e.line, JSON.parse(e.text), e.envelope ?? null] : [e.kind, e.line]));

describe('envelope documents', () => {
  const doc = ['{', '  "sessionId": "s",', '  "messages": [', '    {"id": 1},', '    {"id": 2,', '     "x": [1, 2]}', '  ],', '  "summary": "done"', '}'].join('\n');

  it('splits a claimed array member into its elements, then gives the object with the array emptied', () => {
    const seen: Array<[string, Record<string, unknown>]> = [];
    const evs = split(doc, (key, head) => {
      seen.push([key, head]);
      return key === 'messages' && 'sessionId' in head ? 'gemini-cli' : null;
    });
    expect(seen).toEqual([['messages', { sessionId: 's', messages: [] }]]);
    expect(values(evs)).toEqual([
      [4, { id: 1 }, { tag: 'gemini-cli', key: 'messages', index: 0 }],
      [5, { id: 2, x: [1, 2] }, { tag: 'gemini-cli', key: 'messages', index: 1 }],
      [1, { sessionId: 's', messages: [], summary: 'done' }, { tag: 'gemini-cli', key: null, index: -1 }],
    ]);
  });

  it('keeps an unclaimed document whole (as without an envelope)', () => {
    expect(values(split(doc, () => null))).toEqual([[1, { sessionId: 's', messages: [{ id: 1 }, { id: 2, x: [1, 2] }], summary: 'done' }, null]]);
  });

  it('splits two arrays of one object, scalars and strings as elements, and nested arrays stay inside their element', () => {
    const text = '{"env": "e", "trajectory": [1, "two", {"a": [3]}], "history": [[4], {"b": "]"}], "info": {}}';
    const evs = split(text, (key) => (key === 'trajectory' || key === 'history' ? 'swe-agent' : null));
    expect(values(evs)).toEqual([
      [1, 1, { tag: 'swe-agent', key: 'trajectory', index: 0 }],
      [1, 'two', { tag: 'swe-agent', key: 'trajectory', index: 1 }],
      [1, { a: [3] }, { tag: 'swe-agent', key: 'trajectory', index: 2 }],
      [1, [4], { tag: 'swe-agent', key: 'history', index: 0 }],
      [1, { b: ']' }, { tag: 'swe-agent', key: 'history', index: 1 }],
      [1, { env: 'e', trajectory: [], history: [], info: {} }, { tag: 'swe-agent', key: null, index: -1 }],
    ]);
  });

  it('reports an element over the cap and goes on with the next', () => {
    const text = '{"k": 1, "messages": [\n{"big": "' + 'x'.repeat(100) + '"},\n{"small": 1}\n]}';
    const evs = split(text, () => 'f', 50);
    expect(evs.map((e) => e.kind)).toEqual(['too-large', 'value', 'value']);
  });

  it('reports a document cut inside a split array: the elements before the cut were given', () => {
    const evs = split('{"sessionId": "s", "messages": [\n{"id": 1},\n{"id": 2', () => 'f');
    expect(evs.map((e) => [e.kind, e.line])).toEqual([
      ['value', 2],
      ['error', 3],
      ['error', 1],
      ['error', 1],
    ]);
  });
});
