/**
 * Property-based tests (fast-check) of the recovery contract, for every family grammar:
 * - round trip: a call rendered in the family's grammar is recovered with exactly its name and
 *   arguments (Unicode, markup-like strings, nested values), or, when a raw parameter value holds
 *   a tag of the dialect itself (no reader can tell where it ends), refused or read as calls that
 *   render to exactly the same text;
 * - a cut at any UTF-8 byte offset before the final required closer is never recovered;
 * - the rendering wrapped in a Markdown fence, or in enough prose, is never recovered;
 * - the rendering inside an HTML <code>, <pre>, <kbd>, <samp>, <tt> element or an HTML comment is
 *   never recovered, while a closed element before it changes nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROSE_CEILING, recoverReply, type RecoveryVerdict } from '../../src/recovery/index.js';
import { advertisedFor, GRAMMARS, type Call, type Grammar } from './render.js';

const RUNS = 100;
const opts = { proseCeiling: DEFAULT_PROSE_CEILING };

/** Strings that look like the markup of some family, to be mixed into names' arguments. */
const MARKUPISH = [
  '</tool_call>', '<tool_call>', '<｜DSML｜parameter name="x" string="true">', '</｜DSML｜invoke>', '```', '```json\n', '`',
  '<|tool_call_end|>', '<|tool_calls_section_end|>', '[TOOL_CALLS]', '[ARGS]', '<|call|>', '<|channel|>', '<|message|>',
  '</parameter>', '<parameter=x>', '</function>', '<arg_value>', '</invoke>', '<｜tool▁call▁end｜>', '> quote', 'for example',
  '\n', '\r\n', ' ', '"', '\\', '｜', '▁', 'ｆｕｌｌ', '\u0000', '\u2028', '😀', 'é', 'e\u0301',
  '<code>', '</code>', '<pre>', '</pre>', '<!--', '-->',
];

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.array(fc.oneof(fc.constantFrom(...MARKUPISH), fc.string({ maxLength: 4 })), { maxLength: 5 }).map((a) => a.join('')),
);
const scalar = fc.oneof(
  text,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
  fc.boolean(),
  fc.constant(null),
);
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(text, tie('value'), { maxKeys: 3 }),
  ),
}));
const toolName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,20}$/);
/** Per-parameter families need parameter names that fit in a tag. */
const paramKey = fc.stringMatching(/^[a-z_][a-z0-9_]{0,10}$/);

function callArb(g: Grammar): fc.Arbitrary<Call> {
  // pythonic grammars write names as Python identifiers (no `-`, no keyword)
  const ok = g.identifiers ?? (() => true);
  const key = paramKey.filter(ok);
  const args = g.values === 'json' ? fc.dictionary(text, value, { maxKeys: 4 }) : fc.dictionary(key, value, { maxKeys: 4 });
  return fc.record({ name: toolName.filter(ok), args: args as fc.Arbitrary<Record<string, unknown>> });
}

function judge(t: string, calls: Call[]): RecoveryVerdict {
  return recoverReply({ text: t, advertised: advertisedFor(calls), toolCalls: [], truncated: false, idSeed: 'p:1' }, opts);
}

const isAmbiguous = (g: Grammar, c: Call) => g.ambiguous !== undefined && Object.values(c.args).some((v) => g.ambiguous!(v));

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** The text cut after `bytes` UTF-8 bytes (a cut inside a code point decodes to U+FFFD). */
const cutAt = (t: string, bytes: number) => decoder.decode(encoder.encode(t).subarray(0, bytes));

/** Prose with no markup and no example framing, long enough to push the ratio above the ceiling. */
function proseAround(markup: string): string {
  const sentence = 'The forecast service answered slowly today, and the report below was written by hand. ';
  const need = Math.ceil(markup.replace(/\s/gu, '').length / sentence.replace(/\s/g, '').length) + 1;
  return `${sentence.repeat(need)}\n${markup}\n${sentence.repeat(need)}`;
}

