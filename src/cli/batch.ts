/**
 * Batching of report output: `guard scan` writes one record per reply, and one stream write per
 * record cost more than building the record (a synchronous write for a file or /dev/null). Records
 * are gathered and written together once {@link BATCH_CHARS} have accumulated, or
 * {@link BATCH_DELAY_MS} after the first of them, so a reader following a live scan (stdin from a
 * gateway) still sees each record promptly.
 */

/** Characters gathered before a write: 64 Ki. */
export const BATCH_CHARS = 64 * 1024;

/** Longest time a record waits to be written, in ms. */
export const BATCH_DELAY_MS = 50;

/** What is added: text, or bytes (a cached report, UTF-8). */
export type Chunk = string | Uint8Array;

/** Gathers strings and writes them to one destination in batches, in order. */
export class OutputBatcher {
  private parts: string[] = [];
  private chars = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  /**
   * @param write where a batch goes (a stream's write, or a spinner-aware wrapper of it).
   * @param writeBytes where bytes go (the same destination); without it they are decoded and given to `write`.
   */
  constructor(
    private readonly write: (s: string) => void,
    private readonly writeBytes: (b: Uint8Array) => void = (b) => write(Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8')),
  ) {}

  /**
   * Adds `s` to the batch; writes the batch once it holds {@link BATCH_CHARS}. Bytes are written
   * at once, after what is gathered (they are a whole file's report, replayed from the cache).
   */
  add = (s: Chunk): void => {
    if (typeof s !== 'string') {
      this.flush();
      if (s.length > 0) this.writeBytes(s);
      return;
    }
    this.parts.push(s);
    this.chars += s.length;
    if (this.chars >= BATCH_CHARS) this.flush();
    else if (this.timer === null) {
      this.timer = setTimeout(() => this.flush(), BATCH_DELAY_MS);
      this.timer.unref?.();
    }
  };

  /** Writes whatever is gathered now. */
  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.parts.length === 0) return;
    const s = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    this.chars = 0;
    this.write(s);
  }
}
