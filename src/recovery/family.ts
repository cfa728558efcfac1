/**
 * The common interface of a markup family and the call builders the family parsers share.
 *
 * A family module (src/recovery/families/*.ts) knows one model family's tool-call grammar. It
 * detects where its markup starts, parses every block into calls, and says whether the envelope is
 * complete. It does not decide whether a call may be recovered: advertised names, quotation, prose
 * and the order of refusal reasons belong to ../index.ts, the same for every family.
 */

import type { JsonSchema } from '../capture/types.js';
import { ARGUMENTS_TOO_DEEP, jsonDepthExceeds, MAX_ARGUMENT_DEPTH, parseArguments } from '../base/json.js';
import { indexOutsideStrings, isObject, parseJsonValue, scanJson, skipWs, trimEnd, type JsonScan, type Scanner } from './scan.js';
import { typeParameter } from './typing.js';

/** One call as the markup spells it, before any recovery decision. */
export interface FamilyCall {
  /** The tool name exactly as written (decorations such as `functions.` already removed). */
  name: string;
  /** The argument text: the JSON slice for JSON families (exactly as in the markup), a JSON object
   * text built from the values' own texts for per-parameter families ({@link callFromParameters}). */
  argumentsRaw: string;
  /** The arguments object, or null when they do not parse / type. */
  arguments: Record<string, unknown> | null;
  /** Why `arguments` is null. */
  argumentsError: string | null;
  /** True when the call's own JSON (name and arguments together, Hermes style) does not parse, so
   * `name` is '' and unknown: the call is `bad_arguments`, never `unadvertised`. */
  nameUnread?: boolean;
  /**
   * Set when the call's structure is ambiguous in a way a lenient server parser would resolve
   * silently (a parameter name with surrounding whitespace, a parameter given twice): the reply is
   * refused `shape`, never renamed or deduplicated. `arguments` then hold the first reading.
   */
  shapeError?: string;
}

/** A defect of the envelope itself. */
export interface FamilyProblem {
  /** `truncated`: the text ends inside the envelope (it was cut);
   * `shape`: the structure is malformed rather than cut (the text goes on where a closer belongs). */
  reason: 'truncated' | 'shape';
  detail: string;
}

/** What a family read from a text. */
export interface FamilyMatch {
  /** The family (or dialect) label reported in the verdict, e.g. `deepseek-v3`, `dsml`. */
  family: string;
  /** Markup spans [start, end) in the text, in order, non-overlapping. */
  spans: Array<[number, number]>;
  /** The calls read, in order (possibly only those before a problem). */
  calls: FamilyCall[];
  /** The first envelope defect met, or null when every block is complete and well formed. */
  problem: FamilyProblem | null;
  /**
   * The spans that hold calls, when not every span does (harmony's analysis and final messages
   * are markup around prose); absent means every span holds calls.
   */
  callSpans?: Array<[number, number]>;
  /**
   * Spans of the family's own tokens inside a block that failed (cut or broken), which are grammar,
   * not Markdown, although the block was not read to its closer: Functionary v3.2's `>>>NAME` opens
   * no block quote even when its call was cut. Their words are the grammar's, not prose, when the
   * failed block is re-measured for narration (../envelope.ts narratedMarkupSpans): LLM-jp-4.1's
   * spaced harmony header `<|channel|> commentary to=functions.x<|message|>`. Complete blocks are
   * grammar anyway.
   */
  grammarSpans?: Array<[number, number]>;
  /**
   * Set when the model went on writing past its call in the family's own grammar: a tool result
   * it wrote itself (a token that opens a message only the tool or the harness writes, see
   * {@link Family.results}), a final answer after the call. The call was made without its result,
   * so the reply is refused `shape` and never recovered (sgl-project/sglang#9097).
   */
  continued?: string;
  /** Where the result token of {@link continued} starts: what follows is the model's made-up tool output, not prose about the call. */
  continuedAt?: number;
}

/** What a parser may ask about the request. */
export interface ParseContext {
  /** The advertised tool's parameters schema, when the capture recorded it. */
  schemaOf(name: string): JsonSchema | undefined;
}

