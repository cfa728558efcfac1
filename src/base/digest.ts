/**
 * Hex digests of text, shared by the capture readers (Claude Code block keys), recovery (call
 * ids) and reports (finding fingerprints).
 */

import * as crypto from 'node:crypto';

/** The one-shot `crypto.hash` (Node >= 20.12 and 21.7): no Hash object per call; undefined before. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/**
 * The digest of `text` (encoded as UTF-8) in lowercase hex.
 *
 * @param algorithm a hash OpenSSL knows (`sha1`, `sha256`).
 * @returns the same hex as `createHash(algorithm).update(text).digest('hex')`.
 */
export function hexDigest(algorithm: 'sha1' | 'sha256', text: string): string {
  return oneShotHash ? oneShotHash(algorithm, text, 'hex') : crypto.createHash(algorithm).update(text).digest('hex');
}

let unhashable = 0;

/**
 * The SHA-1 of a JSON value's text, for telling repeats apart: two values with the same JSON get
 * the same digest. A value JSON.stringify cannot write (nested past the stack) gets a digest no
 * other value ever gets, so it is never taken for a repeat.
 *
 * @returns 40 hex digits, or `unhashable:N` (N unique in the process).
 */
export function jsonDigest(value: unknown): string {
  try {
    return hexDigest('sha1', JSON.stringify(value) ?? '');
  } catch {
    return `unhashable:${++unhashable}`;
  }
}
