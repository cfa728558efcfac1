/**
 * Shape fallback for dialects no family knows (the rule of CodeAF's `MachineryLeak`,
 * https://github.com/Agent-Field/CodeAF/blob/main/internal/provider/machinery.go; docs/sources.md
 * "Origin: CodeAF's MachineryLeak"): the reply's symbol density is at least
 * {@link SHAPE_DENSITY_FLOOR} and some advertised tool name appears "fenced in symbols" (the
 * nearest character on both sides, after skipping `_` runs, is a symbol; the text's edges count as
 * spacing). A symbol is any code point that is not a letter, a digit, whitespace or `_`. Such a
 * reply is convicted as family `unknown` and never recovered.
 */

/** Minimum share (0..1) of symbol code points for the shape fallback (CodeAF machineryDensityFloor). */
export const SHAPE_DENSITY_FLOOR = 0.1;

import { Scanner } from './scan.js';

const WORDISH = /[\p{L}\p{N}\s_]/u;

function isSymbol(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const c = ch.charCodeAt(0);
  if (c < 0x80) {
    return !((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c <= 0x20 || c === 0x7f);
  }
  return !WORDISH.test(ch);
}

/**
 * Counts code points and symbols (see {@link isSymbol}) of `text`, one pass over UTF-16 code
 * units (ASCII classified by code; other code points, a surrogate pair or a lone surrogate, by
 * the Unicode-property test). With `enough`, stops as soon as `symbols >= enough` (then `total`
 * is only the count so far).
 */
function countSymbols(text: string, enough = Infinity): { total: number; symbols: number } {
  let total = 0;
  let symbols = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    total++;
    if (c < 0x80) {
      if (!((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c <= 0x20 || c === 0x7f)) symbols++;
      else continue;
    } else {
      let ch: string;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          ch = text.slice(i, i + 2);
          i++;
        } else ch = text[i]!;
      } else ch = text[i]!;
      if (WORDISH.test(ch)) continue;
      symbols++;
    }
    if (symbols >= enough) break;
  }
  return { total, symbols };
}

/** Symbol code points over all code points, 0..1 (0 for empty text). */
export function symbolDensity(text: string): number {
  const { total, symbols } = countSymbols(text);
  return total === 0 ? 0 : symbols / total;
}

/**
 * True when `symbolDensity(text) < floor` (`floor` a ratio 0..1), stopping early once the symbols alone make the density
 * at least `floor` whatever the rest holds (more than `floor` × the UTF-16 length, an upper bound
 * of the code-point count, plus one for rounding); otherwise the ratio is computed exactly as
 * {@link symbolDensity} does.
 */
export function belowDensity(text: string, floor: number): boolean {
  const enough = Math.ceil(floor * text.length) + 1;
  const { total, symbols } = countSymbols(text, enough);
  if (symbols >= enough) return false;
  return (total === 0 ? 0 : symbols / total) < floor;
}

/** The code point that ends just before index i / starts at i. */
function pointBefore(text: string, i: number): string | undefined {
  if (i <= 0) return undefined;
  const c = text.charCodeAt(i - 1);
  return c >= 0xdc00 && c <= 0xdfff && i >= 2 ? text.slice(i - 2, i) : text[i - 1];
}
function pointAt(text: string, i: number): string | undefined {
  if (i >= text.length) return undefined;
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff ? text.slice(i, i + 2) : text[i];
}

/**
 * True when the name at [a, end) opens the name of a tag: `<NAME_suffix>` or `</NAME-suffix>` (an
 * element a model invented after its tool, `<terminal_command>` for a `terminal` tool,
 * ollama/ollama#16383).
 */
function namesTag(text: string, a: number, end: number): boolean {
  const before = text[a - 1] === '/' ? a - 2 : a - 1;
  if (text[before] !== '<') return false;
  let k = end;
  while (k < text.length && k - end <= 40 && /[\w.:-]/.test(text[k]!)) k++;
  return text[k] === '>';
}

/** Words of a line that narrates a call: the act, and what it passes. */
const CALL_WORD = /\b(?:call(?:s|ing|ed)?|tool|function|invok\w*|execut\w*|running)\b/i;
const ARGUMENTS_WORD = /\b(?:arguments|args|input|params|parameters)\b/i;

/**
 * True when the name at [a, end) stands in a bracketed line that narrates a call with a JSON
 * object (`[Calling tool: terminal with arguments: {…}]`, a harness's own history rendering that
 * the model imitated, NousResearch/hermes-agent studio#942).
 */
function narratesCall(text: string, a: number, end: number): boolean {
  const start = text.lastIndexOf('\n', a - 1) + 1;
  const nl = text.indexOf('\n', end);
  const line = text.slice(start, nl < 0 ? text.length : nl).trim();
  return line.startsWith('[') && line.endsWith(']') && line.includes('{') && line.length <= 4000 && CALL_WORD.test(line) && ARGUMENTS_WORD.test(line);
}

