/**
 * The MiniCPM-V dialect of the minicpm family (./minicpm.ts; not a family module of its own):
 * OpenBMB MiniCPM-V (label `minicpmv`) as a server without vLLM's MiniCPM-V parser returns it:
 * Qwen3's Hermes blocks with every newline left as the two characters `\` `n`,
 * `<tool_call>\n{"name": NAME, "arguments": ARGS}\n</tool_call>` (the `\n` literal). MiniCPM-V's
 * tokenizer decodes a newline token to that escape; vLLM's parser turns it back into a newline
 * before reading the blocks with Qwen3's grammar. Source: vLLM `vllm/parser/minicpmv.py`
 * (https://github.com/vllm-project/vllm/blob/030dd7a6/vllm/parser/minicpmv.py); the grammar under
 * the escape is Qwen3's (hermes.ts). docs/recovery.md "Server parsers".
 *
 * Detected and always refused `shape`, never recovered: a reader cannot tell a decoding artefact
 * from a model that wrote a backslash, and un-escaping the text would change the arguments it
 * recovers. The calls read (the JSON between the escapes) are kept as candidates for inspection.
 * Before this family the text was labelled `glm` (GLM's reader took `\n{…}` for a tool name).
 */

import { callsFromJsonCallValue, jsonAt, match, shape, truncated, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner } from '../scan.js';

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';
/** The opener and the undecoded newline: backslash, n. */
const HEAD = `${OPEN}\\n`;
const NL = '\\n';
const UNDECODED = 'MiniCPM-V markup with its newlines left undecoded as the two characters \\n (a server without its MiniCPM-V parser): never recovered';

/** The first {@link HEAD} followed by `{` or `[`, or -1. Linear: one indexOf pass. */
function detectHead(text: string, from = 0): number {
  for (let i = text.indexOf(HEAD, from); i >= 0; i = text.indexOf(HEAD, i + HEAD.length)) {
    const c = text[i + HEAD.length];
    if (c === '{' || c === '[') return i;
  }
  return -1;
}

/** Reads the block at `o` (which starts with {@link HEAD}). */
function readBlock(sc: Scanner, o: number): { calls: FamilyCall[]; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  const j = jsonAt(text, o + HEAD.length, 'tool call JSON', { closer: CLOSE, opener: OPEN });
  if (!j.ok) return { problem: j.problem };
  const got = callsFromJsonCallValue(text, j);
  if ('problem' in got) return { problem: got.problem };
  let k = j.end;
  if (sc.at(k, NL)) k += NL.length;
  if (sc.at(k, CLOSE)) return { calls: got.calls, end: k + CLOSE.length };
  if (k >= text.length || CLOSE.startsWith(text.slice(k)) || (NL + CLOSE).startsWith(text.slice(j.end))) return { problem: truncated(`the text ends before ${CLOSE}`) };
  return { problem: shape(`text between the call JSON and ${CLOSE}`) };
}

/** The first undecoded MiniCPM-V block (`<tool_call>\n{` or `[`, the `\n` literal) at or after `from`, or -1. Linear. */
export function detectUndecoded(text: string, from = 0): number {
  return detectHead(text, from);
}

/**
 * Reads the undecoded blocks from `from` (a value {@link detectUndecoded} returned): label
 * `minicpmv`, the calls read as candidates, and always a problem: `truncated` when the text ends
 * inside a block, otherwise `shape` (the escape is never undone, so nothing is recovered).
 */
export function parseUndecoded(text: string, from: number): FamilyMatch {
  const sc = new Scanner(text);
  const spans: Array<[number, number]> = [];
  const calls: FamilyCall[] = [];
  for (let o = detectHead(text, from); o >= 0; o = detectHead(text, spans[spans.length - 1]![1])) {
    const r = readBlock(sc, o);
    if ('problem' in r) {
      spans.push([o, text.length]);
      return match('minicpmv', spans, calls, r.problem.reason === 'truncated' ? r.problem : shape(`${UNDECODED}; ${r.problem.detail}`));
    }
    calls.push(...r.calls);
    // the undecoded newline joining two blocks belongs to the markup
    let end = r.end;
    if (sc.at(end, NL) && detectHead(text, end + NL.length) === end + NL.length) end += NL.length;
    spans.push([o, end]);
  }
  return match('minicpmv', spans, calls, shape(UNDECODED));
}

/** The family's own marker (the opener and the literal `\n`). */
export const UNDECODED_HEAD = HEAD;
