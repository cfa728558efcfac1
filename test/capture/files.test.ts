import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandInputs } from '../../src/capture/files.js';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'guard-files-'));
  const files = [
    'caps/b.jsonl',
    'caps/a.json',
    'caps/notes.md',
    'caps/sub/c.sse',
    'caps/sub/Z.log',
    'caps/.hidden/d.jsonl',
    'caps/.dot.jsonl',
    'caps/node_modules/e.jsonl',
    'other/x.jsonl',
    'other/y.txt',
    'empty-dir/readme.md',
  ];
  for (const f of files) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), '{}\n');
  }
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('expandInputs', () => {
  it('walks a directory sorted, skipping dot entries, node_modules and non-capture extensions', async () => {
    const r = await expandInputs(['caps'], root);
    expect(r.errors).toEqual([]);
    expect(r.inputs).toEqual(['caps/a.json', 'caps/b.jsonl', 'caps/sub/Z.log', 'caps/sub/c.sse']);
  });

  it('expands a glob in sorted order and keeps explicit files whatever their extension', async () => {
    const r = await expandInputs(['other/*', 'caps/notes.md'], root);
    expect(r.errors).toEqual([]);
    expect(r.inputs).toEqual(['other/x.jsonl', 'other/y.txt', 'caps/notes.md']);
  });

  it('reports a missing path and a glob that matches nothing as NO_MATCH, and keeps going', async () => {
    const r = await expandInputs(['nope.jsonl', 'caps/**/*.har', 'other/x.jsonl'], root);
    expect(r.inputs).toEqual(['other/x.jsonl']);
    expect(r.errors).toEqual([
      { file: 'nope.jsonl', line: null, code: 'NO_MATCH', message: 'no such file or directory: nope.jsonl', severity: 'error' },
      { file: 'caps/**/*.har', line: null, code: 'NO_MATCH', message: 'no file matches the pattern caps/**/*.har', severity: 'error' },
    ]);
  });

  it('keeps "-" for stdin, in argument order, and lists each file once', async () => {
    const r = await expandInputs(['other/x.jsonl', '-', 'other', join(root, 'other/x.jsonl')], root);
    expect(r.inputs).toEqual(['other/x.jsonl', '-', 'other/y.txt']);
  });

  it('reports a directory with no capture files', async () => {
    const r = await expandInputs(['empty-dir'], root);
    expect(r.inputs).toEqual([]);
    expect(r.errors.map((e) => [e.code, e.file])).toEqual([['NO_MATCH', 'empty-dir']]);
  });
});
