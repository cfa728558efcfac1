/**
 * Reading tool-call arguments that did not parse as JSON (RFC 8259): a stream cut mid-call, or a
 * recovered call whose JSON ends early. ThinkWatch matches its regexes on such JSON text
 * (ThinkWatch-Core `crates/tw-guard/src/tools/wall.rs`,
 * https://github.com/ThinkWatchProject/ThinkWatch-Core/blob/3c03de00f3c51505a9347e11a12884aaf8b8d00e/crates/tw-guard/src/tools/wall.rs)
 * and misses payloads whose `"` became `\"` or whose newline became `\n` (measured for guard:
 * docs/sources.md "ThinkWatch's JSON surface"); guard decodes first, so the inspected value is what
 * the tool would have run.
 */

/** Longest argument text repaired, in UTF-16 code units (longer text goes to the raw fallback). */
const MAX_SALVAGE = 1024 * 1024;

/**
 * Completes JSON that ends early and parses it: closes an open string (dropping a cut escape),
 * supplies a missing value after a trailing key or colon, drops a trailing comma, and closes open
 * objects and arrays. Text that is not a truncated JSON object (garbage in the middle, an array
 * or scalar at the top) gives null.
 *
 * @param text argument text as captured.
 * @returns the decoded object, or null when it cannot be completed into a JSON object.
 */
export function salvageJsonObject(text: string): Record<string, unknown> | null {
  if (text.length > MAX_SALVAGE || !/^\s*\{/.test(text)) return null;
  let inString = false;
  let escaped = false;
  const open: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') open.push(c);
    else if (c === '}' || c === ']') {
      if (open.pop() !== (c === '}' ? '{' : '[')) return null;
      if (open.length === 0 && text.slice(i + 1).trim() !== '') return null;
    }
  }
  let body = text;
  if (inString) {
    if (escaped) body = body.slice(0, -1);
    body = body.replace(/\\u[0-9a-fA-F]{0,3}$/, '') + '"';
  }
  const closers = open
    .reverse()
    .map((c) => (c === '{' ? '}' : ']'))
    .join('');
  const trimmed = body.replace(/[\s,]+$/, '');
  for (const candidate of [body, trimmed, `${trimmed}:null`, `${trimmed} null`]) {
    try {
      const v: unknown = JSON.parse(candidate + closers);
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // try the next completion
    }
  }
  return null;
}

/**
 * Decodes the JSON string escapes of raw argument text (`\"`, `\\`, `\n`, `\t`, `\r`, `\/`,
 * `\uXXXX`), so the raw fallback sees a command as the tool would receive it. Other text is
 * left as it is.
 *
 * @param text raw argument text.
 * @returns the text with escapes decoded.
 */
export function unescapeJsonText(text: string): string {
  return text.replace(/\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g, (_, hex: string | undefined, ch: string | undefined) => {
    if (hex) return String.fromCharCode(parseInt(hex, 16));
    return { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }[ch as '"'];
  });
}
