/**
 * The fixture manifest (fixtures/capture/manifest.yaml; JSON, named .yaml so directory walks skip it): every capture fixture is read and gives
 * exactly the replies, tool calls and tool names (in reading order) its entry records, in its
 * format, with no error-severity problem other than those it lists; every fixture file has an
 * entry and every entry a file; and every registered capture format has at least one fixture
 * (a format's unit carries its real file and its expected counts, issue 12).
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CAPTURE_FORMATS } from '../../src/capture/formats.js';
import { FIXTURES, readFixture } from './read-helpers.js';

interface Entry {
  file: string;
  format: string | string[] | null;
  replies: number;
  tool_calls: number;
  tool_names: string[];
  error_codes?: string[];
}

const manifest = parse(readFileSync(join(FIXTURES, 'manifest.yaml'), 'utf8')) as { files: Entry[] };

/** Every file under fixtures/capture but the manifest itself and READMEs. */
function fixtureFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return fixtureFiles(p);
      const rel = relative(FIXTURES, p);
      return rel === 'manifest.yaml' || name.endsWith('.md') ? [] : [rel];
    });
}

describe('fixture manifest', () => {
  it('has one entry per fixture file, and a file for every entry', () => {
    const files = fixtureFiles(FIXTURES);
    const entries = manifest.files.map((e) => e.file);
    expect(new Set(entries).size, 'an entry is listed twice').toBe(entries.length);
    expect([...entries].sort()).toEqual([...files].sort());
  });

  it('every entry is well formed: tool_calls is the number of tool_names', () => {
    for (const e of manifest.files) {
      expect(Number.isInteger(e.replies) && e.replies >= 0, e.file).toBe(true);
      expect(e.tool_names.length, e.file).toBe(e.tool_calls);
    }
  });

  it('every registered capture format has a fixture', () => {
    const covered = new Set(manifest.files.flatMap((e) => (e.format === null ? [] : Array.isArray(e.format) ? e.format : [e.format])));
    expect(CAPTURE_FORMATS.filter((f) => !covered.has(f))).toEqual([]);
  });

  it.each(manifest.files.map((e) => [e.file, e] as const))('%s reads exactly as its entry says', async (_file, e) => {
    const r = await readFixture(e.file);
    const names = r.replies.flatMap((x) => x.toolCalls.map((c) => c.name));
    const formats = r.end.formats;
    const format = formats.length === 0 ? null : formats.length === 1 ? formats[0] : formats;
    const errorCodes = [...new Set(r.errors.filter((x) => x.severity === 'error').map((x) => x.code))].sort();
    expect({ format, replies: r.replies.length, tool_calls: names.length, tool_names: names, error_codes: errorCodes }).toEqual({
      format: e.format,
      replies: e.replies,
      tool_calls: e.tool_calls,
      tool_names: e.tool_names,
      error_codes: e.error_codes ?? [],
    });
  });
});
