/**
 * Test helper: the family units. Each family module src/recovery/families/<id>.ts has its data
 * beside it, <id>.cases.yaml: how its grammar renders calls (`renders`, templates turned here into
 * the {@link Grammar}s the property tests use) and its cases. Not a test file itself.
 *
 * A render template (`call`, `wrap`, `param`) holds placeholders: `{name}` the tool name, `{name_json}`
 * it as a JSON string, `{args}` the arguments as compact JSON, `{index}` the call's 0-based index,
 * `{params}` the parameters (each rendered with `param` and joined by `param_separator`), `{calls}` in
 * `wrap` the calls joined by `separator`; in `param`: `{key}`, `{raw}` (a string as it is, any other
 * value as JSON), `{json}` (the value as JSON), `{string}` (`true` for a string value, else `false`),
 * `{py}` (the value as a Python literal, as `repr` writes it: strings quoted, `True`/`False`/`None`,
 * lists and dicts of literals),
 * `{python}` (a string as it is, any other value as Python's `str()` writes it: `True`, `None`,
 * `['a', 1]`, `{'k': 1}`, as Jinja's `|string` renders it), `{gemma4}` / `{functiongemma}` (the value as
 * the Gemma 4 / FunctionGemma templates write it: strings between `<|"|>` / `<escape>`, object keys
 * bare, numbers, booleans and null as JSON), `{xtml_type}` (the Kimi K3 type name of the value:
 * `string`, `number`, `boolean`, `null`, `object`, `array`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import type { RecoveryCase } from './case-runner.js';
import type { Call, Grammar, Rendered } from './render-types.js';

/** One way a family's grammar renders calls. */
export interface RenderSpec {
  name: string;
  /** The family label the engine reports for this rendering. */
  label: string;
  values: 'json' | 'params';
  call: string;
  /** Between calls; null (absent with `max_calls: 1`) when the grammar has no multi-call form. */
  separator?: string | null;
  wrap?: string;
  param?: string;
  param_separator?: string;
  /** A trailing stop token the engines may or may not print (a cut inside it still completes). */
  optional_tail?: string;
  /** Tags of the dialect a raw parameter value may not hold (no reader can tell where it ends). */
  ambiguous?: string[];
  /** A regular expression (source) the raw parameter value may not match (same meaning as `ambiguous`). */
  ambiguous_pattern?: string;
  /** Substrings no string anywhere inside a value (object keys included) may hold: for encodings
   * that delimit strings with a token (Gemma 4's `<|"|>`). */
  ambiguous_strings?: string[];
  /** Substrings no object key inside a value may hold (bare keys, Gemma 4); an empty key or one with
   * surrounding whitespace is ambiguous too. */
  ambiguous_keys?: string[];
  /** The label the engine reports when no call has a parameter: the rendering then reads the same
   * in another family (TeleChat4's `<tool_call>NAME</tool_call>` is GLM's too), which keeps its label. */
  label_without_params?: string;
  max_calls?: number;
  /** Tool names and parameter names must be Python identifiers (not keywords): pythonic grammars. */
  identifiers?: boolean;
  /** The rendering has no marker: the call is its whole envelope (a bare pythonic list). */
  bare?: boolean;
}

/** One family unit's data file. */
export interface FamilyUnit {
  /** The family module id (`Family.id`). */
  family: string;
  renders: RenderSpec[];
  cases: RecoveryCase[];
  file: string;
}

export const FAMILIES_DIR = fileURLToPath(new URL('../../src/recovery/families/', import.meta.url));

/** Every family unit, by file name order. */
export const UNITS: readonly FamilyUnit[] = readdirSync(FAMILIES_DIR)
  .filter((f) => f.endsWith('.cases.yaml'))
  .sort()
  .map((file) => ({ ...(YAML.parse(readFileSync(FAMILIES_DIR + file, 'utf8')) as Omit<FamilyUnit, 'file'>), file }));

const fill = (template: string, values: Record<string, string>): string => template.replace(/\{([a-z_][a-z0-9_]*)\}/g, (m, k: string) => (k in values ? values[k]! : m));

/** A parameter value as the templates write it: strings raw, everything else JSON. */
export const rawValue = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** A string as Python's `repr` writes it (single quotes unless it holds one and no double quote). */
function pyString(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const c = s.charCodeAt(i);
    if (ch === '\\') out += '\\\\';
    else if (ch === q) out += '\\' + q;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      out += ch + s[i + 1];
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + q;
}

