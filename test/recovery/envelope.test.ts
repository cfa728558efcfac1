/**
 * The envelope of markup by kind (src/recovery/envelope.ts and its use in the engine): markup quoted
 * inside a sentence is a quotation whose characters are prose; unread markup is measured word by
 * word (tokens, JSON, non-prose words are markup; plain words are prose); a broken or cut call
 * block keeps the envelope its parser gave.
 */
import { describe, expect, it } from 'vitest';
import { callEnvelopes, inSentence, isProseWord, unreadMarkupPieces } from '../../src/recovery/envelope.js';
import { DEFAULT_PROSE_CEILING, recoverReply, type RecoveryVerdict } from '../../src/recovery/index.js';

const judge = (text: string, tools: string[]): RecoveryVerdict =>
  recoverReply({ text, advertised: tools.map((name) => ({ name })), toolCalls: [], truncated: false }, { proseCeiling: DEFAULT_PROSE_CEILING });

const r3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

describe('isProseWord', () => {
  it('takes letters with trailing punctuation, refuses digits, symbols and letter runs over 30', () => {
    expect(['then', 'pairs,', 'instead.', "model's", '(see', 'Tōkyō', 'réponse;'].map(isProseWord)).toEqual([true, true, true, true, true, true, true]);
    expect(['get_weather', 'glm45', '</tool_call>', '[ARGS]?', 'to=functions.x', '"exec">', 'M'.repeat(31)].map(isProseWord)).toEqual([false, false, false, false, false, false, false]);
  });
});

describe('unreadMarkupPieces', () => {
  const markers = ['<tool_call>', '</tool_call>', '<arg_key>', '</arg_key>', '<arg_value>', '</arg_value>', '<|tool_call_begin|>', '<|tool_call_end|>'];
  it('words holding tokens are markup, the plain words between them are prose', () => {
    const t = 'GLM writes <tool_call>get_weather then <arg_key>city</arg_key><arg_value>Paris</arg_value> pairs and </tool_call>. Done here.';
    const pieces = unreadMarkupPieces(t, t.indexOf('<tool_call>'), markers);
    expect(pieces.map((p) => [t.slice(...p.span), p.token])).toEqual([
      ['<tool_call>get_weather', true],
      ['<arg_key>city</arg_key><arg_value>Paris</arg_value>', true],
      ['</tool_call>.', true],
    ]);
  });
  it('JSON after a token stays markup across its spaces, and JSON cut by the end runs to the end', () => {
    const t = '<|tool_call_begin|> functions.get_weather:0 {"city": "New York"} <|tool_call_end|>';
    expect(unreadMarkupPieces(t, 0, markers).map((p) => t.slice(...p.span))).toEqual([
      '<|tool_call_begin|>',
      'functions.get_weather:0',
      '{"city": "New York"}',
      '<|tool_call_end|>',
    ]);
    const cut = '<tool_call> {"name": "f", "arguments": {"q": "what is the';
    expect(unreadMarkupPieces(cut, 0, markers).map((p) => p.span)).toEqual([[0, 11], [12, cut.length]]);
  });
});

describe('inSentence and callEnvelopes', () => {
  it('a span with prose before and after it on its line is inside a sentence; on its own line it is not', () => {
    const t = 'It emits <x> and stops.\n<y>\nThen more.';
    const spans: Array<[number, number]> = [[9, 12], [24, 27]];
    expect(inSentence(t, spans)).toEqual([true, false]);
    expect(callEnvelopes(t, spans)).toEqual([[24, 27]]);
  });
  it('prose only before (a preface on the same line) or only after is not a sentence around it', () => {
    expect(inSentence('Let me check.<x>', [[13, 16]])).toEqual([false]);
    expect(inSentence('<x> then words', [[0, 3]])).toEqual([false]);
  });
});

