/**
 * The Python reader of the pythonic families (src/recovery/families/python.ts): literals only,
 * keyword arguments only, values typed as written and never evaluated; the Python-aware scan that
 * delimits blocks; and the engine without the grammar (no initRecovery): pythonic markup refused
 * `shape` with a clear detail, never thrown, checked in a process of its own because the vitest
 * setup file loads the grammar (test/setup-recovery.ts).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROSE_CEILING, recoverReply, recoveryReady } from '../../src/recovery/index.js';
import { readPythonCalls, scanPython } from '../../src/recovery/families/python.js';
import { ROOT } from '../cli/helpers.js';

const args = (src: string) => {
  const got = readPythonCalls(src, 'list');
  if ('problem' in got) return got.problem;
  return got.calls.map((c) => (c.arguments === null ? { error: c.argumentsError } : { name: c.name, args: c.arguments, raw: c.argumentsRaw }));
};

describe('literal arguments', () => {
  it('are read with their types, numbers keeping the digits written', () => {
    expect(readPythonCalls('[f(a=1, b=-2.5e3, c=True, d=False, e=None, g=[1, (2, "x")], h={"k": {"n": null}}, i=12345678901234567890123)]', 'list')).toEqual({
      calls: [
        {
          name: 'f',
          arguments: { a: 1, b: -2500, c: true, d: false, e: null, g: [1, [2, 'x']], h: { k: { n: null } }, i: 1.2345678901234568e22 },
          argumentsRaw: '{"a":1,"b":-2.5e3,"c":true,"d":false,"e":null,"g":[1,[2,"x"]],"h":{"k":{"n":null}},"i":12345678901234567890123}',
          argumentsError: null,
        },
      ],
    });
  });
  it('strings: both quotes, triple quotes, raw, implicit concatenation, Python escapes', () => {
    expect(args(`[f(a='x"y', b="it's", c='''l1\nl2''', d=r'C:\\tmp', e="a" 'b', g="\\x41\\101\\u00e9\\U0001F600\\t\\\\", h="line\\\ncontinued")]`)).toEqual([
      { name: 'f', args: { a: 'x"y', b: "it's", c: 'l1\nl2', d: 'C:\\tmp', e: 'ab', g: 'AAé😀\t\\', h: 'linecontinued' }, raw: expect.any(String) },
    ]);
  });
  it.each([
    ['a variable', '[f(a=x)]'],
    ['a call', '[f(a=g())]'],
    ['an attribute', '[f(a=os.sep)]'],
    ['an operator', '[f(a=1+1)]'],
    ['a comparison', '[f(a=1<2)]'],
    ['an f-string', '[f(a=f"{x}")]'],
    ['an f-string without placeholders', '[f(a=f"x")]'],
    ['bytes', '[f(a=b"x")]'],
    ['a set', '[f(a={1, 2})]'],
    ['a comprehension', '[f(a=[x for x in y])]'],
    ['a lambda', '[f(a=lambda: 1)]'],
    ['a subscript', '[f(a=x[0])]'],
    ['a walrus', '[f(a=(x := 1))]'],
    ['hex', '[f(a=0x1F)]'],
    ['a leading zero', '[f(a=007)]'],
    ['underscores', '[f(a=1_000)]'],
    ['a bare fraction', '[f(a=.5)]'],
    ['an imaginary number', '[f(a=1j)]'],
    ['a unary plus', '[f(a=+1)]'],
    ['an unknown escape', '[f(a="\\q")]'],
    ['a named escape', '[f(a="\\N{DASH}")]'],
    ['a non-string dict key', '[f(a={1: 2})]'],
    ['a repeated dict key', '[f(a={"k": 1, "k": 2})]'],
    ['a dict splat', '[f(a={**x})]'],
    ['a positional argument', '[f(1)]'],
    ['a * splat', '[f(*xs)]'],
    ['a ** splat', '[f(**kw)]'],
    ['a Python keyword as a parameter name', '[f(if=1)]'],
    ['a syntax error in the arguments', '[f(a=)]'],
  ])('refuse %s as bad arguments, never evaluated', (_what, src) => {
    const got = args(src);
    expect(Array.isArray(got) && got.length === 1 && 'error' in got[0]!).toBe(true);
  });
  it('nest at most MAX_ARGUMENT_DEPTH levels', () => {
    const deep = (n: number) => `[f(a=${'['.repeat(n)}${']'.repeat(n)})]`;
    expect(args(deep(500))).toEqual([{ name: 'f', args: { a: expect.any(Array) }, raw: expect.any(String) }]);
    expect(args(deep(600))).toEqual([{ error: expect.stringMatching(/arguments are nested deeper than 512 levels; not read$/) }]);
  });
});

describe('calls', () => {
  it('a repeated keyword is a shape error, the first value kept', () => {
    const got = readPythonCalls('[f(a=1, a=2)]', 'list');
    expect('calls' in got && got.calls[0]!.shapeError).toMatch(/appears twice/);
  });
  it('dotted callees are read as dotted names; anything else is not a call', () => {
    expect(args('[a.b.c(x=1)]')).toEqual([{ name: 'a.b.c', args: { x: 1 }, raw: '{"x":1}' }]);
    expect(args('[f(x=1)(y=2)]')).toMatchObject({ reason: 'shape' });
    expect(args('[f[0](x=1)]')).toMatchObject({ reason: 'shape' });
  });
  it('layouts: a list, or one call per line; comments and other statements are shape', () => {
    expect(readPythonCalls('f(a=1)\ng(b=2)', 'lines')).toMatchObject({ calls: [{ name: 'f' }, { name: 'g' }] });
    expect(readPythonCalls('[f(a=1)]', 'lines')).toMatchObject({ problem: { reason: 'shape' } });
    expect(readPythonCalls('f(a=1)', 'list')).toMatchObject({ problem: { reason: 'shape' } });
    expect(readPythonCalls('f(a=1)', 'either')).toMatchObject({ calls: [{ name: 'f' }] });
    expect(readPythonCalls('[f(a=1)]  # note', 'list')).toMatchObject({ problem: { reason: 'shape' } });
    expect(readPythonCalls('x = f(a=1)', 'either')).toMatchObject({ problem: { reason: 'shape' } });
    expect(readPythonCalls('[]', 'list')).toMatchObject({ problem: { reason: 'shape' } });
    expect(readPythonCalls('[f(a=1), 2]', 'list')).toMatchObject({ problem: { reason: 'shape' } });
    expect(readPythonCalls('import os', 'either')).toMatchObject({ problem: { reason: 'shape' } });
  });
});

describe('the Python-aware scan', () => {
  it('skips brackets and closers inside strings and comments', () => {
    const t = '[f(a="]", b=\'<|x|>\', c="""\n]"""), g(d=[1, {"e": ")"}])] tail';
    expect(scanPython(t, 0)).toEqual({ ok: true, end: t.length - ' tail'.length });
    expect(scanPython('x="<|end|>" <|end|>', 0, '<|end|>')).toEqual({ ok: true, end: 12 });
  });
  it('reports a cut inside a string or with brackets open, and a mismatched bracket', () => {
    expect(scanPython('[f(a="x', 0)).toEqual({ ok: false, cut: true, inString: true });
    expect(scanPython('[f(a=1)', 0)).toEqual({ ok: false, cut: true, inString: false });
    expect(scanPython('[f(a=1]', 0)).toEqual({ ok: false, cut: false, at: 6 });
  });
  it('is linear on hostile text', () => {
    const t0 = performance.now();
    scanPython('['.repeat(500_000) + '"'.repeat(500_000), 0);
    scanPython(`[f(a="${'\\'.repeat(1_000_000)}`, 0);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe('the engine with the grammar loaded (vitest setup) and without it', () => {
  const opts = { proseCeiling: DEFAULT_PROSE_CEILING };
  it('is loaded here', () => {
    expect(recoveryReady()).toBe(true);
    const v = recoverReply({ text: '[get_weather(city="Oslo")]', advertised: [{ name: 'get_weather' }], toolCalls: [], truncated: false }, opts);
    expect([v.outcome, v.reason, v.family]).toEqual(['recovered', 'ok', 'pythonic']);
  });
  it('hostile pythonic replies (a long string, 50 000 calls, deep nesting) are judged without throwing, in bounded time', () => {
    const j = (text: string) => recoverReply({ text, advertised: [{ name: 'f' }], toolCalls: [], truncated: false }, opts);
    const t0 = performance.now();
    const verdicts = [
      j(`[f(a="${'x'.repeat(1_000_000)}")]`), // one long string: a few tokens, parsed
      j(`[f(a="${'x'.repeat(1_100_000)}")]`), // past MAX_PYTHON_CHARS: not parsed
      j(`[${'f(a=1), '.repeat(50_000)}f(a=1)]`), // past MAX_PYTHON_CODE: not parsed
      j(`[f(a=${'['.repeat(100_000)}${']'.repeat(100_000)})]`),
    ];
    expect(verdicts.map((v) => v.reason)).toEqual(['ok', 'shape', 'shape', 'shape']);
    expect(verdicts[2]!.detail).toMatch(/characters of code outside its strings is not parsed/);
    expect(performance.now() - t0).toBeLessThan(20_000);
    // the parser still reads afterwards
    expect(j('[f(a=1)]').reason).toBe('ok');
  });
  it('without initRecovery, pythonic markup is refused shape with a clear detail (a process of its own, on the build)', () => {
    const script = `
      import { recoverReply, recoveryReady } from './dist/recovery/index.js';
      const j = (text) => recoverReply({ text, advertised: [{ name: 'f' }], toolCalls: [], truncated: false }, { proseCeiling: 0.43 });
      const out = ['[f(a=1)]', '<|tool_call_start|>[f(a=1)]<|tool_call_end|>', '<function_calls>f(a=1)</function_calls>', '\`\`\`tool_code\\nf(a=1)\\n\`\`\`', '{"name": "f", "arguments": {"a": 1}}']
        .map((t) => { const v = j(t); return [v.outcome, v.reason, v.family, v.detail]; });
      console.log(JSON.stringify({ ready: recoveryReady(), out }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const { ready, out } = JSON.parse(r.stdout) as { ready: boolean; out: string[][] };
    expect(ready).toBe(false);
    for (const [outcome, reason, family, detail] of out.slice(0, 4)) {
      expect([outcome, reason, family]).toEqual(['refused', 'shape', expect.any(String)]);
      expect(detail).toMatch(/the Python grammar is not loaded/);
    }
    // JSON families need no grammar
    expect(out[4]!.slice(0, 3)).toEqual(['recovered', 'ok', 'openai-json']);
  });
});
