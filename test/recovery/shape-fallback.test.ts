/**
 * The shape fallback's readings of markup no family knows (src/recovery/shape.ts, markup.ts
 * fragmentLines): a tag named after an advertised tool, a bracketed line narrating a call, repeated
 * tag fragments. Each is refused `unknown_family` (a leak, never recovered); the near misses beside
 * them are not markup at all, or quotations.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROSE_CEILING, recoverReply } from '../../src/recovery/index.js';

const judge = (text: string, tools: string[]) =>
  recoverReply({ text, advertised: tools.map((name) => ({ name })), toolCalls: [], truncated: false }, { proseCeiling: DEFAULT_PROSE_CEILING });

describe('markup of no family', () => {
  it('a tag a model invented after an advertised tool (ollama#16383: <terminal_command> for terminal)', () => {
    expect(judge('<terminal_command>\nls -la\n</terminal_command>', ['terminal']).reason).toBe('unknown_family');
    // near misses: the tag named in a sentence (prose, below the symbol density), a tool that is not advertised
    expect(judge('Wrap it in a <terminal_command> tag when you answer, please.', ['terminal']).reason).toBe('no_tags');
    expect(judge('<terminal_command>\nls -la\n</terminal_command>', ['browser']).reason).toBe('no_tags');
  });

  it('a bracketed line narrating a call with its JSON (hermes studio#942 imitated the harness history)', () => {
    expect(judge('[Calling tool: terminal with arguments: {"command": "free -h"}]', ['terminal']).reason).toBe('unknown_family');
    // a bracketed note that names the tool but narrates no call
    expect(judge('[Note: the terminal printed {a: 1} and nothing else]', ['terminal']).reason).toBe('no_tags');
  });

  it('call lines to advertised tools with keyword arguments (vLLM granite_pythonic) are a leak, never recovered', () => {
    const one = judge('lookup_order(order_id="A-1042", verbose=True)', ['lookup_order']);
    expect([one.outcome, one.reason, one.family, one.calls]).toEqual(['refused', 'unknown_family', 'unknown', []]);
    const two = judge('lookup_order(order_id="A-1042")\nrefund_order(order_id="A-1042", amount=12.5)', ['lookup_order', 'refund_order']);
    expect([two.outcome, two.reason]).toEqual(['refused', 'unknown_family']);
    expect(judge('lookup_order()', ['lookup_order']).reason).toBe('unknown_family');
    // a fence stays a quotation
    expect(judge('Try this:\n```python\nlookup_order(order_id="A-1042")\n```', ['lookup_order']).reason).toBe('fenced');
    // near misses: the call inside a sentence, a positional argument, text after the call, an
    // assignment, a comparison, a tool that is not advertised
    for (const [text, tools] of [
      ['You could call lookup_order(order_id="A-1042") later.', ['lookup_order']],
      ['lookup_order("A-1042")', ['lookup_order']],
      ['lookup_order(order_id="A-1042") returns the order.', ['lookup_order']],
      ['order = lookup_order(order_id="A-1042")', ['lookup_order']],
      ['lookup_order(a == b)', ['lookup_order']],
      ['lookup_order(order_id="A-1042")', ['refund_order']],
    ] as const) expect(judge(text, [...tools]).reason, text).toBe('no_tags');
  });

  it('a ReAct action to an advertised tool is a leak, never recovered (issue 16: it produced no finding)', () => {
    for (const text of [
      'Action: bash\nAction Input: {"command": "ls -la"}',
      'Thought: I need to list the files.\nAction: bash\nAction Input: {"command": "ls -la"}',
      'Action: bash\nAction Input: ls -la /tmp',
      'Action 1: bash\nAction 1 Input: {"command": "ls"}',
      // a thought long enough to bring the reply under the fallback's symbol density: still markup
      'Thought: I need to check the current directory listing to find the config file.\nAction: bash\nAction Input: ls -la',
    ]) {
      const v = judge(text, ['bash']);
      expect([v.outcome, v.reason, v.family, v.calls], text).toEqual(['refused', 'unknown_family', 'unknown', []]);
    }
    expect(judge('Use this format:\n```\nAction: bash\nAction Input: {"command": "ls"}\n```', ['bash']).reason).toBe('fenced');
    // near misses: a tool that is not advertised, an action with no input line, text after the name,
    // the action named inside a sentence, a final answer
    for (const text of [
      'Action: python\nAction Input: print(1)',
      'Action: bash\nObservation: total 0',
      'Action: bash the files\nAction Input: ls',
      'Write `Action: bash` then `Action Input: ls`.',
      'Thought: done\nFinal Answer: bash is a shell',
      'A ReAct agent answers with an action line and an input line, then waits for the observation.',
    ]) expect(judge(text, ['bash']).reason, text).toBe('no_tags');
    // a tutorial around the two lines stays a quotation
    const tutorial = judge('For example, a model that wants to list the files of the project answers with these two lines, and the agent runs the tool:\nAction: bash\nAction Input: ls -la', ['bash']);
    expect([tutorial.outcome, tutorial.reason]).toEqual(['refused', 'quoted']);
  });

  it("GLM-4-0414's name line then its JSON arguments is a leak, never recovered (issue 16: it produced no finding)", () => {
    for (const text of [
      'get_weather\n{"city": "Paris"}',
      'bash\n{"command": "ls"}<|assistant|>get_weather\n{"city": "Paris"}',
      'get_weather\n{}',
    ]) {
      const v = judge(text, ['bash', 'get_weather']);
      expect([v.outcome, v.reason, v.family, v.calls], text).toEqual(['refused', 'unknown_family', 'unknown', []]);
    }
    expect(judge('```\nget_weather\n{"city": "Paris"}\n```', ['get_weather']).reason).toBe('fenced');
    // near misses: no JSON object on the next line, the name inside a line, a tool that is not advertised
    for (const text of ['bash\n{ is a brace }', 'bash\nis a shell', 'use bash\n{"command": "ls"}']) expect(judge(text, ['bash']).reason, text).toBe('no_tags');
    expect(judge('get_weather\n{"city": "Paris"}', ['bash']).reason).toBe('no_tags');
  });

  it('repeated tool-call tag fragments after an announcing preface (goose#9662); one cut fragment stays a cut', () => {
    const v = judge('Let me try a different approach to get the content from this WordPress site.\n\n<function\n<function', ['curl_get']);
    expect([v.outcome, v.reason, v.proseRatio]).toEqual(['refused', 'unknown_family', 0]);
    expect(judge('Let me look.\n<function', ['curl_get']).reason).toBe('no_tags');
    // an HTML-ish line of another tag is not a fragment
    expect(judge('<div\n<div', ['curl_get']).reason).toBe('no_tags');
  });
});
