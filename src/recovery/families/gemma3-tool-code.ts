/**
 * Gemma 3 (and Gemma 2 / 3n) prompted for tools, in the ```` ```tool_code ```` style of Google's
 * guides: a Markdown fence with the info string `tool_code` holding Python calls, one per line, or
 * one pythonic list (`[f(a=1), g(b=2)]`, the shape of Google's function-calling prompt):
 *
 *     ```tool_code
 *     get_weather(city="Paris")
 *     ```
 *
 * Gemma has no tool tokens ("Gemma does not output a tool specific token"): the fence is the
 * family's own grammar, so it is part of the block (a fence around it, or any other fence, is still
 * a quotation). The fence opens a line (at most three columns of indentation) and closes at the next
 * line of three or more backticks, as Markdown reads it; the text ending before that is `truncated`.
 * HTML tags may share those lines (`<code>```tool_code` … ```` ```</code> ````): the element is the
 * engine's to read (a quotation), the fence is still the family's.
 * Gemma's JSON prompt shape (`{"name", "parameters"}`) is the `llama3-json` family; its bare
 * pythonic list is `pythonic`. Values: Python literals only (./python.ts).
 * Primary sources: Google's "Function calling with Gemma"
 * (https://ai.google.dev/gemma/docs/capabilities/function-calling) and the Gemma guide that wraps
 * calls in ```` ```tool_code ```` and results in ```` ```tool_output ````
 * (https://ai.google.dev/gemma/docs/meme-generator); pages read as stored, dates not recorded. No
 * server parser reads this fence (vLLM's `pythonic` needs the bare list).
 */

import { match, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { readPythonCalls } from './python.js';

const OPENER = '```tool_code';

/** The start of the line holding index `i`. */
function lineStart(text: string, i: number): number {
  if (i <= 0) return 0; // lastIndexOf at -1 still looks at index 0
  const nl = text.lastIndexOf('\n', i - 1);
  return nl + 1;
}

/** Columns of a line's leading whitespace (a tab to the next multiple of four), as CommonMark counts them. */
function columns(prefix: string): number {
  let cols = 0;
  for (const c of prefix) cols = c === '\t' ? cols + 4 - (cols % 4) : cols + 1;
  return cols;
}

/** HTML markup a fence line may also hold (`<code>```tool_code`, ```` ```</code> ````, `<!-- ``` -->`). */
const HTML_PREFIX = /^(?:[ \t]|<[A-Za-z/!][^<>]*>|<!--)*$/;
const CLOSING = /^ {0,3}`{3,}[ \t]*(?:(?:<\/?[A-Za-z][^<>]*>|-->)[ \t]*)*$/;

/**
 * True when the opener at `o` opens a fence: at most three columns of indentation before it on its
 * line (or only HTML tags and spaces, `<code>```tool_code`: the engine's quotation rules read the
 * element), nothing but spaces after it.
 */
function opensFence(text: string, o: number): boolean {
  const prefix = text.slice(lineStart(text, o), o);
  if (prefix.trim() === '' ? columns(prefix) > 3 : !HTML_PREFIX.test(prefix)) return false;
  let j = o + OPENER.length;
  while (text[j] === ' ' || text[j] === '\t') j++;
  return j >= text.length || text[j] === '\n' || text[j] === '\r';
}

/** The closing fence after `from`: [start of its line, end of its backtick run], or null. */
function closingFence(text: string, from: number): [number, number] | null {
  let s = from;
  while (s < text.length) {
    const nl = text.indexOf('\n', s);
    const e = nl < 0 ? text.length : nl;
    const line = text.slice(s, e).replace(/\r$/, '');
    if (CLOSING.test(line)) {
      const b = text.indexOf('`', s);
      let k = b;
      while (text[k] === '`') k++;
      return [s, k];
    }
    if (nl < 0) break;
    s = nl + 1;
  }
  return null;
}

export const gemma3ToolCode: Family = {
  id: 'gemma3-tool-code',
  source:
    'Google, Function calling with Gemma (https://ai.google.dev/gemma/docs/capabilities/function-calling); Google Gemma guide with ```tool_code``` blocks (https://ai.google.dev/gemma/docs/meme-generator); dates not recorded',
  markers: [OPENER],
  detect(text) {
    for (let o = text.indexOf(OPENER); o >= 0; o = text.indexOf(OPENER, o + OPENER.length)) if (opensFence(text, o)) return o;
    return -1;
  },
  parse(text, from): FamilyMatch {
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    // A block that fails keeps its opening line as a span of its own, before the failed rest: the
    // engine reads the blocks before a failed one as grammar, so the family's own fence line is
    // never taken for a Markdown fence around the cut call.
    const fail = (o: number, nl: number, problem: FamilyProblem): FamilyMatch => {
      spans.push([o, nl], [nl, text.length]);
      return match('gemma3', spans, calls, problem);
    };
    let o = from;
    while (o >= 0) {
      const nl = text.indexOf('\n', o);
      if (nl < 0) return fail(o, text.length, truncated('the text ends after the ```tool_code line'));
      const close = closingFence(text, nl + 1);
      if (close === null) return fail(o, nl, truncated('the text ends inside the ```tool_code block'));
      const got = readPythonCalls(text.slice(nl + 1, close[0]), 'either');
      if ('problem' in got) return fail(o, nl, got.problem);
      calls.push(...got.calls);
      spans.push([o, close[1]]);
      o = -1;
      for (let n = text.indexOf(OPENER, close[1]); n >= 0; n = text.indexOf(OPENER, n + OPENER.length)) {
        if (opensFence(text, n)) {
          o = n;
          break;
        }
      }
    }
    return match('gemma3', spans, calls);
  },
};
