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
 * lists and dicts of literals).
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

const fill = (template: string, values: Record<string, string>): string => template.replace(/\{([a-z_]+)\}/g, (m, k: string) => (k in values ? values[k]! : m));

/** A parameter value as the templates write it: strings raw, everything else JSON. */
export const rawValue = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** A string as Python's `repr` writes it: single quotes unless it holds one, escapes as JSON's. */
function pyString(s: string): string {
  const json = JSON.stringify(s);
  if (s.includes("'")) return json;
  return `'${json.slice(1, -1).replace(/\\"/g, '"')}'`;
}

/** A value as a Python literal (`repr`). */
export function pyLiteral(v: unknown): string {
  if (typeof v === 'string') return pyString(v);
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(pyLiteral).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${pyString(k)}: ${pyLiteral(x)}`).join(', ')}}`;
}

const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(' '),
);
/** True for a Python identifier that is not a keyword. */
export const isPythonIdentifier = (s: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !PY_KEYWORDS.has(s);

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
          .map(([key, v]) => fill(spec.param ?? '', { key, raw: rawValue(v), json: JSON.stringify(v), string: String(typeof v === 'string'), py: pyLiteral(v) }))
          .join(spec.param_separator ?? '');
        return fill(spec.call, { name: c.name, name_json: JSON.stringify(c.name), args: JSON.stringify(c.args), index: String(index), params });
      });
      const body = rendered.join(spec.separator ?? '');
      const text = spec.wrap === undefined ? body : fill(spec.wrap, { calls: body });
      const tail = spec.optional_tail;
      return { text, requiredEnd: tail !== undefined && text.endsWith(tail) ? text.length - tail.length : text.length };
    },
    ...(spec.ambiguous ? { ambiguous: (raw: string) => spec.ambiguous!.some((t) => raw.includes(t)) } : {}),
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
