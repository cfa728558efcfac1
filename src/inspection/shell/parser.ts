/**
 * The bash grammar behind the inspection engine: tree-sitter-bash compiled to WebAssembly, run by
 * web-tree-sitter (see docs/shell-parser.md for the choice). Both `.wasm` files ship inside their
 * npm packages, so nothing is downloaded at run time. Loading them is asynchronous, once;
 * parsing afterwards is synchronous.
 *
 * One hostile command must not break parsing for the rest of the run (docs/shell-parser.md
 * "Hostile input"). The WebAssembly module is an emscripten build: when tree-sitter runs out of
 * memory it calls emscripten's `abort()`, which prints `Aborted()` through `Module.printErr` and
 * leaves that module instance dead for good. So:
 * - each instance gets its own `WebAssembly.Memory` with a ceiling ({@link DEFAULT_MAX_MEMORY}),
 *   so a runaway parse fails in milliseconds instead of growing to 2 GB;
 * - `print`/`printErr` are routed into this module (kept in {@link parserHealth}), never to stderr;
 * - two instances are loaded: the active one and a spare. When a parse fails, the spare takes
 *   over synchronously (the next call is parsed normally) and a new spare loads in the
 *   background. An instance whose memory grew past half the ceiling is retired the same way, so
 *   memory held after one large parse is given back.
 * A fresh instance needs a fresh copy of web-tree-sitter's JavaScript (it keeps its module in a
 * module-level variable), so the CommonJS build is loaded through `require` with its cache entry
 * dropped first.
 */
import { createRequire } from 'node:module';
import type * as TreeSitter from 'web-tree-sitter';
import type { Node, Tree } from 'web-tree-sitter';
import { work } from '../../base/work.js';

export type { Node as SyntaxNode, Tree as SyntaxTree };

/** Longest text handed to the parser in one piece, in UTF-16 code units (64 KiB, as
 * ThinkWatch's MAX_ARG). Longer command text is parsed in pieces (shell/split.ts). */
export const MAX_PARSE_CHARS = 64 * 1024;

/** Default ceiling of one parser instance's WebAssembly memory, in bytes (256 MiB). */
export const DEFAULT_MAX_MEMORY = 256 * 1024 * 1024;

const PAGE = 64 * 1024;
const INITIAL_MEMORY = 32 * 1024 * 1024; // emscripten's default INITIAL_MEMORY for this build

/** Where the two WebAssembly binaries come from (paths or the bytes themselves; the defaults are
 * the files inside the installed `web-tree-sitter` and `tree-sitter-bash` packages), and the
 * memory ceiling of one parser instance in bytes (default {@link DEFAULT_MAX_MEMORY}; at least
 * 33 MiB). */
export interface InitInspectionOptions {
  treeSitterWasm?: string | Uint8Array;
  bashWasm?: string | Uint8Array;
  /** The tree-sitter-python and tree-sitter-javascript grammars (default: inside their packages). */
  pythonWasm?: string | Uint8Array;
  javascriptWasm?: string | Uint8Array;
  maxMemoryBytes?: number;
}

/** Counters of the parser instances, for diagnostics and tests. */
export interface ParserHealth {
  /** Parses that threw (out of memory, emscripten abort). */
  failures: number;
  /** Instances replaced, for a failure or for memory grown past half the ceiling. */
  replaced: number;
  /** The last message the WebAssembly module printed (e.g. `Aborted()`), or null. */
  lastMessage: string | null;
}

interface Engine {
  parser: TreeSitter.Parser;
  /** Parsers of interpreter code (tree-sitter-python, tree-sitter-javascript), same instance and memory. */
  code: Record<CodeLanguage, TreeSitter.Parser>;
  memory: WebAssembly.Memory;
}

/** Languages whose inline code is parsed with a grammar (src/inspection/code/). */
export type CodeLanguage = 'python' | 'javascript';

type Binding = typeof TreeSitter;

let active: Engine | null = null;
let spare: Engine | null = null;
let spareLoading: Promise<void> | null = null;
let pending: Promise<void> | null = null;
let ready = false;
let settings: Required<Pick<InitInspectionOptions, 'maxMemoryBytes'>> & InitInspectionOptions = { maxMemoryBytes: DEFAULT_MAX_MEMORY };
const health: ParserHealth = { failures: 0, replaced: 0, lastMessage: null };

const require = createRequire(import.meta.url);

/** A fresh copy of web-tree-sitter's CommonJS build (its own emscripten module instance). */
function freshBinding(): Binding {
  const path = require.resolve('web-tree-sitter');
  delete require.cache[path];
  return require(path) as Binding;
}

