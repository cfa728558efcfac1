/**
 * Shared value readers of the families whose markup is not JSON (not a family itself):
 *
 * - {@link readDelimitedObject}: the object literal of Gemma 4 and FunctionGemma,
 *   `{key:<|"|>text<|"|>,n:3,o:{k:true},l:[1,2]}`: keys bare at every depth, strings between a
 *   delimiter token that nothing escapes (`<|"|>`, `<escape>`), numbers, `true`, `false` and `null`
 *   bare. The markup types every value, so nothing is re-typed from a schema. Read into JSON text.
 * - {@link readPythonLiteral}: a Python literal as `str()`/`repr()` writes it (Seed-OSS renders
 *   every non-string argument with Jinja's `|string`): strings in single or double quotes, `int`,
 *   `float`, `True`, `False`, `None`, lists and dicts of them. Only that subset is read; anything
 *   else (names, calls, operators, tuples, sets, prefixed or triple-quoted strings, escapes `repr`
 *   never writes) is `unsupported`, never guessed or evaluated.
 *
 * Both readers are iterative (no recursion, whatever the nesting) and linear in the text.
 */

import { ARGUMENTS_TOO_DEEP, MAX_ARGUMENT_DEPTH } from '../../base/json.js';
import { shape, truncated, type FamilyProblem } from '../family.js';
import { isWs, skipWs } from '../scan.js';

/** A JSON number by the grammar (RFC 8259 §6). */
export const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** What {@link readDelimitedObject} read. */
export type DelimitedObject =
  | {
      /** The object as JSON text (no whitespace), or '' when `error` is set. */
      json: string;
      /** Index just past the object's `}`. */
      end: number;
      /** Why the object is not usable although its envelope is complete (a bare word that is no
       * literal, a key with surrounding whitespace deeper down, nesting too deep). */
      error: string | null;
      /** A top-level key with surrounding whitespace or empty (the reply is `shape`, as for other
       * families' padded parameter names). */
      paddedKey: string | null;
    }
  | { problem: FamilyProblem };

interface Frame {
  kind: 'obj' | 'arr';
  parts: string[];
  /** `first`: after the opener; `item`: expecting a key (objects) or a value (arrays) after `,`;
   * `value`: after a key's `:`; `sep`: after a value. */
  state: 'first' | 'item' | 'value' | 'sep';
  key: string;
}

/**
 * Reads a Gemma-style object literal from `i`, the index just past its opening `{`.
 *
 * @param text the whole text.
 * @param i index after the `{`.
 * @param quote the string delimiter (`<|"|>`, `<escape>`).
 * @param forbidden tags of the dialect a string or key may not hold (a nested or forged call).
 * @returns the object as JSON text and where it ends; `truncated` when the text ends inside it,
 *   `shape` when its structure is malformed.
 */
