/**
 * JSON helpers for tool-call arguments, shared by every layer (capture readers and both engines):
 * the depth limit, a depth check safe on any nesting, and the client's reading of an arguments
 * string (RFC 8259 JSON; must be an object). Pure: no fs, no process.
 */

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Deepest nesting of objects and arrays accepted in tool-call arguments. Real arguments nest a
 * handful of levels; JSON.stringify and the recursive walks of later stages overflow the call
 * stack somewhere past a few thousand, so anything deeper than this is refused before it is
 * serialised or handed on.
 */
export const MAX_ARGUMENT_DEPTH = 512;

/** The `argumentsError` of a call whose arguments nest deeper than {@link MAX_ARGUMENT_DEPTH}. */
export const ARGUMENTS_TOO_DEEP = `arguments are nested deeper than ${MAX_ARGUMENT_DEPTH} levels; not read`;

/**
 * Whether a JSON value nests objects/arrays more than `limit` levels deep, measured without
 * recursion (an explicit stack), so it is safe on any depth. A scalar has depth 0, `{}` and `[]`
 * depth 1, `{"a":[1]}` depth 2. Stops at the first path deeper than `limit`; a cyclic value is
 * reported as too deep rather than looping.
 *
 * @param value a parsed JSON value (or any value: non-plain objects are walked by their own keys).
 * @param limit the deepest nesting allowed (levels, >= 0).
 * @returns true when some path is deeper than `limit`. Time O(values visited); memory O(width).
 */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  // a flat object or array (most tool-call arguments) has depth 1: no walk needed
  if (limit >= 1 && !hasObjectChild(value)) return false;
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > limit) return true;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) if (typeof c === 'object' && c !== null) stack.push({ v: c, depth: depth + 1 });
  }
  return false;
}

/** True when some child of `v` (an element, or an own enumerable property value) is an object or array. */
function hasObjectChild(v: object): boolean {
  const children = Array.isArray(v) ? v : Object.values(v);
  for (const c of children) if (typeof c === 'object' && c !== null) return true;
  return false;
}

/**
 * Parses an arguments string the way a client would: JSON, and it must be an object.
 *
 * @param raw the argument text exactly as captured.
 * @returns the object, or the reason it is not one. An empty string is an error (the capture
 *   carried no arguments at all); callers that follow the Anthropic rule "empty buffer is `{}`"
 *   pass '{}' themselves. Arguments nested deeper than {@link MAX_ARGUMENT_DEPTH} levels are
 *   refused with {@link ARGUMENTS_TOO_DEEP}.
 */
export function parseArguments(raw: string): { value: Record<string, unknown> | null; error: string | null } {
  if (raw.trim() === '') return { value: null, error: 'arguments are empty' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    return { value: null, error: `arguments are not valid JSON: ${(e as Error).message}` };
  }
  if (jsonDepthExceeds(parsed, MAX_ARGUMENT_DEPTH)) return { value: null, error: ARGUMENTS_TOO_DEEP };
  if (!isPlainObject(parsed)) {
    const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`;
    return { value: null, error: `arguments are ${kind}, not a JSON object` };
  }
  return { value: parsed, error: null };
}

/**
 * Canonical JSON of a parsed value: object keys sorted by code unit, no whitespace, numbers and
 * strings as `JSON.stringify` writes them. Two argument objects that are equal as JSON values have
 * the same canonical text, however the markup spaced or ordered them.
 *
 * @param value a value produced by `JSON.parse` or the parameter typing (no undefined), nesting at
 *   most MAX_ARGUMENT_DEPTH levels (recovered and captured arguments are checked when read).
 * @throws RangeError when the value nests deeper (or is cyclic): checked first, without recursion,
 *   so the recursion below is bounded by MAX_ARGUMENT_DEPTH.
 */
export function canonicalJson(value: unknown): string {
  if (jsonDepthExceeds(value, MAX_ARGUMENT_DEPTH)) throw new RangeError(ARGUMENTS_TOO_DEEP);
  return canonical(value);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A UTF-16 surrogate with no partner: `\ud800` in JSON text decodes to one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether any string of a value (object keys included) holds a lone surrogate, walked without
 * recursion and at most {@link MAX_ARGUMENT_DEPTH} levels deep.
 *
 * @param value any value (parsed JSON, a reply's fields).
 * @returns true at the first string that is not well-formed UTF-16.
 */
export function hasLoneSurrogate(value: unknown): boolean {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) return true;
      continue;
    }
    if (typeof v !== 'object' || v === null || depth >= MAX_ARGUMENT_DEPTH) continue;
    for (const [k, x] of Object.entries(v)) {
      if (LONE_SURROGATE.test(k)) return true;
      stack.push({ v: x, depth: depth + 1 });
    }
  }
  return false;
}

/** An escaped lone surrogate in JSON text: its backslash run (odd: the last one starts the escape). */
const ESCAPED_SURROGATE = /(\\+)u(d[89a-f][0-9a-f]{2})/g;

/**
 * `JSON.stringify` whose output is always well-formed UTF-8 JSON: a lone surrogate (which
 * `JSON.stringify` writes as a `\udXXX` escape, RFC 8259 §8.2 "unpaired surrogates", rejected by
 * jq 1.6 and by strict UTF-8 decoders) is written as U+FFFD instead. Paired surrogates are written
 * as characters by `JSON.stringify`, so every `\ud800`-`\udfff` escape in its output is a lone one.
 *
 * @param value what to serialise.
 * @param space indentation, as `JSON.stringify`'s third argument.
 * @returns the JSON text (undefined for undefined, like `JSON.stringify`).
 */
export function wellFormedJson(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space);
  if (text === undefined || !text.includes('\\ud')) return text;
  return text.replace(ESCAPED_SURROGATE, (m, slashes: string) => (slashes.length % 2 === 1 ? `${slashes.slice(1)}\ufffd` : m));
}

/**
 * The message of a `JSON.parse` error without the excerpt of the input V8 puts in it
 * (`Unexpected token 'g', "ghp_a1B2c3"... is not valid JSON`): ten characters of a capture line
 * can be the head of a secret that no redaction rule recognises cut short, so problem messages
 * name the position and the token, never the text.
 *
 * @param e what `JSON.parse` threw.
 * @returns its message, the quoted excerpt removed (`Unexpected token 'g' … is not valid JSON`).
 */
export function jsonErrorMessage(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.replace(/, ".*"(?:\.\.\.)? is not valid JSON$/s, ' (the text is not valid JSON)');
}

/**
 * Names keys taken from a capture in a message: each JSON-quoted and cut to 40 characters, at
 * most `max` of them, then how many more.
 *
 * @param keys the key names, in the order to show.
 * @param max how many to name (default 5).
 * @returns e.g. `"input", "extra" and 2 more`; '' for no keys.
 */
export function quotedKeys(keys: readonly string[], max = 5): string {
  const shown = keys.slice(0, max).map((k) => JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}…` : k));
  return keys.length > max ? `${shown.join(', ')} and ${keys.length - max} more` : shown.join(', ');
}
