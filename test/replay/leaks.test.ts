/**
 * Recovery on the stream: leaked markup split across frames at every offset never reaches an
 * emitted text delta (nor any byte of the output), and the recovered call arrives as the
 * format's own tool-call frames; held text that is prose comes back unchanged.
 */

import { describe, expect, it } from 'vitest';
import { MARKUP_TOKENS } from '../../src/recovery/prefix.js';
import { fixture, framesOf, repliesOf, replay, replayText, resplit, sentTexts } from './helpers.js';

interface LeakCase {
  file: string;
  tools: string[];
  prose: string;
  /** The markup exactly as the fixture streams it. */
  markupStart: string;
  call: { name: string; arguments: Record<string, unknown> };
  finishReason: string;
  family: string;
}

const CASES: LeakCase[] = [
  {
    file: 'openai-chat-hermes-leak.sse',
    tools: ['get_weather'],
    prose: "I'll check the weather.\n",
    markupStart: '<tool_call>',
    call: { name: 'get_weather', arguments: { city: 'Tokyo' } },
    finishReason: 'tool_calls',
    family: 'hermes',
  },
  {
    file: 'anthropic-dsml-leak.sse',
    tools: ['get_weather'],
    prose: 'Let me look that up.\n\n',
    markupStart: '<｜DSML｜function_calls>',
    call: { name: 'get_weather', arguments: { city: 'Tokyo', days: 3 } },
    finishReason: 'tool_use',
    family: 'dsml-v3.2',
  },
  {
    file: 'openai-responses-deepseek-leak.sse',
    tools: ['get_weather'],
    prose: 'Checking Tokyo.',
    markupStart: '<｜tool▁calls▁begin｜>',
    call: { name: 'get_weather', arguments: { city: 'Tokyo' } },
    finishReason: 'completed',
    family: 'deepseek-v3',
  },
];

/** Asserts one replay of a leak: nothing of the markup went out, the call came as a tool call. */
function expectRecovered(c: LeakCase, r: Awaited<ReturnType<typeof replay>>, markup: string): void {
  // no byte of the output (text deltas, .done events, final snapshots) holds a family token
  for (const t of MARKUP_TOKENS) expect(r.text.includes(t), `output holds ${t}`).toBe(false);
  // the text sent grows delta by delta: no prefix of it holds the markup or its first token
  let sent = '';
  for (const t of sentTexts(r)) {
    sent += t;
    expect(sent.includes(c.markupStart)).toBe(false);
    expect(sent.includes(markup)).toBe(false);
  }
  expect(sent).toBe(c.prose); // the prose before the markup, intact
  const [reply, ...more] = repliesOf(r.text);
  expect(more).toEqual([]);
  expect(reply!.truncated).toBe(false);
  expect(reply!.finishReason).toBe(c.finishReason);
  expect(reply!.toolCalls).toHaveLength(1);
  expect(reply!.toolCalls[0]!.name).toBe(c.call.name);
  expect(reply!.toolCalls[0]!.arguments).toEqual(c.call.arguments);
  expect(reply!.toolCalls[0]!.id).toMatch(/^guard_[0-9a-f]{16}$/);
  const rec = r.decisions.find((d) => d.type === 'recovered');
  expect(rec).toMatchObject({ type: 'recovered', family: c.family, calls: [{ name: c.call.name }] });
}

