/**
 * Shared reader for families whose blocks are `OPENER <JSON call object or array> [CLOSER]`:
 * Hermes/Qwen `<tool_call>`, Granite `<|tool_call|>`, Llama `<|python_tag|>` / `<|python_start|>`.
 * Not a family itself; each family module declares its tokens and calls {@link parseJsonBlocks}.
 */

import { Scanner, skipWs } from '../scan.js';
import {
  callsFromJsonCallValue,
  shape,
  jsonAt,
  match,
  truncated,
  type FamilyCall,
  type FamilyMatch,
} from '../family.js';

export interface JsonBlockGrammar {
  family: string;
  opener: string;
  /** The closer, or null when the block ends with the JSON value (closer is a stop token). */
  closer: string | null;
  /** The closer is a stop token that may or may not be printed: without it the block ends with its
   * JSON value, and text after it is prose (counted by the prose ratio), as for Mistral and Granite. */
  closerOptional?: boolean;
}

/**
 * The first opener followed (after whitespace) by `{` or `[`, or -1. Linear: one indexOf pass.
 */
export function detectJsonBlock(text: string, opener: string): number {
  for (let i = text.indexOf(opener); i >= 0; i = text.indexOf(opener, i + opener.length)) {
    const j = skipWs(text, i + opener.length);
    if (text[j] === '{' || text[j] === '[') return i;
  }
  return -1;
}

/**
 * Reads every block from `from`. Stops at the first defect: the text ending inside a block or
 * before its closer is `truncated`; a block whose body is not JSON, text between the JSON and
 * the closer, or the next opener where the closer belongs, is `shape`; JSON whose brackets do not
 * balance but that the closer ends is a complete block with unparseable JSON (`bad_arguments`).
 */
export function parseJsonBlocks(text: string, from: number, g: JsonBlockGrammar): FamilyMatch {
  const sc = new Scanner(text);
  const spans: Array<[number, number]> = [];
  const calls: FamilyCall[] = [];
  const toEnd = (o: number): [number, number] => [o, text.length];
  for (let o = sc.find(g.opener, from); o >= 0; o = sc.find(g.opener, spans[spans.length - 1]![1])) {
    const j = jsonAt(text, o + g.opener.length, 'tool call JSON', g.closer === null ? undefined : { closer: g.closer, opener: g.opener });
    if (!j.ok) {
      spans.push(toEnd(o));
      return match(g.family, spans, calls, j.problem);
    }
    const got = callsFromJsonCallValue(text, j);
    if ('problem' in got) {
      spans.push(toEnd(o));
      return match(g.family, spans, calls, got.problem);
    }
    calls.push(...got.calls);
    let end = j.end;
    if (g.closer !== null) {
      const k = skipWs(text, j.end);
      if (sc.at(k, g.closer)) end = k + g.closer.length;
      else if (g.closerOptional && !sc.at(k, g.opener)) end = j.end; // the block ends with its JSON; any tail is prose
      else {
        spans.push(toEnd(o));
        if (k >= text.length) return match(g.family, spans, calls, truncated(`the text ends before ${g.closer}`));
        // The text goes on: the closer is missing, not cut off (malformed structure).
        if (sc.at(k, g.opener)) return match(g.family, spans, calls, shape(`a block has no ${g.closer}: the next ${g.opener} follows its JSON`));
        // a second call object there is read as a candidate (inspected, never run): a lenient server may read it
        const extra = jsonAt(text, k, 'tool call JSON', { closer: g.closer, opener: g.opener });
        const more = extra.ok ? callsFromJsonCallValue(text, extra) : null;
        if (more !== null && 'calls' in more) calls.push(...more.calls);
        return match(g.family, spans, calls, shape(`text between the call JSON and ${g.closer}`));
      }
    }
    spans.push([o, end]);
  }
  return match(g.family, spans, calls);
}
