/**
 * From lines to records, for the two JSON layouts (docs/sources.md "JSON Lines"): a JSON Lines
 * record per line ({@link jsonLineRecord}), and the records of a JSON document split one value at a
 * time ({@link DocumentRecords}: a pretty-printed body, a top-level array, an agent session
 * document through its envelope claims, src/capture/json-values.ts). Each result is a record to
 * read or a problem naming the file and line; nothing here classifies a record (./records.ts) or
 * decides the layout (./read.ts).
 */

import { captureError } from './bodies/common.js';
import { isSseLine } from './detect.js';
import { JsonValueSplitter, type EnvelopePlace, type EnvelopeSplit, type SplitEvent } from './json-values.js';
import type { Line } from './lines.js';
import type { CaptureError } from './types.js';
import { jsonErrorMessage } from '../base/json.js';

/**
 * The problem (if any) of a line that cannot be read as text: LINE_TOO_LONG or INVALID_UTF8.
 * Invalid UTF-8 lines are skipped rather than read with replacement characters, so that no
 * reply is judged on altered text.
 */
export function badLineError(file: string, l: Line, maxLineBytes: number): CaptureError | null {
  if (l.stopped === 'endless') {
    return captureError(file, l.line, 'LINE_TOO_LONG', `no line end within ${l.bytes} bytes (the line limit is ${maxLineBytes} bytes): an endless input; reading stopped here`);
  }
  if (l.tooLong) {
    return captureError(file, l.line, 'LINE_TOO_LONG', `line of ${l.bytes} bytes is longer than the limit of ${maxLineBytes} bytes; skipped`);
  }
  if (l.invalidUtf8) return captureError(file, l.line, 'INVALID_UTF8', 'line is not valid UTF-8; skipped');
  return null;
}

/** A record to read (with its place in a split envelope document, if any), or a problem found while splitting the input into records. */
export type RecordOrError = { value: unknown; line: number; envelope?: EnvelopePlace } | { error: CaptureError };

/** JSON Lines (docs/sources.md "JSON Lines"): the record of one line, its problem, or null for a
 * blank line. */
export function jsonLineRecord(
  file: string,
  l: Line,
  maxLineBytes: number,
  preParsed: { line: number; value: unknown } | undefined,
): RecordOrError | null {
  const bad = badLineError(file, l, maxLineBytes);
  if (bad) return { error: bad };
  if (l.text.trim() === '') return null;
  if (preParsed && preParsed.line === l.line) return { value: preParsed.value, line: l.line };
  try {
    return { value: JSON.parse(l.text), line: l.line };
  } catch (e) {
    const hint = isSseLine(l.text) ? ' (an SSE line inside a JSON file)' : '';
    return { error: captureError(file, l.line, 'INVALID_JSON', `${jsonErrorMessage(e)}${hint}`) };
  }
}

/**
 * A JSON document: its top-level values, or the elements of a top-level array, one by one, fed a
 * line at a time. After an over-long line it is `stopped`: the rest of the file is skipped.
 */
export class DocumentRecords {
  private readonly splitter: JsonValueSplitter;
  /** An over-long line was met: nothing more is read. */
  stopped = false;

  constructor(
    private readonly file: string,
    private readonly maxLineBytes: number,
    private readonly maxDocumentBytes: number,
    envelope?: EnvelopeSplit,
  ) {
    this.splitter = new JsonValueSplitter(maxDocumentBytes, envelope);
  }

  /** The records and problems one line completes. */
  line(l: Line): RecordOrError[] {
    const file = this.file;
    if (l.tooLong) {
      this.stopped = true;
      return [
        { error: badLineError(file, l, this.maxLineBytes)! },
        { error: captureError(file, l.line, 'DOCUMENT_TOO_LARGE', 'the JSON document cannot be read past an over-long line; the rest of the file is skipped') },
      ];
    }
    const out: RecordOrError[] = [];
    if (l.invalidUtf8) out.push({ error: captureError(file, l.line, 'INVALID_UTF8', 'line is not valid UTF-8; the JSON value holding it is skipped') });
    for (const ev of this.splitter.feed(l.text, l.line, l.invalidUtf8)) {
      const r = this.convert(ev);
      if (r) out.push(r);
    }
    return out;
  }

  /** What is left at the end of the input. */
  end(): RecordOrError[] {
    const out: RecordOrError[] = [];
    for (const ev of this.splitter.end()) {
      const r = this.convert(ev);
      if (r) out.push(r);
    }
    return out;
  }

  private convert(ev: SplitEvent): RecordOrError | null {
    const file = this.file;
    switch (ev.kind) {
      case 'too-large':
        return {
          error: captureError(file, ev.line, 'DOCUMENT_TOO_LARGE', `the JSON value starting here is ${ev.bytes} bytes, over the limit of ${this.maxDocumentBytes} bytes; skipped`),
        };
      case 'error':
        return { error: captureError(file, ev.line, 'INVALID_JSON', ev.message) };
      case 'value': {
        if (ev.tainted) return null; // its invalid UTF-8 line was reported
        const parsed = tryParseJsonWithError(ev.text);
        if ('value' in parsed) return ev.envelope ? { value: parsed.value, line: ev.line, envelope: ev.envelope } : { value: parsed.value, line: ev.line };
        return { error: captureError(file, ev.line, 'INVALID_JSON', `${parsed.message} (in the JSON value starting at this line)`) };
      }
    }
  }
}

function tryParseJsonWithError(text: string): { value: unknown } | { message: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { message: jsonErrorMessage(e) };
  }
}
