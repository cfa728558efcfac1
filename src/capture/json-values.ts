/**
 * Splits a JSON document fed line by line into its records without parsing the whole document:
 * each top-level value is one record, and a top-level array yields one record per element. Only
 * one record's text is held at a time (capped), so a large array of records is read in bounded
 * memory. The scanner tracks strings, escapes and bracket depth (RFC 8259 grammar); each record's
 * text is then checked by `JSON.parse`.
 *
 * Envelope documents: a top-level object that holds its records in an array member (an agent
 * session `{"sessionId": …, "messages": [ … ]}`, a trajectory `{"trajectory": [ … ], "history":
 * [ … ], "info": …}`, a HAR's `{"log": {"entries": [ … ]}}`, a Langfuse export's `observations`).
 * When the splitter is given an {@link EnvelopeSplit}, it follows the member keys of a top-level
 * object down to {@link MAX_ENVELOPE_DEPTH} objects deep and asks it about each array it meets
 * (its key path, `log.entries`, and the members written before it). An array it claims is read
 * one element at a time: each element is a record of its own (`envelope` names the claim, the
 * key path and the index). What becomes of the object around the array is the claim's `rest`:
 * - `record`: the object is one more record at its end, with each split array replaced by `[]`
 *   (`envelope.key` null), for a reader that needs the envelope's other members (a session's
 *   metadata, a trajectory's `info`); several arrays of one object may be split.
 * - `skip`: the rest of the object is scanned, not kept (a HAR's `log.version`, `creator`, `pages`),
 *   so it costs no memory whatever its size.
 * An array not claimed stays inside its object's record.
 */

/** Where a record of an envelope document came from: the claim's tag (a format name), the key
 * path of the split array (null for the envelope object itself) and the element's 0-based index
 * (-1 for the envelope object). */
export interface EnvelopePlace {
  tag: string;
  key: string | null;
  index: number;
}

/** A claim on an array member of a top-level object: who reads its elements, and what becomes of the object around it. */
export interface EnvelopeClaim {
  /** Names the claim (a format name); copied into every {@link EnvelopePlace}. */
  tag: string;
  /** `record`: the object, with the array as `[]`, is a record at its end; `skip`: it is scanned, not kept. */
  rest: 'record' | 'skip';
}

/**
 * Decides whether the array at key path `path` (member keys joined by `.`: `messages`,
 * `log.entries`) of a top-level object is split into records: `head()` gives the object as
 * written before the array (parsed, with the array itself as `[]`; null when that text was over
 * the cap or does not parse), computed only when asked. Returns the claim, or null to keep the
 * array inside its object. (With a `record` claim on an object already over the cap, its elements
 * are still read; the object is then reported `too-large`.)
 */
export type EnvelopeSplit = (path: string, head: () => Record<string, unknown> | null) => EnvelopeClaim | null;

/** The deepest key path followed: arrays at most this many objects deep are offered to the {@link EnvelopeSplit}. */
export const MAX_ENVELOPE_DEPTH = 2;

/** The longest member key followed (a longer one names no envelope array). */
const MAX_KEY_CHARS = 256;

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

/** The top-level object kept apart while one of its arrays is split (`rest: record`): its text so far. */
interface HeldObject {
  parts: string[];
  bytes: number;
  /** Its text was over the cap: it is reported `too-large` at its end. */
  overflow: boolean;
  line: number;
  tainted: boolean;
}

/** The array of a top-level object being split into records. */
interface OpenSplit {
  tag: string;
  path: string;
  /** The depth of its elements' container (the depth at which its records start). */
  depth: number;
  /** Index of the next element. */
  index: number;
  /** 1-based line of the array's `[`. */
  line: number;
  /** 1-based line where the top-level object starts. */
  objectLine: number;
  /** `rest: record`: the object's text so far, with the array as `[]`; null for `rest: skip`. */
  held: HeldObject | null;
}

/**
 * Incremental splitter. Call {@link JsonValueSplitter.feed} with each line's text in order, then
 * {@link JsonValueSplitter.end}.
 */