describe.each(CASES)('$file', (c) => {
  it('is recovered as written', async () => {
    const frames = await framesOf(fixture(c.file));
    const { text } = resplit(frames, (t) => [t]);
    const markup = text.slice(text.indexOf(c.markupStart));
    expectRecovered(c, await replay(frames, { tools: c.tools }), markup);
  });

  it('is recovered with the text split in two at every offset', async () => {
    const frames = await framesOf(fixture(c.file));
    const { text } = resplit(frames, (t) => [t]);
    const markup = text.slice(text.indexOf(c.markupStart));
    for (let k = 1; k < text.length; k++) {
      const split = resplit(frames, (t) => [t.slice(0, k), t.slice(k)]);
      expectRecovered(c, await replay(split.frames, { tools: c.tools }), markup);
    }
  });

  it('is recovered with one character per frame, and in enforce too', async () => {
    const frames = await framesOf(fixture(c.file));
    const split = resplit(frames, (t) => [...t]);
    const markup = split.text.slice(split.text.indexOf(c.markupStart));
    expectRecovered(c, await replay(split.frames, { tools: c.tools }), markup);
    expectRecovered(c, await replay(split.frames, { tools: c.tools, mode: 'enforce' }), markup);
  });

  it('holds back only from the first token on: the prose before it goes out before the markup arrives', async () => {
    const frames = await framesOf(fixture(c.file));
    const split = resplit(frames, (t) => [...t]);
    const r = await replay(split.frames, { tools: c.tools });
    const rec = r.decisions.find((d) => d.type === 'recovered')!;
    expect(rec.type === 'recovered' && rec.held_chars).toBe(split.text.length - split.text.indexOf(c.markupStart));
  });

  it('a refused leak passes unchanged in observe and ends the turn with an error frame in enforce', async () => {
    // the markup calls a tool the request did not advertise
    const input = fixture(c.file).replaceAll(`${c.call.name}\\n`, 'delete_all\\n').replaceAll(`\\"${c.call.name}\\"`, '\\"delete_all\\"');
    expect(input).not.toBe(fixture(c.file));
    const observed = await replayText(input, { tools: c.tools });
    expect(repliesOf(observed.text)[0]!.text).toBe(repliesOf(input)[0]!.text);
    expect(repliesOf(observed.text)[0]!.text).toContain('delete_all');
    expect(observed.decisions.find((d) => d.type === 'refused')).toMatchObject({ reason: 'unadvertised', action: 'passed', family: c.family });

    const enforced = await replayText(input, { tools: c.tools, mode: 'enforce' });
    expect(enforced.decisions.find((d) => d.type === 'refused')).toMatchObject({ reason: 'unadvertised', action: 'ended' });
    expect(enforced.decisions.find((d) => d.type === 'cut')).toMatchObject({ cause: 'refused', code: 'guard_refused' });
    for (const t of MARKUP_TOKENS) expect(enforced.text.includes(t)).toBe(false);
    expect(enforced.text).toContain('(unadvertised)');
    const last = enforced.frames.at(-1)!;
    if (c.file.startsWith('openai-chat')) {
      expect(last.data).toBe('[DONE]');
      expect(JSON.parse(enforced.frames.at(-2)!.data!).error.code).toBe('guard_refused');
    } else {
      expect(last.event).toBe('error');
      const p = JSON.parse(last.data!);
      expect(p.type).toBe('error');
      expect(c.file.startsWith('anthropic') ? p.error.type : p.code).toBe('guard_refused');
    }
    expect(sentTexts(enforced).join('')).toBe(c.prose);
  });
});

describe('held text that is not a leak', () => {
  const chat = (pieces: string[]) =>
    pieces
      .map((p) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: p }, finish_reason: null }] })}\n\n`)
      .join('') +
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;

  it('a partial token that does not continue is sent unchanged with the next text', async () => {
    const r = await replayText(chat(['Use a <tool', 'box> here.']), { tools: ['bash'] });
    expect(sentTexts(r)).toEqual(['Use a ', '<toolbox> here.']);
    expect(repliesOf(r.text)[0]!.text).toBe('Use a <toolbox> here.');
    expect(r.decisions.at(-1)).toMatchObject({ type: 'summary', max_held_chars: 5, max_held_frames: 1 });
  });

  it('a partial token left at the end of the text goes out before the finish chunk', async () => {
    const r = await replayText(chat(['Compare a < b and [TOOL']), { tools: ['bash'] });
    expect(sentTexts(r)).toEqual(['Compare a < b and ', '[TOOL']);
    const reply = repliesOf(r.text)[0]!;
    expect(reply.text).toBe('Compare a < b and [TOOL');
    expect(reply.finishReason).toBe('stop');
  });

  it('plain prose is never held', async () => {
    const input = chat(['Hello ', 'world, ', 'no markup here.']);
    const r = await replayText(input, { tools: ['bash'] });
    expect(r.text).toBe(input);
    expect(r.decisions).toEqual([expect.objectContaining({ type: 'summary', max_held_chars: 0, max_held_frames: 0 })]);
  });

  it('markup quoted in a fence is held, then released unchanged in order', async () => {
    const text = 'Here is how a call looks:\n```xml\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Tokyo"}}\n</tool_call>\n```\nThat is all.';
    const input = chat([...text]);
    const r = await replayText(input, { tools: ['get_weather'] });
    expect(sentTexts(r).join('')).toBe(text);
    expect(repliesOf(r.text)[0]!.text).toBe(text);
    expect(repliesOf(r.text)[0]!.toolCalls).toEqual([]);
    expect(r.decisions.find((d) => d.type === 'released')).toMatchObject({ reason: 'fenced', family: 'hermes' });
  });

  it('prose after the markup is kept as text beside the recovered call', async () => {
    const text = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Tokyo"}}\n</tool_call>\nDone.';
    const r = await replayText(chat([text]), { tools: ['get_weather'] });
    expect(sentTexts(r)).toEqual(['\nDone.']);
    expect(repliesOf(r.text)[0]!.toolCalls.map((t) => t.name)).toEqual(['get_weather']);
  });
});
