/**
 * OpenAI harmony (gpt-oss) with its special tokens stripped: a detokenizer that drops special
 * tokens (`skip_special_tokens`) turns
 * `<|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>`
 * into `commentary to=functions.NAME json{…}` (raullenchai/Rapid-MLX#480 shows the text). With
 * no token left the call is read bare, and only in its strict shape: not glued to a word before
 * it, an optional `assistant`, the channel `commentary` or `analysis`, one space,
 * `to=functions.NAME`, optional ` json` (the constraint word, with or without a space before the
 * JSON), then one JSON object; several such calls may follow one another, each on its own line.
 * Text glued after a call on its line (`assistantfinal …`, the stripped final channel) is `shape`;
 * prose on the lines after is prose (the engine weighs it); a cut anywhere is `truncated`.
 * A recipient in another namespace than `functions.` is not read (it names no advertised tool).
 * Sources: OpenAI's harmony response format (https://cookbook.openai.com/articles/openai-harmony,
 * its message header `<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>`);
 * the stripped text as reported in Rapid-MLX#480. Arguments are JSON, never re-typed.
 */

import { callFromJsonText, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch } from '../family.js';
import { skipWs } from '../scan.js';

/** The gate: no text without it holds this markup. */
const GATE = 'to=functions.';
/** A stripped header at `lastIndex`: channel, recipient, optional constraint word. */
const HEADER = /(?:assistant)?(?:commentary|analysis) to=functions\.([A-Za-z_][A-Za-z0-9_.-]{0,127})(?: ?json)?/y;

/** True when the header at `i` is not glued to a word before it (`xcommentary` is no header). */
function notGlued(text: string, i: number): boolean {
  return i === 0 || !/[\p{L}\p{N}_]/u.test(text[i - 1]!);
}

/** The header at `i`, or null. */
function headerAt(text: string, i: number): { name: string; end: number } | null {
  HEADER.lastIndex = i;
  const m = HEADER.exec(text);
  return m === null ? null : { name: m[1]!, end: HEADER.lastIndex };
}

/** The first stripped header starting a line before `before`, or -1. */
function detectStripped(text: string, before: number): number {
  for (let g = text.indexOf(GATE); g >= 0 && g < before; g = text.indexOf(GATE, g + GATE.length)) {
    // the header starts at the channel word before the gate (or the role word glued to it)
    for (const word of ['assistantcommentary ', 'assistantanalysis ', 'commentary ', 'analysis ']) {
      const start = g - word.length;
      if (start >= 0 && text.startsWith(word, start) && notGlued(text, start)) {
        const h = headerAt(text, start);
        if (h !== null && h.end > g) return start;
      }
    }
  }
  return -1;
}

function parseStripped(text: string, from: number): FamilyMatch {
  const spans: Array<[number, number]> = [];
  const calls: FamilyCall[] = [];
  let pos = from;
  for (;;) {
    const h = headerAt(text, pos);
    if (h === null) return match('harmony-stripped', spans, calls); // prose on the next lines: the engine weighs it
    if (text.length - h.end < 5 && ' json'.startsWith(text.slice(h.end)) && text.length > h.end) {
      spans.push([pos, text.length]);
      return match('harmony-stripped', spans, calls, truncated('the text ends inside the constraint word'));
    }
    const j = jsonAt(text, h.end, 'arguments');
    if (!j.ok) {
      // cut: the block runs to the end; no JSON after the header: only the header is markup
      spans.push([pos, j.problem.reason === 'truncated' ? text.length : h.end]);
      return match('harmony-stripped', spans, calls, j.problem);
    }
    if (text[j.start] !== '{') {
      spans.push([pos, text.length]);
      return match('harmony-stripped', spans, calls, shape('the arguments are not a JSON object'));
    }
    calls.push(callFromJsonText(h.name, text.slice(j.start, j.end)));
    spans.push([pos, j.end]);
    const next = skipWs(text, j.end);
    if (next >= text.length) return match('harmony-stripped', spans, calls);
    if (!text.slice(j.end, next).includes('\n')) {
      spans.push([next, text.length]);
      return match('harmony-stripped', spans, calls, shape('text after the call arguments on their line'));
    }
    pos = next;
  }
}

export const harmonyStripped: Family = {
  id: 'harmony-stripped',
  source:
    'OpenAI harmony response format (https://cookbook.openai.com/articles/openai-harmony); the stripped text of raullenchai/Rapid-MLX#480 (https://github.com/raullenchai/Rapid-MLX/issues/480)',
  markers: [],
  detect: () => -1,
  detectBare: (text, before) => (text.includes(GATE) ? detectStripped(text, before) : -1),
  parse: (text, from) => parseStripped(text, from),
};

