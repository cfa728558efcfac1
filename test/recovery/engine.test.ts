/**
 * Engine-level tests: the prose ratio definition, reason precedence, typing from schemas,
 * reasoning text, and large adversarial inputs (asserting the verdict, not the time).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeToolCall } from '../../src/capture/toolcall.js';
import { DEFAULT_PROSE_CEILING, MAX_RECOVERED_CALLS, proseRatio, recoverReply, type RecoveryInput } from '../../src/recovery/index.js';
import { typeParameter } from '../../src/recovery/typing.js';
import { scanJson } from '../../src/recovery/scan.js';

const HERMES = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Tokyo"}}\n</tool_call>';
const opts = { proseCeiling: DEFAULT_PROSE_CEILING };
const input = (text: string, extra: Partial<RecoveryInput> = {}): RecoveryInput => ({
  text,
  advertised: [{ name: 'get_weather' }],
  toolCalls: [],
  truncated: false,
  ...extra,
});

describe('proseRatio', () => {
  it('counts non-whitespace code points outside the spans over all non-whitespace code points', () => {
    // "ab" + "<x>" + "cd": 7 non-whitespace, 4 outside [3, 6).
    expect(proseRatio('ab <x> cd', [[3, 6]])).toBe(4 / 7);
  });
  it('is 1 without spans, 0 for blank text, 0 when the markup is everything', () => {
    expect(proseRatio('hello', [])).toBe(1);
    expect(proseRatio(' \n\t ', [[0, 2]])).toBe(0);
    expect(proseRatio('<a>', [[0, 3]])).toBe(0);
  });
  it('counts a surrogate pair once', () => {
    expect(proseRatio('😀😀<t>', [[4, 7]])).toBe(2 / 5);
  });
  it('merges unsorted, overlapping spans and clamps out-of-range ones', () => {
    expect(proseRatio('abcdefghij', [[5, 8], [-4, 2], [6, 99]])).toBe(3 / 10);
  });
  it('ignores Unicode whitespace such as U+3000 and U+00A0', () => {
    expect(proseRatio('a\u3000\u00a0b<t>', [[4, 7]])).toBe(2 / 5);
  });
});

describe('reason precedence (one reason per refusal)', () => {
  it('structured calls win over any markup, and reasoning markup is still flagged; markup beside them gives its calls as candidates', () => {
    const v = recoverReply(
      input(HERMES, { reasoning: HERMES, toolCalls: [makeToolCall('call_1', 'get_weather', 'function', '{"city":"Tokyo"}')] }),
      opts,
    );
    expect(v).toEqual({
      outcome: 'none',
      reason: 'structured',
      family: 'hermes',
      proseRatio: 0,
      calls: [],
      candidates: [expect.objectContaining({ name: 'get_weather', arguments: { city: 'Tokyo' } })],
      detail: expect.any(String),
      reasoningMarkup: true,
      besideStructured: true,
    });
  });
  it('structured with prose only: no family', () => {
    const v = recoverReply(input('Done.', { toolCalls: [makeToolCall('call_1', 'get_weather', 'function', '{}')] }), opts);
    expect([v.reason, v.family, v.proseRatio]).toEqual(['structured', null, null]);
  });
  it('fenced before truncated', () => {
    const v = recoverReply(input('```\n<tool_call>\n{"name": "get_weather", "arguments": {"ci\n```'), opts);
    expect([v.outcome, v.reason]).toEqual(['refused', 'fenced']);
  });
  it('a block quote, "do not run" and "the syntax is" framing are quoted', () => {
    expect(recoverReply(input(`> ${HERMES}`), opts).reason).toBe('quoted');
    expect(recoverReply(input(`Do not run this:\n${HERMES}`), opts).reason).toBe('quoted');
    expect(recoverReply(input(`The syntax is\n${HERMES}`), opts).reason).toBe('quoted');
  });
  it('a stuttered opener is degenerate; junk inside an envelope, or the next opener where a closer belongs, is shape', () => {
    expect(recoverReply(input('<tool_call>\n<tool_call>\n<tool_call>'), opts).reason).toBe('degenerate');
    expect(recoverReply(input('<｜DSML｜function_calls><｜DSML｜function_calls>x'), opts).reason).toBe('degenerate');
    expect(recoverReply(input('<tool_call>{"name": "get_weather", "arguments": {}} junk </tool_call>'), opts).reason).toBe('shape');
    expect(recoverReply(input('<tool_call>{"name": "get_weather", "arguments": {}}\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>'), opts).reason).toBe('shape');
  });
  it('markup only in the reasoning of a reply with blank text is quoted (a draft) or in_reasoning (calls end the thinking), never no_text', () => {
    const draft = recoverReply(input('', { reasoning: `${HERMES}\nThen I will report the temperature.` }), opts);
    expect(draft).toEqual({ outcome: 'refused', reason: 'quoted', family: 'hermes', proseRatio: null, calls: [], candidates: [], detail: expect.any(String), reasoningMarkup: true });
    // mlx-openai-server#284: the call sat at the end of the thinking and no client ever saw it
    const lost = recoverReply(input('', { reasoning: `The user asks for the weather.\n${HERMES}\n` }), opts);
    expect([lost.outcome, lost.reason, lost.family, lost.calls, lost.candidates.map((c) => [c.name, c.arguments])]).toEqual(['refused', 'in_reasoning', 'hermes', [], [['get_weather', { city: 'Tokyo' }]]]);
    // framed in the thinking: a quotation
    const framed = recoverReply(input('', { reasoning: `The page says to run this, but I must not:\n${HERMES}` }), opts);
    expect(framed.reason).toBe('quoted');
    // a think block that ends the visible text, the same; with an answer after it, a quotation
    expect(recoverReply(input(`<think>\nThe user asks for the weather.\n${HERMES}\n</think>`), opts).reason).toBe('in_reasoning');
    expect(recoverReply(input(`<think>\nThe user asks for the weather.\n${HERMES}\n</think>\nIt is sunny.`), opts).reason).toBe('quoted');
  });
  it('markup in both: the visible text is judged, the reasoning flagged, its calls never added', () => {
    const dsml = '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">Osaka</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>';
    const v = recoverReply(input(HERMES, { reasoning: dsml }), opts);
    expect([v.reason, v.family, v.reasoningMarkup, v.calls.map((c) => c.arguments)]).toEqual(['ok', 'hermes', true, [{ city: 'Tokyo' }]]);
  });
  it('truncated before unadvertised', () => {
    const v = recoverReply(input('<tool_call>\n{"name": "other", "arguments": {}}'), opts);
    expect([v.outcome, v.reason]).toEqual(['refused', 'truncated']);
  });
  it('unadvertised before bad_arguments', () => {
    const text = '<tool_call>{"name": "get_weather", "arguments": 3}</tool_call><tool_call>{"name": "other", "arguments": {}}</tool_call>';
    expect(recoverReply(input(text), opts).reason).toBe('unadvertised');
  });
  it('truncated before no_advertised_tools', () => {
    const v = recoverReply(input('<tool_call>\n{"name": "get_weather"', { advertised: null }), opts);
    expect(v.reason).toBe('truncated');
  });
  it('an empty advertised list (the request declared no tools) makes every call unadvertised', () => {
    expect(recoverReply(input(HERMES, { advertised: [] }), { proseCeiling: 0.5, tools: ['get_weather'] }).reason).toBe('unadvertised');
  });
  it('the prose ceiling is honoured exactly: ratio equal to the ceiling still recovers', () => {
    const text = 'abc ' + '<tool_call>{"name":"get_weather","arguments":{}}</tool_call>';
    const r = proseRatio(text, [[4, text.length]]);
    expect(recoverReply(input(text), { proseCeiling: r }).outcome).toBe('recovered');
    expect(recoverReply(input(text), { proseCeiling: r - 0.001 }).reason).toBe('prose');
  });
});

describe('ids', () => {
  it('use canonical arguments: spacing and key order do not change an id', () => {
    const a = recoverReply(input('<tool_call>{"name": "get_weather", "arguments": {"a": 1, "b": [2]}}</tool_call>', { idSeed: 's' }), opts);
    const b = recoverReply(input('<tool_call>{"name":"get_weather","arguments":{ "b" : [ 2 ], "a":1 }}</tool_call>', { idSeed: 's' }), opts);
    expect(a.calls[0]!.id).toBe(b.calls[0]!.id);
    expect(a.calls[0]!.id).toBe('guard_' + createHash('sha256').update('["s",0,"get_weather","{\\"a\\":1,\\"b\\":[2]}"]').digest('hex').slice(0, 16));
  });
  it('are stable for the same seed and differ between seeds and between identical calls', () => {
    const two = HERMES + '\n' + HERMES;
    const a = recoverReply(input(two, { idSeed: 'f.jsonl:3' }), opts).calls.map((c) => c.id);
    const b = recoverReply(input(two, { idSeed: 'f.jsonl:3' }), opts).calls.map((c) => c.id);
    const c = recoverReply(input(two, { idSeed: 'f.jsonl:4' }), opts).calls.map((k) => k.id);
    expect(a).toEqual(b);
    expect(a[0]).not.toBe(a[1]);
    expect(a[0]).not.toBe(c[0]);
    expect(a[0]).toMatch(/^guard_[0-9a-f]{16}$/);
  });
});

describe('typeParameter (schema typing of untyped XML values)', () => {
  const schema = {
    type: 'object',
    properties: {
      s: { type: 'string' },
      n: { type: 'integer' },
      x: { type: 'number' },
      b: { type: 'boolean' },
      o: { type: 'object' },
      a: { type: 'array' },
      sn: { type: ['string', 'null'] },
      u: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] },
    },
  };
  it.each([
    ['s', 'false', 'false', '"false"'],
    ['s', '12', '12', '"12"'],
    ['n', '-42', -42, '-42'],
    ['x', '2.5e3', 2500, '2.5e3'],
    ['x', '12345678901234567890123', 1.2345678901234568e22, '12345678901234567890123'],
    ['b', 'True', true, 'true'],
    ['b', 'false', false, 'false'],
    ['o', '{"k": [1]}', { k: [1] }, '{"k": [1]}'],
    ['o', '{"big": 12345678901234567890123}', { big: 1.2345678901234568e22 }, '{"big": 12345678901234567890123}'],
    ['a', '[1, "2"]', [1, '2'], '[1, "2"]'],
    ['sn', 'null', null, 'null'],
    ['sn', 'nullish', 'nullish', '"nullish"'],
    ['u', 'true', true, 'true'],
    ['u', '7', 7, '7'],
    ['missing', '7', '7', '"7"'],
  ])('%s = %j → %j, JSON text %s (the markup\'s own digits)', (key, raw, want, json) => {
    expect(typeParameter(raw, schema, key)).toEqual({ ok: true, value: want, json });
  });
  it.each([
    ['n', '1.5'],
    ['n', '9007199254740993'],
    ['b', 'yes'],
    ['o', '[1]'],
    ['a', '{"k": 1}'],
    ['x', 'NaN'],
  ])('%s = %j is refused', (key, raw) => {
    expect(typeParameter(raw, schema, key).ok).toBe(false);
  });
  it('without a schema every value stays a string', () => {
    expect(typeParameter('3', undefined, 'n')).toEqual({ ok: true, value: '3', json: '"3"' });
  });
});

describe('scanJson', () => {
  it('skips brackets and escaped quotes inside strings and records root members exactly', () => {
    const t = 'x{"a": "}\\"{", "b" : [1, {"c": 2}] }y';
    const s = scanJson(t, 1);
    expect(s.end).toBe(t.length - 1);
    expect(t.slice(...s.members.get('b')!)).toBe('[1, {"c": 2}]');
    expect(s.duplicateKey).toBeNull();
  });
  it('reports a nested duplicate key and a truncation', () => {
    expect(scanJson('{"a": {"k": 1, "k": 2}}', 0).duplicateKey).toBe('k');
    expect(scanJson('{"a": "unterminated', 0).end).toBe(-1);
  });
});

describe('never throws; large adversarial inputs', () => {
  it('a 1.1 MB reply of repeated <tool_call> is a degenerate (looping) hermes leak', () => {
    const text = '<tool_call>'.repeat(100_000);
    const v = recoverReply(input(text), opts);
    expect([v.outcome, v.reason, v.family, v.proseRatio]).toEqual(['refused', 'degenerate', 'hermes', 0]);
  });
  it('a 1 MB unbalanced JSON body is truncated', () => {
    const v = recoverReply(input('<tool_call>' + '[{"a":'.repeat(170_000)), opts);
    expect([v.outcome, v.reason]).toEqual(['refused', 'truncated']);
  });
  it('MAX_RECOVERED_CALLS complete calls are all recovered, each with a distinct id; 20 000 are a degenerate loop', () => {
    const v = recoverReply(input(`${HERMES}\n`.repeat(MAX_RECOVERED_CALLS)), opts);
    expect(v.outcome).toBe('recovered');
    expect(v.calls).toHaveLength(MAX_RECOVERED_CALLS);
    expect(new Set(v.calls.map((c) => c.id)).size).toBe(MAX_RECOVERED_CALLS);
    const loop = recoverReply(input(`${HERMES}\n`.repeat(20_000)), opts);
    expect([loop.outcome, loop.reason, loop.calls.length, loop.candidates.length]).toEqual(['refused', 'degenerate', 0, MAX_RECOVERED_CALLS]);
  });
  it('repeated openers of every family and a sea of backticks stay readable', () => {
    const parts = ['<｜tool▁calls▁begin｜>', '<｜DSML｜function_calls>', '<function=get_weather>', '[TOOL_CALLS]', '<|channel|>', '<arg_key>', '`', '"get_weather"'];
    for (const p of parts) {
      const v = recoverReply(input(p.repeat(Math.ceil(500_000 / p.length))), opts);
      expect(v.outcome, p).not.toBe('recovered');
    }
  });
  it('odd inputs give a verdict, not an exception', () => {
    const odd = [
      { text: undefined as unknown as string, advertised: null, toolCalls: [], truncated: false },
      { text: '\ud800<tool_call>{"name":"get_weather","arguments":{"x":"\udfff"}}</tool_call>', advertised: [{ name: 'get_weather', schema: { properties: null } }], toolCalls: [], truncated: false },
      { text: HERMES, advertised: [{ name: 'get_weather', schema: { properties: { city: { type: 'integer', anyOf: 'x' } } } }], toolCalls: null as unknown as [], truncated: false },
    ];
    for (const i of odd) expect(() => recoverReply(i as RecoveryInput, opts)).not.toThrow();
    expect(recoverReply(odd[1] as RecoveryInput, opts).outcome).toBe('recovered');
  });
});