async function loadEngine(): Promise<Engine> {
  const binding = freshBinding();
  const maximum = Math.max(INITIAL_MEMORY / PAGE + 16, Math.floor(settings.maxMemoryBytes / PAGE));
  const memory = new WebAssembly.Memory({ initial: INITIAL_MEMORY / PAGE, maximum });
  const engine = settings.treeSitterWasm;
  const note = (msg: unknown) => {
    health.lastMessage = String(msg);
  };
  // emscripten Module options: wasmMemory, print, printErr, onAbort (see web-tree-sitter.cjs)
  const moduleOptions: Record<string, unknown> = { wasmMemory: memory, print: note, printErr: note, onAbort: note };
  if (engine instanceof Uint8Array) moduleOptions['wasmBinary'] = engine;
  else if (engine) moduleOptions['locateFile'] = () => engine;
  await binding.Parser.init(moduleOptions);
  const bash = await binding.Language.load(settings.bashWasm ?? require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
  const parser = new binding.Parser();
  parser.setLanguage(bash);
  const code = {} as Record<CodeLanguage, TreeSitter.Parser>;
  for (const [lang, file] of [['python', settings.pythonWasm ?? require.resolve('tree-sitter-python/tree-sitter-python.wasm')], ['javascript', settings.javascriptWasm ?? require.resolve('tree-sitter-javascript/tree-sitter-javascript.wasm')]] as const) {
    const p = new binding.Parser();
    p.setLanguage(await binding.Language.load(file));
    code[lang] = p;
  }
  return { parser, code, memory };
}

function loadSpare(): void {
  if (spare || spareLoading) return;
  spareLoading = loadEngine()
    .then((e) => {
      spare = e;
    })
    .catch((err: unknown) => {
      note(err);
    })
    .finally(() => {
      spareLoading = null;
    });
}

function note(err: unknown): void {
  health.lastMessage = err instanceof Error ? err.message : String(err);
}

/** Drops the active instance (failed or bloated); the spare, if loaded, takes over at once. */
function retire(): void {
  const old = active;
  active = spare;
  spare = null;
  health.replaced++;
  try {
    old?.parser.delete(); // unregisters its finalizer, so the dead module is never called later
    if (old) for (const p of Object.values(old.code)) p.delete();
  } catch {
    // a dead module may trap on delete; its memory goes with the last reference
  }
  loadSpare();
}

/**
 * Loads the bash grammar (two parser instances, see the module comment). Await it before
 * {@link compileRuleSet} (which checks every rule's examples with the parser) and before
 * inspecting. Repeated calls return the same promise; options of later calls are ignored.
 * Rejects when a `.wasm` file cannot be found or instantiated; a later call then tries again.
 */
export function initInspection(options: InitInspectionOptions = {}): Promise<void> {
  if (ready) return Promise.resolve();
  pending ??= (async () => {
    settings = { ...options, maxMemoryBytes: options.maxMemoryBytes ?? DEFAULT_MAX_MEMORY };
    const [a, b] = await Promise.all([loadEngine(), loadEngine()]);
    active = a;
    spare = b;
    ready = true;
  })().catch((err: unknown) => {
    pending = null;
    throw err;
  });
  return pending;
}

/** True once {@link initInspection} has resolved (even while a failed instance is replaced). */
export function inspectionReady(): boolean {
  return ready;
}

/** Counters of parser failures and replacements (a copy). */
export function parserHealth(): ParserHealth {
  return { ...health };
}

/**
 * Resolves when a parser instance is loaded again after failures used up the spare; at once
 * when one is loaded (or initInspection never ran).
 */
export async function parserRestored(): Promise<void> {
  while (!active && spareLoading) {
    await spareLoading;
    if (!active && spare) {
      active = spare;
      spare = null;
      loadSpare();
    }
  }
}

/**
 * Parses shell text into a tree-sitter-bash syntax tree. The caller must `delete()` the tree
 * before the next parse. Returns null when no parser instance is loaded, or when the parse
 * failed (the instance is then replaced, see the module comment); the caller reports the text as
 * not parsed. Syntax errors do not make it null: the tree carries ERROR nodes
 * (`rootNode.hasError`). Callers bound what they pass (shell/split.ts): at most
 * {@link MAX_PARSE_CHARS}; longer text is refused (null) here.
 */
export function parseShell(text: string): Tree | null {
  if (active && active.memory.buffer.byteLength > settings.maxMemoryBytes / 2 && spare) retire();
  if (!active && spare) {
    active = spare;
    spare = null;
    loadSpare();
  }
  if (!active || text.length > MAX_PARSE_CHARS) return null;
  work.parses++;
  work.parsedChars += text.length;
  try {
    const tree = active.parser.parse(text);
    if (!tree) throw new Error('the parser returned no tree');
    return tree;
  } catch (err) {
    health.failures++;
    note(err);
    retire();
    return null;
  }
}

/** Longest interpreter code parsed with a grammar, in UTF-16 code units; longer code is read by the
 * idiom patterns only (src/inspection/shell/interp.ts). */
export const MAX_CODE_CHARS = 64 * 1024;

/**
 * Parses interpreter code (Python or JavaScript) with its tree-sitter grammar, on the same
 * instance (and memory ceiling) as the shell parser; the caller must `delete()` the tree. Null
 * when no instance is loaded, the code is longer than {@link MAX_CODE_CHARS}, or the parse failed
 * (the instance is then replaced, as for {@link parseShell}).
 */
export function parseCode(language: CodeLanguage, text: string): Tree | null {
  if (!active && spare) {
    active = spare;
    spare = null;
    loadSpare();
  }
  if (!active || text.length > MAX_CODE_CHARS) return null;
  work.parses++;
  work.parsedChars += text.length;
  try {
    const tree = active.code[language].parse(text);
    if (!tree) throw new Error('the parser returned no tree');
    return tree;
  } catch (err) {
    health.failures++;
    note(err);
    retire();
    return null;
  }
}
