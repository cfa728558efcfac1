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
 * (big-endian unsigned). The file is written beside its destination and renamed into place.
 *
 * Never trusted blindly, never fatal: a file that is not a cache of this layout, an index that
 * does not parse, a blob whose SHA-256 differs from its index entry, or a cache that cannot be
 * read or written is a warning, and the files concerned are scanned.
 */

import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, fstatSync, fsyncSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { ReadOptions } from '../capture/read.js';
import type { JudgeSettings } from '../verdict/engines.js';
import { eventBytes } from './parallel.js';
import { slimmed, type ScanEvent } from './scan.js';
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
  for await (const chunk of createReadStream(abs)) hash.update(chunk as Buffer);
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
  readonly stats: CacheStats = { replayed: 0, scanned: 0, uncached: 0 };
  private readonly abs: string;
  /** The key of the scan's report options (CacheEntry.rendered), or null without them. */
  private readonly renderKey: string | null;
  private old: { fd: number; entries: Map<string, CacheEntry> } | null = null;
  private next: { fd: number; temp: string; at: number; entries: CacheEntry[] } | null = null;

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
    const temp = join(dirname(this.abs), `.${basename(this.abs)}.guard-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    try {
      const fd = openSync(temp, 'wx');
      writeSync(fd, CACHE_MAGIC);
      this.next = { fd, temp, at: Buffer.byteLength(CACHE_MAGIC), entries: [] };
    } catch (e) {
      this.setup.warn(`cannot write the cache ${this.setup.location} (${(e as Error).message}); it is left as it was`);
    }
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
   * options, else its events; with the blobs to carry into the next cache. Null (with a warning)
   * when a blob is not what the index says.
   */
  private replay(entry: CacheEntry): { events: WorkerEvent[]; blobs: NewBlobs } | null {
    try {
      const events = this.readBlob(entry.events);
      const rendered = entry.rendered !== null && entry.rendered.key === this.renderKey ? this.readBlob(entry.rendered) : null;
      const list = deserialize(rendered ?? events) as unknown;
      if (!Array.isArray(list)) throw new Error('it is not a list of events');
      if (rendered !== null) return { events: list as WorkerEvent[], blobs: { events, rendered: { key: entry.rendered!.key, bytes: rendered } } };
      // stored without this scan's report options: rendered now, for the next scan (a scan
      // without them keeps the stored one)
      const kept = entry.rendered !== null ? { key: entry.rendered.key, bytes: this.readBlob(entry.rendered) } : null;
      return { events: list as ScanEvent[], blobs: { events, rendered: this.rendering(list as ScanEvent[], entry.file) ?? kept } };
    } catch (e) {
      this.setup.warn(`the cache ${this.setup.location}: the entry of ${entry.file} is unusable (${(e as Error).message}); the file is scanned`);
      return null;
    }
  }

  /** The serialised report of a file's events under the scan's report options, or null without them. */
  private rendering(events: ScanEvent[], file: string): NewBlobs['rendered'] {
    if (!this.setup.render || this.renderKey === null) return null;
    return { key: this.renderKey, bytes: serialize(new RenderingPipeline(this.setup.render).render(events, file)) };
  }

  /** Appends an entry's blobs to the next cache file (a write failure drops the next cache, with a warning). */
  private append(entry: Omit<CacheEntry, 'events' | 'rendered'>, blobs: NewBlobs): void {
    const next = this.next;
    if (!next) return;
    const put = (bytes: Buffer): BlobRef => {
      writeSync(next.fd, bytes);
      const ref = { offset: next.at, length: bytes.length, sha256: sha256Of(bytes) };
      next.at += bytes.length;
      return ref;
    };
    try {
      const events = put(blobs.events);
      const rendered = blobs.rendered ? { key: blobs.rendered.key, ...put(blobs.rendered.bytes) } : null;
      next.entries.push({ path: entry.path, file: entry.file, size: entry.size, mtime_ms: entry.mtime_ms, sha256: entry.sha256, events, rendered });
    } catch (e) {
      this.setup.warn(`cannot write the cache ${this.setup.location} (${(e as Error).message}); it is left as it was`);
      this.discard();
    }
  }

  /** Stores the events of a scanned file, if it can be cached and did not change while read. */
  private async store(file: string, stat: Stats | null, events: ScanEvent[] | null): Promise<void> {
    if (stat === null || events === null || !this.next) {
      if (file !== '-') this.stats.uncached++;
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
   *   file to scan, and again with one file whose cache entry turned out unusable.
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
            this.append({ ...plan.entry, mtime_ms: plan.stat.mtimeMs }, got.blobs);
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
   * (checked when they are next used), writes the index, and renames the file over the old one.
   * Problems are warnings; the old cache is then left as it was.
   */
  commit(): void {
    const next = this.next;
    if (!next) return this.closeOld();
    const done = new Set(next.entries.map((e) => e.path));
    try {
      for (const entry of this.old?.entries.values() ?? []) {
        if (done.has(entry.path)) continue;
        let exists = false;
        try {
          exists = statSync(entry.path).isFile();
        } catch {
          exists = false;
        }
        if (!exists) continue;
        // a damaged entry is dropped, never carried over under a fresh checksum
        let blobs: NewBlobs;
        try {
          blobs = { events: this.readBlob(entry.events), rendered: entry.rendered ? { key: entry.rendered.key, bytes: this.readBlob(entry.rendered) } : null };
        } catch {
          continue;
        }
        this.append(entry, blobs);
        if (!this.next) return this.closeOld();
      }
      const index: CacheIndex = { guard_version: this.setup.version, v8_version: process.versions.v8, config_hash: this.setup.configHash, entries: next.entries };
      const foot = Buffer.alloc(8);
      foot.writeBigUInt64BE(BigInt(next.at));
      writeSync(next.fd, JSON.stringify(index));
      writeSync(next.fd, foot);
      fsyncSync(next.fd);
      closeSync(next.fd);
      renameSync(next.temp, this.abs);
      this.next = null;
    } catch (e) {
      this.setup.warn(`cannot write the cache ${this.setup.location} (${(e as Error).message}); it is left as it was`);
      this.discard();
    }
    this.closeOld();
  }

  /** Drops the next cache (an interrupted or failed scan): the old one is left as it was. */
  discard(): void {
    const next = this.next;
    this.next = null;
    if (next) {
      try {
        closeSync(next.fd);
      } catch {
        // already closed
      }
      try {
        unlinkSync(next.temp);
      } catch {
        // already gone
      }
    }
    this.closeOld();
  }

  private closeOld(): void {
    if (this.old) closeSync(this.old.fd);
    this.old = null;
  }
}
