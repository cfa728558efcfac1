import { appendFileSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CACHE_MAGIC, ScanCache, configHash, type CacheIndex } from '../../src/scan/cache.js';
import { scanInputsParallel } from '../../src/scan/parallel.js';
import { createJudge } from '../../src/verdict/engines.js';
import { resolveSettings } from '../../src/cli/engines.js';
import { loadConfig } from '../../src/config/load.js';
import { VERSION } from '../../src/cli/version.js';
import { ROOT, runGuard } from './helpers.js';

/** Captures of several formats, with leaks, rule hits, clean replies and a malformed line. */
const SOURCES = [
  'fixtures/cli/findings.jsonl',
  'fixtures/cli/clean.jsonl',
  'fixtures/cli/malformed.jsonl',
  'fixtures/capture/claude-code/session.synthetic.jsonl',
  'fixtures/capture/gemini/streamgeneratecontent-sse-gemini-2.5-flash-function-call.ruby_llm.sse',
  'fixtures/capture/gemini/streamgeneratecontent-json-array.synthetic.json',
];

let dir: string;
let out: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'guard-cache-'));
  out = mkdtempSync(join(tmpdir(), 'guard-cache-out-'));
  for (const s of SOURCES) copyFileSync(join(ROOT, s), join(dir, s.split('/').pop()!));
  writeFileSync(join(dir, 'beside.jsonl'), BESIDE);
});

/**
 * Replies without a recovered or refused leak whose texts a report still reads: markup beside
 * structured calls (its fingerprint hashes the text) and a rule hit (the HTML report shows the
 * text), each with markup-free prose too.
 */