/** A model family's tool-call grammar. Adding a family is one module implementing this. */
export interface Family {
  /** Short id, also the default label. */
  id: string;
  /** Where the grammar comes from: the primary source (chat template or model card URL and
   * revision, vendor docs), and the server parsers that confirm it. */
  source: string;
  /** Distinctive tokens of the family: seeing one that `detect` does not claim is a `shape` leak.
   * Contract: `detect` returns -1 on any text that holds no marker of the engine's families
   * (../index.ts FAMILIES): the engine skips every family on such text (../triggers.ts). */
  markers: readonly string[];
  /**
   * Substrings without which `detect` cannot fire but which are no markup on their own (Functionary
   * v3.2's `>>>`, common in Python prompts and e-mail quoting): they join the marker prefilter
   * (../triggers.ts), so `detect` still runs only on text that holds one, but not the stray and
   * repetition checks, which only distinctive `markers` feed.
   */
  triggers?: readonly string[];
  /**
   * Tokens that open a message the chat template gives to the tool's result (Qwen's
   * `<tool_response>`, GLM's `<|observation|>`, Llama's `ipython` header): one written after a
   * call means the model made up its result ({@link FamilyMatch.continued}).
   */
  results?: readonly string[];
  /** Index of the first place this family's markup starts, or -1. Must be linear in the text. */
  detect(text: string): number;
  /**
   * For a family whose markup may stand with no marker at all (a bare JSON call object, a pythonic
   * call list): the index of the first such markup that starts before `before`, or -1. The engine
   * asks it on every text, with `before` the first family token of the text or the start of the
   * first markup a family's `detect` found, whichever comes first (the text's length when none): a
   * family token claims the text from it on, so JSON inside an envelope is never read bare. Outside the marker prefilter, so on text that holds no
   * such markup it must cost one substring search (a gate such as `"name"` or `[f(`), and stay
   * linear otherwise; `parse` is then called with the index it returned.
   */
  detectBare?(text: string, before: number): number;
  /** Parses every block from `from` (the value `detect` returned). Never throws on any text. */
  parse(text: string, from: number, ctx: ParseContext): FamilyMatch;
}

/** Builds a match; `problem` defaults to none. */
export function match(family: string, spans: Array<[number, number]>, calls: FamilyCall[], problem: FamilyProblem | null = null): FamilyMatch {
  return { family, spans, calls, problem };
}

export const truncated = (detail: string): FamilyProblem => ({ reason: 'truncated', detail });
export const shape = (detail: string): FamilyProblem => ({ reason: 'shape', detail });

/**
 * Reads a tagged element `<open>value<close>` at `i` (the key and value tags of the XML-style
 * dialects: GLM's `<arg_key>`, K2 Horizon's `<ifm|arg_value>`, TeleChat4's `<param_key>`).
 *
 * @param forged tags of the dialect that a value never holds: one inside means its closer is
 *   missing and the value ran into the next element (`shape`, "the value of OPEN `runsInto`").
 * @returns the value and the index after the closer, or the defect: the text ending before the
 *   element or inside it is `truncated`, another text where it should start `shape`.
 */
export function taggedElement(
  sc: Scanner,
  i: number,
  open: string,
  close: string,
  forged: readonly string[],
  runsInto: string,
): { value: string; end: number } | { problem: FamilyProblem } {
  if (i >= sc.text.length) return { problem: truncated(`the text ends before ${open}`) };
  if (!sc.at(i, open)) return { problem: shape(`expected ${open}`) };
  const e = sc.find(close, i + open.length);
  if (e < 0) return { problem: truncated(`the text ends before ${close}`) };
  const value = sc.text.slice(i + open.length, e);
  if (forged.some((t) => value.includes(t))) return { problem: shape(`${close} is missing: the value of ${open} ${runsInto}`) };
  return { value, end: e + close.length };
}

/** A call whose arguments are the JSON text `raw` (must be an object; duplicate keys refused). */
export function callFromJsonText(name: string, raw: string): FamilyCall {
  const dup = parseJsonValue(raw);
  if (!dup.ok && dup.error.startsWith('duplicate key')) {
    return { name, argumentsRaw: raw, arguments: null, argumentsError: `arguments have a ${dup.error}` };
  }
  const { value, error } = parseArguments(raw);
  return { name, argumentsRaw: raw, arguments: value, argumentsError: error };
}

/** A JSON value delimited in the text: its extent, or why it could not be read. */
export type JsonAt =
  | { ok: true; start: number; end: number; scan: JsonScan }
  | { ok: false; problem: FamilyProblem };

/**
 * Delimits the JSON object/array that starts at the first non-whitespace character from `i`.
 * The text ending inside it is `truncated`; anything else where JSON should start is `shape`.
 *
 * With `bounds.closer` (the token the grammar puts after the JSON): when the brackets do not
 * balance (one left open, or a mismatched one) but the closer follows outside every JSON string,
 * the text was not cut there: the envelope is complete and the JSON is malformed. The value then
 * runs to the closer (whitespace trimmed), so parsing it fails and the call is `bad_arguments`.
 * When `bounds.opener` (the next call's opener) comes first, outside strings, the block was never
 * closed and another begins: `shape`. A text that ends inside a JSON string is cut (`truncated`),
 * whatever that string holds.
 */
