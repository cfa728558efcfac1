/**
 * `guard formats` lists every registered capture format (text and `-f json`, snake_case keys),
 * README's format table names every format of the registry and nothing else, and a directory
 * walk takes the formats' usual file names.
 */

import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAPTURE_FORMAT_SPECS, CAPTURE_FORMATS, type CaptureFormatSpec } from '../../src/capture/formats.js';
import { expandInputs } from '../../src/capture/files.js';
import { ROOT, runGuard } from './helpers.js';

describe('guard formats', () => {
  it('lists every registered format with its recognition, whether it can be forced, and its file names', async () => {
    const r = await runGuard(['formats']);
    expect(r.code).toBe(0);
    for (const spec of CAPTURE_FORMAT_SPECS as readonly CaptureFormatSpec[]) {
      expect(r.stdout).toContain(`${spec.name}  (${spec.kind}; --input-format yes)\n  ${spec.description}\n  recognised by: ${spec.recognition}\n  file names: ${spec.fileNames.join(', ')}\n`);
    }
    expect(r.stdout).toContain(`${CAPTURE_FORMATS.length} formats`);
  });

  it('-f json: one object per format, in registry order, with snake_case keys', async () => {
    const r = await runGuard(['formats', '-f', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { formats: Array<Record<string, unknown>>; walk_extensions: string[] };
    expect(doc.formats.map((f) => f['name'])).toEqual([...CAPTURE_FORMATS]);
    for (const f of doc.formats) {
      expect(Object.keys(f)).toEqual(['name', 'kind', 'description', 'recognition', 'forcible', 'file_names']);
      expect((f['file_names'] as string[]).length).toBeGreaterThan(0);
    }
    expect(doc.formats.find((f) => f['name'] === 'swe-agent')).toMatchObject({ kind: 'record', forcible: true, file_names: ['*.traj'] });
    expect(doc.formats.find((f) => f['name'] === 'aider')).toMatchObject({ kind: 'text', file_names: ['.aider.chat.history.md', '*.aider.chat.history.md'] });
    expect(doc.walk_extensions).toContain('.jsonl');
  });

  it("README's format table names every registered format once, and no other", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Formats guard reads'), readme.indexOf('\n## ', readme.indexOf('## Formats guard reads') + 1));
    const rows = section.split('\n').filter((l) => l.startsWith('| `'));
    const named = rows.flatMap((l) => [...l.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
    expect([...named].sort()).toEqual([...CAPTURE_FORMATS].sort());
  });

  it('every format can be given to --input-format', async () => {
    const r = await runGuard(['scan', '--help']);
    for (const name of CAPTURE_FORMATS) expect(r.stdout).toContain(name);
  });
});

describe('directory walks take the formats\' usual file names', () => {
  it('takes .traj files and the .aider.chat.history.md dot-file, still skipping other dot-entries and node_modules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'guard-walk-'));
    for (const d of ['sub', 'node_modules', '.hidden']) mkdirSync(join(dir, d));
    const files = ['run.traj', 'sub/x.traj.json', '.aider.chat.history.md', 'sub/old.aider.chat.history.md', '.secret.jsonl', 'notes.md', 'node_modules/a.traj', '.hidden/b.traj', 'sub/api_conversation_history.json'];
    for (const f of files) writeFileSync(join(dir, f), '{}\n');
    mkdirSync(join(dir, 'sub', '.aider.chat.history.md'));
    const { inputs, errors } = await expandInputs(['.'], dir);
    expect(errors).toEqual([]);
    expect(inputs).toEqual(['.aider.chat.history.md', 'run.traj', 'sub/api_conversation_history.json', 'sub/old.aider.chat.history.md', 'sub/x.traj.json']);
  });
});