/** A keyword argument list's start (`city=`, not `a == b`), or nothing at all. */
const KEYWORD_START = /^(?:[A-Za-z_][A-Za-z0-9_]*\s*=(?!=)|$)/;

/**
 * True when the name at [at, end) opens a line that is one Python call of it with keyword
 * arguments only and nothing after its `)`: `get_weather(city="Paris")`. vLLM's `granite_pythonic`
 * parser (`_CALL_RE`, vllm/tool_parsers/granite_pythonic_tool_parser.py @ b4970a72) reads such
 * lines as Granite 3.3 / 4.0's calls; no chat template writes them, so no family reads them, but a
 * reply made of them is a leak, never prose (no template: they are reported, never recovered).
 */
function callLine(text: string, at: number, end: number): boolean {
  if (text[end] !== '(' || (at > 0 && text[at - 1] !== '\n')) return false;
  const nl = text.indexOf('\n', end);
  const line = text.slice(end + 1, nl < 0 ? text.length : nl).trimEnd();
  return line.endsWith(')') && line.length <= 4000 && KEYWORD_START.test(line.slice(0, -1).trim());
}

/** The line around [a, b): its start, and the text from `b` to its end. */
function lineAround(text: string, a: number, b: number): { start: number; rest: string; next: number } {
  const start = a <= 0 ? 0 : text.lastIndexOf('\n', a - 1) + 1;
  const nl = text.indexOf('\n', b);
  return { start, rest: text.slice(b, nl < 0 ? text.length : nl), next: nl < 0 ? -1 : nl + 1 };
}

/** ReAct's action line before the name (`Action:`, `Action 1:`) and its input line after it. */
const REACT_ACTION = /^[ \t]*Action[ \t]*\d*[ \t]*:[ \t]*$/;
const REACT_INPUT = /^[ \t]*Action[ \t]*\d*[ \t]*Input[ \t]*\d*[ \t]*:/;

/**
 * True when the name at [at, end) is a ReAct action: the line `Action: NAME` and, on the next line,
 * `Action Input: …` (the ReAct prompt's format, as LangChain's `ReActSingleInputOutputParser` reads
 * it: langchain-ai/langchain `libs/langchain/langchain/agents/output_parsers/react_single_input.py`;
 * Qwen's ReAct prompt writes the same two lines). No family reads it (no chat template writes it:
 * it is a prompt's convention, and its input may be free text), so a reply made of it is reported,
 * never recovered; a long `Thought:` before it makes it prose, by the prose rule.
 */
function reactAction(text: string, at: number, end: number): boolean {
  const { start, rest, next } = lineAround(text, at, end);
  if (!REACT_ACTION.test(text.slice(start, at)) || rest.trim() !== '' || next < 0) return false;
  return REACT_INPUT.test(text.slice(next, next + 200));
}

/**
 * True when the name at [at, end) is a line of its own and the next line opens a JSON object: GLM-4-0414's
 * call, the tool name then its JSON arguments (`get_weather\n{"city": "Paris"}`, calls joined by
 * `<|assistant|>`, then `<|observation|>`: ModelScope ms-swift `swift/plugin/agent_template/glm4.py`,
 * `GLM4_0414AgentTemplate._format_tool_calls`, revision not recorded; GLM-4-0414's own
 * tokenizer_config.json was not read). No family reads it: without a token the
 * two lines are also how a document shows a name and a value, so such a reply is reported, never recovered.
 */
/** A JSON object's opening: `{` then a key's quote or its closing brace. */
const JSON_OBJECT_START = /^\{\s*["}]/;

function nameThenJson(text: string, at: number, end: number): boolean {
  const { start, rest, next } = lineAround(text, at, end);
  return start === at && rest.trim() === '' && next >= 0 && JSON_OBJECT_START.test(text.slice(next, next + 64));
}

/** The lines of ReAct actions (`Action: NAME`, {@link reactAction}) to the names `wanted`, as spans. Linear in the text per name. */
function reactSpans(text: string, wanted: readonly string[], sc: Scanner): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const name of wanted) {
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
      if (!reactAction(text, at, at + name.length)) continue;
      const start = text.lastIndexOf('\n', at - 1) + 1;
      const nl = sc.find('\n', at + name.length);
      spans.push([start, nl < 0 ? text.length : nl]);
    }
  }
  return spans;
}

/**
 * The lines holding advertised names fenced in symbols, as spans, when the density floor is met;
 * empty when the shape does not fire.
 */