const BESIDE = [
  { id: 'beside', tools: ['get_weather'], text: 'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>', tool_calls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
  { id: 'hit-with-text', tools: ['bash'], text: 'Cleaning up the disk now, as you asked.', tool_calls: [{ id: 'c2', name: 'bash', arguments: { command: 'rm -rf /' } }] },
].map((r) => `${JSON.stringify(r)}\n`).join('');

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

/** `guard scan <args> .` in the temporary directory, the report to a file outside it (read back; an HTML report's time of writing masked). */
async function scan(args: string[], name = 'report'): Promise<{ code: number; report: string; stderr: string }> {
  const path = join(out, name);
  const r = await runGuard(['scan', ...args, '-o', path, '.'], { cwd: dir });
  let report = '';
  try {
    // the HTML report's one moment-dependent field, its time of writing, aside
    report = readFileSync(path, 'utf8').replace(/"generated":"[^"]*"/g, '"generated":"(time)"');
  } catch {
    report = '';
  }
  return { code: r.code, report, stderr: r.stderr };
}

/** The index of a cache file (its last 8 bytes give the index's offset). */
function cacheIndex(path = join(dir, '.guard-cache')): CacheIndex {
  const buf = readFileSync(path);
  const at = Number(buf.readBigUInt64BE(buf.length - 8));
  return JSON.parse(buf.subarray(at, buf.length - 8).toString('utf8')) as CacheIndex;
}

const files = (idx: CacheIndex) => idx.entries.map((e) => e.file).sort();

describe('guard scan --cache', () => {
  it.each([
    ['ndjson', []],
    ['json', []],
    ['sarif', []],
    ['text', []],
    ['text', ['--verbose']],
    ['github', []],
    ['junit', []],
    ['markdown', []],
    ['html', []],
  ])('replays unchanged files into %s %j byte for byte as a fresh scan writes them', async (format, extra) => {
    const fresh = await scan(['-f', format, ...extra], 'fresh');
    const first = await scan(['--cache', '-f', format, ...extra], 'first');
    const cached = await scan(['--cache', '-f', format, ...extra], 'cached');
    expect(fresh.report.length).toBeGreaterThan(100);
    expect(first.report).toBe(fresh.report);
    expect(cached.report).toBe(fresh.report);
    expect(cached.code).toBe(fresh.code);
    expect(fresh.code).toBe(2); // malformed.jsonl: an INVALID_JSON error
    expect(first.stderr).toContain('guard: cache .guard-cache: 0 files replayed, 7 files scanned\n');
    expect(cached.stderr).toContain('guard: cache .guard-cache: 7 files replayed, 0 files scanned\n');
    // the summary on stderr is the same too
    expect(cached.stderr.replace(/guard: cache .*\n/, '')).toBe(fresh.stderr);
  });

  it('stores the report text of a streaming format and replays it; other report options replay the events', async () => {
    const fresh = await scan(['-f', 'ndjson'], 'fresh');
    await scan(['--cache', '-f', 'ndjson']);
    const keys = cacheIndex().entries.map((e) => e.rendered && JSON.parse(e.rendered.key));
    expect(keys).toHaveLength(7);
    for (const k of keys) expect(k).toEqual({ format: 'ndjson', redact: true, failOn: 'refused', inlineAllow: true });
    expect((await scan(['--cache', '-f', 'ndjson'])).report).toBe(fresh.report);
    // SARIF replays the events and leaves the stored NDJSON text in place
    expect((await scan(['--cache', '-f', 'sarif'])).report).toBe((await scan(['-f', 'sarif'], 'fresh-sarif')).report);
    expect(cacheIndex().entries.every((e) => e.rendered !== null && JSON.parse(e.rendered.key).format === 'ndjson')).toBe(true);
    // other report options: the events are replayed, and rendered under them for the next scan
    const unmasked = await scan(['--cache', '-f', 'ndjson', '--no-redact', '--fail-on', 'flag']);
    expect(unmasked.report).toBe((await scan(['-f', 'ndjson', '--no-redact', '--fail-on', 'flag'], 'fresh-unmasked')).report);
    expect(unmasked.stderr).toContain('7 files replayed, 0 files scanned');
    expect(JSON.parse(cacheIndex().entries[0]!.rendered!.key)).toEqual({ format: 'ndjson', redact: false, failOn: 'flag', inlineAllow: true });
    expect((await scan(['--cache', '-f', 'github'])).report).toBe((await scan(['-f', 'github'], 'fresh-github')).report);
    expect((await scan(['--cache', '-f', 'github'])).report).toBe((await scan(['-f', 'github'], 'fresh-github')).report);
  });

  it.each(['ndjson', 'sarif', 'html'])('replays %s the same with --jobs 2 (worker threads) as with one thread', async (format) => {
    const fresh = await scan(['-f', format, '--jobs', '1'], 'fresh');
    // workers send events without the texts no report reads (a document format), or report text
    expect((await scan(['-f', format, '--jobs', '2'], 'parallel')).report).toBe(fresh.report);
    const first = await scan(['--cache', '-f', format, '--jobs', '2'], 'first');
    const cached = await scan(['--cache', '-f', format, '--jobs', '2'], 'cached');
    expect(first.report).toBe(fresh.report);
    expect(cached.report).toBe(fresh.report);
    expect(cached.stderr).toContain('7 files replayed, 0 files scanned');
  });

  it('does not read an unchanged file again: same size and mtime replay the stored results (metadata), content rescans', async () => {
    const path = join(dir, 'findings.jsonl');
    // whole seconds, so that the mtime can be put back exactly
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    const first = await scan(['--cache', '-f', 'ndjson']);
    const size = statSync(path).size;
    const text = readFileSync(path, 'utf8');
    // the same bytes count with the leak's city changed, the mtime put back
    const changed = text.replaceAll('Paris', 'Rome!');
    expect(changed).not.toBe(text);
    expect(Buffer.byteLength(changed)).toBe(size);
    writeFileSync(path, changed);
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    const replayed = await scan(['--cache', '-f', 'ndjson']);
    expect(replayed.report).toBe(first.report);
    expect(replayed.report).toContain('Paris');
    expect(replayed.stderr).toContain('7 files replayed, 0 files scanned');
    const content = await scan(['--cache', '--cache-strategy', 'content', '-f', 'ndjson']);
    expect(content.stderr).toContain('6 files replayed, 1 file scanned');
    expect(content.report).toContain('Rome!');
    expect(content.report).toBe((await scan(['-f', 'ndjson'], 'fresh')).report);
  });

  it('confirms a changed mtime by content (metadata): a touched file is replayed, its new mtime stored', async () => {
    const first = await scan(['--cache', '-f', 'ndjson']);
    const path = join(dir, 'clean.jsonl');
    utimesSync(path, new Date(2020, 0, 1), new Date(2020, 0, 1));
    const again = await scan(['--cache', '-f', 'ndjson']);
    expect(again.report).toBe(first.report);
    expect(again.stderr).toContain('7 files replayed, 0 files scanned');
    const entry = cacheIndex().entries.find((e) => e.file === 'clean.jsonl')!;
    expect(entry.mtime_ms).toBe(statSync(path).mtimeMs);
  });

  it('rescans only a file that grew, with the report of a fresh scan', async () => {
    await scan(['--cache', '-f', 'ndjson']);
    appendFileSync(join(dir, 'clean.jsonl'), readFileSync(join(dir, 'findings.jsonl')));
    const again = await scan(['--cache', '-f', 'ndjson']);
    expect(again.stderr).toContain('6 files replayed, 1 file scanned');
    const fresh = await scan(['-f', 'ndjson'], 'fresh');
    expect(again.report).toBe(fresh.report);
    expect(again.report.split('\n').filter((l) => l.includes('"file":"clean.jsonl"')).length).toBeGreaterThan(4);
  });

  it('scans everything again under another configuration, with a note', async () => {
    await scan(['--cache', '-f', 'ndjson']);
    const enforce = await scan(['--cache', '--mode', 'enforce', '-f', 'ndjson']);
    expect(enforce.stderr).toContain('guard: warning: the cache .guard-cache was written under another configuration');
    expect(enforce.stderr).toContain('0 files replayed, 7 files scanned');
    expect(enforce.report).toBe((await scan(['--mode', 'enforce', '-f', 'ndjson'], 'fresh')).report);
    expect(enforce.report).toContain('"mode":"enforce"');
    // the cache now holds the enforce results: enforce replays, observe rescans
    expect((await scan(['--cache', '--mode', 'enforce', '-f', 'ndjson'])).stderr).toContain('7 files replayed');
  });

  it('scans everything again when the cache was written by another guard version', async () => {
    await scan(['--cache', '-f', 'ndjson']);
    const path = join(dir, '.guard-cache');
    const buf = readFileSync(path);
    const from = Buffer.from(`"guard_version":"${VERSION}"`);
    const to = Buffer.from(`"guard_version":"${'9'.repeat(VERSION.length)}"`);
    const at = buf.indexOf(from);
    expect(at).toBeGreaterThan(0);
    to.copy(buf, at);
    writeFileSync(path, buf);
    const again = await scan(['--cache', '-f', 'ndjson']);
    expect(again.stderr).toContain(`the cache .guard-cache was written by guard ${'9'.repeat(VERSION.length)} (this is ${VERSION}); it is ignored and every file is scanned`);
    expect(again.stderr).toContain('0 files replayed, 7 files scanned');
    expect(cacheIndex().guard_version).toBe(VERSION);
  });

  it.each([
    ['garbage', () => Buffer.from('not a cache at all, but long enough to hold a footer\n'), 'is not a guard cache (no guard-cache header)'],
    ['a truncated file', (b: Buffer) => b.subarray(0, b.length - 20), 'is corrupt'],
    ['the header alone', () => Buffer.from(CACHE_MAGIC), 'is not a guard cache (too short)'],
  ])('ignores a cache that is %s, with a warning, and scans every file', async (_what, damage, message) => {
    const fresh = await scan(['-f', 'sarif'], 'fresh');
    await scan(['--cache', '-f', 'sarif']);
    const path = join(dir, '.guard-cache');
    writeFileSync(path, damage(readFileSync(path)));
    const again = await scan(['--cache', '-f', 'sarif']);
    expect(again.stderr).toContain(`guard: warning: the cache .guard-cache ${message}`);
    expect(again.stderr).toContain('0 files replayed, 7 files scanned');
    expect(again.report).toBe(fresh.report);
    expect(again.code).toBe(fresh.code);
    // and writes a good one
    expect(files(cacheIndex())).toHaveLength(7);
  });

  it('scans a file whose stored results were damaged (checksum), with a warning naming it', async () => {
    const fresh = await scan(['-f', 'ndjson'], 'fresh');
    await scan(['--cache', '-f', 'ndjson']);
    const path = join(dir, '.guard-cache');
    const entry = cacheIndex().entries.find((e) => e.file === 'findings.jsonl')!;
    const buf = readFileSync(path);
    // the rendered NDJSON (what an ndjson scan replays) and the events (what other formats replay)
    buf[entry.rendered!.offset + 10] = buf[entry.rendered!.offset + 10]! ^ 0xff;
    buf[entry.events.offset + 10] = buf[entry.events.offset + 10]! ^ 0xff;
    writeFileSync(path, buf);
    const again = await scan(['--cache', '-f', 'ndjson']);
    expect(again.stderr).toContain('guard: warning: the cache .guard-cache: the entry of findings.jsonl is unusable (its checksum does not match); the file is scanned');
    expect(again.stderr).toContain('6 files replayed, 1 file scanned');
    expect(again.report).toBe(fresh.report);
    // and the rescan stored a good entry
    expect((await scan(['--cache', '-f', 'ndjson'])).stderr).toContain('7 files replayed, 0 files scanned');
  });

  it('finds a damaged blob when it is used, also one carried over untouched by scans that did not read it', async () => {
    const fresh = await scan(['-f', 'sarif'], 'fresh');
    await scan(['--cache', '-f', 'ndjson']);
    const path = join(dir, '.guard-cache');
    const entry = cacheIndex().entries.find((e) => e.file === 'findings.jsonl')!;
    const buf = readFileSync(path);
    buf[entry.events.offset + 10] = buf[entry.events.offset + 10]! ^ 0xff;
    writeFileSync(path, buf);
    // an ndjson rescan replays the rendered report only: the events blob is not read
    expect((await scan(['--cache', '-f', 'ndjson'])).stderr).toContain('7 files replayed, 0 files scanned');
    // a scan that changes the cache (a grown file) carries the damaged blob over with its checksum
    appendFileSync(join(dir, 'clean.jsonl'), '\n');
    expect((await scan(['--cache', '-f', 'ndjson'])).stderr).toContain('6 files replayed, 1 file scanned');
    const sarif = await scan(['--cache', '-f', 'sarif']);
    expect(sarif.stderr).toContain('the entry of findings.jsonl is unusable (its checksum does not match); the file is scanned');
    expect(sarif.stderr).toContain('6 files replayed, 1 file scanned');
    expect(sarif.report).toBe(fresh.report);
  });

  it('leaves an unchanged cache file as it is, and rewrites it when an entry changes', async () => {
    await scan(['--cache', '-f', 'ndjson']);
    const path = join(dir, '.guard-cache');
    const before = statSync(path);
    const bytes = readFileSync(path);
    utimesSync(path, before.atime, new Date(2000, 0, 1));
    const marked = statSync(path).mtimeMs;
    expect((await scan(['--cache', '-f', 'ndjson'])).stderr).toContain('7 files replayed, 0 files scanned');
    expect(statSync(path).ino).toBe(before.ino);
    expect(statSync(path).mtimeMs).toBe(marked);
    // a touched input: replayed, its new mtime stored in a new cache file
    const t = new Date(2020, 5, 1);
    utimesSync(join(dir, 'clean.jsonl'), t, t);
    expect((await scan(['--cache', '-f', 'ndjson'])).stderr).toContain('7 files replayed, 0 files scanned');
    expect(statSync(path).ino).not.toBe(before.ino);
    expect(cacheIndex().entries.find((e) => e.file === 'clean.jsonl')!.mtime_ms).toBe(t.getTime());
    // the same blobs, copied as they were
    const blobsOf = (buf: Buffer, idx: CacheIndex) => idx.entries.map((e) => [e.file, buf.subarray(e.events.offset, e.events.offset + e.events.length).toString('hex'), e.events.sha256] as const).sort();
    const oldIdx = (() => {
      const at = Number(bytes.readBigUInt64BE(bytes.length - 8));
      return JSON.parse(bytes.subarray(at, bytes.length - 8).toString('utf8')) as CacheIndex;
    })();
    expect(blobsOf(readFileSync(path), cacheIndex())).toEqual(blobsOf(bytes, oldIdx));
  });

  it('drops a file that vanished, keeps files another scan did not name, and never caches stdin', async () => {
    await scan(['--cache', '-f', 'ndjson']);
    unlinkSync(join(dir, 'clean.jsonl'));
    await scan(['--cache', '-f', 'ndjson']);
    expect(files(cacheIndex())).not.toContain('clean.jsonl');
    expect(files(cacheIndex())).toHaveLength(6);
    const one = await runGuard(['scan', '--cache', '-f', 'ndjson', 'findings.jsonl'], { cwd: dir });
    expect(one.stderr).toContain('1 file replayed, 0 files scanned');
    expect(files(cacheIndex())).toHaveLength(6);
    const stdin = await runGuard(['scan', '--cache', '-f', 'ndjson', '-'], { cwd: dir, stdin: readFileSync(join(dir, 'findings.jsonl'), 'utf8') });
    expect(stdin.stdout).toContain('"file":"-"');
    expect(stdin.stderr).toContain('0 files replayed, 1 file scanned');
    expect(cacheIndex().entries.some((e) => e.file === '-')).toBe(false);
  });

  it('leaves no temporary file, and keeps the cache in a directory given to --cache-location', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'guard-cache-dir-'));
    try {
      const r = await scan(['--cache', '--cache-location', cacheDir, '-f', 'ndjson']);
      expect(r.stderr).toContain(`guard: cache ${join(cacheDir, '.guard-cache')}: 0 files replayed, 7 files scanned`);
      expect(readdirSync(cacheDir)).toEqual(['.guard-cache']);
      expect(readdirSync(dir).filter((f) => f.startsWith('.'))).toEqual([]);
      expect(files(cacheIndex(join(cacheDir, '.guard-cache')))).toHaveLength(7);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('puts .guard-cache in a directory named with a trailing slash, made when missing', async () => {
    // bug: `--cache-location cd2/` for a directory that did not exist wrote a file named cd2
    const base = mkdtempSync(join(tmpdir(), 'guard-cache-slash-'));
    try {
      const loc = `${join(base, 'new', 'dir')}/`;
      const first = await scan(['--cache', '--cache-location', loc, '-f', 'ndjson']);
      expect(first.stderr).toContain(`guard: cache ${join(base, 'new', 'dir', '.guard-cache')}: 0 files replayed, 7 files scanned\n`);
      expect(readdirSync(join(base, 'new', 'dir'))).toEqual(['.guard-cache']);
      const again = await scan(['--cache', '--cache-location', loc, '-f', 'ndjson']);
      expect(again.stderr).toContain(`guard: cache ${join(base, 'new', 'dir', '.guard-cache')}: 7 files replayed, 0 files scanned\n`);
      expect(again.report).toBe(first.report);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('says the cache could not be written, not that the files were unreadable', async () => {
    // bug: with the cache's folder a file, each file was "not cached: unreadable, changed while read, or results over 16 MiB"
    const base = mkdtempSync(join(tmpdir(), 'guard-cache-unwritable-'));
    try {
      writeFileSync(join(base, 'plain'), 'a file, not a folder\n');
      const loc = join(base, 'plain', 'cache');
      const r = await scan(['--cache', '--cache-location', loc, '-f', 'ndjson']);
      expect(r.stderr).toContain(`guard: warning: cannot write the cache ${loc}`);
      expect(r.stderr).toContain(`guard: cache ${loc}: 0 files replayed, 7 files scanned (nothing stored: the cache could not be written)\n`);
      expect(r.stderr).not.toContain('not cached');
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('refuses --cache-location without --cache, and a cache location that is an input', async () => {
    const a = await runGuard(['scan', '--cache-location', 'x', '.'], { cwd: dir });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--cache-location needs --cache');
    const b = await runGuard(['scan', '--cache-strategy', 'content', '.'], { cwd: dir });
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--cache-strategy needs --cache');
    const c = await runGuard(['scan', '--cache', '--cache-location', 'clean.jsonl', '.'], { cwd: dir });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('--cache-location clean.jsonl is an input of this scan (clean.jsonl); refusing to overwrite it');
    expect(readFileSync(join(dir, 'clean.jsonl'), 'utf8')).toBe(readFileSync(join(ROOT, 'fixtures/cli/clean.jsonl'), 'utf8'));
  });
});

describe('ScanCache.events', () => {
  it('hands only the changed files to the scan, in input order', async () => {
    const config = await loadConfig(undefined, dir);
    const settings = resolveSettings(config, {});
    const judge = await createJudge(settings);
    const inputs = readdirSync(dir).sort();
    const asked: string[][] = [];
    const run = async (): Promise<string[]> => {
      const warnings: string[] = [];
      const cache = ScanCache.open({ location: '.guard-cache', cwd: dir, strategy: 'metadata', version: VERSION, configHash: configHash(settings, {}), warn: (m) => void warnings.push(m) });
      const seen: string[] = [];
      for await (const ev of cache.events(inputs, (list) => {
        asked.push(list);
        return scanInputsParallel(list, { judge, stdin: process.stdin, cwd: dir }, { jobs: 1, expanded: true, setup: { settings } });
      })) if (ev.kind === 'file-end') seen.push(ev.file);
      cache.commit();
      expect(warnings).toEqual([]);
      return seen;
    };
    expect(await run()).toEqual(inputs);
    appendFileSync(join(dir, 'clean.jsonl'), '\n');
    expect(await run()).toEqual(inputs);
    expect(await run()).toEqual(inputs);
    expect(asked).toEqual([inputs, ['clean.jsonl']]);
  });
});
