/**
 * `guard scan --cache`: incremental rescans (ESLint's `--cache`). A cache file remembers, per
 * input file, its size, mtime and SHA-256, and the scan events the file gave (its verdicts,
 * problems and `file-end`, texts of replies without markup dropped as in src/scan/worker.ts
 * `slim`). A later scan with the same guard version, Node (V8 serialisation) and effective
 * configuration does not read an unchanged file: its events are replayed into the same report
 * pipeline as a fresh scan's, so every report format comes out byte for byte the same.
 *
 * Layout of the file (one file, read by offset, so a replay holds one file's events at a time):
 * the magic line {@link CACHE_MAGIC}; the blobs (`v8.serialize` of one file's event array, and for
 * a streaming report format without a baseline, of the report text its events gave, see
 * {@link CacheEntry.rendered}); 
 * the index (UTF-8 JSON, snake_case keys, {@link CacheIndex}); 8 bytes: the index's offset
 * (big-endian unsigned). The file is written beside its destination and renamed into place, and
 * only when it would differ from the old one: a rescan that replays every file unchanged leaves
 * the cache as it is (rewriting it cost a rescan of 200 MB a third of its time: writing, fsync
 * and freeing the old file). Blobs carried from the old file into a new one keep their SHA-256
 * (copied as they are, never re-hashed, so a damaged blob stays detectable).
 *
 * Never trusted blindly, never fatal: a file that is not a cache of this layout, an index that
 * does not parse, a blob whose SHA-256 differs from its index entry, or a cache that cannot be
 * read or written is a warning, and the files concerned are scanned.
 */

import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, fstatSync, fsyncSync, mkdirSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { ReadOptions } from '../capture/read.js';
import type { JudgeSettings } from '../verdict/engines.js';
import { eventBytes } from './parallel.js';
import { readChunkBytes, slimmed, type ScanEvent } from './scan.js';
import type { WorkerEvent } from './worker-protocol.js';
import { RenderingPipeline, type RenderSetup } from './report-pipeline.js';

/** The default `--cache-location`, relative to the current directory. */
export const DEFAULT_CACHE_LOCATION = '.guard-cache';

/** The first bytes of every cache file; the digit is the layout's version. */
export const CACHE_MAGIC = 'guard-cache 1\n';

/**
 * How an input is known unchanged (`--cache-strategy`): `metadata` (default), same size and
 * mtime, or same size and SHA-256 when the mtime changed (a `touch`, a fresh checkout);
 * `content`, same size and SHA-256 whatever the mtime.
 */
export type CacheStrategy = 'metadata' | 'content';
export const CACHE_STRATEGIES: readonly CacheStrategy[] = ['metadata', 'content'];

/**
 * Most scan events kept for one file, in estimated bytes ({@link eventBytes}): 16 MiB. A file
 * whose events are larger is scanned each time (and counted as not cached): the events of a file
 * are held in memory until its `file-end`, and this bounds that memory and the cache's size.
 */
export const MAX_CACHED_FILE_BYTES = 16 * 1024 * 1024;

/** One cached input, as the index stores it. */
export interface CacheEntry {
  /** The absolute path. */
  path: string;
  /** The path as given to the scan: copied into every event, so it must match to replay. */
  file: string;
  size: number;
  mtime_ms: number;
  sha256: string;
  /** The blob of the file's scan events (a `ScanEvent[]`). */
  events: BlobRef;
  /**
   * The blob of the file's report as a streaming format writes it (src/scan/report-pipeline.ts
   * RenderingPipeline: `rendered` events and the `file-end`), for the report options `key` names
   * (format, redaction, fail-on, allow marks); replayed instead of the events when a scan asks for
   * the same, which skips rebuilding the verdicts and writing the records again. Null when none.
   */
  rendered: (BlobRef & { key: string }) | null;
}

/** Where a blob is in the cache file, its length and SHA-256. */
export interface BlobRef {
  offset: number;
  length: number;
  sha256: string;
}

/** The index at the end of a cache file. */
export interface CacheIndex {
  guard_version: string;
  /** V8's version: `v8.serialize` blobs are read back by the same V8 only. */
  v8_version: string;
  config_hash: string;
  entries: CacheEntry[];
}

