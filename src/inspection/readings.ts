/**
 * Every reading of a call's arguments that a dispatcher could make. A structured call's client
 * reads its JSON with the last of duplicated keys (`JSON.parse`); server-side tool-call parsers are
 * more lenient with leaked markup: they strip parameter names, HTML-unescape and trim values and
 * JSON-decode a value that parses (SGLang's detectors: `pname.strip()`, `html.unescape(raw.strip())`,
 * `json.loads`; https://github.com/sgl-project/sglang/tree/main/python/sglang/srt/function_call),
 * and some keep the first of duplicated keys. Inspection runs every rule on every reading, so a
 * command hidden by one reading (`&#124;` for `|`, a name with a trailing space, a JSON-quoted
 * value, the first of two `command` keys) is seen through another.
 */

import { decodeHTML } from 'entities';
import { MAX_ARGUMENT_DEPTH } from '../base/json.js';
import type { InspectableCall } from './types.js';

/** Longest argument text read for duplicated keys (characters); longer texts keep the other readings. */
const MAX_RAW_FOR_DUPLICATES = 1 << 20;

type Json = unknown;

/** A value that is one XML CDATA section (`<![CDATA[…]]>`), which XML-minded parsers of parameter tags unwrap. */
const CDATA = /^<!\[CDATA\[([\s\S]*)\]\]>$/;

