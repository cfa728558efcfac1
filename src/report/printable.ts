/**
 * Making captured text safe to print on a terminal. Tool names, call ids, excerpts and error
 * messages come from model output or from the capture: printed raw, an ESC or BEL could retitle
 * the terminal or erase the line that reports a finding, and a newline could fake a line of
 * output. Every captured string in human output goes through {@link printable}.
 */

import { redactSecrets } from '../base/redact.js';

// C0 controls except none, DEL, C1 controls, and the Unicode line/paragraph separators and
// bidirectional overrides that can reorder what the reader sees.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

/**
 * Replaces control and bidi-override characters with visible escapes (`\n`, `\r`, `\t`, `\e`,
 * `\u{hex}`), so the result prints on one line and cannot drive the terminal.
 *
 * @param s any string from a capture.
 * @returns the same text with unsafe characters escaped; printable text is unchanged.
 */
export function printable(s: string): string {
  return s.replace(UNSAFE, (ch) => NAMED[ch] ?? `\\u{${ch.codePointAt(0)!.toString(16)}}`);
}

/**
 * Captured text for a command that has no `--no-redact` (baseline, ceiling): secrets masked
 * (base/redact.ts), then {@link printable}.
 *
 * @param s any string from a capture.
 */
export function printableMasked(s: string): string {
  return printable(redactSecrets(s));
}

// what JSON.stringify leaves raw but a terminal may act on: DEL, C1 controls (U+009B is CSI), the
// line/paragraph separators and the bidirectional overrides
const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text safe to print on a terminal: `JSON.stringify` already escapes C0 controls; this
 * escapes the characters it leaves raw that a terminal may act on ({@link JSON_UNSAFE}) as `\uXXXX`.
 * The result is the same JSON value.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(JSON_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `1 reply`, `2 replies`. */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
