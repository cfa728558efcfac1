/**
 * OpenAI harmony (gpt-oss): a call is a message whose header names a recipient,
 * `<|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>`;
 * the recipient may sit in the role or the channel part of the header. `<|call|>` is a stop token
 * that engines often consume, so the end of the text after a complete JSON object also ends the call
 * (raullenchai/Rapid-MLX#438). `functions.` is removed from the recipient; any other namespace
 * (`browser.search`, `python`) is kept whole and so is only recovered if advertised under that name.
 * Messages without a recipient (analysis, final) are markup whose bodies count as prose (and are
 * read for framing: a refusal written in the analysis refuses the call); only call messages are
 * `callSpans`. A message after a call that is not another call (a result the model wrote, a final
 * answer) sets `continued`: the model did not stop at `<|call|>` (sgl-project/sglang#9097). LLM-jp-4.1
 * (llama.cpp `llm-jp-harmony`) writes the same grammar with a space after every special token,
 * which the reading skips, and closes a call with `<|end|>` when another message follows it. Sources: OpenAI's harmony response format
 * (https://cookbook.openai.com/articles/openai-harmony) and sglang's gpt_oss_detector.py
 * (https://github.com/sgl-project/sglang/tree/main/python/sglang/srt/function_call);
 * docs/sources.md "Per-family grammars".
 */

import { Scanner, skipWs } from '../scan.js';
import { callFromJsonText, shape, jsonAt, match, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';

const START = '<|start|>';
const CHANNEL = '<|channel|>';
const MESSAGE = '<|message|>';
const CONSTRAIN = '<|constrain|>';
const CALL = '<|call|>';
const ENDS = ['<|end|>', '<|return|>', CALL];
const END = '<|end|>';
const HEADER_TOKENS = [START, CHANNEL];
const RECIPIENT = /(?:^|[\s>])to=([^\s<]+)/;

/**
 * LLM-jp-4.1 writes parallel calls as consecutive messages, all but the last closed by `<|end|>`
 * (llama.cpp common/parsers/llm-jp-harmony.cpp @ aabb95e9): `<|end|>` ends a call when another
 * message follows it. Another call is read as such; any other message (a final answer, a tool's
 * result) sets `continued` as after `<|call|>`, so the reply is refused `shape` with the message read
 * as what it is. `<|end|>` with nothing after it stays `shape` (text after the arguments), as in
 * gpt-oss's grammar.
 */
function messageFollows(text: string, sc: Scanner, from: number): boolean {
  const h = skipWs(text, from);
  return HEADER_TOKENS.some((t) => sc.at(h, t));
}

function nearest(sc: Scanner, from: number, tokens: readonly string[]): { at: number; token: string } | null {
  let best: { at: number; token: string } | null = null;
  for (const t of tokens) {
    const at = sc.find(t, from);
    if (at >= 0 && (best === null || at < best.at)) best = { at, token: t };
  }
  return best;
}

/** Walks the messages from `from`; `stopAtFirstCall` makes it a cheap detector. */
function walk(text: string, from: number, stopAtFirstCall: boolean): FamilyMatch & { firstCall: number } {
  const sc = new Scanner(text);
  const spans: Array<[number, number]> = [];
  const calls: FamilyCall[] = [];
  const callSpans: Array<[number, number]> = [];
  let firstCall = -1;
  let pos = from;
  let continued: string | undefined;
  // The header of the message a defect stopped in: grammar, not prose, though LLM-jp-4.1 writes
  // plain words between its tokens (`<|channel|> commentary to=functions.x<|message|>`), so a cut or
  // broken call is never re-read as tokens quoted in a sentence (FamilyMatch.grammarSpans).
  let failHeader: [number, number] | null = null;
  const done = (p: FamilyProblem | null = null) => ({
    ...match('harmony', spans, calls, p),
    callSpans,
    firstCall,
    ...(continued !== undefined ? { continued } : {}),
    ...(p !== null && failHeader !== null ? { grammarSpans: [failHeader] } : {}),
  });
  for (let h = nearest(sc, pos, HEADER_TOKENS); h !== null; h = nearest(sc, pos, HEADER_TOKENS)) {
    const hs = h.at;
    const m = sc.find(MESSAGE, hs);
    if (m < 0) {
      spans.push([hs, text.length]);
      failHeader = [hs, text.length];
      // A header that already names a recipient is a call cut before its arguments.
      if (firstCall < 0 && RECIPIENT.test(text.slice(hs).split(CONSTRAIN).join(' '))) firstCall = hs;
      return done(firstCall >= 0 ? truncated(`the text ends before ${MESSAGE}`) : null);
    }
    const header = text.slice(hs, m).split(CONSTRAIN).join(' ');
    const r = RECIPIENT.exec(header);
    const bodyStart = m + MESSAGE.length;
    failHeader = [hs, bodyStart];
    // after a call, a message to the assistant (the tool's answer) or one with no recipient (a
    // made-up result, a final answer) means the model kept writing where <|call|> stops it
    if (calls.length > 0 && continued === undefined && (!r || r[1] === 'assistant')) {
      continued = r ? 'a message to the assistant (a tool result) after the call: the model wrote the result itself' : 'a message after the call: the model went on (a result it wrote itself, an answer) instead of stopping at <|call|>';
    }
    if (r) {
      if (firstCall < 0) firstCall = hs;
      if (stopAtFirstCall) return done();
      let name = r[1]!;
      if (name.startsWith('functions.')) name = name.slice('functions.'.length);
      const j = jsonAt(text, bodyStart, 'arguments', { closer: CALL, opener: START });
      if (!j.ok) {
        spans.push([hs, text.length]);
        return done(j.problem);
      }
      calls.push(callFromJsonText(name, text.slice(j.start, j.end)));
      let end = skipWs(text, j.end);
      if (sc.at(end, CALL)) end += CALL.length;
      else if (sc.at(end, END) && messageFollows(text, sc, end + END.length)) end += END.length;
      else if (end < text.length && !HEADER_TOKENS.some((t) => sc.at(end, t))) {
        spans.push([hs, text.length]);
        return done(shape('text after the call arguments'));
      } else end = j.end;
      spans.push([hs, end]);
      callSpans.push([hs, end]);
      pos = end;
    } else {
      // A message with no recipient: its header and end token are markup, its body is prose.
      spans.push([hs, bodyStart]);
      const e = nearest(sc, bodyStart, [...ENDS, START]);
      if (e === null) return done();
      if (e.token !== START) spans.push([e.at, e.at + e.token.length]);
      pos = e.token === START ? e.at : e.at + e.token.length;
    }
  }
  return done();
}

export const harmony: Family = {
  id: 'harmony',
  source: 'OpenAI harmony response format (https://cookbook.openai.com/articles/openai-harmony); sglang gpt_oss_detector.py (docs/sources.md "Per-family grammars")',
  markers: [START, CHANNEL, MESSAGE, CONSTRAIN, CALL],
  detect(text) {
    const first = nearest(new Scanner(text), 0, HEADER_TOKENS);
    if (first === null) return -1;
    return walk(text, first.at, true).firstCall >= 0 ? first.at : -1;
  },
  parse: (text, from) => {
    const { firstCall: _unused, ...m } = walk(text, from, false);
    return m;
  },
};