export function jsonAt(text: string, i: number, what: string, bounds?: { closer: string; opener?: string }): JsonAt {
  const start = skipWs(text, i);
  if (start >= text.length) return { ok: false, problem: truncated(`the text ends before the ${what}`) };
  if (text[start] !== '{' && text[start] !== '[') return { ok: false, problem: shape(`no JSON where the ${what} should start`) };
  const scan = scanJson(text, start);
  if ((scan.end < 0 && !scan.inString) || scan.error !== null) {
    const c = bounds === undefined ? -1 : indexOutsideStrings(text, start, bounds.closer);
    if (c >= 0 && (scan.end < 0 || c >= scan.end)) {
      const o = bounds?.opener === undefined ? -1 : indexOutsideStrings(text, start, bounds.opener);
      if (o >= 0 && o < c) return { ok: false, problem: shape(`the ${what} is not closed before the next ${bounds!.opener}`) };
      return { ok: true, start, end: trimEnd(text, start, c), scan };
    }
  }
  if (scan.end < 0) return { ok: false, problem: truncated(`the text ends inside the ${what}`) };
  return { ok: true, start, end: scan.end, scan };
}

/**
 * Reads the calls of a JSON call object or array (`{"name": N, "arguments": A}`; `parameters` is
 * accepted for `arguments`, by key presence, never truthiness; `arguments` may be a JSON string
 * holding the object, decoded once more as vLLM does for Hermes).
 *
 * @param text the whole text; `at` delimits the value.
 * @returns the calls, or a problem when an entry has no string name.
 */
export function callsFromJsonCallValue(text: string, at: { start: number; end: number; scan: JsonScan }): { calls: FamilyCall[] } | { problem: FamilyProblem } {
  const raw = text.slice(at.start, at.end);
  const parsed = parseJsonValue(raw);
  if (!parsed.ok) return { calls: [{ name: '', argumentsRaw: raw, arguments: null, argumentsError: `the call JSON ${parsed.error.startsWith('duplicate') ? `has a ${parsed.error}` : `is ${parsed.error}`}`, nameUnread: true }] };
  const entries = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  if (entries.length === 0) return { problem: shape('an empty call list') };
  // Each entry's member spans in the text, so argument text is sliced, never re-serialised.
  const spans = Array.isArray(parsed.value) ? elementMembers(text, at.start) : [at.scan.members];
  const calls: FamilyCall[] = [];
  for (const [k, entry] of entries.entries()) {
    if (!isObject(entry) || typeof entry['name'] !== 'string') return { problem: shape('a call entry has no string "name"') };
    const name = entry['name'];
    const hasArgs = Object.prototype.hasOwnProperty.call(entry, 'arguments');
    const hasParams = Object.prototype.hasOwnProperty.call(entry, 'parameters');
    if (hasArgs === hasParams) {
      const why = hasArgs ? 'both "arguments" and "parameters"' : 'neither "arguments" nor "parameters"';
      if (!hasArgs) {
        calls.push({ name, argumentsRaw: '', arguments: null, argumentsError: `call has ${why}` });
        continue;
      }
      // both: a server reads one or the other (vLLM's llama3_json takes either); the whole entry is kept as the raw
      // text, so inspection reads each of them (../inspection/readings.ts); the call is never run
      const tooDeep = jsonDepthExceeds(entry, MAX_ARGUMENT_DEPTH + 1);
      const whole = tooDeep ? '' : Array.isArray(parsed.value) ? (JSON.stringify(entry) ?? '') : raw;
      calls.push({ name, argumentsRaw: whole, arguments: null, argumentsError: `call has ${why}` });
      continue;
    }
    const key = hasArgs ? 'arguments' : 'parameters';
    const value = entry[key];
    // Measured before anything serialises it: JSON.stringify overflows the stack on deep values.
    if (jsonDepthExceeds(value, MAX_ARGUMENT_DEPTH)) {
      calls.push({ name, argumentsRaw: '', arguments: null, argumentsError: ARGUMENTS_TOO_DEEP });
      continue;
    }
    // The exact argument text: the entry's member as it stands in the markup.
    const span = spans[k]?.get(key);
    const exact = span ? text.slice(span[0], span[1]) : (JSON.stringify(value) ?? '');
    if (typeof value === 'string') calls.push(callFromJsonText(name, value));
    else if (isObject(value)) calls.push(callFromJsonText(name, exact));
    else calls.push({ name, argumentsRaw: exact, arguments: null, argumentsError: `"${key}" is not a JSON object` });
  }
  return { calls };
}

