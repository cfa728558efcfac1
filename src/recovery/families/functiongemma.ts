/**
 * Google FunctionGemma (functiongemma-270m-it and its fine-tunes):
 * `<start_function_call>call:NAME{key:<escape>text<escape>,n:3}<end_function_call>`, calls back to
 * back, then the stop token `<start_function_response>`. Source: Google's "FunctionGemma formatting
 * and best practices" (https://ai.google.dev/gemma/docs/functiongemma/formatting-and-best-practices;
 * page revision not recorded): the control tokens `<start_function_call>` / `<end_function_call>`,
 * "a single token, `<escape>`, is used as a delimiter for all string values", and
 * `<start_function_response>` as an additional stop sequence; the Gemma cookbook's FunctionGemma
 * fine-tuning notebook (google-gemini/gemma-cookbook @ e119e3d2) shows the outputs. Parsers that
 * confirm it: vLLM functiongemma_tool_parser.py @ fe3771ba, Ollama model/parsers/functiongemma.go.
 *
 * The same object literal as Gemma 4 (./gemma4.ts) with `<escape>` as the string delimiter: the
 * markup types every value, nothing is re-typed from the schema. vLLM reads only `<escape>`-delimited
 * values (a bare number is dropped) and keeps the last duplicate; here a bare number is read as
 * the number the markup writes, and a duplicate key or a bare word that is no literal refuses
 * the reply (`bad_arguments`).
 */

import type { Family } from '../family.js';
import { parseCallLiterals, type CallLiteralGrammar } from './gemma4.js';

const GRAMMAR: CallLiteralGrammar = {
  family: 'functiongemma',
  opener: '<start_function_call>',
  closer: '<end_function_call>',
  quote: '<escape>',
  stops: ['<start_function_response>', '<end_of_turn>'],
  tokens: [],
};

export const functionGemma: Family = {
  id: 'functiongemma',
  source: 'FunctionGemma formatting and best practices (https://ai.google.dev/gemma/docs/functiongemma/formatting-and-best-practices); gemma-cookbook FunctionGemma fine-tuning notebook @ e119e3d2; vLLM functiongemma_tool_parser.py @ fe3771ba; Ollama model/parsers/functiongemma.go',
  markers: ['<start_function_call>', '<end_function_call>', '<escape>', '<start_function_response>'],
  detect: (text) => text.indexOf(GRAMMAR.opener),
  parse: (text, from) => parseCallLiterals(text, from, GRAMMAR),
};
