/**
 * Label side files: how a corpus labels replies in captures that cannot carry a `label` field
 * (API bodies, SSE streams, transcripts). Pure: the caller reads the file.
 *
 * A side file sits next to its capture and is named after it: `chat.jsonl` → `chat.jsonl.labels`
 * (the extension is not one guard scan walks, so `guard scan DIR` never reads it as a capture). It
 * holds one JSON object:
 *
 * ```json
 * { "ids": { "chatcmpl-1": "leak" }, "lines": { "7": "quotation" }, "default": "leak" }
 * ```
 *
 * `ids` labels replies by their own id, `lines` by the 1-based line where the reply starts (as
 * guard scan prints it), `default` labels every other reply of the capture. All three are optional;
 * a reply is looked up by id, then line, then default.
 */

import { CEILING_LABELS, type CeilingLabel } from './types.js';

/** The suffix appended to a capture's path to name its label side file. */
export const LABEL_FILE_SUFFIX = '.labels';

/** A parsed side file. */
export interface LabelFile {
  ids: Map<string, CeilingLabel>;
  lines: Map<number, CeilingLabel>;
  fallback: CeilingLabel | null;
}

/** The side file path for a capture path. */
export function labelFileFor(capture: string): string {
  return capture + LABEL_FILE_SUFFIX;
}

/** True when a path names a label side file (it is then not read as a capture). */
export function isLabelFile(path: string): boolean {
  return path.endsWith(LABEL_FILE_SUFFIX);
}

const isLabel = (v: unknown): v is CeilingLabel => typeof v === 'string' && (CEILING_LABELS as readonly string[]).includes(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parses a side file's text (format in the module header).
 *
 * @returns the labels, or `problems` (one sentence each) when the text is not valid JSON, has
 *   unknown keys, a label other than `leak` / `quotation`, or a line key that is not a positive
 *   whole number. Never throws.
 */
export function parseLabelFile(text: string): { labels: LabelFile; problems: [] } | { labels: null; problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    return { labels: null, problems: [`not valid JSON: ${(e as Error).message}`] };
  }
  if (!isObject(value)) return { labels: null, problems: ['must hold one JSON object with "ids", "lines" and/or "default"'] };
  const problems: string[] = [];
  const labels: LabelFile = { ids: new Map(), lines: new Map(), fallback: null };
  const badLabel = (where: string, v: unknown) => problems.push(`${where}: label must be "leak" or "quotation", got ${JSON.stringify(v)}`);
  for (const [key, v] of Object.entries(value)) {
    if (key === 'default') {
      if (isLabel(v)) labels.fallback = v;
      else badLabel('default', v);
    } else if (key === 'ids' || key === 'lines') {
      if (!isObject(v)) {
        problems.push(`"${key}" must be an object mapping ${key === 'ids' ? 'reply ids' : 'line numbers'} to labels`);
        continue;
      }
      for (const [k, label] of Object.entries(v)) {
        if (!isLabel(label)) {
          badLabel(`${key}["${k}"]`, label);
          continue;
        }
        if (key === 'ids') labels.ids.set(k, label);
        else if (/^[1-9][0-9]*$/.test(k)) labels.lines.set(Number(k), label);
        else problems.push(`lines["${k}"]: a line must be a positive whole number`);
      }
    } else problems.push(`unknown key "${key}" (expected "ids", "lines", "default")`);
  }
  return problems.length > 0 ? { labels: null, problems } : { labels, problems: [] };
}

/**
 * Labels one reply from a side file and remembers which entries were used, so entries that match
 * no reply (a capture edited after it was labelled) can be reported.
 */
export class LabelLookup {
  private readonly usedIds = new Set<string>();
  private readonly usedLines = new Set<number>();

  constructor(readonly labels: LabelFile) {}

  /** The label for a reply (by id, then line, then default), or null. */
  labelOf(id: string | null, line: number): CeilingLabel | null {
    if (id !== null && this.labels.ids.has(id)) {
      this.usedIds.add(id);
      return this.labels.ids.get(id)!;
    }
    if (this.labels.lines.has(line)) {
      this.usedLines.add(line);
      return this.labels.lines.get(line)!;
    }
    return this.labels.fallback;
  }

  /** Entries no reply matched, as `ids["x"]` / `lines["7"]`. */
  unused(): string[] {
    const out: string[] = [];
    for (const id of this.labels.ids.keys()) if (!this.usedIds.has(id)) out.push(`ids[${JSON.stringify(id)}]`);
    for (const line of this.labels.lines.keys()) if (!this.usedLines.has(line)) out.push(`lines["${line}"]`);
    return out;
  }
}