export function readDelimitedObject(text: string, i: number, quote: string, forbidden: readonly string[]): DelimitedObject {
  const stack: Frame[] = [{ kind: 'obj', parts: [], state: 'first', key: '' }];
  let error: string | null = null;
  let paddedKey: string | null = null;
  const holdsForbidden = (s: string) => s.includes(quote) || forbidden.some((f) => s.includes(f));
  const emit = (json: string) => {
    const top = stack[stack.length - 1]!;
    top.parts.push(top.kind === 'obj' ? `${JSON.stringify(top.key)}:${json}` : json);
    top.state = 'sep';
  };
  for (;;) {
    const top = stack[stack.length - 1]!;
    if (i >= text.length) return { problem: truncated('the text ends inside the arguments') };
    if (top.state === 'sep' || (top.state === 'first' && (text[skipWs(text, i)] === '}' || text[skipWs(text, i)] === ']'))) {
      i = skipWs(text, i);
      if (i >= text.length) return { problem: truncated('the text ends inside the arguments') };
      const close = top.kind === 'obj' ? '}' : ']';
      if (text[i] === ',' && top.state === 'sep') {
        top.state = 'item';
        i++;
        continue;
      }
      if (text[i] !== close) return { problem: shape(`the arguments hold ${JSON.stringify(text[i])} where "," or "${close}" belongs`) };
      i++;
      const json = top.kind === 'obj' ? `{${top.parts.join(',')}}` : `[${top.parts.join(',')}]`;
      stack.pop();
      if (stack.length === 0) return { json: error === null ? json : '', end: i, error, paddedKey };
      emit(json);
      continue;
    }
    if (top.kind === 'obj' && top.state !== 'value') {
      // a bare key, up to its ':'
      let k = i;
      while (k < text.length && text[k] !== ':' && !',{}[]'.includes(text[k]!)) k++;
      if (k >= text.length) return { problem: truncated('the text ends inside a key') };
      if (text[k] !== ':') return { problem: shape('a key is not followed by ":"') };
      const key = text.slice(i, k);
      if (holdsForbidden(key)) return { problem: shape('a key holds a tag of the dialect') };
      if (key === '' || key !== key.trim()) {
        if (stack.length === 1) paddedKey ??= key;
        else error ??= `the key ${JSON.stringify(key)} is empty or has surrounding whitespace`;
      }
      top.key = key;
      top.state = 'value';
      i = k + 1;
      continue;
    }
    // a value
    i = skipWs(text, i);
    if (i >= text.length) return { problem: truncated('the text ends before a value') };
    if (text.startsWith(quote, i)) {
      const e = text.indexOf(quote, i + quote.length);
      const content = text.slice(i + quote.length, e < 0 ? text.length : e);
      if (forbidden.some((f) => content.includes(f))) return { problem: shape('a string value holds a tag of the dialect (a nested or forged call)') };
      if (e < 0) return { problem: truncated(`the text ends inside a string (before its closing ${quote})`) };
      emit(JSON.stringify(content));
      i = e + quote.length;
      continue;
    }
    const c = text[i]!;
    if (c === '{' || c === '[') {
      if (stack.length > MAX_ARGUMENT_DEPTH) error ??= ARGUMENTS_TOO_DEEP;
      stack.push({ kind: c === '{' ? 'obj' : 'arr', parts: [], state: 'first', key: '' });
      i++;
      continue;
    }
    // a bare literal, up to a delimiter
    let j = i;
    while (j < text.length && !',}]<'.includes(text[j]!) && !isWs(text[j])) j++;
    if (j >= text.length) return { problem: truncated('the text ends inside a value') };
    const word = text.slice(i, j);
    if (word === 'true' || word === 'false' || word === 'null' || (JSON_NUMBER.test(word) && Number.isFinite(Number(word)))) emit(word);
    else if (word === '') return { problem: shape(`the arguments hold ${JSON.stringify(text[j])} where a value belongs`) };
    else {
      error ??= `the bare value ${JSON.stringify(word.slice(0, 40))} is not a number, true, false or null (strings are written between ${quote})`;
      emit('null');
    }
    i = j;
  }
}

/** What {@link readPythonLiteral} read. */
export type PythonLiteral =
  | { ok: true; json: string; value: unknown }
  /** `invalid`: not a Python literal at all; `unsupported`: Python, but outside the subset read. */
  | { ok: false; kind: 'invalid' | 'unsupported'; error: string };

const PY_INT = /^-?(?:0|[1-9][0-9]*)$/;
const PY_FLOAT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * Reads `raw` (the whole of it, no surrounding whitespace) as one Python literal of the subset
 * `str()` writes for JSON-like values, into JSON text.
 *
 * @returns the JSON text and the value it parses to, or why not: `invalid` (not such a literal:
 *   `true`, `{"a": 1]`), `unsupported` (Python syntax the subset does not read: an escape `repr`
 *   never writes, a tuple, a non-string key, `inf`).
 */
