/**
 * Typing of per-parameter XML values (Qwen3-Coder `<parameter=K>`, GLM `<arg_value>`, MiniMax and
 * DSML parameters without a `string` attribute) from the advertised tool's JSON schema.
 *
 * Rules (after the chat templates and sglang's qwen3_coder_detector.py, glm4_moe_detector.py and
 * minimax_m2.py, https://github.com/sgl-project/sglang/tree/main/python/sglang/srt/function_call,
 * made stricter where those parsers guess; docs/sources.md "Parameter typing"):
 * - no schema, or the parameter is not in it, or it names no type → the raw text, as a string;
 * - schema type `string` (alone or in a union) → the raw text, even if it reads `123` or `false`;
 * - `null` in the union and the value is exactly `null` → null;
 * - `integer` → a decimal integer within the safe range; `number` → a JSON number;
 * - `boolean` → `true`/`false` (also `True`/`False`, how the Jinja template prints a Python bool);
 * - `object`/`array` → JSON that parses to that kind.
 * A value that fits none of the schema's types is an error (`bad_arguments`): sglang would fall back
 * to a string or to `false`, which hands the tool a value the model never wrote.
 */

import type { JsonSchema } from '../capture/types.js';
import { isObject, parseJsonValue } from './scan.js';

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';
const KNOWN: readonly JsonType[] = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'];

/** The JSON types a property schema allows (`type`, `anyOf`/`oneOf`/`allOf` branches, `enum`). Also
 * used by families that type values their own way (Seed-OSS's Python literals, ./families/seed-oss.ts). */
export function typesOf(prop: unknown, depth = 0): Set<JsonType> {
  const out = new Set<JsonType>();
  if (!isObject(prop) || depth > 8) return out;
  const t = prop['type'];
  for (const name of Array.isArray(t) ? t : [t]) if (KNOWN.includes(name as JsonType)) out.add(name as JsonType);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = prop[key];
    if (Array.isArray(branches)) for (const b of branches) for (const x of typesOf(b, depth + 1)) out.add(x);
  }
  const en = prop['enum'];
  if (out.size === 0 && Array.isArray(en)) {
    for (const v of en) {
      if (typeof v === 'string') out.add('string');
      else if (typeof v === 'boolean') out.add('boolean');
      else if (typeof v === 'number') out.add('number');
      else if (v === null) out.add('null');
    }
  }
  return out;
}

const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** A typed value and its exact JSON text (the markup's own digits and structure, never re-serialised). */
type Typed = { ok: true; value: unknown; json: string };

function asType(raw: string, type: JsonType): Typed | { ok: false } {
  switch (type) {
    case 'string':
      return { ok: true, value: raw, json: JSON.stringify(raw) };
    case 'null':
      return raw === 'null' ? { ok: true, value: null, json: 'null' } : { ok: false };
    case 'integer': {
      if (!INTEGER.test(raw)) return { ok: false };
      const n = Number(raw);
      return Number.isSafeInteger(n) ? { ok: true, value: n, json: raw } : { ok: false };
    }
    case 'number':
      // A JSON number by the grammar: its text is kept, so digits beyond double precision survive in `json`.
      return NUMBER.test(raw) && Number.isFinite(Number(raw)) ? { ok: true, value: Number(raw), json: raw } : { ok: false };
    case 'boolean':
      if (raw === 'true' || raw === 'True') return { ok: true, value: true, json: 'true' };
      if (raw === 'false' || raw === 'False') return { ok: true, value: false, json: 'false' };
      return { ok: false };
    case 'object':
    case 'array': {
      const p = parseJsonValue(raw);
      if (!p.ok) return { ok: false };
      const fits = type === 'object' ? isObject(p.value) : Array.isArray(p.value);
      return fits ? { ok: true, value: p.value, json: raw } : { ok: false };
    }
  }
}

/** Order in which union members are tried; `string` last so a typed reading wins only when exact. */
const TRY_ORDER: readonly JsonType[] = ['null', 'integer', 'number', 'boolean', 'object', 'array', 'string'];

/**
 * Types one untyped parameter value.
 *
 * @param raw the value text exactly as the markup gave it (after the family's framing newlines).
 * @param toolSchema the advertised tool's parameters schema, if the capture recorded it.
 * @param key the parameter name.
 * @returns the typed value and its JSON text (`json`: the value text itself for numbers, objects
 *   and arrays, so no digit is lost to a double; `JSON.stringify` of the text for strings;
 *   `true`/`false`/`null` for those), or an error naming the expected types.
 */
export function typeParameter(
  raw: string,
  toolSchema: JsonSchema | undefined,
  key: string,
): Typed | { ok: false; error: string } {
  const props = toolSchema && isObject(toolSchema['properties']) ? toolSchema['properties'] : undefined;
  const prop = props && Object.prototype.hasOwnProperty.call(props, key) ? props[key] : undefined;
  const types = typesOf(prop);
  if (types.size === 0) return asType(raw, 'string') as Typed;
  // A string-typed parameter keeps its text, unless it is exactly `null` and null is allowed.
  if (types.has('string') && !(types.has('null') && raw === 'null')) return asType(raw, 'string') as Typed;
  for (const t of TRY_ORDER) {
    if (!types.has(t)) continue;
    const r = asType(raw, t);
    if (r.ok) return r;
  }
  return { ok: false, error: `parameter "${key}" is not a valid ${[...types].join(' | ')}` };
}
