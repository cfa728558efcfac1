/**
 * Operator-supplied regular expressions, run on RE2 (npm `re2-wasm`, Google's RE2 compiled to
 * WebAssembly, shipped inside the package: nothing is downloaded or built at install time). RE2
 * matches in time linear in the input, so no custom pattern can hang guard the way a
 * backtracking JavaScript `RegExp` can on `(a+)+$` (docs/rules.md "Patterns cannot hang guard";
 * ThinkWatch runs its rules on Rust's linear-time `regex` for the same reason, docs/sources.md
 * "Inspection rule peers"). RE2 syntax is close to JavaScript's but has no lookaround and no
 * backreferences; such patterns are refused when the rule set is built.
 */
import { createRequire } from 'node:module';

type Re2Class = typeof import('re2-wasm').RE2;

/** Messages re2-wasm's emscripten runtime printed (it would print them to stderr); the last few. */
const engineMessages: string[] = [];

/**
 * Loads a new instance of re2-wasm (its own WebAssembly heap) with its emscripten output routed
 * here: the runtime binds `console.warn` once, when it loads, as its `printErr` (abort and
 * out-of-memory messages), so that binding is made to a function that keeps the message instead
 * of printing it. The module is taken out of Node's require cache first, so each call runs the
 * emscripten loader again (~10-25 ms) and gets a fresh heap; nothing else is changed.
 */
function loadRe2(): Re2Class {
  const require = createRequire(import.meta.url);
  for (const id of ['re2-wasm', 're2-wasm/build/wasm/re2.js']) {
    try {
      delete require.cache[require.resolve(id)];
    } catch {
      // not resolvable under that name: loaded as before
    }
  }
  // eslint-disable-next-line no-console
  const saved = console.warn;
  // eslint-disable-next-line no-console
  console.warn = (...args: unknown[]) => {
    engineMessages.push(args.map(String).join(' ').slice(0, 500));
    if (engineMessages.length > 8) engineMessages.shift();
  };
  try {
    return (require('re2-wasm') as typeof import('re2-wasm')).RE2;
  } finally {
    // eslint-disable-next-line no-console
    console.warn = saved;
  }
}

/** One instance of the regex engine and the custom patterns compiled into its heap. */
interface Re2Heap {
  RE2: Re2Class;
  /** Custom patterns compiled into it (freed ones included: RE2's allocator fragments). */
  patterns: number;
  /** Their estimated program bytes ({@link estimateProgramBytes}). */
  bytes: number;
}

/**
 * How many custom patterns one regex-engine heap takes before custom patterns go to a fresh one.
 * re2-wasm's heap is a fixed 16 MiB that a pattern freed late (a rule set dropped without
 * `dispose()`, reclaimed only when its finalizer runs, which a synchronous loop never lets happen)
 * does not give back in time: 3 947 rule sets of one small custom pattern compiled in one loop
 * exhausted it, and then every pattern in it failed, those of live rule sets too. So custom
 * patterns fill a heap only to these bounds (about 4 KiB a pattern measured, with its automaton
 * after the timing probes: ~4 MiB of 16), then a new instance takes them; a heap nothing uses any
 * more is garbage-collected whole, whatever was not freed in it.
 */
export const CUSTOM_PATTERNS_PER_HEAP = { patterns: 1024, bytes: 4 * 1024 * 1024 } as const;

/** The first instance: guard's own patterns, and custom patterns until it is full. */
let firstHeap: Re2Heap | null = null;
/** The instance custom patterns go to now. */
let customHeap: Re2Heap | null = null;

/** A new regex-engine instance, counted. */
function newHeap(): Re2Heap {
  heapsLoaded++;
  return { RE2: loadRe2(), patterns: 0, bytes: 0 };
}

let heapsLoaded = 0;

/** Regex-engine instances loaded so far in this process (for tests). */
export function regexHeapsLoaded(): number {
  return heapsLoaded;
}