/** A value as Python's `str()` writes it (`repr` inside containers); with `top` false, as `repr`. */
export function pyValue(v: unknown, top = true): string {
  if (typeof v === 'string') return top ? v : pyString(v);
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x) => pyValue(x, false)).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${pyString(k)}: ${pyValue(x, false)}`).join(', ')}}`;
}

/** A value as a Python literal (`repr`). */
export const pyLiteral = (v: unknown): string => pyValue(v, false);

const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(' '),
);
/** True for a Python identifier that is not a keyword. */
export const isPythonIdentifier = (s: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !PY_KEYWORDS.has(s);

/** A value as the Gemma 4 (`<|"|>`) or FunctionGemma (`<escape>`) templates write it. */
export function gemmaValue(v: unknown, quote: string): string {
  if (typeof v === 'string') return quote + v + quote;
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x) => gemmaValue(x, quote)).join(',')}]`;
  return `{${Object.entries(v).map(([k, x]) => `${k}:${gemmaValue(x, quote)}`).join(',')}}`;
}

/** The Kimi K3 (XTML) type name of a value. */
const xtmlType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v);

/** True when some string inside `v` (keys included) holds one of `subs`, or, with `keys`, some
 * object key holds one of those or has surrounding whitespace. */
function deepAmbiguous(v: unknown, subs: readonly string[], keys: readonly string[] | undefined): boolean {
  if (typeof v === 'string') return subs.some((t) => v.includes(t));
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.some((x) => deepAmbiguous(x, subs, keys));
  return Object.entries(v).some(
    ([k, x]) => subs.some((t) => k.includes(t)) || (keys !== undefined && (k === '' || k !== k.trim() || keys.some((t) => k.includes(t)))) || deepAmbiguous(x, subs, keys),
  );
}

/** The Grammar of a render template. */
export function grammarOf(spec: RenderSpec): Grammar {
  return {
    label: spec.label,
    values: spec.values,
    render(calls: Call[]): Rendered | null {
      if (calls.length > (spec.max_calls ?? Infinity)) return null;
      if (calls.length > 1 && (spec.separator === undefined || spec.separator === null)) return null;
      const rendered = calls.map((c, index) => {
        const params = Object.entries(c.args)
          .map(([key, v]) =>
            fill(spec.param ?? '', {
              key,
              raw: rawValue(v),
              json: JSON.stringify(v),
              string: String(typeof v === 'string'),
              py: pyLiteral(v),
              python: pyValue(v),
              gemma4: gemmaValue(v, '<|"|>'),
              functiongemma: gemmaValue(v, '<escape>'),
              xtml_type: xtmlType(v),
            }),
          )
          .join(spec.param_separator ?? '');
        return fill(spec.call, { name: c.name, name_json: JSON.stringify(c.name), args: JSON.stringify(c.args), index: String(index), params });
      });
      const body = rendered.join(spec.separator ?? '');
      const text = spec.wrap === undefined ? body : fill(spec.wrap, { calls: body });
      const tail = spec.optional_tail;
      const label = spec.label_without_params !== undefined && calls.every((c) => Object.keys(c.args).length === 0) ? { label: spec.label_without_params } : {};
      return { text, requiredEnd: tail !== undefined && text.endsWith(tail) ? text.length - tail.length : text.length, ...label };
    },
    ...(spec.ambiguous || spec.ambiguous_pattern || spec.ambiguous_strings
      ? {
          ambiguous: (v: unknown) => {
            const raw = rawValue(v);
            if (spec.ambiguous?.some((t) => raw.includes(t))) return true;
            if (spec.ambiguous_pattern !== undefined && new RegExp(spec.ambiguous_pattern).test(raw)) return true;
            return spec.ambiguous_strings !== undefined && deepAmbiguous(v, spec.ambiguous_strings, spec.ambiguous_keys);
          },
        }
      : {}),
    ...(spec.identifiers ? { identifiers: isPythonIdentifier } : {}),
    ...(spec.bare ? { bare: true } : {}),
  };
}

/** Every rendering of every family unit, keyed by the rendering's name. */
export const UNIT_GRAMMARS: Record<string, Grammar> = Object.fromEntries(UNITS.flatMap((u) => u.renders.map((r) => [r.name, grammarOf(r)] as const)));

/** Every recovery case: each family unit's, then the engine-level ones of fixtures/recovery/cases.jsonl. */
export function allRecoveryCases(): RecoveryCase[] {
  const engine = readFileSync(new URL('../../fixtures/recovery/cases.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RecoveryCase);
  return [...UNITS.flatMap((u) => u.cases), ...engine];
}
