/**
 * Meta Code World Model (facebook/cwm): a call is a block `<tool: NAME>\nCONTENT\n</tool>`, the tool
 * named in the tag, its content free text whose meaning the tool's description in the system prompt
 * gives (`<tool: bash>\nls -la\n</tool>`, `<tool: create>\n[path]\n[content]\n</tool>`), the turn ended
 * by `<|eot_id|>`; the tool's answer is a `<|start_header_id|>tool: NAME<|end_header_id|>` message.
 * Primary source: the CWM prompting guide
 * (https://github.com/facebookresearch/cwm/blob/7930e0298bf32aae28cc0e35e18a54c772603364/PROMPTING_GUIDE.md,
 * "Tool Use": "The model performs tool calls with the following format: <tool: $TOOL>\n$CONTENT\n</tool>").
 * vLLM's `cwm` parser (cwm_tool_parser.py @ d9df1c50) reads the same blocks but takes the first word
 * of the content for the tool name and wraps free text as `{"command": …}`; guard follows the guide.
 *
 * Arguments: the grammar has no argument object. A content that is one JSON object is the call's
 * arguments exactly as written (JSON, typed by the markup); any other content is free text and the
 * call is refused `bad_arguments`: no key is invented to hold it (the call stays a candidate, its
 * content in `argumentsRaw`). A tag without its `>` (vLLM's shorthand `<tool: python code </tool>`)
 * or text between the JSON and the closer is `shape`; a missing closer is `truncated`.
 */

import { callFromJsonText, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner, skipWs } from '../scan.js';
import { optionalToken, tokenSpans, withTokens } from './call-lists.js';

const OPEN = '<tool:';
const CLOSE = '</tool>';
const EOT = '<|eot_id|>';
/** At most this many characters between `<tool:` and the `>` that ends the tag. */
const MAX_TAG = 128;

/** The tag at `o` (`<tool:` + spaces + NAME + `>`): the name and where the content starts, or why not. */
function tagAt(text: string, o: number): { name: string; end: number } | { problem: FamilyProblem } {
  let i = o + OPEN.length;
  while (text[i] === ' ') i++;
  const gt = text.indexOf('>', i);
  const nl = text.indexOf('\n', i);
  if (gt < 0 || gt - o > MAX_TAG) {
    if (nl < 0 && text.length - o <= MAX_TAG) return { problem: truncated(`the text ends inside the ${OPEN} tag`) };
    return { problem: shape(`a ${OPEN} tag not closed by >`) };
  }
  if (nl >= 0 && nl < gt) return { problem: shape(`a ${OPEN} tag not closed by > on its line`) };
  const name = text.slice(i, gt);
  if (name === '' || /[\s<]/u.test(name)) return { problem: shape(`a ${OPEN} tag without a usable tool name`) };
  return { name, end: gt + 1 };
}

/** Reads the block at `o`: its call and end. */
function readBlock(sc: Scanner, o: number): { call: FamilyCall; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  const tag = tagAt(text, o);
  if ('problem' in tag) return tag;
  const k = skipWs(text, tag.end);
  if (k >= text.length) return { problem: truncated(`the text ends before ${CLOSE}`) };
  if (text[k] === '{') {
    const j = jsonAt(text, k, 'arguments', { closer: CLOSE, opener: OPEN });
    if (!j.ok) return { problem: j.problem };
    const e = skipWs(text, j.end);
    if (e >= text.length) return { problem: truncated(`the text ends before ${CLOSE}`) };
    if (sc.at(e, CLOSE)) return { call: callFromJsonText(tag.name, text.slice(j.start, j.end)), end: e + CLOSE.length };
    if (CLOSE.startsWith(text.slice(e))) return { problem: truncated(`the text ends inside ${CLOSE}`) };
    return { problem: shape(`text after the arguments before ${CLOSE}`) };
  }
  const c = sc.find(CLOSE, tag.end);
  if (c < 0) {
    // the text ends inside the content (or inside a closer cut short)
    return { problem: truncated(`the text ends before ${CLOSE}`) };
  }
  const content = text.slice(tag.end, c);
  if (content.includes(OPEN)) return { problem: shape(`${CLOSE} is missing: the content runs into the next ${OPEN} block`) };
  const body = content.replace(/^\n/u, '').replace(/\n$/u, '');
  return {
    call: { name: tag.name, argumentsRaw: body, arguments: null, argumentsError: 'the content is free text, not a JSON object of arguments (the CWM grammar has none; no key is invented for it)' },
    end: c + CLOSE.length,
  };
}

/** The first `<tool:` from `from`, or -1. */
const firstTag = (text: string, from: number): number => text.indexOf(OPEN, from);

export const cwm: Family = {
  id: 'cwm',
  source: 'CWM prompting guide (https://github.com/facebookresearch/cwm/blob/7930e0298bf32aae28cc0e35e18a54c772603364/PROMPTING_GUIDE.md, "Tool Use"); vLLM cwm_tool_parser.py @ d9df1c50',
  // `</tool>` alone is no marker: tool listings in prompts (`<tool>{…}</tool>`) use it too
  markers: [OPEN],
  // the tool's answer is a message of the role `tool: NAME`
  results: ['<|start_header_id|>tool:'],
  detect: (text) => firstTag(text, 0),
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    const tokens = tokenSpans(text, [EOT]);
    for (let o = firstTag(text, from); o >= 0; o = firstTag(text, spans[spans.length - 1]![1])) {
      const r = readBlock(sc, o);
      if ('problem' in r) {
        spans.push([o, text.length]);
        return withTokens(match('cwm', spans, calls, r.problem), tokens);
      }
      calls.push(r.call);
      spans.push([o, optionalToken(text, r.end, [EOT])]);
    }
    return withTokens(match('cwm', spans, calls), tokens);
  },
};
