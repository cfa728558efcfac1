/**
 * docs/reason-codes.md documents exactly REASON_CODES (src/recovery/types.ts), in order, with the
 * outcome REASON_OUTCOME gives; and every example on that page yields the code it illustrates.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeToolCall } from '../../src/capture/toolcall.js';
import { DEFAULT_PROSE_CEILING, REASON_CODES, REASON_OUTCOME, recoverReply, type RecoveryInput } from '../../src/recovery/index.js';

const doc = readFileSync(new URL('../../docs/reason-codes.md', import.meta.url), 'utf8');

describe('docs/reason-codes.md', () => {
  it('has one table row per code, in REASON_CODES order, with its outcome', () => {
    const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| (none|refused|recovered) \|/gm)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(REASON_CODES.map((c) => [c, REASON_OUTCOME[c]]));
  });
  it('has one example section per code', () => {
    expect([...doc.matchAll(/^### `([a-z_]+)`$/gm)].map((m) => m[1])).toEqual([...REASON_CODES]);
  });
  it("every code's outcome is the one the engine gives with it", () => {
    expect(Object.keys(REASON_OUTCOME).sort()).toEqual([...REASON_CODES].sort());
  });
});

const base = (text: string, tools: string[] | null = ['get_weather']): RecoveryInput => ({
  text,
  advertised: tools === null ? null : tools.map((name) => ({ name })),
  toolCalls: [],
  truncated: false,
});

/** The examples of docs/reason-codes.md, as inputs. */
const EXAMPLES: Record<string, RecoveryInput[]> = {
  structured: [{ ...base("I'll check.\n\n<｜DSML｜function_calls"), toolCalls: [makeToolCall('call_1', 'get_weather', 'function', '{"city":"Tokyo"}')] }],
  no_text: [base('  \n')],
  no_tags: [base('I will use web_search first, then summarise.', ['web_search'])],
  fenced: [
    base('Like so:\n```\n<tool_call>\n{"name": "get_weather", "arguments": {}}\n</tool_call>\n```'),
    base('<pre>\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>\n</pre>'),
  ],
  quoted: [
    base('Send `<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>` to call it.'),
    { ...base(''), reasoning: 'I could call <tool_call>{"name": "get_weather", "arguments": {}}</tool_call> and then summarise what it says.' },
    base('<code><tool_call>{"name": "get_weather", "arguments": {}}</tool_call></code>'),
    base('<!-- <tool_call>{"name": "get_weather", "arguments": {}}</tool_call> -->'),
    base('The template emits <minimax:tool_call><invoke name="exec"><parameter name="command">ls</parameter></invoke></minimax:tool_call> and expects the server to parse it.', ['exec']),
  ],
  in_reasoning: [
    { ...base(''), reasoning: 'The user wants the weather.\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>' },
    base('<think>\nThe user wants the weather.\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>\n</think>'),
  ],
  prose: [base('Mistral models start their calls with a control token, on a line of its own in our logs:\n[TOOL_CALLS]\nThe name and the arguments should follow it, but the reply stopped there.')],
  unknown_family: [base('[TOOL_REQUEST]{"name":"web_search","arguments":{"query":"x"}}[END_TOOL_REQUEST]', ['web_search'])],
  degenerate: [base('<｜tool▁calls▁begin｜><｜tool▁calls▁begin｜><｜tool▁calls▁begin｜>MMMM')],
  interleaved: [base('<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>\nThen, once that is back:\n<tool_call>{"name": "get_weather", "arguments": {"city": "Rome"}}</tool_call>')],
  truncated: [base('I will check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "San Fr')],
  shape: [
    base('<｜DSML｜function_calls>\n<｜DSML｜invoke name=“get_weather”>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>'),
    base('<tool_call>\n{"name": "get_weather", "arguments": {}}\n<tool_call>\n{"name": "get_weather", "arguments": {}}\n</tool_call>'),
  ],
  no_advertised_tools: [base('<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', null)],
  unadvertised: [base('<tool_call>{"name": "delete_all", "arguments": {}}</tool_call>')],
  bad_arguments: [
    base('<tool_call>{"name": "get_weather", "arguments": "city=Tokyo"}</tool_call>'),
    base('<tool_call>{"name": "get_weather", "arguments": {"city": "Tokyo"}</tool_call>'),
  ],
  schema_mismatch: [
    {
      ...base('<tool_call>{"name": "get_weather", "arguments": {"town": "Tokyo"}}</tool_call>'),
      advertised: [{ name: 'get_weather', schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } }],
    },
  ],
  ok: [base('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Tokyo"}}\n</tool_call>')],
};

describe('reason code examples', () => {
  it('cover every code', () => expect(Object.keys(EXAMPLES).sort()).toEqual([...REASON_CODES].sort()));
  for (const [code, inputs] of Object.entries(EXAMPLES)) {
    it.each(inputs.map((i, n) => [n, i] as const))(`${code} #%d`, (_n, input) => {
      const v = recoverReply(input, { proseCeiling: DEFAULT_PROSE_CEILING });
      expect([v.reason, v.outcome]).toEqual([code, REASON_OUTCOME[code as keyof typeof REASON_OUTCOME]]);
      // Every example's text appears verbatim on the page (as a JSON string).
      if (input.text.trim() !== '') expect(doc).toContain(JSON.stringify(input.text));
    });
  }
  it('the structured fragment and the reasoning-only markup name their family', () => {
    expect(recoverReply(EXAMPLES['structured']![0]!, { proseCeiling: DEFAULT_PROSE_CEILING }).family).toBe('dsml-v3.2');
    expect(recoverReply(EXAMPLES['quoted']![1]!, { proseCeiling: DEFAULT_PROSE_CEILING }).family).toBe('hermes');
  });
});
