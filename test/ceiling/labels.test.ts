import { describe, expect, it } from 'vitest';
import { isLabelFile, labelFileFor, LabelLookup, parseLabelFile } from '../../src/ceiling/labels.js';

describe('label side files', () => {
  it('names the side file after the capture, with an extension guard scan does not walk', () => {
    expect(labelFileFor('corpus/chat.jsonl')).toBe('corpus/chat.jsonl.labels');
    expect(isLabelFile('corpus/chat.jsonl.labels')).toBe(true);
    expect(isLabelFile('corpus/chat.jsonl')).toBe(false);
  });

  it('looks a reply up by id, then line, then default, and lists entries no reply used', () => {
    const parsed = parseLabelFile('\ufeff{"ids": {"r1": "quotation", "gone": "leak"}, "lines": {"3": "quotation", "9": "leak"}, "default": "leak"}');
    expect(parsed.problems).toEqual([]);
    const lookup = new LabelLookup(parsed.labels!);
    expect(lookup.labelOf('r1', 9)).toBe('quotation'); // id wins over line
    expect(lookup.labelOf(null, 3)).toBe('quotation');
    expect(lookup.labelOf('other', 4)).toBe('leak'); // default
    expect(lookup.unused()).toEqual(['ids["gone"]', 'lines["9"]']);
  });

  it('without a default an unmatched reply has no label', () => {
    const parsed = parseLabelFile('{"lines": {"1": "leak"}}');
    expect(new LabelLookup(parsed.labels!).labelOf(null, 2)).toBeNull();
  });

  it('reports every problem of a bad file', () => {
    expect(parseLabelFile('{"lines": {"0": "leak", "x": "leak", "2": "maybe"}, "default": 1, "label": "leak", "ids": []}').problems).toEqual([
      'lines["0"]: a line must be a positive whole number',
      // JSON.parse orders integer-like keys first
      'lines["2"]: label must be "leak" or "quotation", got "maybe"',
      'lines["x"]: a line must be a positive whole number',
      'default: label must be "leak" or "quotation", got 1',
      'unknown key "label" (expected "ids", "lines", "default")',
      '"ids" must be an object mapping reply ids to labels',
    ]);
    expect(parseLabelFile('[]').problems).toEqual(['must hold one JSON object with "ids", "lines" and/or "default"']);
    expect(parseLabelFile('{"ids":').problems[0]).toMatch(/^not valid JSON: /);
  });
});
