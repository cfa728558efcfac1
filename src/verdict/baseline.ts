/**
 * Baselines (`.guard-baseline.json`): the findings a team has accepted, so that a scan reports
 * only new ones. Entries are keyed by the line-independent fingerprint of src/report/findings.ts;
 * the rule id, file and line are stored for people reading the file and are not used to match.
 * A baseline holds no secret: no excerpt, no argument or reply text, only hashes.
 *
 * File format (guard's, docs/reports.md):
 * `{"version": 1, "tool": "guard", "entries": [{"fingerprint": "<32 hex>", "rule_id": "…",
 * "file": "…", "line": 42}]}`; entries sorted by file, line, rule id, so the file diffs well.
 * Pure: reading and writing the file is the CLI's job.
 */

import type { Finding, Suppression } from './findings.js';
import { wellFormedJson } from '../base/json.js';

export const BASELINE_VERSION = 1;

export interface BaselineEntry {
  fingerprint: string;
  rule_id: string;
  /** Informative: where the finding was when the baseline was made. */
  file: string;
  /** Informative, 1-based. */
  line: number;
}

export interface Baseline {
  version: typeof BASELINE_VERSION;
  tool: 'guard';
  entries: BaselineEntry[];
}

/** A baseline file that cannot be used; `message` says why (and where, when known). */
export class BaselineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BaselineError';
  }
}

/** The baseline entry for a finding seen at `file`:`line`. */
export function baselineEntry(f: Finding, file: string, line: number): BaselineEntry {
  return { fingerprint: f.fingerprint, rule_id: f.ruleId, file, line };
}

/** The baseline file text for these entries (sorted; 2-space JSON; final newline). */
export function serializeBaseline(entries: readonly BaselineEntry[]): string {
  const sorted = [...entries].sort(
    (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.rule_id.localeCompare(b.rule_id) || a.fingerprint.localeCompare(b.fingerprint),
  );
  const doc: Baseline = { version: BASELINE_VERSION, tool: 'guard', entries: sorted };
  return `${wellFormedJson(doc, 2)}\n`;
}

const FINGERPRINT = /^[0-9a-f]{32}$/;

/**
 * Parses a baseline file.
 *
 * @param text the file's contents; `name` is used in messages.
 * @throws BaselineError when the text is not JSON, the version is not 1, or an entry lacks a
 *   32-hex-digit `fingerprint` (the entry's index is named). `rule_id`, `file` and `line` are
 *   optional when reading, since they are informative.
 */
export function parseBaseline(text: string, name: string): Baseline {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new BaselineError(`${name}: not JSON: ${(e as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new BaselineError(`${name}: a baseline is a JSON object`);
  const o = doc as Record<string, unknown>;
  if (o['version'] !== BASELINE_VERSION) throw new BaselineError(`${name}: unsupported baseline version ${JSON.stringify(o['version'])} (expected ${BASELINE_VERSION})`);
  if (!Array.isArray(o['entries'])) throw new BaselineError(`${name}: "entries" must be a list`);
  const entries = o['entries'].map((raw, i): BaselineEntry => {
    const e = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const fp = e['fingerprint'];
    if (typeof fp !== 'string' || !FINGERPRINT.test(fp)) throw new BaselineError(`${name}: entries[${i}] has no valid "fingerprint" (32 hex digits)`);
    return {
      fingerprint: fp,
      rule_id: typeof e['rule_id'] === 'string' ? e['rule_id'] : '',
      file: typeof e['file'] === 'string' ? e['file'] : '',
      line: typeof e['line'] === 'number' ? e['line'] : 0,
    };
  });
  return { version: BASELINE_VERSION, tool: 'guard', entries };
}

/**
 * The open entries of one fingerprint, in the baseline file's order. Taking the first open entry
 * recorded for a file, or else the first open entry, costs O(1) amortised: entries are only ever
 * used up, so a pointer per file and one overall move forward past used ones. (A list searched and
 * spliced per finding cost O(entries) each, and a baseline may repeat one fingerprint many times.)
 */
class EntryQueue {
  private readonly entries: BaselineEntry[] = [];
  private readonly used: boolean[] = [];
  /** Per file: the indices of its entries (ascending) and how many of them are known used. */
  private readonly byFile = new Map<string, { indices: number[]; next: number }>();
  /** No open entry has a smaller index. */
  private head = 0;
  private open = 0;

  add(e: BaselineEntry): void {
    const i = this.entries.push(e) - 1;
    this.used.push(false);
    this.open++;
    const q = this.byFile.get(e.file);
    if (q) q.indices.push(i);
    else this.byFile.set(e.file, { indices: [i], next: 0 });
  }

  /** Uses up the first open entry recorded for `file`, else the first open entry; null when none is open. */
  take(file: string): BaselineEntry | null {
    if (this.open === 0) return null;
    let i = -1;
    const q = this.byFile.get(file);
    if (q) {
      while (q.next < q.indices.length && this.used[q.indices[q.next]!]) q.next++;
      if (q.next < q.indices.length) i = q.indices[q.next++]!;
    }
    if (i < 0) {
      while (this.used[this.head]) this.head++;
      i = this.head;
    }
    this.used[i] = true;
    this.open--;
    return this.entries[i]!;
  }

  /** The open entries, in the baseline file's order. */
  remaining(): BaselineEntry[] {
    return this.entries.filter((_, i) => !this.used[i]);
  }
}

/**
 * Matches findings against a baseline. Each entry suppresses one finding with its fingerprint
 * (so two identical findings need two entries); among entries with the same fingerprint, one
 * recorded for the same file is used first, else the first in the baseline file. Entries left at
 * the end are stale: their finding is gone (fixed, or its capture no longer scanned).
 */
export class BaselineMatcher {
  private readonly open = new Map<string, EntryQueue>();
  private readonly justification: string;
  private matchedCount = 0;

  /** @param name the baseline file name, used as the suppression's justification. */
  constructor(baseline: Baseline, name: string) {
    this.justification = `in baseline ${name}`;
    for (const e of baseline.entries) {
      let queue = this.open.get(e.fingerprint);
      if (!queue) this.open.set(e.fingerprint, (queue = new EntryQueue()));
      queue.add(e);
    }
  }

  /**
   * Suppresses `f` (kind `baseline`) when an open entry has its fingerprint, and uses that entry
   * up. A finding already suppressed inline is left alone and uses no entry.
   *
   * @returns true when the finding was suppressed by the baseline.
   */
  apply(f: Finding, file: string): boolean {
    if (f.suppressed) return false;
    if (!this.open.get(f.fingerprint)?.take(file)) return false;
    this.matchedCount++;
    const s: Suppression = { kind: 'baseline', justification: this.justification };
    f.suppressed = s;
    return true;
  }

  /** Entries that suppressed a finding so far. */
  get matched(): number {
    return this.matchedCount;
  }

  /**
   * Entries no finding used, sorted as in the file. With `scanned`, only entries whose capture
   * was read in this scan (or that name no file) count.
   */
  stale(scanned?: (file: string) => boolean): BaselineEntry[] {
    // an entry for a capture this scan did not read is not stale: it was not checked
    return this.remaining()
      .filter((e) => !scanned || e.file === '' || scanned(e.file))
      .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.rule_id.localeCompare(b.rule_id));
  }

  /** How many entries no finding used whose capture `scanned` says was not checked. */
  unchecked(scanned: (file: string) => boolean): number {
    return this.remaining().filter((e) => e.file !== '' && !scanned(e.file)).length;
  }

  private remaining(): BaselineEntry[] {
    return [...this.open.values()].flatMap((q) => q.remaining());
  }
}