export class JsonValueSplitter {
  /** Bracket depth, counting the top-level array (or the array being split). */
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
  /** The array member of a top-level object being split into records. */
  private split: OpenSplit | null = null;
  /** Scanning the rest of a top-level object after its array was split (`rest: skip`; nothing is kept): the line where the object starts. */
  private skipping: number | null = null;
  /** The claim of the top-level object being collected after one of its arrays was split (`rest: record`). */
  private heldTag: string | null = null;
  /** While collecting a top-level object: the member key at each object depth 1..MAX_ENVELOPE_DEPTH (null: none yet), whether that depth is an object, and whether a key comes next. */
  private readonly keys: Array<string | null> = [];
  private readonly objectAt: boolean[] = [];
  private expectKey = false;
  /** The member key being read: its raw text so far (null when the string is not a followed key). */
  private key: string | null = null;

  /**
   * @param maxValueBytes the largest value kept, in bytes; a larger one is reported `too-large`.
   * @param envelope which arrays of a top-level object are split into records (none when absent).
   */
  constructor(
    private readonly maxValueBytes: number,
    private readonly envelope?: EnvelopeSplit,
  ) {}

  /** The nesting level at which records start (inside a split array its elements', 1 inside a top-level array, else 0). */
  private get base(): number {
    return this.split ? this.split.depth : this.inTopArray ? 1 : 0;
  }

  /** True while collecting a top-level object at a depth whose member keys are followed. */
  private get tracking(): boolean {
    return this.envelope !== undefined && this.collecting && !this.inTopArray && this.split === null && this.depth <= MAX_ENVELOPE_DEPTH && this.objectAt[1] === true;
  }

  /** The key path of the member whose value starts at the current depth, or null when a level is not an object member. */
  private keyPath(): string | null {
    const path: string[] = [];
    for (let d = 1; d <= this.depth; d++) {
      const k = this.keys[d];
      if (this.objectAt[d] !== true || k === null || k === undefined) return null;
      path.push(k);
    }
    return path.join('.');
  }