/** What a cache needs to know of the scan it serves. */
export interface CacheSetup {
  /** The cache file, relative to `cwd`. */
  location: string;
  cwd: string;
  strategy: CacheStrategy;
  /** guard's version (src/cli/version.ts). */
  version: string;
  /** {@link configHash} of the scan's effective configuration. */
  configHash: string;
  /**
   * The report options of a streaming format without a baseline (the scan's own, as workers get
   * them): files' rendered reports are then stored and replayed too. Null or absent otherwise.
   */
  render?: RenderSetup | null;
  /** Told every problem with the cache (a line of text, without the `guard:` prefix). */
  warn: (message: string) => void;
}

/** The counts of a scan with the cache, for the line on stderr. */
export interface CacheStats {
  /** Files whose events were replayed from the cache (not read). */
  replayed: number;
  /** Files read and judged. */
  scanned: number;
  /** Files scanned whose events were not stored: larger than {@link MAX_CACHED_FILE_BYTES}, unreadable, or changed while read. */
  uncached: number;
  /** True when the cache file could not be written (a warning said why): nothing of this scan was stored. */
  unwritable: boolean;
}

/**
 * The hash of everything that changes the scan's events: the engine settings (rules, mode, prose
 * ceiling, tools) and the read options (input format, line and document limits). What is applied
 * when events are reported (fail-on, baseline, allow marks, redaction, the report format) is not
 * part of it: those are applied afresh to replayed events.
 *
 * @returns a SHA-256, hex.
 */
export function configHash(settings: JudgeSettings, read: ReadOptions): string {
  // v8.serialize: the settings are structured-clone data (they are a worker's workerData)
  return createHash('sha256').update(serialize({ settings, read })).digest('hex');
}

