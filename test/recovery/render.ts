/**
 * Test helper: renders tool calls in each family's grammar. The renderings are the `renders`
 * templates of the family units (src/recovery/families/*.cases.yaml, ./units.ts), so a new family's
 * unit joins the property and adversarial tests by its data file alone. Not a test file itself.
 */

import type { AdvertisedTool, JsonSchema } from '../../src/capture/types.js';
import type { Call } from './render-types.js';
import { UNIT_GRAMMARS } from './units.js';

export type { Call, Grammar, Rendered } from './render-types.js';
export { rawValue } from './units.js';

/** Every grammar the engine reads, keyed by the rendering's name. */
export const GRAMMARS = UNIT_GRAMMARS;

/** The JSON Schema type of a value, for typing per-parameter families. */
function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isSafeInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Advertised tools for the calls, each with a schema whose property types match the values. */
export function advertisedFor(calls: Call[]): AdvertisedTool[] {
  const tools = new Map<string, JsonSchema>();
  for (const c of calls) {
    const props = (tools.get(c.name)?.['properties'] ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(c.args)) props[k] = { type: typeOf(v) };
    tools.set(c.name, { type: 'object', properties: props });
  }
  return [...tools].map(([name, schema]) => ({ name, schema }));
}