describe('the engine judges markup by kind', () => {
  it('a complete MiniMax block quoted inline in a sentence is quoted, not recovered (was recovered at 0.49)', () => {
    const v = judge('The MiniMax-M2 template emits <minimax:tool_call><invoke name="exec"><parameter name="command">ls</parameter></invoke></minimax:tool_call> and expects the server to parse it; when it does not, this XML shows in the message content.', ['exec']);
    expect([v.outcome, v.reason, v.family, v.proseRatio, v.calls]).toEqual(['refused', 'quoted', 'minimax', 1, []]);
    expect(v.detail).toBe('the minimax markup is quoted (inside a sentence (prose before and after it on its line))');
  });

  it('a broken opener followed by sentences is narration: quoted, not shape at 0.07', () => {
    const v = judge('Our agent printed <tool_call>{"name": "bash"} in the chat and then stopped, so nothing ran.', ['bash']);
    expect([v.outcome, v.reason, v.family, v.proseRatio]).toEqual(['refused', 'quoted', 'hermes', 1]);
  });

  it('tokens of one family far apart in a sentence are quoted (the span no longer runs first token to last)', () => {
    const v = judge('Kimi K2 marks the section with <|tool_calls_section_begin|> and each call with <|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>, so these tokens show up verbatim.', ['get_weather']);
    expect([v.outcome, v.reason, v.family, v.proseRatio]).toEqual(['refused', 'quoted', 'kimi-k2', 1]);
  });

  it('a cut call block keeps its parser envelope: words of a cut value stay markup', () => {
    const v = judge('<tool_call>\n<function=get_weather>\n<parameter=city>\nTōkyō ｜ 東', ['get_weather']);
    expect([v.outcome, v.reason, v.family, v.proseRatio]).toEqual(['refused', 'truncated', 'qwen3-coder', 0]);
  });

  it('tokens with no readable block, not in a sentence, with JSON between them: all markup (shape, 0)', () => {
    const v = judge('<|tool_call_begin|> functions.get_weather:0 {"city": "Tokyo"} <|tool_call_end|>', ['get_weather']);
    expect([v.outcome, v.reason, v.family, v.proseRatio]).toEqual(['refused', 'shape', 'kimi-k2', 0]);
  });

  it('a cut opener word glued to nothing readable is markup, not prose (<tool_call>\\n<function)', () => {
    const v = judge('<tool_call>\n<function', ['get_weather']);
    expect([v.outcome, v.reason, v.proseRatio]).toEqual(['refused', 'shape', 0]);
  });

  it('chat-format tokens glued between two messages are a leak, not a sentence quoting them (team-written, after a real llama-server gpt-oss capture)', () => {
    const v = judge('<|channel|>analysis<|message|>The user says "hi". Reply briefly.<|start|>assistant<|channel|>final<|message|>Hello! How can I help you today?', ['get_weather']);
    expect([v.outcome, v.reason, v.family, r3(v.proseRatio)]).toEqual(['refused', 'shape', 'harmony', 0.154]);
  });

  it('a bare token on its own line between paragraphs is measured by the ratio (prose)', () => {
    const v = judge('Mistral models start their calls with a control token:\n[TOOL_CALLS]\nThe name and the arguments should follow it.', ['get_weather']);
    expect([v.outcome, v.reason, v.family, r3(v.proseRatio)]).toEqual(['refused', 'prose', 'mistral', 0.874]);
  });

  it('a leak with a preface line and a block on its own lines is still recovered', () => {
    const v = judge('Let me check the weather for you.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>', ['get_weather']);
    // the announcing preface is left out of the ratio (src/recovery/preface.ts)
    expect([v.outcome, v.reason, r3(v.proseRatio)]).toEqual(['recovered', 'ok', 0]);
    // a preface that shows rather than announces still counts
    const shown = judge('Let me show you the call it would make.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>', ['get_weather']);
    expect(r3(shown.proseRatio)).toBe(0.295);
  });
});