/** A value as a lenient server parser reads it (strings HTML-unescaped, trimmed, a CDATA section unwrapped, JSON-decoded when they parse). */
function lenientValue(v: Json, depth: number): Json {
  if (depth > MAX_ARGUMENT_DEPTH) return v;
  if (typeof v === 'string') {
    let s = decodeHTML(v).trim();
    const cdata = CDATA.exec(s);
    if (cdata) s = cdata[1]!.trim();
    if (/^[[{"]/.test(s)) {
      try {
        const decoded: unknown = JSON.parse(s);
        if (typeof decoded === 'string' || (typeof decoded === 'object' && decoded !== null)) return lenientValue(decoded, depth + 1);
      } catch {
        // not JSON: the unescaped, trimmed text
      }
    }
    return s;
  }
  if (Array.isArray(v)) return v.map((x) => lenientValue(x, depth + 1));
  if (v !== null && typeof v === 'object') return lenientObject(v as Record<string, unknown>, depth + 1);
  return v;
}

function lenientObject(o: Record<string, unknown>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    const key = decodeHTML(k).trim();
    Object.defineProperty(out, key, { value: lenientValue(v, depth), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * The object `raw` parses to when every duplicated key keeps its FIRST value (JSON.parse keeps the
 * last), or null when the text has no duplicated key or does not parse. Keys are compared after
 * JSON unescaping (`"comm\u0061nd"` is `"command"`).
 */
export function firstWinsReading(raw: string): Record<string, unknown> | null {
  if (raw.length > MAX_RAW_FOR_DUPLICATES || !raw.includes('"')) return null;
  let duplicated = false;
  let value: unknown;
  try {
    // a reviver sees each key once (the last); the duplicates are found by scanning the keys below
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const first = firstValues(raw);
  if (first === null) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const f = first.get(k);
    if (f !== undefined && f.count > 1) {
      duplicated = true;
      Object.defineProperty(out, k, { value: f.value, enumerable: true, writable: true, configurable: true });
    } else Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return duplicated ? out : null;
}

/**
 * The top-level keys that a JSON object text `raw` (a tool call's arguments as sent) holds more
 * than once, in the order they first appear: JSON.parse keeps the last value of each, a
 * dispatcher may read the first (RFC 8259 §4: names "SHOULD be unique"; behaviour then
 * unpredictable). Empty when the text has none, is not an object, or is longer than the reading
 * limit (1 Mi characters).
 */
export function duplicatedKeys(raw: string): string[] {
  if (raw.length > MAX_RAW_FOR_DUPLICATES || !raw.includes('"')) return [];
  const first = firstValues(raw);
  return first === null ? [] : [...first].filter(([, f]) => f.count > 1).map(([k]) => k);
}

/**
 * The first value of each top-level key of a JSON object text, and how often the key appears.
 * A small scanner over the top level: strings and nesting are skipped, each member's value text is
 * parsed on its own. Null when the text is not an object.
 */
function firstValues(raw: string): Map<string, { value: unknown; count: number }> | null {
  let i = 0;
  const ws = () => {
    while (i < raw.length && /\s/.test(raw[i]!)) i++;
  };
  const skipString = () => {
    i++;
    while (i < raw.length && raw[i] !== '"') i += raw[i] === '\\' ? 2 : 1;
    i++;
  };
  ws();
  if (raw[i] !== '{') return null;
  i++;
  const out = new Map<string, { value: unknown; count: number }>();
  for (;;) {
    ws();
    if (raw[i] === '}') return out;
    if (raw[i] !== '"') return null;
    const ks = i;
    skipString();
    let key: string;
    try {
      key = JSON.parse(raw.slice(ks, i)) as string;
    } catch {
      return null;
    }
    ws();
    if (raw[i] !== ':') return null;
    i++;
    ws();
    const vs = i;
    let depth = 0;
    while (i < raw.length) {
      const c = raw[i]!;
      if (c === '"') {
        skipString();
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (depth === 0) break;
        depth--;
      } else if (c === ',' && depth === 0) break;
      i++;
    }
    let value: unknown;
    try {
      value = JSON.parse(raw.slice(vs, i));
    } catch {
      return null;
    }
    const seen = out.get(key);
    if (seen) seen.count++;
    else out.set(key, { value, count: 1 });
    if (raw[i] === ',') i++;
    else if (raw[i] !== '}') return null;
  }
}

/** Keys under which a call envelope holds its arguments (OpenAI, Llama 3, Anthropic-style and others). */
const ENVELOPE_ARGUMENTS = ['arguments', 'parameters', 'args', 'input', 'params'];

/** A plain JSON object, not an array. */
const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The readings of arguments guard could not decode (`arguments` null: a duplicated key, two
 * argument keys, broken JSON in a refused leak) from their raw text: the text as `JSON.parse`
 * reads it (the last of duplicated keys at every depth) and with the first of duplicated keys at
 * every depth; and when the text is a whole call (`{"name": …, "arguments": …}`, which a family
 * keeps when the call JSON itself did not read), the arguments inside it, decoded once more when
 * they are a JSON string.
 */
function rawReadings(raw: string): Array<Record<string, unknown>> {
  if (raw.length > MAX_RAW_FOR_DUPLICATES || !/^\s*\{/.test(raw)) return [];
  const out: Array<Record<string, unknown>> = [];
  const push = (v: unknown, depth: number) => {
    if (!isPlainObject(v)) return;
    out.push(v);
    if (depth > 1 || typeof v['name'] !== 'string') return;
    for (const k of ENVELOPE_ARGUMENTS) {
      let inner = v[k];
      if (typeof inner === 'string') {
        try {
          inner = JSON.parse(inner) as unknown;
        } catch {
          continue;
        }
      }
      push(inner, depth + 1);
    }
  };
  try {
    push(JSON.parse(raw) as unknown, 0);
  } catch {
    return out;
  }
  try {
    const first = firstWinsDeep(raw);
    if (first !== null) push(first, 0);
  } catch {
    // no first-wins reading
  }
  return out;
}

/**
 * The value of a JSON text with the FIRST of duplicated keys kept at every depth, or null when it
 * has none (or does not parse as strict JSON). A recursive reader bounded by MAX_ARGUMENT_DEPTH.
 */
export function firstWinsDeep(raw: string): unknown {
  let i = 0;
  let duplicated = false;
  const ws = () => {
    while (i < raw.length && (raw[i] === ' ' || raw[i] === '\n' || raw[i] === '\r' || raw[i] === '\t')) i++;
  };
  const str = (): string => {
    const s = i;
    i++;
    while (i < raw.length && raw[i] !== '"') i += raw[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(raw.slice(s, i)) as string;
  };
  const value = (depth: number): unknown => {
    if (depth > MAX_ARGUMENT_DEPTH) throw new Error('too deep');
    ws();
    const c = raw[i];
    if (c === '{') {
      i++;
      const o: Record<string, unknown> = {};
      ws();
      if (raw[i] === '}') {
        i++;
        return o;
      }
      for (;;) {
        ws();
        if (raw[i] !== '"') throw new Error('key');
        const k = str();
        ws();
        if (raw[i++] !== ':') throw new Error(':');
        const v = value(depth + 1);
        if (Object.prototype.hasOwnProperty.call(o, k)) duplicated = true;
        else Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
        ws();
        if (raw[i] === ',') {
          i++;
          continue;
        }
        if (raw[i++] === '}') return o;
        throw new Error('}');
      }
    }
    if (c === '[') {
      i++;
      const a: unknown[] = [];
      ws();
      if (raw[i] === ']') {
        i++;
        return a;
      }
      for (;;) {
        a.push(value(depth + 1));
        ws();
        if (raw[i] === ',') {
          i++;
          continue;
        }
        if (raw[i++] === ']') return a;
        throw new Error(']');
      }
    }
    if (c === '"') return str();
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(raw.slice(i, i + 400));
    if (!m) throw new Error('value');
    i += m[0].length;
    return JSON.parse(m[0]) as unknown;
  };
  const v = value(0);
  ws();
  if (i < raw.length) return null;
  return duplicated ? v : null;
}

/**
 * The distinct readings of a call's arguments: as given, then the first-wins reading of duplicated
 * keys (top level, and at every depth), then, when guard could not decode them, the readings of
 * their raw text ({@link rawReadings}), then each of those as a lenient server parser reads it.
 * Readings equal to an earlier one are dropped, so an ordinary call has one reading.
 *
 * @returns the calls to inspect, the given one first; never throws.
 */
export function readingsOf(call: InspectableCall): InspectableCall[] {
  const bases: Array<Record<string, unknown> | null> = [call.arguments];
  try {
    const first = firstWinsReading(call.argumentsRaw ?? '');
    if (first !== null) bases.push(first);
    const deep = call.arguments !== null && first === null ? firstWinsDeep(call.argumentsRaw ?? '') : null;
    if (isPlainObject(deep)) bases.push(deep);
    if (call.arguments === null) bases.push(...rawReadings(call.argumentsRaw ?? ''));
  } catch {
    // no further reading
  }
  const out: InspectableCall[] = [];
  const seen = new Set<string>();
  const add = (args: Record<string, unknown> | null) => {
    let key: string | null;
    try {
      key = JSON.stringify(args);
    } catch {
      key = null; // not comparable: kept, so the engine inspects it (and reports what fails)
    }
    if (key !== null && seen.has(key)) return;
    if (key !== null) seen.add(key);
    out.push(out.length === 0 ? call : { ...call, arguments: args });
  };
  for (const b of bases) add(b);
  for (const b of bases) {
    if (b === null) continue;
    try {
      add(lenientObject(b, 0));
    } catch {
      // keep the readings made so far
    }
  }
  return out;
}
