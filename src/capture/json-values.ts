/**
 * Splits a JSON document fed line by line into its records without parsing the whole document:
 * each top-level value is one record, a top-level array yields one record per element, and so does
 * a known array of records inside a top-level object ({@link DESCENT_PATHS}: HAR `log.entries`). Only
 * one record's text is held at a time (capped), so a large array of records is read in bounded
 * memory. The scanner tracks strings, escapes and bracket depth (RFC 8259 grammar); each record's
 * text is then checked by `JSON.parse`.
 */

/** What the splitter found. */
export type SplitEvent =
  /** A complete value: its text, the 1-based line where it starts, and whether any of its lines was
   * flagged (invalid UTF-8) so it must not be read. `path` names the array of records it was taken
   * from inside a top-level object (`log.entries`), when it was. */
  | { kind: 'value'; text: string; line: number; tainted: boolean; path?: string }
  /** A value longer than the cap; it was skipped. `bytes` = its size in bytes. */
  | { kind: 'too-large'; line: number; bytes: number }
  /** Text that is not JSON at this point of the document (the rest of that line is skipped). */
  | { kind: 'error'; line: number; message: string };

const WHITESPACE = new Set([' ', '\t', '\r', '\n', '\uFEFF']);
const SCALAR_START = /[-0-9tfn]/;

/**
 * Arrays of records inside a top-level object, by their key path: their elements are the records
 * (HAR 1.2 `log.entries`, a Langfuse trace export's `observations`), so a document of any size is
 * read one element at a time; the object's other members are scanned, not kept.
 */
export const DESCENT_PATHS: readonly string[] = ['log.entries', 'observations'];

/** The deepest key path followed ({@link DESCENT_PATHS}). */
const MAX_PATH_DEPTH = 2;

/**
 * Incremental splitter. Call {@link JsonValueSplitter.feed} with each line's text in order, then
 * {@link JsonValueSplitter.end}.
 */
export class JsonValueSplitter {
  /** Bracket depth, counting the top-level array (or the records array descended into). */
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
  /** Inside an array of records of a top-level object: the depth of its elements' container, and its path. */
  private descended: { depth: number; path: string; line: number } | null = null;
  /** Scanning the rest of a top-level object whose records were taken (nothing is kept). */
  private skipping = false;
  /** Line where the top-level object being scanned began. */
  private outerLine = 0;
  /** While collecting a top-level object: the key at each object depth 1..MAX_PATH_DEPTH, whether that depth is an object, and whether a key comes next. */
  private readonly keys: string[] = [];
  private readonly objectAt: boolean[] = [];
  private expectKey = false;
  /** The key string being read: its text so far (null when the string is not a tracked key). */
  private key: string | null = null;

  /** @param maxValueBytes the largest value kept, in bytes; a larger one is reported `too-large`. */
  constructor(private readonly maxValueBytes: number) {}

  /** The nesting level at which records start (1 inside a top-level array, else 0). */
  private get base(): number {
    return this.descended ? this.descended.depth : this.inTopArray ? 1 : 0;
  }

  /** True while collecting a top-level object at a depth whose keys are followed. */
  private get tracking(): boolean {
    return this.collecting && !this.inTopArray && this.descended === null && this.depth <= MAX_PATH_DEPTH && this.objectAt[1] === true;
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
    let keyStart = this.key !== null ? 0 : -1;
    let i = 0;
    const complete = (end: number): void => {
      this.append(text.slice(segStart, end));
      const path = this.descended?.path;
      events.push(
        this.overflow
          ? { kind: 'too-large', line: this.startLine, bytes: this.bytes }
          : { kind: 'value', text: this.parts.join(''), line: this.startLine, tainted: this.tainted, ...(path !== undefined ? { path } : {}) },
      );
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
      if (!this.inTopArray && this.descended === null) {
        this.outerLine = line;
        this.objectAt.length = 0;
        this.keys.length = 0;
      }
    };
    while (i < text.length) {
      const c = text[i]!;
      if (this.collecting || this.skipping) {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (c === '\\') this.escaped = true;
          else if (c === '"') {
            this.inString = false;
            if (this.key !== null) {
              this.keys[this.depth] = this.key + text.slice(Math.max(keyStart, 0), i);
              this.key = null;
              keyStart = -1;
              this.expectKey = false;
            }
            if (this.collecting && this.depth === this.base) {
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
        if (c === '"') {
          this.inString = true;
          if (this.tracking && this.expectKey && this.depth >= 1) {
            this.key = '';
            keyStart = i + 1;
          }
        } else if (c === '{' || c === '[') {
          if (c === '[' && this.tracking && this.depth >= 1 && !this.expectKey && DESCENT_PATHS.includes(this.keys.slice(1, this.depth + 1).join('.'))) {
            // an array of records: its elements are read one by one; the object around it is not kept
            this.descended = { depth: this.depth + 1, path: this.keys.slice(1, this.depth + 1).join('.'), line };
            this.depth++;
            this.collecting = false;
            this.parts = [];
            this.bytes = 0;
            this.overflow = false;
            segStart = -1;
            i++;
            continue;
          }
          this.depth++;
          if (this.collecting && !this.inTopArray && this.descended === null && this.depth <= MAX_PATH_DEPTH) {
            this.objectAt[this.depth] = c === '{';
            this.expectKey = c === '{';
          }
        } else if (c === '}' || c === ']') {
          this.depth--;
          if (this.collecting && this.depth === this.base) {
            complete(i + 1);
            i++;
            continue;
          }
          if (this.skipping && this.depth === 0) this.skipping = false;
        } else if (c === ',' && this.collecting && !this.inTopArray && this.descended === null && this.depth >= 1 && this.depth <= MAX_PATH_DEPTH) {
          this.expectKey = this.objectAt[this.depth] === true;
        }
        i++;
        continue;
      }
      // between values (at the top level, or between the elements of an array of records)
      const inRecords = this.inTopArray || this.descended !== null;
      if (WHITESPACE.has(c) || (inRecords && c === ',')) {
        i++;
        continue;
      }
      if (this.descended !== null && c === ']') {
        // the array of records ends: the rest of the top-level object is scanned, not kept
        this.depth = this.descended.depth - 1;
        this.descended = null;
        this.skipping = this.depth > 0;
        i++;
        continue;
      }
      if (this.inTopArray && c === ']') {
        this.inTopArray = false;
        this.depth = 0;
        i++;
        continue;
      }
      if (!inRecords && c === '[') {
        this.inTopArray = true;
        this.topArrayLine = line;
        this.depth = 1;
        i++;
        continue;
      }
      if (c === '{' || c === '[') {
        start(i);
        this.depth++;
        if (!this.inTopArray && this.descended === null) {
          this.objectAt[1] = c === '{';
          this.expectKey = c === '{';
        }
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
    if (this.key !== null) this.key += text.slice(Math.max(keyStart, 0)) + '\n';
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
    if (this.descended !== null) {
      events.push({ kind: 'error', line: this.descended.line, message: `the document ends before the closing ] of ${this.descended.path}, which starts here` });
    } else if (this.skipping) {
      events.push({ kind: 'error', line: this.outerLine, message: 'the document ends inside the JSON value that starts here' });
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
