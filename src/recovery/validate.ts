/**
 * Recovered arguments against the advertised tool's JSON Schema (the `parameters` of an OpenAI
 * function, Anthropic `input_schema`), with Ajv (https://ajv.js.org; JSON Schema draft-07, the
 * dialect tool schemas are written in). Never coerced, never repaired: Ajv runs with type
 * coercion, defaults and property removal off, so validation cannot change the arguments. A schema
 * Ajv cannot compile (a remote `$ref`, a malformed keyword) is not checked: the capture's schema is
 * not guard's to judge. Ajv is loaded on first use, so a scan that recovers nothing never pays for it.
 */

import { createRequire } from 'node:module';
import type { JsonSchema } from '../capture/types.js';

type Validate = ((data: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string; params?: Record<string, unknown> }> | null };

/** Compiled validators by the schema's JSON text; null for a schema that does not compile. */
const compiled = new Map<string, Validate | null>();
/** Most validators kept (the map is emptied when full). */
const MAX_COMPILED = 256;

let ajv: { compile(schema: unknown): Validate } | null = null;

function compiler(): { compile(schema: unknown): Validate } {
  if (ajv === null) {
    const require = createRequire(import.meta.url);
    const { default: Ajv } = require('ajv') as { default: new (o: Record<string, unknown>) => { compile(schema: unknown): Validate } };
    ajv = new Ajv({ strict: false, allErrors: false, coerceTypes: false, useDefaults: false, removeAdditional: false, validateFormats: false, logger: false });
  }
  return ajv;
}

function validatorOf(schema: JsonSchema): Validate | null {
  let key: string;
  try {
    key = JSON.stringify(schema);
  } catch {
    return null;
  }
  const hit = compiled.get(key);
  if (hit !== undefined) return hit;
  let v: Validate | null;
  try {
    v = compiler().compile(schema);
  } catch {
    v = null;
  }
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(key, v);
  return v;
}

/**
 * Why the arguments do not fit the schema, or null when they fit (or there is no schema to check).
 *
 * @param args the recovered arguments, exactly as read.
 * @param schema the advertised tool's parameters schema, when the capture recorded it.
 * @returns one short sentence naming the first failing location (`/city: must be string`).
 */
export function schemaMismatch(args: Record<string, unknown>, schema: JsonSchema | undefined): string | null {
  if (schema === undefined || schema === null || typeof schema !== 'object' || Object.keys(schema).length === 0) return null;
  const validate = validatorOf(schema);
  if (validate === null) return null;
  let ok: boolean;
  try {
    ok = validate(args);
  } catch {
    return null;
  }
  if (ok) return null;
  const e = validate.errors?.[0];
  if (!e) return 'the arguments fail the schema';
  const extra = e.params && typeof e.params['additionalProperty'] === 'string' ? ` (${JSON.stringify(e.params['additionalProperty'])})` : '';
  return `${e.instancePath || '/'}: ${e.message ?? 'fails the schema'}${extra}`;
}
