/**
 * The engine's prefilter (src/recovery/triggers.ts, src/recovery/shape.ts) changes no verdict:
 * - a text holding no marker token of any family is one on which every family's `detect` returns
 *   -1 (so findMarkup, whose stray check searches exactly those tokens, finds nothing either):
 *   checked on random texts built from pieces of the markers, and on every string of the fixtures
 *   with each marker occurrence broken by one deleted character;
 * - markup with no marker (`detectBare`: bare JSON calls, pythonic lists) is read only behind its
 *   own cheap gates: a text without `"name"` and a `{`/`[`, or without `[` and `(`, is read by no
 *   bare family;
 * - the shape fallback's early density exit agrees with the exact symbol density, and the
 *   one-pass symbol count agrees with a per-code-point reference, on random Unicode (lone
 *   surrogates included).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAMILIES, recoverReply, DEFAULT_PROSE_CEILING } from '../../src/recovery/index.js';
import { markerTokens, tokenFilter } from '../../src/recovery/triggers.js';
import { belowDensity, SHAPE_DENSITY_FLOOR, shapeSpans, symbolDensity } from '../../src/recovery/shape.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOKENS = markerTokens(FAMILIES);

/** The plain reference: one substring search per token. */
const holdsAnyToken = (text: string, tokens: readonly string[]): boolean => tokens.some((t) => text.includes(t));

/** Every family's detect, in FAMILIES order. */
const detects = (text: string) => FAMILIES.map((f) => f.detect(text));
/** True when some family reads markup with no marker in the text. */
const bareRead = (text: string) => FAMILIES.some((f) => (f.detectBare?.(text, text.length) ?? -1) >= 0);

/** Pieces near the markers: each marker cut in two at every offset, plus JSON and spacing. */
const PIECES = [
  ...TOKENS.flatMap((t) => [...Array(t.length - 1).keys()].flatMap((i) => [t.slice(0, i + 1), t.slice(i + 1)])),
  ' ', '\n', '{"name": "bash", "arguments": {"command": "ls"}}', '{', '}', '[', ']', '"', 'bash', 'functions.bash:0',
  '<', '>', '|', '｜', '▁', '=', 'to=functions.bash', 'json', '```',
];

describe('marker prefilter', () => {
  it('derives its tokens from the families (every family contributes; no duplicates)', () => {
    expect(new Set(TOKENS).size).toBe(TOKENS.length);
    for (const f of FAMILIES) for (const m of f.markers) expect(TOKENS).toContain(m);
    expect(TOKENS).toContain('<tool_call>');
    expect(TOKENS).toContain('[TOOL_CALLS]');
  });

  it('on random texts of marker pieces: no marker token means no family detects markup', () => {
    let without = 0;
    let detected = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        const d = detects(text);
        if (d.some((at) => at >= 0)) detected++;
        if (!holdsAnyToken(text, TOKENS)) {
          without++;
          expect(d).toEqual(FAMILIES.map(() => -1));
          if (!bareRead(text)) expect(recoverReply({ text, advertised: [], toolCalls: [], truncated: false }, { proseCeiling: DEFAULT_PROSE_CEILING }).reason).toBe(text.trim() === '' ? 'no_text' : 'no_tags');
        }
      }),
      { numRuns: 3000, seed: 42 },
    );
    // both sides of the prefilter were exercised
    expect(without).toBeGreaterThan(300);
    expect(detected).toBeGreaterThan(300);
  });

  it('bare readings (no marker) fire only behind their gates: `"name"` with a `{` or `[`, or `[` with `(`', () => {
    const bare = ['\n[get_weather(city="x")]\n', '\n[f(a=1)', 'x(', '"name"', '\n{"name": "f", "arguments": {}}\n', '\n[{"name": "f", "parameters": {}}]\n'];
    const pieces = [...PIECES, ...bare, ...bare, ...bare];
    let fired = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 16 }), (parts) => {
        const text = parts.join('');
        if (!bareRead(text)) return;
        fired++;
        const json = text.includes('"name"') && (text.includes('{') || text.includes('['));
        const pythonic = text.includes('[') && text.includes('(');
        expect(json || pythonic, text).toBe(true);
      }),
      { numRuns: 2000, seed: 11 },
    );
    expect(fired).toBeGreaterThan(40);
  });

  it('tokenFilter (the grouped search recovery uses) answers as holdsAnyToken on random texts and every fixture string', () => {
    const holds = tokenFilter(TOKENS);
    let yes = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES, 'plain prose. ', 'a [link](x) and a | table |', '<b>html</b>'), { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        const want = holdsAnyToken(text, TOKENS);
        if (want) yes++;
        expect(holds(text)).toBe(want);
      }),
      { numRuns: 3000, seed: 7 },
    );
    expect(yes).toBeGreaterThan(300);
    for (const s of fixtureStrings()) for (const text of [s, breakTokens(s)]) expect(holds(text)).toBe(holdsAnyToken(text, TOKENS));
    // a token of letters only is searched whatever the text holds
    expect(tokenFilter(['abc', '<x>'])('xxabcxx')).toBe(true);
    expect(tokenFilter(['abc', '<x>'])('xx<xx')).toBe(false);
  });

  it('on every string of the fixtures, whole and with each marker occurrence broken, no token means no detect', () => {
    const strings = fixtureStrings();
    expect(strings.length).toBeGreaterThan(500);
    let broken = 0;
    for (const s of strings) {
      for (const text of [s, breakTokens(s)]) {
        if (holdsAnyToken(text, TOKENS)) continue;
        if (text !== s) broken++;
        expect(detects(text), text.slice(0, 200)).toEqual(FAMILIES.map(() => -1));
      }
    }
    expect(broken).toBeGreaterThan(20);
  });
});

