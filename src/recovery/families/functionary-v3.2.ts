/**
 * MeetKai Functionary v3 / v3.2 (Llama 3 based): a reply is segments `>>>RECIPIENT\nBODY`; recipient
 * `all` is text for the user, any other recipient a function whose body is its JSON arguments:
 * `>>>all\nChecking both.>>>get_balance\n{"account": "checking"}>>>get_balance\n{"account": "savings"}`.
 * Source: MeetKai's v3.llama3 template
 * (https://github.com/MeetKai/functionary/blob/e240e8c54684718aa9357ccf9d59ff035a6ff351/functionary/prompt_template/jinja_templates/v3.llama3.txt):
 * `'>>>all\n' + content`, then per call `'>>>' + name + '\n' + arguments`; the generation prompt ends
 * with `>>>`. Its reference parser (llama3_prompt_template_v3.py, same commit) and llama.cpp's
 * Functionary v3.2 handler confirm it.
 *
 * Because the prompt ends with `>>>`, the first recipient is often written without it
 * (`get_weather\n{"city": "Oslo"}>>>all\nIt is sunny.`). A bare tool-name line then JSON is too
 * ambiguous to stand alone (any reply could start with a word and a JSON object), so that first
 * segment is read only when a `>>>` segment follows it in the same reply, and, as every call, only
 * recovered when it names an advertised tool; a reply with no `>>>` segment at all is not read here.
 * `>>>` alone is no marker (Python prompts, e-mail quoting): it is this family's trigger (../family.ts)
 * and only `>>>NAME\n` starts markup (`>>> import os` does not); a header whose body is not JSON stays
 * Markdown (a block quote at a line start), one whose body is JSON is grammar even when the call
 * was cut (FamilyMatch.grammarSpans), so a cut call is `truncated`, not a quotation. The `all` bodies are prose; a body of another
 * recipient that is not a JSON object (the `python` code interpreter), text after a call's JSON that
 * starts no segment, or a `>>>` inside an `all` text that starts no segment (the reference parser
 * splits on every `>>>`) is `shape`.
 */

import { callFromJsonText, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { scanJson, skipWs } from '../scan.js';
import { optionalToken } from './call-lists.js';

const SEG = '>>>';
const ALL = 'all';
const RECIPIENT = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const MAX_NAME = 128;

/** A segment header at `i` (`>>>` included when `withArrows`): its recipient and where its body starts. */
function headerAt(text: string, i: number, withArrows: boolean): { name: string; body: number } | null {
  const n = withArrows ? i + SEG.length : i;
  if (withArrows && !text.startsWith(SEG, i)) return null;
  const nl = text.indexOf('\n', n);
  if (nl < 0 || nl - n > MAX_NAME) return null;
  const name = text.slice(n, nl);
  if (!RECIPIENT.test(name)) return null;
  return { name, body: nl + 1 };
}

/** The first `>>>` segment header from `from`, or -1. */
function firstSegment(text: string, from: number): number {
  for (let i = text.indexOf(SEG, from); i >= 0; i = text.indexOf(SEG, i + 1)) {
    if (text[i + SEG.length] === '>') continue; // `>>>>` is not a segment start
    if (headerAt(text, i, true) !== null) return i;
  }
  return -1;
}

/** The first segment written without its `>>>` (the prompt consumed it), when a `>>>` segment follows. */
function leadingSegment(text: string, first: number): number {
  const i = skipWs(text, 0);
  if (i >= first) return -1;
  const h = headerAt(text, i, false);
  if (h === null) return -1;
  if (h.name === ALL) return i;
  if (text[h.body] !== '{') return -1;
  const s = scanJson(text, h.body);
  if (s.end < 0 || s.error !== null) return -1;
  return skipWs(text, s.end) === first ? i : -1;
}

export const functionaryV32: Family = {
  id: 'functionary-v3.2',
  source: 'Functionary v3.llama3 template (https://github.com/MeetKai/functionary/blob/e240e8c54684718aa9357ccf9d59ff035a6ff351/functionary/prompt_template/jinja_templates/v3.llama3.txt) and llama3_prompt_template_v3.py; llama.cpp common/chat.cpp (Functionary v3.2)',
  markers: ['>>>all\n'],
  triggers: [SEG],
  detect(text) {
    const first = firstSegment(text, 0);
    if (first < 0) return -1;
    const lead = leadingSegment(text, first);
    return lead >= 0 ? lead : first;
  },
  parse(text, from): FamilyMatch {
    const spans: Array<[number, number]> = [];
    const callSpans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    // the segment headers read so far: grammar even in a failed block (a `>>>` line opens no block quote)
    const headers: Array<[number, number]> = [];
    const done = (p: FamilyProblem | null = null): FamilyMatch => ({ ...match('functionary-v3.2', spans, calls, p), callSpans, ...(p === null ? {} : { grammarSpans: headers }) });
    let i = from;
    let withArrows = text.startsWith(SEG, from);
    for (;;) {
      const fail = (p: FamilyProblem) => {
        spans.push([i, text.length]);
        callSpans.push([i, text.length]);
        return done(p);
      };
      const h = headerAt(text, i, withArrows);
      if (h === null && text.startsWith(SEG, i)) headers.push([i, i + SEG.length]);
      if (h === null) return fail(text.indexOf('\n', i) < 0 ? truncated('the text ends inside a segment header') : shape('a >>> that starts no segment'));
      withArrows = true;
      if (h.name !== ALL && text[h.body] !== '{') {
        // not grammar (`>>>Hi\nthere` at a line start stays a Markdown block quote), unless the text
        // ends right after the header: a call cut before its arguments
        if (h.body >= text.length) {
          headers.push([i, h.body]);
          return fail(truncated('the text ends after a segment header'));
        }
        return fail(shape(`the body of >>>${h.name.slice(0, 40)} is not a JSON object (code for the interpreter, or no Functionary segment)`));
      }
      headers.push([i, h.body]);
      if (h.name === ALL) {
        spans.push([i, h.body]);
        const next = text.indexOf(SEG, h.body);
        if (next < 0) return done();
        const seg = firstSegment(text, h.body);
        if (seg !== next) {
          i = next;
          return fail(shape('a >>> inside the text for the user that starts no segment (the reference parser splits there)'));
        }
        i = next;
        continue;
      }
      const j = jsonAt(text, h.body, 'arguments', { closer: SEG });
      if (!j.ok) return fail(j.problem);
      calls.push(callFromJsonText(h.name, text.slice(j.start, j.end)));
      const k = skipWs(text, j.end);
      const end = optionalToken(text, j.end, ['<|eot_id|>']);
      if (k >= text.length || end > j.end) {
        // the end of the text, or of the turn: what follows `<|eot_id|>` is prose
        spans.push([i, end]);
        callSpans.push([i, end]);
        return done();
      }
      if (!text.startsWith(SEG, k)) {
        return fail(SEG.startsWith(text.slice(k)) ? truncated('the text ends inside >>>') : shape('text after the arguments that starts no >>> segment'));
      }
      spans.push([i, j.end]);
      callSpans.push([i, j.end]);
      i = k;
    }
  },
};