/**
 * The RE2 class to compile a pattern with: guard's own patterns always use the first instance,
 * loaded on the first pattern compiled (~0.1-0.2 s of start-up: its WebAssembly module), so a
 * scan that compiles none (a rescan replayed from the cache) never loads it; a custom pattern of
 * estimated `size` bytes goes to the current custom heap, or to a fresh one once that is full
 * ({@link CUSTOM_PATTERNS_PER_HEAP}).
 */
function re2For(custom: boolean, size: number): Re2Class {
  firstHeap ??= newHeap();
  if (!custom) return firstHeap.RE2;
  let heap = (customHeap ??= firstHeap);
  if (heap.patterns >= CUSTOM_PATTERNS_PER_HEAP.patterns || (heap.bytes > 0 && heap.bytes + size > CUSTOM_PATTERNS_PER_HEAP.bytes)) heap = customHeap = newHeap();
  heap.patterns++;
  heap.bytes += size;
  return heap.RE2;
}

/** The last message the regex engine printed (an out-of-memory abort, say), or null. */
export function regexEngineMessage(): string | null {
  return engineMessages[engineMessages.length - 1] ?? null;
}

/**
 * re2-wasm runs in a fixed 16 MiB WebAssembly heap shared by every compiled pattern (built-in
 * raw patterns included); a pattern whose compiled program does not fit makes emscripten abort.
 * Measured on re2-wasm 1.0.2: `\pL{100}` alone does not fit, `\pL{30}` fits 24 times, `.{1000}`
 * 54 times, `a{1000}` and `\d{1000}` 100 times and more. {@link estimateProgramBytes} models that
 * (a Unicode class about 24 KiB, `.`/a negated or case-folded class about 300 bytes, anything
 * else about 100, multiplied out by counted repetitions); a pattern over `perPattern` or custom
 * patterns together over `total` are refused when a rule set is built.
 */
export const PATTERN_MEMORY = { perPattern: 2 * 1024 * 1024, total: 6 * 1024 * 1024 } as const;

/**
 * Estimated bytes of RE2 program a pattern compiles to (see {@link PATTERN_MEMORY}): atoms
 * weighted by kind, groups summed over alternatives, each counted repetition `{n}`, `{n,}`,
 * `{n,m}` multiplying what it repeats by its largest count. Linear in the pattern.
 */