export function readPythonLiteral(raw: string): PythonLiteral {
  type PFrame = { kind: 'list' | 'dict'; parts: string[]; state: 'first' | 'item' | 'colon' | 'value' | 'sep'; key: string };
  const stack: PFrame[] = [];
  let i = 0;
  let result: string | null = null;
  const bad = (kind: 'invalid' | 'unsupported', error: string): PythonLiteral => ({ ok: false, kind, error });
  const put = (json: string): PythonLiteral | null => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      result = json;
      return null;
    }
    if (top.kind === 'dict' && (top.state === 'first' || top.state === 'item')) {
      if (!json.startsWith('"')) return bad('unsupported', 'a dict key that is not a string');
      top.key = json;
      top.state = 'colon';
      return null;
    }
    top.parts.push(top.kind === 'dict' ? `${top.key}:${json}` : json);
    top.state = 'sep';
    return null;
  };
  const ws = () => {
    while (i < raw.length && (raw[i] === ' ')) i++;
  };
  for (;;) {
    if (result !== null) {
      if (i !== raw.length) return bad('invalid', 'text after the literal');
      const json: string = result;
      try {
        return { ok: true, json, value: JSON.parse(json) as unknown };
      } catch {
        return bad('invalid', 'not a literal');
      }
    }
    const top = stack[stack.length - 1];
    if (top !== undefined) {
      ws();
      if (i >= raw.length) return bad('invalid', 'the literal is not closed');
      const close = top.kind === 'list' ? ']' : '}';
      if (top.state === 'colon') {
        if (raw[i] !== ':') return bad('invalid', 'a dict key is not followed by ":"');
        i++;
        top.state = 'value';
        continue;
      }
      if (top.state === 'sep' || (top.state === 'first' && raw[i] === close)) {
        if (raw[i] === ',' && top.state === 'sep') {
          i++;
          ws();
          if (raw[i] === close) return bad('unsupported', 'a trailing comma');
          top.state = 'item';
          continue;
        }
        if (raw[i] !== close) return bad('invalid', `"${raw[i]}" where "," or "${close}" belongs`);
        i++;
        stack.pop();
        const json = top.kind === 'list' ? `[${top.parts.join(',')}]` : `{${top.parts.join(',')}}`;
        const r = put(json);
        if (r) return r;
        continue;
      }
    }
    if (i >= raw.length) return bad('invalid', 'no literal');
    const c = raw[i]!;
    if (c === '[' || c === '{') {
      if (stack.length >= MAX_ARGUMENT_DEPTH) return bad('unsupported', ARGUMENTS_TOO_DEEP);
      stack.push({ kind: c === '[' ? 'list' : 'dict', parts: [], state: 'first', key: '' });
      i++;
      continue;
    }
    if (c === '(') return bad('unsupported', 'a tuple');
    if (c === "'" || c === '"') {
      const s = readPyString(raw, i);
      if ('error' in s) return bad(s.kind, s.error);
      const r = put(JSON.stringify(s.value));
      if (r) return r;
      i = s.end;
      continue;
    }
    let j = i;
    while (j < raw.length && /[A-Za-z0-9_.+-]/.test(raw[j]!)) j++;
    const word = raw.slice(i, j);
    let json: string;
    if (word === 'True') json = 'true';
    else if (word === 'False') json = 'false';
    else if (word === 'None') json = 'null';
    else if (PY_INT.test(word) || (PY_FLOAT.test(word) && Number.isFinite(Number(word)))) json = word;
    else if (word === '') return bad('invalid', `"${c}" where a literal belongs`);
    else return bad(/^[A-Za-z_]/.test(word) && !['true', 'false', 'null'].includes(word) ? 'unsupported' : 'invalid', `"${word.slice(0, 40)}" is not a literal`);
    const r = put(json);
    if (r) return r;
    i = j;
  }
}

const HEX = /^[0-9a-fA-F]+$/;

/** Reads a Python string literal (no prefix, not triple-quoted) starting at its quote. */
function readPyString(raw: string, q: number): { value: string; end: number } | { kind: 'invalid' | 'unsupported'; error: string } {
  const quote = raw[q]!;
  if (raw.startsWith(quote.repeat(3), q)) return { kind: 'unsupported', error: 'a triple-quoted string' };
  let out = '';
  for (let i = q + 1; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === quote) {
      // implicit concatenation ('a' 'b') is Python, but not what repr writes
      let k = i + 1;
      while (raw[k] === ' ') k++;
      if (raw[k] === "'" || raw[k] === '"') return { kind: 'unsupported', error: 'adjacent string literals' };
      return { value: out, end: i + 1 };
    }
    if (ch === '\n' || ch === '\r') return { kind: 'invalid', error: 'a line break inside a string' };
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const e = raw[i + 1];
    const simple: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', n: '\n', r: '\r', t: '\t' };
    if (e !== undefined && e in simple) {
      out += simple[e];
      i++;
      continue;
    }
    const len = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (len === 0) return { kind: 'unsupported', error: `the escape \\${e ?? ''}, which repr never writes` };
    const hex = raw.slice(i + 2, i + 2 + len);
    if (hex.length !== len || !HEX.test(hex)) return { kind: 'invalid', error: 'a malformed escape' };
    const code = parseInt(hex, 16);
    if (code > 0x10ffff) return { kind: 'invalid', error: 'an escape beyond Unicode' };
    out += String.fromCodePoint(code);
    i += 1 + len;
  }
  return { kind: 'invalid', error: 'the string is not closed' };
}
