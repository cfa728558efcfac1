/** Reports are always well-formed UTF-8 JSON: a lone surrogate in a capture (a `\ud800` escape in its
 * JSON) is written as U+FFFD and noted LONE_SURROGATE with file and line; the capture keeps the original. */
import { describe, expect, it } from 'vitest';
import { hasLoneSurrogate, wellFormedJson } from '../../src/base/json.js';
import { ROOT, ndjson, runGuard } from '../cli/helpers.js';

const FILE = `${ROOT}fixtures/bad-input/lone-surrogate/chat-lone-surrogates.synthetic.jsonl`;
/** A lone-surrogate escape JSON.stringify writes (a backslash run of odd length before `ud8…`-`udf…`). */
const ESCAPE = /(?<!\\)(?:\\\\)*\\ud[89a-f][0-9a-f]{2}/i;

describe('wellFormedJson', () => {
  it('writes lone high and low surrogates as U+FFFD, keys included; keeps pairs and escaped backslashes', () => {
    expect(wellFormedJson({ a: 'x\ud800y', b: '\udc00', ['k\ud801']: 1 })).toBe('{"a":"x\ufffdy","b":"\ufffd","k\ufffd":1}');
    expect(wellFormedJson({ face: '😀' })).toBe('{"face":"😀"}');
    expect(wellFormedJson({ literal: '\\ud800' })).toBe('{"literal":"\\\\ud800"}');
    expect(wellFormedJson({ both: '\\\ud800' })).toBe('{"both":"\\\\\ufffd"}');
    expect(wellFormedJson([1, 'a'], 2)).toBe(JSON.stringify([1, 'a'], null, 2));
  });
  it('hasLoneSurrogate looks at every string and key, and not at pairs', () => {
    expect(hasLoneSurrogate(['ok', { deep: [{ x: 'a\udfffb' }] }])).toBe(true);
    expect(hasLoneSurrogate({ ['\ud800']: 'v' })).toBe(true);
    expect(hasLoneSurrogate({ a: '😀', b: ['\u00e9'] })).toBe(false);
  });
});

describe('a capture holding lone surrogates (model, call id, argument value)', () => {
  it('-f ndjson: every line parses, none holds a surrogate escape, a LONE_SURROGATE warning names file and line 1', async () => {
    const r = await runGuard(['scan', '--format', 'ndjson', FILE]);
    for (const l of r.stdout.trim().split('\n')) expect(l).not.toMatch(ESCAPE);
    const recs = ndjson(r.stdout);
    const note = recs.find((x) => x['error']?.code === 'LONE_SURROGATE');
    expect(note).toMatchObject({ file: FILE, line: 1, error: { severity: 'warning' } });
    const reply = recs.find((x) => x['format'] === 'openai-chat')!;
    expect(reply['model']).toBe('m\ufffd');
    expect(reply['tool_calls'][0].id).toBe('c\ufffd');
    // the rule still sees the command, and the report names it
    expect(reply['inspection'].hits.map((h: { rule: string }) => h.rule)).toContain('rm-rf-root');
    expect(r.code).toBe(1); // the rule hit, not the warning
  });
  it('-f json and -f sarif are well-formed too', async () => {
    for (const format of ['json', 'sarif']) {
      const r = await runGuard(['scan', '--format', format, FILE]);
      expect(r.stdout, format).not.toMatch(ESCAPE);
      expect(() => JSON.parse(r.stdout), format).not.toThrow();
    }
  });
});
