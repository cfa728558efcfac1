import { describe, expect, it } from 'vitest';
import { JsonValueSplitter, MAX_ENVELOPE_DEPTH, type EnvelopeSplit, type SplitEvent } from '../../src/capture/json-values.js';
import { RECORD_FORMAT_SPECS } from '../../src/capture/formats.js';

/** Splits `text` with a claim that answers a tag (a `record` claim) or null. */
function split(text: string, claim: (key: string, head: Record<string, unknown>) => string | null, max = 1 << 20): SplitEvent[] {
  return splitWith(text, (key, head) => {
    const tag = claim(key, head() ?? {});
    return tag === null ? null : { tag, rest: 'record' };
  }, max);
}

function splitWith(text: string, envelope: EnvelopeSplit, max = 1 << 20): SplitEvent[] {
  const s = new JsonValueSplitter(max, envelope);
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

  it('follows a key written on the line before its array, and an escaped key', () => {
    const text = ['{"sessionId": "s",', '  "messages":', '  [', '    {"id": 1}', '  ],', '  "mess\\u0061ges2": [{"id": 2}]', '}'].join('\n');
    const evs = split(text, (key) => (key === 'messages' || key === 'messages2' ? 'f' : null));
    expect(values(evs)).toEqual([
      [4, { id: 1 }, { tag: 'f', key: 'messages', index: 0 }],
      [6, { id: 2 }, { tag: 'f', key: 'messages2', index: 0 }],
      [1, { sessionId: 's', messages: [], messages2: [] }, { tag: 'f', key: null, index: -1 }],
    ]);
  });
});

describe('arrays of records deeper in the object, and objects not kept (rest: skip)', () => {
  const har = ['{', ' "log": {', '  "version": "1.2",', '  "pages": [{"id": "p"}],', '  "entries": [', '   {"n": 1},', '   {"n": 2, "s": "]}"}', '  ],', '  "comment": "after"', ' }', '}', '{"next": true}'].join('\n');

  it('reads log.entries element by element (the path handed to the claim, its head too) and scans the rest without keeping it', () => {
    const asked: Array<[string, unknown]> = [];
    const evs = splitWith(har, (path, head) => {
      asked.push([path, head()]);
      return path === 'log.entries' ? { tag: 'har', rest: 'skip' } : null;
    });
    expect(asked).toEqual([
      ['log.pages', { log: { version: '1.2', pages: [] } }],
      ['log.entries', { log: { version: '1.2', pages: [{ id: 'p' }], entries: [] } }],
    ]);
    expect(values(evs)).toEqual([
      [6, { n: 1 }, { tag: 'har', key: 'log.entries', index: 0 }],
      [7, { n: 2, s: ']}' }, { tag: 'har', key: 'log.entries', index: 1 }],
      [12, { next: true }, null],
    ]);
  });

  it('splits an array whose object is already over the cap: its elements are read (the head is unknown); a kept object is then too large', () => {
    const text = `{"big": "${'x'.repeat(100)}", "observations": [{"id": "o1"}, {"id": "o2"}], "tail": 1}`;
    const heads: unknown[] = [];
    expect(values(splitWith(text, (_p, head) => (heads.push(head()), { tag: 'langfuse', rest: 'skip' }), 50))).toEqual([
      [1, { id: 'o1' }, { tag: 'langfuse', key: 'observations', index: 0 }],
      [1, { id: 'o2' }, { tag: 'langfuse', key: 'observations', index: 1 }],
    ]);
    expect(heads).toEqual([null]);
    expect(splitWith(text, () => ({ tag: 'f', rest: 'record' }), 50).map((e) => e.kind)).toEqual(['value', 'value', 'too-large']);
    // across lines too: the object's first line is already over the cap
    const lines = `{"big": "${'x'.repeat(100)}",\n"messages": [\n{"id": 1}\n],\n"tail": 1}`;
    expect(splitWith(lines, () => ({ tag: 'f', rest: 'record' }), 50).map((e) => [e.kind, e.line])).toEqual([['value', 3], ['too-large', 1]]);
    // a claim that needs the head does not claim it
    expect(split(lines, (_k, head) => ('big' in head ? 'f' : null), 50).map((e) => e.kind)).toEqual(['too-large']);
  });

  it('offers only member arrays of objects, at most MAX_ENVELOPE_DEPTH deep, and never inside a top-level array', () => {
    const asked: string[] = [];
    const claim: EnvelopeSplit = (path) => {
      asked.push(path);
      return null;
    };
    splitWith('{"a": [[1]], "b": {"c": {"d": [2]}, "e": [3]}, "f": [{"g": [4]}]}', claim);
    splitWith('[{"messages": [1]}]', claim);
    expect(asked).toEqual(['a', 'b.e', 'f']);
  });

  it('reports a document cut inside a skipped array once, and one cut after it', () => {
    const cut = splitWith('{"log": {"entries": [\n{"n": 1},\n{"n"', () => ({ tag: 'har', rest: 'skip' }));
    expect(cut.map((e) => [e.kind, e.line])).toEqual([['value', 2], ['error', 3], ['error', 1]]);
    const after = splitWith('{"log": {"entries": [\n{"n": 1}\n], "pages": [', () => ({ tag: 'har', rest: 'skip' }));
    expect(after.map((e) => [e.kind, e.line])).toEqual([['value', 2], ['error', 1]]);
  });

  it('without a claim function nothing is split (every top-level value is one record)', () => {
    const s = new JsonValueSplitter(1 << 20);
    const evs = [...har.split('\n').flatMap((l, i) => s.feed(l, i + 1)), ...s.end()];
    expect(evs.map((e) => (e.kind === 'value' ? [e.line, e.envelope ?? null] : e.kind))).toEqual([[1, null], [12, null]]);
  });

  it('every envelope the registry declares is within the depth the splitter follows', () => {
    const paths = RECORD_FORMAT_SPECS.flatMap((s) => s.envelope?.arrays ?? []);
    expect(paths).toEqual(expect.arrayContaining(['messages', 'history', 'log.entries', 'observations']));
    for (const p of paths) expect(p.split('.').length).toBeLessThanOrEqual(MAX_ENVELOPE_DEPTH);
  });
});
