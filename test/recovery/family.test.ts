/**
 * Per-family tests: a complete single call, several calls, a truncated one, a quoted one, and the
 * family's typing rules. Renderings come from test/recovery/render.ts (written from the research
 * note's grammars); exact names, arguments, reasons and families are asserted.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROSE_CEILING, recoverReply, type RecoveryVerdict } from '../../src/recovery/index.js';
import { judgeReply } from '../../src/verdict/judge.js';
import { compileRuleSet, initInspection } from '../../src/inspection/index.js';
import type { Reply } from '../../src/capture/types.js';
import { advertisedFor, GRAMMARS, type Call } from './render.js';

const opts = { proseCeiling: DEFAULT_PROSE_CEILING };
const judge = (text: string, calls: Call[], extra: { schema?: boolean } = {}): RecoveryVerdict =>
  recoverReply(
    {
      text,
      advertised: extra.schema === false ? calls.map((c) => ({ name: c.name })) : advertisedFor(calls),
      toolCalls: [],
      truncated: false,
      idSeed: 'f:1',
    },
    opts,
  );
const plain = (v: RecoveryVerdict) => v.calls.map((k) => ({ name: k.name, args: k.arguments }));

const one: Call = { name: 'run_shell', args: { command: 'ls -la | grep "x" > /tmp/o 2>&1', cwd: '/home/ｕｓｅｒ' } };
const two: Call[] = [
  { name: 'get_weather', args: { city: 'Tōkyō', days: 3 } },
  { name: 'write_file', args: { path: 'a.md', content: 'line 1\n</tool_call>\n<｜DSML｜parameter>' } },
];

describe.each(Object.entries(GRAMMARS))('%s', (_key, g) => {
  it('a complete single call is recovered exactly', () => {
    const v = judge(g.render([one])!.text, [one]);
    expect([v.outcome, v.reason, v.family, v.proseRatio]).toEqual(['recovered', 'ok', g.label, 0]);
    expect(plain(v)).toEqual([one]);
  });

  it('several calls are recovered in order with distinct ids (or refused when the grammar has no multi-call form)', () => {
    const r = g.render(two);
    if (r === null) {
      // Llama 3.x: one call per <|python_tag|>; a second tag where <|eom_id|> belongs is malformed
      // structure (the text goes on, so it was not cut).
      const joined = `${g.render([two[0]!])!.text}${g.render([two[1]!])!.text}`;
      expect(judge(joined, two).reason).toBe('shape');
      return;
    }
    const dsmlLike = g.ambiguous?.(two[1]!.args['content'] as string) === true;
    const v = judge(r.text, two);
    if (dsmlLike) {
      // The value holds a tag of the dialect itself: refused, never cut short.
      expect([v.outcome, v.reason]).toEqual(['refused', 'shape']);
      return;
    }
    expect([v.outcome, v.reason, v.family]).toEqual(['recovered', 'ok', g.label]);
    expect(plain(v)).toEqual(two);
    expect(new Set(v.calls.map((k) => k.id)).size).toBe(2);
  });

  it('a truncated call (cut inside its arguments) is refused as truncated', () => {
    const t = g.render([one])!.text;
    const cut = t.slice(0, t.indexOf('grep') + 2);
    const v = judge(cut, [one]);
    expect([v.outcome, v.reason, v.family]).toEqual(['refused', 'truncated', g.label]);
  });

  it('a quoted call (inline code, block quote, example framing) is not recovered', () => {
    const t = g.render([one])!.text;
    const inline = judge(`Write \`\` ${t} \`\` to call the tool.`, [one]);
    expect([inline.outcome, inline.reason]).toEqual(['refused', 'quoted']);
    const quote = judge(`> ${t.split('\n').join('\n> ')}`, [one]);
    expect([quote.outcome, quote.reason]).toEqual(['refused', 'quoted']);
    const example = judge(`For example:\n${t}`, [one]);
    expect([example.outcome, example.reason]).toEqual(['refused', 'quoted']);
  });

  it('typing: every JSON type comes back with its type', () => {
    const typed: Call = { name: 't', args: { s: 'false', n: 17, x: -2.5, b: false, z: null, a: [1, 'two', { three: 3 }], o: { k: 'v' }, e: '' } };
    const v = judge(g.render([typed])!.text, [typed]);
    expect([v.reason, plain(v)]).toEqual(['ok', [typed]]);
  });
});

describe('per-parameter typing without a schema, and with flags', () => {
  const call: Call = { name: 't', args: { n: 17, b: true, s: 'ls' } };
  it.each(['qwen3-coder', 'seed-oss', 'glm', 'minimax'])('%s: without a schema every value stays text (an unencoded scalar is kept as written)', (key) => {
    const v = judge(GRAMMARS[key]!.render([call])!.text, [call], { schema: false });
    // Seed-OSS's template writes a boolean as Python's str() does: `True`
    expect([v.reason, plain(v)]).toEqual(['ok', [{ name: 't', args: { n: '17', b: key === 'seed-oss' ? 'True' : 'true', s: 'ls' } }]]);
  });
  it.each(['dsml-v3.2', 'dsml-v4'])('%s: string="true|false" decides, with or without a schema', (key) => {
    const v = judge(GRAMMARS[key]!.render([call])!.text, [call], { schema: false });
    expect([v.reason, plain(v)]).toEqual(['ok', [call]]);
  });
  it('a schema string stays a string even when it reads "false" or "17" (Qwen3-Coder)', () => {
    const t = '<tool_call>\n<function=t>\n<parameter=s>\n17\n</parameter>\n<parameter=f>\nfalse\n</parameter>\n</function>\n</tool_call>';
    const v = recoverReply({ text: t, advertised: [{ name: 't', schema: { properties: { s: { type: 'string' }, f: { type: 'string' } } } }], toolCalls: [], truncated: false }, opts);
    expect(plain(v)).toEqual([{ name: 't', args: { s: '17', f: 'false' } }]);
  });
  it('a value that does not fit its schema type is bad_arguments, never coerced (GLM boolean "yes")', () => {
    const t = '<tool_call>t\n<arg_key>b</arg_key>\n<arg_value>yes</arg_value>\n</tool_call>';
    const v = recoverReply({ text: t, advertised: [{ name: 't', schema: { properties: { b: { type: 'boolean' } } } }], toolCalls: [], truncated: false }, opts);
    expect([v.outcome, v.reason]).toEqual(['refused', 'bad_arguments']);
  });
});

describe('call ids through judgeReply (occurrence = the reply line in the transcript)', () => {
  const reply = (line: number): Reply => ({
    source: { file: 'session.jsonl', line },
    format: 'guard-reply',
    id: 'r',
    advertised: [{ name: 'get_weather' }],
    text: GRAMMARS['hermes']!.render([two[0]!, two[0]!])!.text,
    reasoning: '',
    toolCalls: [],
    truncated: false,
  });
  it('identical calls in one reply and in two replies of one session get different ids; re-running gives the same ids', async () => {
    await initInspection();
    const ruleSet = compileRuleSet();
    const ids = (line: number) => judgeReply(reply(line), { recovery: opts, ruleSet, mode: 'observe' }).recovery.calls.map((c) => c.id);
    const a = ids(3);
    const b = ids(9);
    expect(new Set([...a, ...b]).size).toBe(4);
    expect(ids(3)).toEqual(a);
  });
});