  /**
   * At a `[` that starts the value of a member of a top-level object (column `at` of `text`, the
   * object's text of this line starting at `segStart`): the split to open when the envelope
   * claims the array, else null.
   */
  private claim(text: string, at: number, segStart: number, line: number): OpenSplit | null {
    const path = this.keyPath();
    if (path === null) return null;
    const prefix = (): string => this.parts.join('') + text.slice(segStart, at);
    let over: boolean | undefined;
    const overCap = (): boolean => (over ??= this.overflow || this.bytes + Buffer.byteLength(text.slice(segStart, at)) > this.maxValueBytes);
    let head: Record<string, unknown> | null | undefined;
    const headOf = (): Record<string, unknown> | null => {
      if (head !== undefined) return head;
      head = null;
      if (overCap()) return head;
      try {
        const v: unknown = JSON.parse(`${prefix()}[]${'}'.repeat(this.depth)}`);
        if (typeof v === 'object' && v !== null && !Array.isArray(v)) head = v as Record<string, unknown>;
      } catch {
        // not a readable object so far
      }
      return head;
    };
    const claim = this.envelope!(path, headOf);
    if (claim === null) return null;
    let held: HeldObject | null = null;
    if (claim.rest === 'record') {
      // an object already over the cap is not held: its elements are read, then it is reported too large
      const kept = overCap() ? null : `${prefix()}[]`;
      held = kept === null
        ? { parts: [], bytes: this.bytes + Buffer.byteLength(text.slice(segStart, at)) + 2, overflow: true, line: this.startLine, tainted: this.tainted }
        : { parts: [kept], bytes: Buffer.byteLength(kept), overflow: false, line: this.startLine, tainted: this.tainted };
    }
    return { tag: claim.tag, path, depth: this.depth + 1, index: 0, line, objectLine: this.startLine, held };
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
    if (this.split?.held && tainted) this.split.held.tainted = true;
    let segStart = this.collecting ? 0 : -1;
    let keyStart = this.key !== null ? 0 : -1;
    let i = 0;
    const complete = (end: number): void => {
      this.append(text.slice(segStart, end));
      let envelope: EnvelopePlace | undefined;
      if (this.split) envelope = { tag: this.split.tag, key: this.split.path, index: this.split.index++ };
      else if (this.heldTag !== null) {
        envelope = { tag: this.heldTag, key: null, index: -1 };
        this.heldTag = null;
      }
      if (this.overflow) events.push({ kind: 'too-large', line: this.startLine, bytes: this.bytes });
      else events.push({ kind: 'value', text: this.parts.join(''), line: this.startLine, tainted: this.tainted, ...(envelope ? { envelope } : {}) });
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
      if (!this.inTopArray && this.split === null) {
        this.objectAt.length = 0;
        this.keys.length = 0;
        this.expectKey = false;
      }
    };
    while (i < text.length) {
      const c = text[i]!;
      if (this.collecting || this.skipping !== null) {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (c === '\\') this.escaped = true;
          else if (c === '"') {
            this.inString = false;
            if (this.key !== null) {
              this.keys[this.depth] = this.memberKey(this.key + text.slice(Math.max(keyStart, 0), i));
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
          if (c === '[' && this.tracking && this.depth >= 1 && !this.expectKey) {
            const split = this.claim(text, i, segStart, line);
            if (split) {
              // an array of records: its elements are read one by one; the object's text so far is held apart or dropped
              this.split = split;
              this.depth++;
              this.collecting = false;
              this.parts = [];
              this.bytes = 0;
              this.overflow = false;
              segStart = -1;
              i++;
              continue;
            }
          }
          this.depth++;
          if (this.tracking) {
            this.objectAt[this.depth] = c === '{';
            this.keys[this.depth] = null;
            this.expectKey = c === '{';
          }
        } else if (c === '}' || c === ']') {
          this.depth--;
          if (this.collecting && this.depth === this.base) {
            complete(i + 1);
            i++;
            continue;
          }
          if (this.skipping !== null && this.depth === 0) this.skipping = null;
        } else if (c === ',' && this.tracking && this.depth >= 1) {
          this.expectKey = this.objectAt[this.depth] === true;
        }
        i++;
        continue;
      }
      // between values (at the top level, in a top-level array, or in the array being split)
      const inRecords = this.inTopArray || this.split !== null;
      if (WHITESPACE.has(c) || (inRecords && c === ',')) {
        i++;
        continue;
      }
      if (this.split !== null && c === ']') {
        // the split array ends: the rest of its object is collected after the part held, or scanned
        const split = this.split;
        this.split = null;
        this.depth = split.depth - 1;
        if (split.held) {
          this.collecting = true;
          this.parts = split.held.parts;
          this.bytes = split.held.bytes;
          this.startLine = split.held.line;
          this.tainted = split.held.tainted;
          this.overflow = split.held.overflow;
          this.heldTag = split.tag;
          segStart = i + 1;
        } else this.skipping = split.objectLine;
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
        if (!this.inTopArray && this.split === null) {
          this.objectAt[1] = c === '{';
          this.keys[1] = null;
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
    if (this.key !== null) {
      this.key += `${text.slice(Math.max(keyStart, 0))}\n`;
      if (this.key.length > MAX_KEY_CHARS) this.key = this.key.slice(0, MAX_KEY_CHARS + 1);
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
      events.push({ kind: 'error', line: this.split.line, message: `the document ends inside the array ${this.split.path} that starts here (its elements before the cut were read)` });
      if (this.split.held) events.push({ kind: 'error', line: this.split.held.line, message: 'the document ends inside the JSON value that starts here' });
    } else if (this.skipping !== null) {
      events.push({ kind: 'error', line: this.skipping, message: 'the document ends inside the JSON value that starts here' });
    }
    if (this.inTopArray) {
      events.push({ kind: 'error', line: this.topArrayLine, message: 'the document ends before the closing ] of the array that starts here' });
    }
    return events;
  }

  /** A member key as read (its raw text between the quotes), decoded; null when it is too long to name an envelope array or does not decode. */
  private memberKey(raw: string): string | null {
    if (raw.length > MAX_KEY_CHARS) return null;
    if (!raw.includes('\\')) return raw;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return null;
    }
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
