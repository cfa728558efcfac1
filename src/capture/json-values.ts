/**
 * Splits a JSON document fed line by line into its records without parsing the whole document:
 * each top-level value is one record, and a top-level array yields one record per element. Only
 * one record's text is held at a time (capped), so a large array of records is read in bounded
 * memory. The scanner tracks strings, escapes and bracket depth (RFC 8259 grammar); each record's
 * text is then checked by `JSON.parse`.
 */

/** What the splitter found. */
export type SplitEvent =
  /** A complete value: its text, the 1-based line where it starts, and whether any of its lines was
   * flagged (invalid UTF-8) so it must not be read. */
  | { kind: 'value'; text: string; line: number; tainted: boolean }
  /** A value longer than the cap; it was skipped. `bytes` = its size in bytes. */
  | { kind: 'too-large'; line: number; bytes: number }
  /** Text that is not JSON at this point of the document (the rest of that line is skipped). */
  | { kind: 'error'; line: number; message: string };

const WHITESPACE = new Set([' ', '\t', '\r', '\n', '\uFEFF']);
const SCALAR_START = /[-0-9tfn]/;

/**
 * Incremental splitter. Call {@link JsonValueSplitter.feed} with each line's text in order, then
 * {@link JsonValueSplitter.end}.
 */
export class JsonValueSplitter {
  /** Bracket depth, counting the top-level array when inside one. */
  private depth = 0;
  /** Inside a top-level array: its elements are the records. */
  private inTopArray = false;
  private topArrayLine = 0;
  private collecting = false;
  /** The value being collected is a bare number/literal (ends at a delimiter). */
  private bareScalar = false;
  private inString = false;
  private escaped = false;
  private parts: string[] = [];
  private bytes = 0;
  private startLine = 0;
  private tainted = false;
  private overflow = false;

  /** @param maxValueBytes the largest value kept, in bytes; a larger one is reported `too-large`. */
  constructor(private readonly maxValueBytes: number) {}

  /** The nesting level at which records start (1 inside a top-level array, else 0). */
  private get base(): number {
    return this.inTopArray ? 1 : 0;
  }

  /**
   * Feeds one line (without its terminator).
   *
   * @param tainted the line was read with replacement characters (invalid UTF-8): the record
   *   holding it is reported `tainted` and must not be judged.
   */
  feed(text: string, line: number, tainted = false): SplitEvent[] {
    const events: SplitEvent[] = [];
    if (this.collecting && tainted) this.tainted = true;
    let segStart = this.collecting ? 0 : -1;
    let i = 0;
    const complete = (end: number): void => {
      this.append(text.slice(segStart, end));
      events.push(this.overflow ? { kind: 'too-large', line: this.startLine, bytes: this.bytes } : { kind: 'value', text: this.parts.join(''), line: this.startLine, tainted: this.tainted });
      this.collecting = false;
      this.bareScalar = false;
      this.parts = [];
      this.bytes = 0;
      this.overflow = false;
      segStart = -1;
    };
    const start = (at: number): void => {
      this.collecting = true;
      this.startLine = line;
      this.tainted = tainted;
      segStart = at;
    };
    while (i < text.length) {
      const c = text[i]!;
      if (this.collecting) {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (c === '\\') this.escaped = true;
          else if (c === '"') {
            this.inString = false;
            if (this.depth === this.base) {
              complete(i + 1);
              i++;
              continue;
            }
          }
          i++;
          continue;
        }
        if (this.bareScalar) {
          if (WHITESPACE.has(c) || c === ',' || c === ']' || c === '}') {
            complete(i);
            continue; // re-read the delimiter between values
          }
          i++;
          continue;
        }
        if (c === '"') this.inString = true;
        else if (c === '{' || c === '[') this.depth++;
        else if (c === '}' || c === ']') {
          this.depth--;
          if (this.depth === this.base) {
            complete(i + 1);
            i++;
            continue;
          }
        }
        i++;
        continue;
      }
      // between values
      if (WHITESPACE.has(c) || (this.inTopArray && c === ',')) {
        i++;
        continue;
      }
      if (this.inTopArray && c === ']') {
        this.inTopArray = false;
        this.depth = 0;
        i++;
        continue;
      }
      if (!this.inTopArray && c === '[') {
        this.inTopArray = true;
        this.topArrayLine = line;
        this.depth = 1;
        i++;
        continue;
      }
      if (c === '{' || c === '[') {
        start(i);
        this.depth++;
      } else if (c === '"') {
        start(i);
        this.inString = true;
      } else if (SCALAR_START.test(c)) {
        start(i);
        this.bareScalar = true;
      } else {
        events.push({ kind: 'error', line, message: `unexpected character ${JSON.stringify(c)} at column ${i + 1}` });
        return events; // skip the rest of the line
      }
      i++;
    }
    if (this.collecting) {
      if (this.bareScalar) complete(text.length);
      else this.append(`${text.slice(segStart)}\n`);
    }
    return events;
  }

  /** End of input: a value or array left open is reported (the document is cut short). */
  end(): SplitEvent[] {
    const events: SplitEvent[] = [];
    if (this.collecting) {
      events.push({ kind: 'error', line: this.startLine, message: 'the document ends inside the JSON value that starts here' });
    }
    if (this.inTopArray) {
      events.push({ kind: 'error', line: this.topArrayLine, message: 'the document ends before the closing ] of the array that starts here' });
    }
    return events;
  }

  private append(segment: string): void {
    if (segment === '') return;
    this.bytes += Buffer.byteLength(segment);
    if (this.overflow) return;
    if (this.bytes > this.maxValueBytes) {
      this.overflow = true;
      this.parts = [];
      return;
    }
    this.parts.push(segment);
  }
}
