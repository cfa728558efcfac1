/**
 * Deterministic ids for recovered calls.
 */

import { createHash } from 'node:crypto';

/**
 * `guard_` + the first 16 hex digits of SHA-256 over the JSON array
 * `[idSeed, index, name, argumentsRaw]`. The same reply (same seed) always yields the same ids, and
 * two identical calls in one reply differ by their 0-based index.
 *
 * @param idSeed the caller's seed (e.g. `file:line`); '' when none.
 * @param index the call's 0-based position in the reply.
 */
export function recoveredCallId(idSeed: string, index: number, name: string, argumentsRaw: string): string {
  const digest = createHash('sha256').update(JSON.stringify([idSeed, index, name, argumentsRaw]), 'utf8').digest('hex');
  return `guard_${digest.slice(0, 16)}`;
}
