/**
 * Google Gemma 4: `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:3}<tool_call|>`, calls written back to
 * back, the turn stopped by `<|tool_response>`; thinking in `<|channel>thought\n…<channel|>`.
 * Source: the Gemma 4 chat template (the model's `chat_template`, as copied in llama.cpp
 * `models/templates/gemma4.jinja` @ 75f1ba73,
 * https://github.com/ggml-org/llama.cpp/blob/75f1ba7389067a9f90082515e124c377a1e104b2/models/templates/gemma4.jinja;
 * Hugging Face revision not recorded): `'<|tool_call>call:' + name + '{'`, each argument
 * `key:format_argument(value, escape_keys=False)` sorted by key and joined by `,`, then
 * `'}<tool_call|>'`; `format_argument` writes a string between `<|"|>` tokens, booleans as
 * `true`/`false`, mappings as `{key:value,…}` with bare keys at every depth, sequences as `[…]`,
 * anything else (numbers) as Jinja prints it. Parsers that confirm it: vLLM gemma4_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/c31f17f4b150c829a866e3218b8420967bf7722a/vllm/tool_parsers/gemma4_tool_parser.py)
 * and Ollama model/parsers/gemma4.go.
 *
 * The markup types every value (`<|"|>` strings, bare numbers, `true`, `false`, `null`), so no value is
 * re-typed from the schema (only validated against it). Unlike vLLM (which reads any other bare word
 * as a string and keeps the last of duplicated keys) a bare word that is no literal is
 * `bad_arguments`, a duplicated key is `bad_arguments`, and a string that holds a call tag of the
 * dialect (`<|tool_call>`, `<tool_call|>`) is `shape`: no reader can tell where such a string ends.
 * A call inside the thought channel is `shape` (reasoning is never recovered).
 */

import { callFromJsonText, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner } from '../scan.js';
import { insideBlock, optionalToken, tokenSpans, withTokens } from './call-lists.js';
import { readDelimitedObject } from './literals.js';

/** One Gemma-style call grammar: Gemma 4 here, FunctionGemma in ./functiongemma.ts. */
export interface CallLiteralGrammar {
  family: string;
  opener: string;
  closer: string;
  /** The string delimiter token. */
  quote: string;
  /** Stop tokens the template or model writes right after the last call (kept in its span). */
  stops: readonly string[];
  /** The reasoning block's delimiters, when the template writes one into the text. */
  think?: { open: string; close: string };
  /** Other delimiters of the template (markup, their bodies prose). */
  tokens: readonly string[];
}

/** A name as the templates write it after `call:`: anything up to `{` but spacing and tag characters. */
const NAME = /^[^\s{}<>:,"]+$/;

/**
 * Reads every `OPENER call:NAME{…} CLOSER` block from `from` (see the module header). Stops at
 * the first defect.
 */
export function parseCallLiterals(text: string, from: number, g: CallLiteralGrammar): FamilyMatch {
  const sc = new Scanner(text);
  const spans: Array<[number, number]> = [];
  const calls: FamilyCall[] = [];
  const tokens = tokenSpans(text, g.think ? [g.think.open, g.think.close, ...g.tokens] : g.tokens);
  let pos = from;
  for (let o = sc.find(g.opener, pos); o >= 0; o = sc.find(g.opener, pos)) {
    const fail = (p: FamilyProblem) => {
      spans.push([o, text.length]);
      return withTokens(match(g.family, spans, calls, p), tokens);
    };
    if (g.think && insideBlock(text, o, g.think.open, g.think.close)) return fail(shape('a call inside the thought channel (reasoning is never recovered)'));
    let i = o + g.opener.length;
    const rest = text.slice(i, i + 5);
    if (rest !== 'call:') return fail('call:'.startsWith(rest) && i + rest.length >= text.length ? truncated('the text ends before call:') : shape(`${g.opener} is not followed by call:NAME{…}`));
    i += 5;
    const brace = text.indexOf('{', i);
    const nameEnd = brace < 0 ? text.length : brace;
    const name = text.slice(i, nameEnd);
    if (!NAME.test(name)) {
      if (brace < 0 && /^[^\s{}<>:,"]*$/.test(name)) return fail(truncated('the text ends inside the tool name'));
      return fail(shape('a call without a usable tool name before {'));
    }
    const r = readDelimitedObject(text, brace + 1, g.quote, [g.opener, g.closer]);
    if ('problem' in r) return fail(r.problem);
    const k = r.end;
    if (k >= text.length) return fail(truncated(`the text ends before ${g.closer}`));
    if (!sc.at(k, g.closer)) {
      return fail(g.closer.startsWith(text.slice(k)) ? truncated(`the text ends inside ${g.closer}`) : shape(`text after the arguments before ${g.closer}`));
    }
    const end = optionalToken(text, k + g.closer.length, g.stops);
    const call: FamilyCall =
      r.error !== null
        ? { name, argumentsRaw: text.slice(brace, r.end), arguments: null, argumentsError: r.error }
        : callFromJsonText(name, r.json);
    if (r.paddedKey !== null) call.shapeError = `the key ${JSON.stringify(r.paddedKey)} is empty or has surrounding whitespace (a server might read it as ${JSON.stringify(r.paddedKey.trim())})`;
    calls.push(call);
    spans.push([o, end]);
    pos = end;
  }
  return withTokens(match(g.family, spans, calls), tokens);
}

const GRAMMAR: CallLiteralGrammar = {
  family: 'gemma4',
  opener: '<|tool_call>',
  closer: '<tool_call|>',
  quote: '<|"|>',
  stops: ['<|tool_response>', '<turn|>'],
  think: { open: '<|channel>', close: '<channel|>' },
  tokens: [],
};

export const gemma4: Family = {
  id: 'gemma4',
  source: 'Gemma 4 chat template (https://github.com/ggml-org/llama.cpp/blob/75f1ba7389067a9f90082515e124c377a1e104b2/models/templates/gemma4.jinja, the model\'s chat_template; HF revision not recorded); vLLM gemma4_tool_parser.py @ c31f17f4; Ollama model/parsers/gemma4.go',
  markers: ['<|tool_call>', '<tool_call|>', '<|"|>', '<|tool_response>'],
  detect: (text) => text.indexOf(GRAMMAR.opener),
  parse: (text, from) => parseCallLiterals(text, from, GRAMMAR),
};