export function estimateProgramBytes(source: string, flags = ''): number {
  const fold = flags.includes('i') || /^\(\?[a-z]*i/.test(source);
  const stack: { total: number; branch: number; last: number }[] = [{ total: 0, branch: 0, last: 0 }];
  const top = () => stack[stack.length - 1]!;
  const atom = (cost: number) => {
    top().branch += cost;
    top().last = cost;
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const n = source[i + 1] ?? '';
      if (n === 'p' || n === 'P') {
        i += source[i + 2] === '{' ? source.indexOf('}', i) - i : 2;
        atom(24 * 1024);
      } else {
        i++;
        atom(/[DWS]/.test(n) ? 300 : 100);
      }
    } else if (c === '[') {
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      const body = source.slice(i, j + 1);
      atom(/\\[pP]|\[:\^?alpha:|[^\x00-\x7f]/.test(body) ? 24 * 1024 : body.startsWith('[^') || fold ? 300 : 100);
      i = j;
    } else if (c === '(') {
      stack.push({ total: 0, branch: 0, last: 0 });
      if (source[i + 1] === '?') while (i < source.length && source[i] !== ':' && source[i] !== ')' && source[i] !== '>') i++;
    } else if (c === '|') {
      top().total += top().branch;
      top().branch = 0;
    } else if (c === ')' && stack.length > 1) {
      const g = stack.pop()!;
      atom(g.total + g.branch);
    } else if (c === '{' && /^\{\d+(?:,\d*)?\}/.test(source.slice(i))) {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(source.slice(i))!;
      const count = Math.max(Number(m[1]), m[2] === undefined ? 0 : m[2] === '' ? Number(m[1]) + 1 : Number(m[2]));
      top().branch += top().last * (count - 1);
      top().last *= count;
      i += m[0].length - 1;
    } else if (c === '.') {
      atom(300);
    } else if (!'*+?^$'.includes(c)) {
      atom(fold && /[a-z]/i.test(c) ? 200 : 100);
    }
  }
  while (stack.length > 1) {
    const g = stack.pop()!;
    atom(g.total + g.branch);
  }
  return top().total + top().branch;
}

/** True when an error from re2-wasm is emscripten's out-of-memory abort. */
function outOfMemory(message: string): boolean {
  return /Cannot enlarge memory|\(OOM\)|^abort\(/.test(message);
}

/** A compiled custom pattern. */
export interface TextPattern {
  /** The pattern as written. */
  readonly source: string;
  /**
   * The first match in `text`, as UTF-16 offsets (`start` inclusive, `end` exclusive), or null.
   * Texts longer than {@link MATCH_WINDOW} characters are matched window by window (windows
   * overlap by {@link MATCH_OVERLAP}), so the engine's fixed heap never has to hold the whole text.
   * A match touching the end of a window that is not the last is looked at again from its start.
   * Not seen: a match longer than a window; `^` without the `m` flag also matches at the start of
   * a later window.
   *
   * @throws PatternMatchError when the engine fails on a window (out of memory, say): the caller
   *   must treat the text as not inspected (inspection fails closed), never as "no match".
   */
  find(text: string): { start: number; end: number } | null;
  /**
   * Frees the compiled program in the regex engine's fixed heap. Patterns are also freed when
   * garbage-collected (a dropped rule set), so a long-lived process can compile rule sets forever;
   * `find` after `dispose` throws.
   */
  dispose(): void;
}

/** A compiled RE2 object's native side (an embind handle): freed with `delete()`. */
interface Wrapped {
  wrapper?: { delete?: () => void };
}

/** Frees the native program of a compiled RE2 object; never throws. */
function free(re: unknown): void {
  try {
    (re as Wrapped).wrapper?.delete?.();
  } catch {
    // already freed
  }
}

/** Frees the programs of patterns the garbage collector reclaims (rule sets a caller dropped). */
const reclaim = new FinalizationRegistry<unknown>((re) => free(re));

/**
 * Time budgets of a custom pattern, measured when it is compiled (a rule set is built): RE2 is
 * linear in its input, but its constant grows with the compiled program (`[a-z]{1,1000}z` took
 * ~1 s to compile and ~2.5 s per 64 KiB), so one such rule made every scan slow to start and to
 * run. Generous, so a loaded machine does not refuse a sound pattern. `totalMs` bounds the time
 * all the custom patterns of one rule set take to compile and time together (sixty patterns each
 * under the per-pattern budget made every start take 10-20 s): a pattern after it is refused.
 */
export const PATTERN_BUDGET = { programBytes: 32 * 1024, compileMs: 1000, probeMs: 250, probeChars: 4096, totalMs: 3000 } as const;

/** Texts a custom pattern is timed on: a run of one letter, and mixed ASCII. */
const PROBES: readonly string[] = ['a'.repeat(PATTERN_BUDGET.probeChars), Array.from({ length: PATTERN_BUDGET.probeChars }, (_, i) => String.fromCharCode(32 + ((i * 7919) % 95))).join('')];

/** Texts longer than this (UTF-16 code units) are matched in windows of this size. */
export const MATCH_WINDOW = 1 << 20;
/** Characters shared by neighbouring match windows. */
export const MATCH_OVERLAP = 64 * 1024;

/** The regex engine failed while matching: the text was not read. */
export class PatternMatchError extends Error {
  constructor(reason: string) {
    super(`the regex engine failed while matching: ${reason}`);
    this.name = 'PatternMatchError';
  }
}

/** Flags a custom pattern may carry: `i` (ignore case), `m` (multi-line `^`/`$`), `s` (`.` matches newline). */
export const PATTERN_FLAGS = /^[ims]*$/;

/**
 * Compiles a custom pattern on RE2.
 *
 * @param source the pattern (RE2 syntax; see https://github.com/google/re2/wiki/Syntax).
 * @param flags any of `i`, `m`, `s`.
 * @returns the compiled pattern.
 * @throws Error whose message says why the pattern does not compile (RE2's own message, e.g.
 *   `invalid perl operator: (?=` for a lookahead, `missing ): (a` for an unclosed group).
 */
export function compilePattern(source: string, flags = ''): TextPattern {
  // a program this large takes RE2 a second or more to compile (and its automaton is slow): refused before compiling
  const estimate = estimateProgramBytes(source, flags);
  if (estimate <= PATTERN_MEMORY.perPattern && estimate > PATTERN_BUDGET.programBytes) {
    throw new Error(`pattern too slow: counted repetitions expand to about ${Math.round(estimate / 1024)} KiB of compiled program (budget ${PATTERN_BUDGET.programBytes / 1024} KiB for a custom pattern); use smaller repetition counts or narrower classes`);
  }
  const started = performance.now();
  const pattern = compileOnRe2(source, flags, true);
  const compileMs = performance.now() - started;
  const slow = (what: string): Error => {
    pattern.dispose();
    return new Error(`pattern too slow: ${what}; use smaller repetition counts or narrower classes`);
  };
  if (compileMs > PATTERN_BUDGET.compileMs) throw slow(`compiling it took ${Math.round(compileMs)} ms (budget ${PATTERN_BUDGET.compileMs} ms)`);
  try {
    // a short untimed run first: RE2 builds its automaton's states on first use
    for (const probe of PROBES) pattern.find(probe.slice(0, 256));
    for (const probe of PROBES) {
      const t = performance.now();
      pattern.find(probe);
      const ms = performance.now() - t;
      if (ms > PATTERN_BUDGET.probeMs) throw slow(`matching ${PATTERN_BUDGET.probeChars} characters took ${Math.round(ms)} ms (budget ${PATTERN_BUDGET.probeMs} ms)`);
    }
  } catch (err) {
    const msg = String((err as Error)?.message ?? err);
    // the engine's heap ran out building the automaton: its own text (emscripten's) is never shown
    if (outOfMemory(msg) || err instanceof PatternMatchError) {
      pattern.dispose();
      throw new Error('pattern too big: the regex engine ran out of memory matching it (its heap is 16 MiB for all patterns); use smaller repetition counts or narrower classes');
    }
    throw err;
  }
  return pattern;
}

/**
 * Compiles one of guard's own (built-in) patterns on RE2, as {@link compilePattern} but without
 * first compiling it as written: that compile only serves error messages about an operator's
 * pattern, and it costs a second program in RE2's fixed heap.
 *
 * @throws Error as {@link compilePattern} (the message may quote the pattern without its groups).
 */
export function compileBuiltinPattern(source: string, flags = ''): TextPattern {
  return compileOnRe2(source, flags, false);
}

function compileOnRe2(source: string, flags: string, asWritten: boolean): TextPattern {
  if (!PATTERN_FLAGS.test(flags)) throw new Error(`flags may only hold i, m and s (got ${JSON.stringify(flags)})`);
  const reFlags = `${[...new Set(flags)].join('')}u`;
  const size = estimateProgramBytes(source, flags);
  if (size > PATTERN_MEMORY.perPattern) throw new Error(tooBig(size, PATTERN_MEMORY.perPattern));
  let re: InstanceType<Re2Class>;
  try {
    // compiled as written first, so messages quote the pattern as written; that program is freed at once
    const RE2 = re2For(asWritten, size);
    if (asWritten) free(new RE2(source, reFlags));
    re = new RE2(withoutCaptures(source), reFlags);
  } catch (err) {
    const msg = String((err as Error)?.message ?? err);
    if (outOfMemory(msg)) throw new Error('pattern too big: the regex engine ran out of memory compiling it (its heap is 16 MiB for all patterns); use smaller repetition counts or narrower classes');
    // re2-wasm prefixes "Invalid regular expression: /…/u: "; keep only the reason
    const why = msg.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    // RE2 caps counted repetition at 1000, nested counts multiplied: `(\w{100}){50}` names only `{50}`
    if (why.startsWith('invalid repetition size')) throw new Error(`${why} (RE2 allows at most 1000 repetitions in all, and the counts of nested repetitions multiply)`);
    throw new Error(why);
  }
  let disposed = false;
  const pattern: TextPattern = {
    source,
    find(text: string) {
      if (disposed) throw new Error('the pattern was disposed');
      const once = (part: string): { start: number; end: number } | null => {
        let m: ReturnType<typeof re.exec>;
        try {
          re.lastIndex = 0;
          m = re.exec(part);
        } catch (err) {
          throw new PatternMatchError(regexEngineMessage() ?? String((err as Error)?.message ?? err));
        }
        if (!m) return null;
        const start = utf16Offset(part, m.index);
        return { start, end: start + (m[0] ?? '').length };
      };
      if (text.length <= MATCH_WINDOW) return once(text);
      for (let at = 0; ; ) {
        let end = Math.min(text.length, at + MATCH_WINDOW);
        if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end++; // never split a surrogate pair
        const found = once(text.slice(at, end));
        const last = end >= text.length;
        if (found && (last || at + found.end < end)) return { start: at + found.start, end: at + found.end };
        if (last) return null;
        // a match touching the edge of a window that is not the last ends there only because the
        // window does (a `$` or `\b` at the edge, a greedy run cut short): it is looked at again
        // from its start, with the text after it
        at = found && found.start > 0 ? at + found.start : at + MATCH_WINDOW - MATCH_OVERLAP;
      }
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      reclaim.unregister(pattern);
      free(re);
    },
  };
  reclaim.register(pattern, re, pattern);
  return pattern;
}

/** The refusal message of a pattern estimated at `size` bytes against `limit`. */
export function tooBig(size: number, limit: number, what = 'pattern'): string {
  const mib = (n: number) => (n / (1024 * 1024)).toFixed(1);
  return `${what} too big: counted repetitions expand to about ${mib(size)} MiB of compiled program (limit ${mib(limit)} MiB); use smaller repetition counts or narrower classes (\\pL, . and [^…] cost the most)`;
}

/**
 * Turns capturing groups into non-capturing ones. Only the bounds of the whole match are used,
 * and without groups to fill RE2 answers from its DFA (a 64 KiB argument: milliseconds) instead
 * of its slower submatch engine (`(a+)+$`: close to a second).
 */
function withoutCaptures(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += source.slice(i, i + 2);
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      if (source[i + 1] === ']' || (source[i + 1] === '^' && source[i + 2] === ']')) {
        // a leading ] is a literal member of the class
        const lead = source[i + 1] === '^' ? '^]' : ']';
        out += lead;
        i += lead.length;
      }
    } else if (c === '(' && source[i + 1] !== '?') out += '(?:';
    else if (c === '(' && /^\(\?P?<[A-Za-z_]\w*>/.test(source.slice(i))) {
      const m = /^\(\?P?<[A-Za-z_]\w*>/.exec(source.slice(i))!;
      out += '(?:';
      i += m[0].length - 1;
    } else out += c;
  }
  return out;
}

/** RE2 reports match positions in code points; converts one to a UTF-16 offset in `text`. */
function utf16Offset(text: string, codePoints: number): number {
  if (!/[\uD800-\uDFFF]/.test(text)) return codePoints;
  let i = 0;
  for (let n = 0; n < codePoints && i < text.length; n++) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
  }
  return i;
}