/**
 * The member spans of each object element of the JSON array starting at `start` (a call list),
 * in order; stops at the first element that is not an object. Linear: each element is scanned once.
 */
function elementMembers(text: string, start: number): Array<Map<string, [number, number]>> {
  const out: Array<Map<string, [number, number]>> = [];
  let i = skipWs(text, start + 1);
  while (text[i] === '{') {
    const s = scanJson(text, i);
    if (s.end < 0 || s.error !== null) break;
    out.push(s.members);
    i = skipWs(text, s.end);
    if (text[i] !== ',') break;
    i = skipWs(text, i + 1);
  }
  return out;
}

/** One parameter of a per-parameter family, before typing. */
export interface RawParameter {
  key: string;
  /** The value text after the family's framing has been removed. */
  value: string;
  /** `string`: keep the text (DSML string="true"); `json`: must parse (string="false"); `schema`: type from the schema. */
  mode: 'string' | 'json' | 'schema';
  /** Set when the markup itself makes the value unusable (e.g. a `string` flag that is neither true nor false). */
  error?: string;
}

/**
 * Builds a call from per-parameter values: values that fail typing are errors; a duplicate or
 * whitespace-padded parameter name is a `shapeError` (both values stay in `argumentsRaw`);
 * arguments nesting deeper than MAX_ARGUMENT_DEPTH (src/capture/toolcall.ts) are refused whole
 * (`arguments` null, `argumentsRaw` '').
 *
 * `argumentsRaw` is a JSON object text built from the values' own texts, in markup order, with
 * no whitespace between members: a string value is `JSON.stringify` of its text, a number, object
 * or array value (typed from the schema, or DSML `string="false"`) is its text exactly as the
 * markup wrote it, and a boolean or null is `true`/`false`/`null` (so `True` reads `true`). It
 * parses to `arguments`, and keeps digits a double cannot hold (`12345678901234567890123`). When
 * a parameter fails, `argumentsRaw` holds the parameters read until then and after it.
 */
export function callFromParameters(name: string, params: RawParameter[], ctx: ParseContext): FamilyCall {
  const args: Record<string, unknown> = {};
  const members: string[] = [];
  // defineProperty, not assignment: a parameter named `__proto__` must become a key, as JSON.parse does.
  const put = (key: string, value: unknown, json: string) => {
    Object.defineProperty(args, key, { value, enumerable: true, writable: true, configurable: true });
    members.push(`${JSON.stringify(key)}:${json}`);
  };
  const schema = ctx.schemaOf(name);
  let error: string | null = null;
  let shapeError: string | undefined;
  for (const p of params) {
    if (p.key !== p.key.trim() || p.key === '') {
      shapeError ??= `parameter name ${JSON.stringify(p.key)} has surrounding whitespace (a server might read it as ${JSON.stringify(p.key.trim())})`;
    }
    if (Object.prototype.hasOwnProperty.call(args, p.key)) {
      shapeError ??= `parameter "${p.key}" appears twice (servers keep the first or the last)`;
      // both values stay in the raw text, so inspection reads every one a server might keep
      members.push(`${JSON.stringify(p.key)}:${JSON.stringify(p.value)}`);
      continue;
    }
    if (p.error !== undefined) {
      error ??= p.error;
    } else if (p.mode === 'string') {
      put(p.key, p.value, JSON.stringify(p.value));
    } else if (p.mode === 'json') {
      const v = parseJsonValue(p.value);
      if (v.ok) put(p.key, v.value, p.value);
      else error ??= `parameter "${p.key}" is marked JSON but is ${v.error}`;
    } else {
      const v = typeParameter(p.value, schema, p.key);
      if (v.ok) put(p.key, v.value, v.json);
      else error ??= v.error;
    }
  }
  // A value typed as object/array (or string="false" JSON) may nest without bound: refused, and
  // measured before anything serialises it (JSON.stringify would overflow the stack).
  if (jsonDepthExceeds(args, MAX_ARGUMENT_DEPTH)) return { name, argumentsRaw: '', arguments: null, argumentsError: ARGUMENTS_TOO_DEEP };
  const raw = `{${members.join(',')}}`;
  const shaped = shapeError === undefined ? {} : { shapeError };
  if (error) return { name, argumentsRaw: raw, arguments: null, argumentsError: error, ...shaped };
  return { name, argumentsRaw: raw, arguments: args, argumentsError: null, ...shaped };
}