describe.each(Object.entries(GRAMMARS))('%s', (_key, g) => {
  it('round trip: recovered with exactly the same name and arguments (or refused when a value holds a dialect tag)', () => {
    fc.assert(
      fc.property(callArb(g), (c) => {
        const r = g.render([c])!;
        const v = judge(r.text, [c]);
        if (isAmbiguous(g, c)) {
          // a value holding the dialect's own tags: refused, or (where the grammar writes values
          // unpadded, Seed-OSS) read as other calls whose rendering is exactly this text, so no
          // reader could tell them from the ones written: never a call the text does not spell
          if (v.outcome === 'recovered') expect(g.render(v.calls.map((k) => ({ name: k.name, args: k.arguments as Call['args'] })))?.text, r.text).toBe(r.text);
          return;
        }
        expect([v.outcome, v.reason, v.family], r.text).toEqual(['recovered', 'ok', r.label ?? g.label]);
        expect(v.calls.map((k) => ({ name: k.name, args: k.arguments }))).toEqual([c]);
      }),
      { numRuns: RUNS },
    );
  });

  it('a cut at any byte offset before the final closer is never recovered', () => {
    fc.assert(
      fc.property(callArb(g), fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { minLength: 1, maxLength: 6 }), (c, at) => {
        const r = g.render([c])!;
        const end = encoder.encode(r.text.slice(0, r.requiredEnd)).length;
        for (const f of at) {
          const cut = cutAt(r.text, Math.floor(f * end));
          expect(judge(cut, [c]).outcome, cut).not.toBe('recovered');
        }
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it('every byte offset of one fixed call is never recovered, and the cut is reported as such', () => {
    const c: Call = { name: 'get_weather', args: { city: 'Tōkyō ｜ 東京', days: 3, opts: { units: ['c'] } } };
    const r = g.render([c])!;
    const end = encoder.encode(r.text.slice(0, r.requiredEnd)).length;
    const reasons = new Set<string>();
    for (let b = 0; b < end; b++) {
      const v = judge(cutAt(r.text, b), [c]);
      expect(v.outcome, `${b}: ${cutAt(r.text, b)}`).not.toBe('recovered');
      reasons.add(v.reason);
    }
    // A cut reads as a cut (or as no markup yet, or a partial token): never as anything recoverable.
    for (const reason of reasons) expect(['no_text', 'no_tags', 'truncated', 'shape']).toContain(reason);
    expect(reasons).toContain('truncated');
    expect(judge(r.text, [c]).reason).toBe('ok');
  });

  it('wrapped in a Markdown fence, or in enough prose, is never recovered', () => {
    fc.assert(
      fc.property(callArb(g), fc.constantFrom('```', '~~~', '```xml', '````'), (c, fence) => {
        const r = g.render([c])!;
        const fenced = judge(`Here it is:\n${fence}\n${r.text}\n${fence.replace(/[a-z]+$/, '')}\n`, [c]);
        expect(fenced.outcome).not.toBe('recovered');
        if (!isAmbiguous(g, c)) expect(fenced.reason).toBe('fenced');
        const prose = judge(proseAround(r.text), [c]);
        expect(prose.outcome).not.toBe('recovered');
        if (!isAmbiguous(g, c)) expect(prose.reason).toBe('prose');
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it('inside an HTML <code>/<pre>/<kbd>/<samp>/<tt> element or comment, inline or around its lines, is never recovered', () => {
    const wrappers = ['<code>@</code>', '<pre>\n@\n</pre>', '<PRE class="x">@</PRE>', '<kbd>@</kbd>', '<samp>\n@\n</samp >', '<tt>@</tt>', '<!-- @ -->', '<!--\n@\n-->', 'Run:\n<code>@'];
    fc.assert(
      fc.property(callArb(g), fc.constantFrom(...wrappers), (c, w) => {
        const r = g.render([c])!;
        const v = judge(w.replace('@', () => r.text), [c]);
        expect(v.outcome).not.toBe('recovered');
        // (arguments holding backtick runs may be read as inline code first: a quotation either way;
        // seed -1038209899 drew {"```":"</tool_call>"," ```":false} inside <!-- -->)
        const detail = r.text.includes('`') ? /inside (an HTML (comment|<[a-z]+> element)|backticks \(inline code\))\)$/ : /inside an HTML (comment|<[a-z]+> element)\)$/;
        if (!isAmbiguous(g, c)) expect([v.reason, v.detail]).toEqual([/^<pre/i.test(w) ? 'fenced' : 'quoted', expect.stringMatching(detail)]);
        // closed elements before the markup quote nothing of it: same verdict as the same prefix
        // with its `<` made plain text (same prose ratio)
        const prefix = '<kbd>Enter</kbd> <!-- note --> <pre>x</pre>\n';
        expect(judge(prefix + r.text, [c]).reason).toBe(judge(prefix.replaceAll('<', '(') + r.text, [c]).reason);
      }),
      { numRuns: RUNS / 2 },
    );
  });
});
