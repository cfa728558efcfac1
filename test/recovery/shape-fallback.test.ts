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

  it('repeated tool-call tag fragments after an announcing preface (goose#9662); one cut fragment stays a cut', () => {
    const v = judge('Let me try a different approach to get the content from this WordPress site.\n\n<function\n<function', ['curl_get']);
    expect([v.outcome, v.reason, v.proseRatio]).toEqual(['refused', 'unknown_family', 0]);
    expect(judge('Let me look.\n<function', ['curl_get']).reason).toBe('no_tags');
    // an HTML-ish line of another tag is not a fragment
    expect(judge('<div\n<div', ['curl_get']).reason).toBe('no_tags');
  });
});