export function shapeSpans(text: string, names: readonly string[]): Array<[number, number]> {
  const wanted = names.map((n) => n.trim()).filter((n) => n !== '');
  // No name in the text: no span, whatever the density (checked first: a substring search is cheaper).
  if (!wanted.some((n) => text.includes(n))) return [];
  const sc = new Scanner(text);
  // A ReAct action is markup whatever the density: its `Thought:` line is prose of the format, which
  // the prose rule then weighs (a long thought makes the reply `prose`, a quotation, not no markup).
  if (belowDensity(text, SHAPE_DENSITY_FLOOR)) return text.includes('Action') ? reactSpans(text, wanted, sc) : [];
  const spans: Array<[number, number]> = [];
  for (const name of wanted) {
    // Line start tracked forward (occurrences only move right), so a 1 MB single line stays linear.
    let lineStart = 0;
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
      let a = at;
      while (a > 0 && text[a - 1] === '_') a--;
      let b = at + name.length;
      while (b < text.length && text[b] === '_') b++;
      if (
        (isSymbol(pointBefore(text, a)) && isSymbol(pointAt(text, b))) ||
        namesTag(text, a, at + name.length) ||
        narratesCall(text, a, at + name.length) ||
        callLine(text, at, at + name.length) ||
        reactAction(text, at, at + name.length) ||
        nameThenJson(text, at, at + name.length)
      ) {
        for (let nl = sc.find('\n', lineStart); nl >= 0 && nl < a; nl = sc.find('\n', lineStart)) lineStart = nl + 1;
        const nl = sc.find('\n', b);
        spans.push([lineStart, nl < 0 ? text.length : nl]);
      }
    }
  }
  return spans;
}

/** A quoted string on one line (straight or typographic double quotes). */
const QUOTED = /"[^"\n]*"|“[^”\n]*”/g;

/** Symbol density from which a line holding a run of words still reads as markup (its words are
 * values between tags). */
const DENSE_LINE = 0.25;

/** Four or more words in a row, separated by single spaces: a sentence, not markup. */
const WORD_RUN = /\p{L}+(?: \p{L}+){3,}/u;

/**
 * Markup spans widened over the whole lines around them that read as markup, not prose: a line is
 * joined when it is blank, or when its symbol density is at least {@link SHAPE_DENSITY_FLOOR} and
 * it holds no run of four words outside quotes ({@link WORD_RUN}: `}}`, `[/TOOL_CALL]`,
 * `--command "echo test"`, `</invoke>`) unless its density reaches {@link DENSE_LINE}, walking outwards from each span until a prose line. A span is widened only when
 * the rest of its own line reads as markup too (a token inside a sentence stays as it is). For a reading that can never be recovered (a dialect no family knows, an
 * envelope a family could not read), where only its tokens or the line naming the tool were
 * found: the rest of its envelope is markup too, so a reply made only of such markup is not taken
 * for a mention of it (a real `[TOOL_CALL] … [/TOOL_CALL]` leak measured 0.64).
 *
 * @param text the reply's visible text.
 * @param spans markup spans [start, end) in String offsets, sorted or not.
 * @returns the widened spans (unsorted, may overlap: callers normalise).
 */
export function markupLines(text: string, spans: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  // i = 0 is the first line's start: lastIndexOf with a negative position still looks at index 0,
  // so a text opening with '\n' gave lineStart(0) = 1 and the upward walk below never ended.
  const lineStart = (i: number) => (i <= 0 ? 0 : text.lastIndexOf('\n', i - 1) + 1);
  const lineEnd = (i: number) => {
    const nl = text.indexOf('\n', i);
    return nl < 0 ? text.length : nl;
  };
  const markupLike = (a: number, b: number) => {
    const line = text.slice(a, b);
    if (line.trim() === '') return true;
    if (belowDensity(line, SHAPE_DENSITY_FLOOR)) return false;
    // words inside quotes are a value's; a line dense in symbols holds tag values, not a sentence
    return !WORD_RUN.test(line.replace(QUOTED, '""')) || !belowDensity(line, DENSE_LINE);
  };
  const out: Array<[number, number]> = [];
  let covered = -1;
  for (const [s, e] of [...spans].sort((x, y) => x[0] - y[0])) {
    if (e <= covered) continue; // inside the lines already joined
    let a = lineStart(s);
    let b = lineEnd(Math.max(s, e - 1));
    // whole lines only where the span's own line is markup-like beyond the span itself
    if (!markupLike(a, s) || !markupLike(e, b)) {
      out.push([s, e]);
      continue;
    }
    while (a > 0) {
      const pa = lineStart(a - 1);
      if (!markupLike(pa, a - 1)) break;
      a = pa;
    }
    while (b < text.length) {
      const nb = lineEnd(b + 1);
      if (!markupLike(b + 1, nb)) break;
      b = nb;
    }
    out.push([a, b]);
    covered = b;
  }
  return out;
}