describe('shape fallback prefilter', () => {
  /** The density as first written: one step per code point. */
  const reference = (text: string) => {
    let total = 0;
    let symbols = 0;
    for (const ch of text) {
      total++;
      if (/[^\p{L}\p{N}\s_]/u.test(ch) && !/[\u0000-\u0020\u007f]/.test(ch)) symbols++;
    }
    return total === 0 ? 0 : symbols / total;
  };
  const unicode = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
    fc.array(fc.constantFrom('a', ' ', '<', '_', '|', '\ud800', '\udc00', '😀', 'é', '9', '\n', '：'), { maxLength: 80 }).map((a) => a.join('')),
  );

  it('symbolDensity matches a per-code-point reference, and belowDensity matches symbolDensity < floor', () => {
    fc.assert(
      fc.property(unicode, fc.constantFrom(0, 0.05, SHAPE_DENSITY_FLOOR, 0.25, 0.5, 1), (text, floor) => {
        expect(symbolDensity(text)).toBe(reference(text));
        expect(belowDensity(text, floor)).toBe(symbolDensity(text) < floor);
      }),
      { numRuns: 3000, seed: 7 },
    );
  });

  it('a name fenced in symbols fires the shape only when the density floor is met and the name occurs', () => {
    expect(shapeSpans('<<bash>>', ['bash'])).toEqual([[0, 8]]);
    expect(shapeSpans('<<bash>>', ['ls'])).toEqual([]);
    expect(shapeSpans(`${'word '.repeat(40)}<bash>`, ['bash'])).toEqual([]);
    fc.assert(
      fc.property(unicode, (text) => {
        const spans = shapeSpans(`${text}<bash>`, ['bash']);
        expect(spans.length > 0).toBe(symbolDensity(`${text}<bash>`) >= SHAPE_DENSITY_FLOOR);
      }),
      { numRuns: 1000, seed: 8 },
    );
  });
});

/** Every string value (and key) of every JSON line of the recovery, corpus and capture fixtures. */
function fixtureStrings(): string[] {
  const out: string[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push(k); visit(x); }
  };
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p) : /\.(jsonl|json)$/.test(n) ? [p] : [];
    });
  for (const f of [...files(join(ROOT, 'fixtures/recovery')), ...files(join(ROOT, 'fixtures/corpus')), ...files(join(ROOT, 'fixtures/capture'))]) {
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      try {
        visit(JSON.parse(line));
      } catch {
        // not one JSON value per line (SSE, pretty-printed): its lines are texts too
        if (line.trim() !== '') out.push(line);
      }
    }
  }
  return out;
}

/** `s` with one character deleted from the middle of every marker occurrence. */
function breakTokens(s: string): string {
  let out = s;
  for (let guard = 0; guard < 1000 && holdsAnyToken(out, TOKENS); guard++) {
    const t = TOKENS.find((x) => out.includes(x))!;
    const at = out.indexOf(t) + (t.length >> 1);
    out = out.slice(0, at) + out.slice(at + 1);
  }
  return out;
}
