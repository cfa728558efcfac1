/**
 * Deterministic ids for recovered calls (issue 3, point 6).
 */

import { hexDigest } from '../base/digest.js';
import { canonicalJson } from '../base/json.js';

/**
 * `guard_` + the first 16 hex digits of SHA-256 (UTF-8) over the JSON array
 * `[idSeed, index, name, canonicalJson(arguments)]`.
 *
 * Occurrence is `idSeed` (the reply's place in its transcript) plus `index` (the call's place in the
 * reply), so the same unchanged reply always yields byte-identical ids, and identical calls, in one
 * reply or in two replies of one session, get different ids.
 *
 * @param idSeed the reply's occurrence, e.g. `${line}:${reply id}`; '' when none.
 * @param index the call's 0-based position in the reply.
 * @param name the tool name exactly as recovered.
 * @param args the recovered arguments object; null for a candidate of a refused reply whose
 *   arguments did not parse, whose id then hashes `[idSeed, index, name, null, argumentsRaw]`.
 * @param argumentsRaw the argument text, used only when `args` is null.
 * @throws RangeError when `args` nests deeper than MAX_ARGUMENT_DEPTH ({@link canonicalJson});
 *   the engine only passes checked arguments.
 */
export function recoveredCallId(idSeed: string, index: number, name: string, args: Record<string, unknown> | null, argumentsRaw = ''): string {
  const key = args === null ? [idSeed, index, name, null, argumentsRaw] : [idSeed, index, name, canonicalJson(args)];
  const digest = hexDigest('sha256', JSON.stringify(key));
  return `guard_${digest.slice(0, 16)}`;
}
