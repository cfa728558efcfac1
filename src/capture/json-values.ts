/**
 * Splits a JSON document fed line by line into its records without parsing the whole document:
 * each top-level value is one record, and a top-level array yields one record per element. Only
 * one record's text is held at a time (capped), so a large array of records is read in bounded
 * memory. The scanner tracks strings, escapes and bracket depth (RFC 8259 grammar); each record's
 * text is then checked by `JSON.parse`.
 *
 * Envelope documents (an agent session `{"sessionId": …, "messages": [ … ]}`, a trajectory
 * `{"trajectory": [ … ], "history": [ … ], "info": …}`): when the splitter is given an
 * {@link EnvelopeSplit} and a member of a top-level object is an array that it claims (asked with
 * the member's key and the members before it), that array's elements are records of their own
 * (`envelope` names the claim, the key and the index), and the object itself is one more record
 * at its end with the array replaced by `[]` (`envelope.key` null). So a session of any length is
 * read one message at a time. The key must be on the line of the array's `[` (as every pretty
 * printer writes it); an array not claimed stays inside its object's record.
 */

/** Where an envelope document's record came from: the claim's tag, the member key (null for the
 * envelope object itself) and the element's 0-based index. */
export interface EnvelopePlace {
  tag: string;
  key: string | null;
  index: number;
}

/**
 * Decides whether the array member `key` of a top-level object is split into records: `head()`
 * gives the object's members before it (parsed, with `key` itself as `[]`; null when they do not
 * parse), computed only when asked. Returns a tag naming the claim (a format name), or null to
 * keep the array inside its object.
 */
export type EnvelopeSplit = (key: string, head: () => Record<string, unknown> | null) => string | null;

/** How far back from a `[` the key of its member is looked for (a key is short). */
const KEY_LOOKBACK = 4096;

/** What the splitter found. */
export type SplitEvent =
  /** A complete value: its text, the 1-based line where it starts, and whether any of its lines was
   * flagged (invalid UTF-8) so it must not be read; `envelope` when it is part of a split envelope. */
  | { kind: 'value'; text: string; line: number; tainted: boolean; envelope?: EnvelopePlace }
  /** A value longer than the cap; it was skipped. `bytes` = its size in bytes. */
  | { kind: 'too-large'; line: number; bytes: number }
  /** Text that is not JSON at this point of the document (the rest of that line is skipped). */
  | { kind: 'error'; line: number; message: string };

const WHITESPACE = new Set([' ', '\t', '\r', '\n', '\uFEFF']);
const SCALAR_START = /[-0-9tfn]/;
/** A member key and its colon at the end of a line's text before a `[`. */
const KEY_BEFORE = /"((?:[^"\\]|\\.)*)"\s*:\s*$/;

/** The top-level object whose array member is being split: its text so far is held apart. */
interface OpenSplit {
  tag: string;
  key: string;
  /** Index of the next element. */
  index: number;
  /** 1-based line of the array's `[`. */
  line: number;
  headParts: string[];
  headBytes: number;
  headLine: number;
  headTainted: boolean;
}

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
  /** The array member being split into records, with its object's text so far. */
  private split: OpenSplit | null = null;
  /** The claim of the top-level object being collected after one of its arrays was split. */
  private headTag: string | null = null;

  /**
   * @param maxValueBytes the largest value kept, in bytes; a larger one is reported `too-large`.
   * @param envelope which array members of a top-level object are split into records (none when
   *   absent).
   */
  constructor(
    private readonly maxValueBytes: number,
    private readonly envelope?: EnvelopeSplit,
  ) {}

  /** The nesting level at which records start (2 in a split array, 1 inside a top-level array, else 0). */
  private get base(): number {
    return this.split ? 2 : this.inTopArray ? 1 : 0;
  }

  /**
   * At a `[` at depth 1 of a top-level object (column `at` of `text`): the split to open when the
   * envelope claims the array, else null.
   */
  private claim(text: string, at: number, segStart: number, line: number): OpenSplit | null {
    if (!this.envelope || this.inTopArray || this.overflow) return null;
    const key = KEY_BEFORE.exec(text.slice(Math.max(segStart, at - KEY_LOOKBACK), at));
    if (!key) return null;
    let name: string;
    try {
      name = JSON.parse(`"${key[1]!}"`) as string;
    } catch {
      return null;
    }
    const prefix = (): string => this.parts.join('') + text.slice(segStart, at);
    const head = (): Record<string, unknown> | null => {
      try {
        const v: unknown = JSON.parse(`${prefix()}[]}`);
        return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
      } catch {
        return null;
      }
    };
    const tag = this.envelope(name, head);
    if (tag === null) return null;
    const headText = `${prefix()}[]`;
    return { tag, key: name, index: 0, line, headParts: [headText], headBytes: Buffer.byteLength(headText), headLine: this.startLine, headTainted: this.tainted };
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
    if (this.split && tainted) this.split.headTainted = true;
    let segStart = this.collecting ? 0 : -1;
    let i = 0;
    const complete = (end: number): void => {
      this.append(text.slice(segStart, end));
      let envelope: EnvelopePlace | undefined;
      if (this.split) envelope = { tag: this.split.tag, key: this.split.key, index: this.split.index++ };
      else if (this.headTag !== null) {
        envelope = { tag: this.headTag, key: null, index: -1 };
        this.headTag = null;
      }
      const value: SplitEvent = { kind: 'value', text: this.parts.join(''), line: this.startLine, tainted: this.tainted };
      if (envelope) value.envelope = envelope;
      events.push(this.overflow ? { kind: 'too-large', line: this.startLine, bytes: this.bytes } : value);
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
        else if (c === '[' && this.depth === 1 && !this.split) {
          const split = this.claim(text, i, segStart, line);
          if (split) {
            // the object's text so far is held apart; its elements are the records from here
            this.split = split;
            this.collecting = false;
            this.parts = [];
            this.bytes = 0;
            this.depth = 2;
            segStart = -1;
            i++;
            continue;
          }
          this.depth++;
        } else if (c === '{' || c === '[') this.depth++;
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
      if (this.split && c === ']') {
        // the split array ends: the rest of its object is collected as before
        const split = this.split;
        this.split = null;
        this.collecting = true;
        this.parts = split.headParts;
        this.bytes = split.headBytes;
        this.startLine = split.headLine;
        this.tainted = split.headTainted;
        this.overflow = false;
        this.headTag = split.tag;
        this.depth = 1;
        segStart = i + 1;
        i++;
        continue;
      }
      if (WHITESPACE.has(c) || ((this.inTopArray || this.split) && c === ',')) {
        i++;
        continue;
      }
      if (this.inTopArray && c === ']') {
        this.inTopArray = false;
        this.depth = 0;
        i++;
        continue;
      }
      if (!this.inTopArray && !this.split && c === '[') {
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
    if (this.split) {
      events.push({ kind: 'error', line: this.split.line, message: `the document ends inside the array "${this.split.key}" that starts here (its elements before the cut were read)` });
      events.push({ kind: 'error', line: this.split.headLine, message: 'the document ends inside the JSON value that starts here' });
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
