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