/** The SHA-256 (hex) of a file's bytes. @throws the file system's error. */
export async function fileSha256(abs: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(abs, { highWaterMark: await readChunkBytes(abs) })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The index of a cache file, or a reason why it is not one. */
function readIndex(fd: number): CacheIndex | string {
  const size = fstatSync(fd).size;
  const magic = Buffer.byteLength(CACHE_MAGIC);
  if (size < magic + 8) return 'not a guard cache (too short)';
  const head = Buffer.alloc(magic);
  readSync(fd, head, 0, magic, 0);
  if (head.toString('latin1') !== CACHE_MAGIC) return 'not a guard cache (no guard-cache header)';
  const foot = Buffer.alloc(8);
  readSync(fd, foot, 0, 8, size - 8);
  const at = Number(foot.readBigUInt64BE(0));
  if (at < magic || at > size - 8) return 'corrupt (index offset out of range)';
  const text = Buffer.alloc(size - 8 - at);
  readSync(fd, text, 0, text.length, at);
  let index: unknown;
  try {
    index = JSON.parse(text.toString('utf8'));
  } catch {
    return 'corrupt (the index is not JSON)';
  }
  if (!validIndex(index, at)) return 'corrupt (the index does not have the expected fields)';
  return index;
}

/** True when `v` is an index whose blobs all lie before `end`. */
function validIndex(v: unknown, end: number): v is CacheIndex {
  if (typeof v !== 'object' || v === null) return false;
  const i = v as Record<string, unknown>;
  if (typeof i['guard_version'] !== 'string' || typeof i['v8_version'] !== 'string' || typeof i['config_hash'] !== 'string' || !Array.isArray(i['entries'])) return false;
  return i['entries'].every((e: unknown) => {
    if (typeof e !== 'object' || e === null) return false;
    const x = e as Record<string, unknown>;
    const num = (k: string) => Number.isSafeInteger(x[k]) && (x[k] as number) >= 0;
    return typeof x['path'] === 'string' && typeof x['file'] === 'string' && typeof x['sha256'] === 'string' && num('size') && typeof x['mtime_ms'] === 'number'
      && validBlob(x['events'], end) && (x['rendered'] === null || (validBlob(x['rendered'], end) && typeof (x['rendered'] as { key?: unknown }).key === 'string'));
  });
}

/** True when `v` is a blob reference that lies before `end`. */
function validBlob(v: unknown, end: number): v is BlobRef {
  if (typeof v !== 'object' || v === null) return false;
  const x = v as Record<string, unknown>;
  const num = (k: string) => Number.isSafeInteger(x[k]) && (x[k] as number) >= 0;
  return num('offset') && num('length') && typeof x['sha256'] === 'string' && (x['offset'] as number) + (x['length'] as number) <= end;
}

const sha256Of = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** A blob to write: the bytes, and for a rendered report the options it was written under. */
interface NewBlobs {
  events: Buffer;
  rendered: { key: string; bytes: Buffer } | null;
}

/** An input's state before the scan: a cache entry to replay, or the stat to store it against. */
type Plan = { kind: 'hit'; entry: CacheEntry; stat: Stats } | { kind: 'miss'; stat: Stats | null };

/** The cache of one scan: the previous cache file (read), and the next one (being written). */
export class ScanCache {
  readonly stats: CacheStats = { replayed: 0, scanned: 0, uncached: 0, unwritable: false };
  private readonly abs: string;
  /** The key of the scan's report options (CacheEntry.rendered), or null without them. */
  private readonly renderKey: string | null;
  private old: { fd: number; entries: Map<string, CacheEntry> } | null = null;
  /**
   * The next cache: its entries so far, and the temporary file once one is needed (see
   * {@link needFile}); null once it was dropped (it cannot be written) or committed. Entries
   * whose blobs are still only in the old file are `carried` until the file is opened.
   */
  private next: { file: { fd: number; temp: string; at: number } | null; entries: CacheEntry[]; carried: boolean[] } | null = null;
  /** True once the next cache differs from the old one (a new blob, a changed entry, a dropped one): only then is it written. */
  private changed = false;

  private constructor(private readonly setup: CacheSetup) {
    this.abs = resolve(setup.cwd, setup.location);
    this.renderKey = setup.render ? JSON.stringify(setup.render) : null;
  }

  /**
   * Opens the cache at `setup.location` (read, if it exists and fits) and starts the next one (a
   * temporary file beside it). Problems are told to `setup.warn`; never throws for them: a cache
   * that cannot be used leaves every file to be scanned, one that cannot be written leaves the
   * old one as it was.
   */
  static open(setup: CacheSetup): ScanCache {
    const cache = new ScanCache(setup);
    cache.load();
    cache.start();
    return cache;
  }

  private load(): void {
    let fd: number;
    try {
      fd = openSync(this.abs, 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.setup.warn(`cannot read the cache ${this.setup.location} (${(e as Error).message}); every file is scanned`);
      return;
    }
    let index: CacheIndex | string;
    try {
      index = fstatSync(fd).isFile() ? readIndex(fd) : 'not a regular file';
    } catch (e) {
      index = `cannot be read (${(e as Error).message})`;
    }
    const why = typeof index === 'string' ? `is ${index}` : this.staleness(index);
    if (why !== null) {
      closeSync(fd);
      this.setup.warn(`the cache ${this.setup.location} ${why}; it is ignored and every file is scanned`);
      return;
    }
    this.old = { fd, entries: new Map((index as CacheIndex).entries.map((e) => [e.path, e])) };
  }

  /** Why a well-formed index does not apply to this scan, or null when it does. */
  private staleness(index: CacheIndex): string | null {
    if (index.guard_version !== this.setup.version) return `was written by guard ${index.guard_version} (this is ${this.setup.version})`;
    if (index.v8_version !== process.versions.v8) return `was written by another Node version (V8 ${index.v8_version})`;
    if (index.config_hash !== this.setup.configHash) return 'was written under another configuration (rules, mode, prose ceiling, tools or input options)';
    return null;
  }

  private start(): void {
    this.next = { file: null, entries: [], carried: [] };
    // no usable old cache: the next one is written, even when empty (it replaces a foreign or stale file)
    if (this.old === null) this.changed = true;
  }

  /**
   * The next cache's temporary file, opened (beside the destination) on first need, with the
   * blobs of the entries carried so far copied from the old file; null when it cannot be written
   * (the next cache is then dropped, with a warning).
   */
  private needFile(): { fd: number; temp: string; at: number } | null {
    const next = this.next;
    if (!next) return null;
    if (next.file) return next.file;
    const temp = join(dirname(this.abs), `.${basename(this.abs)}.guard-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    try {
      // the folder of the cache is made when missing (`--cache-location new-dir/`), as ESLint does
      mkdirSync(dirname(this.abs), { recursive: true });
      const fd = openSync(temp, 'wx');
      next.file = { fd, temp, at: 0 };
      this.write(CACHE_MAGIC);
      next.entries = next.entries.map((e, i) => (next.carried[i] ? this.copied(e) : e));
      next.carried = next.entries.map(() => false);
      return next.file;
    } catch (e) {
      this.setup.warn(`cannot write the cache ${this.setup.location} (${(e as Error).message}); it is left as it was`);
      this.stats.unwritable = true;
      this.drop();
      return null;
    }
  }

  /** Writes to the next cache's file at its end. @throws the file system's error. */
  private write(bytes: Buffer | string): BlobRef['offset'] {
    const file = this.next!.file!;
    const at = file.at;
    const buf = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    writeSync(file.fd, buf);
    file.at += buf.length;
    return at;
  }

  /** An entry of the old cache with its blobs copied into the next file (their SHA-256 kept as they are). @throws when they cannot be read or written. */
  private copied(entry: CacheEntry): CacheEntry {
    const copy = (ref: BlobRef): BlobRef => {
      const blob = Buffer.alloc(ref.length);
      if (readSync(this.old!.fd, blob, 0, ref.length, ref.offset) !== ref.length) throw new Error(`the old cache is cut short`);
      return { offset: this.write(blob), length: ref.length, sha256: ref.sha256 };
    };
    return { ...entry, events: copy(entry.events), rendered: entry.rendered ? { key: entry.rendered.key, ...copy(entry.rendered) } : null };
  }

  /** Whether `file` is unchanged since its entry was written (its stat, and its SHA-256 where the strategy asks). */
  private async plan(file: string): Promise<Plan> {
    if (file === '-') return { kind: 'miss', stat: null };
    const abs = resolve(this.setup.cwd, file);
    let stat: Stats;
    try {
      stat = statSync(abs);
    } catch {
      return { kind: 'miss', stat: null };
    }
    if (!stat.isFile()) return { kind: 'miss', stat: null };
    const entry = this.old?.entries.get(abs);
    if (!entry || entry.file !== file || entry.size !== stat.size) return { kind: 'miss', stat };
    if (this.setup.strategy === 'metadata' && entry.mtime_ms === stat.mtimeMs) return { kind: 'hit', entry, stat };
    const sha = await fileSha256(abs).catch(() => null);
    return sha === entry.sha256 ? { kind: 'hit', entry, stat } : { kind: 'miss', stat };
  }

  /** A blob of the old cache. @throws when it cannot be read or its SHA-256 differs from the index's. */
  private readBlob(ref: BlobRef): Buffer {
    const blob = Buffer.alloc(ref.length);
    if (readSync(this.old!.fd, blob, 0, ref.length, ref.offset) !== ref.length) throw new Error('it is cut short');
    if (sha256Of(blob) !== ref.sha256) throw new Error('its checksum does not match');
    return blob;
  }

  /**
   * What to replay for an entry: its rendered report when it was written under this scan's report
   * options, else its events (and, with report options, the report rendered from them now for the
   * next cache; null otherwise). Null (with a warning) when the blob is not what the index says.
   */
  private replay(entry: CacheEntry): { events: WorkerEvent[]; rendered: NewBlobs['rendered'] } | null {
    try {
      const useRendered = entry.rendered !== null && entry.rendered.key === this.renderKey;
      const list = deserialize(this.readBlob(useRendered ? entry.rendered! : entry.events)) as unknown;
      if (!Array.isArray(list)) throw new Error('it is not a list of events');
      if (useRendered) return { events: list as WorkerEvent[], rendered: null };
      // stored without this scan's report options: rendered now, for the next scan (a scan
      // without them keeps the stored one)
      return { events: list as ScanEvent[], rendered: this.rendering(list as ScanEvent[], entry.file) };
    } catch (e) {
      this.setup.warn(`the cache ${this.setup.location}: the entry of ${entry.file} is unusable (${(e as Error).message}); the file is scanned`);
      return null;
    }
  }

  /** The serialised report of a file's events under the scan's report options, or null without them. */
  private rendering(events: ScanEvent[], file: string): NewBlobs['rendered'] {
    if (!this.setup.render || this.renderKey === null) return null;
    // the report text as UTF-8 bytes: replayed as they are, neither decoded nor encoded again
    const rendered = new RenderingPipeline(this.setup.render).render(events, file).map((ev) => (ev.kind === 'rendered' && typeof ev.text === 'string' ? { ...ev, text: Buffer.from(ev.text, 'utf8') } : ev));
    return { key: this.renderKey, bytes: serialize(rendered) };
  }

  /** Runs a write to the next cache; a failure drops the next cache, with a warning (the old one stays). */
  private writing(what: () => void): void {
    try {
      what();
    } catch (e) {
      this.setup.warn(`cannot write the cache ${this.setup.location} (${(e as Error).message}); it is left as it was`);
      this.stats.unwritable = true;
      this.drop();
    }
  }

  /** Appends a blob to the next cache's file. @throws the file system's error. */
  private put(bytes: Buffer): BlobRef {
    return { offset: this.write(bytes), length: bytes.length, sha256: sha256Of(bytes) };
  }

  /**
   * Keeps an entry of the old cache in the next one: by reference while the next cache has no file
   * (nothing is copied unless it must be written), else copied into it.
   */
  private carry(entry: CacheEntry): void {
    const next = this.next;
    if (!next) return;
    if (next.file === null) {
      next.entries.push(entry);
      next.carried.push(true);
      return;
    }
    this.writing(() => {
      next.entries.push(this.copied(entry));
      next.carried.push(false);
    });
  }

  /** Adds an entry with new blobs to the next cache (which is then written). */
  private append(entry: Omit<CacheEntry, 'events' | 'rendered'>, blobs: NewBlobs): void {
    this.changed = true;
    if (!this.needFile()) return;
    this.writing(() => {
      const events = this.put(blobs.events);
      const rendered = blobs.rendered ? { key: blobs.rendered.key, ...this.put(blobs.rendered.bytes) } : null;
      this.next!.entries.push({ path: entry.path, file: entry.file, size: entry.size, mtime_ms: entry.mtime_ms, sha256: entry.sha256, events, rendered });
      this.next!.carried.push(false);
    });
  }

  /** Keeps a replayed entry: as it was, or with its new mtime, or with the report rendered under this scan's options. */
  private keep(entry: CacheEntry, mtimeMs: number, rendered: NewBlobs['rendered']): void {
    const kept = mtimeMs === entry.mtime_ms ? entry : { ...entry, mtime_ms: mtimeMs };
    if (kept !== entry) this.changed = true;
    if (rendered === null) return this.carry(kept);
    this.changed = true;
    if (!this.needFile()) return;
    this.writing(() => {
      const copy = this.copied({ ...kept, rendered: null });
      this.next!.entries.push({ ...copy, rendered: { key: rendered.key, ...this.put(rendered.bytes) } });
      this.next!.carried.push(false);
    });
  }

  /** Stores the events of a scanned file, if it can be cached and did not change while read. */
  private async store(file: string, stat: Stats | null, events: ScanEvent[] | null): Promise<void> {
    if (stat === null || events === null || !this.next) {
      // a cache that cannot be written is said once (CacheStats.unwritable), not as files' reasons
      if (file !== '-' && !this.stats.unwritable) this.stats.uncached++;
      return;
    }
    const abs = resolve(this.setup.cwd, file);
    try {
      const sha256 = await fileSha256(abs);
      const after = statSync(abs);
      if (after.size !== stat.size || after.mtimeMs !== stat.mtimeMs) throw new Error('changed while read');
      this.append({ path: abs, file, size: stat.size, mtime_ms: stat.mtimeMs, sha256 }, { events: serialize(events), rendered: this.rendering(events, file) });
    } catch {
      this.stats.uncached++;
    }
  }

  /**
   * The scan events of `inputs` (expanded inputs, in order), each file's replayed from the cache
   * when it is unchanged, else from `scan`; the events of scanned files are stored for the next
   * cache. Yields exactly what `scan(inputs)` would (the texts of replies without markup aside,
   * which no report reads).
   *
   * @param scan scans files (in the order given) and yields their events, each file's ending
   *   with its `file-end` (src/scan/parallel.ts with `expanded`); it is called once with every
   *   file to scan, and again with one file whose cache entry turned out unusable; never when
   *   every file is replayed (so a caller may load its engines there, lazily).
   */
  async *events(inputs: readonly string[], scan: (files: string[]) => AsyncIterable<WorkerEvent>): AsyncGenerator<WorkerEvent> {
    const plans = new Map<string, Plan>();
    for (const f of inputs) if (!plans.has(f)) plans.set(f, await this.plan(f));
    const misses = inputs.filter((f) => plans.get(f)!.kind === 'miss');
    const it = (misses.length ? scan(misses) : (async function* () {})())[Symbol.asyncIterator]();
    try {
      for (const file of inputs) {
        const plan = plans.get(file)!;
        if (plan.kind === 'hit') {
          const got = this.replay(plan.entry);
          if (got !== null) {
            this.stats.replayed++;
            this.keep(plan.entry, plan.stat.mtimeMs, got.rendered);
            yield* got.events;
            continue;
          }
          const alone = scan([file])[Symbol.asyncIterator]();
          try {
            yield* this.scanned(file, plan.stat, alone);
          } finally {
            await alone.return?.(undefined);
          }
          continue;
        }
        yield* this.scanned(file, plan.stat, it);
      }
    } finally {
      await it.return?.(undefined);
    }
  }

  /** Yields the events of `file` from `it` up to its `file-end`, gathering them to store. */
  private async *scanned(file: string, stat: Stats | null, it: AsyncIterator<WorkerEvent>): AsyncGenerator<WorkerEvent> {
    this.stats.scanned++;
    // whether stored or not, the old entry of a scanned file (if any) is not carried
    if (file !== '-') this.changed = true;
    let kept: ScanEvent[] | null = stat === null ? null : [];
    let bytes = 0;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      const ev = r.value;
      yield ev;
      if (kept !== null) {
        if (ev.kind === 'rendered' || (ev.kind === 'error' && (ev.error.code === 'UNREADABLE' || ev.error.code === 'INTERNAL_ERROR'))) kept = null;
        else {
          const slim = slimmed(ev);
          bytes += eventBytes(slim);
          kept = bytes > MAX_CACHED_FILE_BYTES ? null : (kept.push(slim), kept);
        }
      }
      if (ev.kind === 'file-end' && ev.file === file) break;
    }
    await this.store(file, stat, kept);
  }

  /**
   * Finishes the next cache: keeps the entries of files this scan did not name that still exist
   * (checked when they are next used), and, when the next cache differs from the old one, writes
   * the index and renames the file over the old one; an unchanged cache is left as it is.
   * Problems are warnings; the old cache is then left as it was.
   */
  commit(): void {
    const next = this.next;
    if (!next) return this.closeOld();
    const done = new Set(next.entries.map((e) => e.path));
    for (const entry of this.old?.entries.values() ?? []) {
      if (done.has(entry.path)) continue;
      let exists = false;
      try {
        exists = statSync(entry.path).isFile();
      } catch {
        exists = false;
      }
      // carried as it is (a damaged blob keeps its checksum, so it is found when next used)
      if (exists) this.carry(entry);
      else this.changed = true;
      if (!this.next) return this.closeOld();
    }
    if (!this.changed) {
      // every entry is the old cache's, unchanged: nothing to write
      this.next = null;
      return this.closeOld();
    }
    const file = this.needFile();
    if (!file) return this.closeOld();
    try {
      const index: CacheIndex = { guard_version: this.setup.version, v8_version: process.versions.v8, config_hash: this.setup.configHash, entries: next.entries };
      const foot = Buffer.alloc(8);
      foot.writeBigUInt64BE(BigInt(file.at));
      this.write(JSON.stringify(index));
      this.write(foot);
      fsyncSync(file.fd);
      closeSync(file.fd);
      renameSync(file.temp, this.abs);
      this.next = null;
    } catch (e) {
      this.setup.warn(`cannot write the cache ${this.setup.location} (${(e as Error).message}); it is left as it was`);
      this.stats.unwritable = true;
      this.drop();
    }
    this.closeOld();
  }

  /** Drops the next cache (an interrupted or failed scan): the old one is left as it was. */
  discard(): void {
    this.drop();
    this.closeOld();
  }

  /** Drops the next cache and removes its temporary file, if any; the old one stays open for replay. */
  private drop(): void {
    const file = this.next?.file ?? null;
    this.next = null;
    if (file) {
      try {
        closeSync(file.fd);
      } catch {
        // already closed
      }
      try {
        unlinkSync(file.temp);
      } catch {
        // already gone
      }
    }
  }

  private closeOld(): void {
    if (this.old) closeSync(this.old.fd);
    this.old = null;
  }
}
