/**
 * The bash grammar behind the inspection engine: tree-sitter-bash compiled to WebAssembly, run by
 * web-tree-sitter (see docs/shell-parser.md for the choice). Both `.wasm` files ship inside their
 * npm packages, so nothing is downloaded at run time. Loading them is asynchronous, once;
 * parsing afterwards is synchronous.
 */
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import type { Node, Tree } from 'web-tree-sitter';

export type { Node as SyntaxNode, Tree as SyntaxTree };

/** Longest command text handed to the parser, in UTF-16 code units (64 KiB, as ThinkWatch's
 * MAX_ARG); longer text is cut and the cut is reported by the caller. */
export const MAX_PARSE_CHARS = 64 * 1024;

/** Where the two WebAssembly binaries come from; paths or the bytes themselves. The defaults are
 * the files inside the installed `web-tree-sitter` and `tree-sitter-bash` packages. */
export interface InitInspectionOptions {
  treeSitterWasm?: string | Uint8Array;
  bashWasm?: string | Uint8Array;
}

let parser: Parser | null = null;
let pending: Promise<void> | null = null;

/**
 * Loads the bash grammar once. Await it before {@link compileRuleSet} (which checks every rule's
 * examples with the parser) and before inspecting. Repeated calls return the same promise.
 * Rejects when a `.wasm` file cannot be found or instantiated; a later call then tries again.
 */
export function initInspection(options: InitInspectionOptions = {}): Promise<void> {
  if (parser) return Promise.resolve();
  pending ??= (async () => {
    const require = createRequire(import.meta.url);
    const engine = options.treeSitterWasm;
    await Parser.init(
      engine instanceof Uint8Array
        ? { wasmBinary: engine }
        : engine
          ? { locateFile: () => engine }
          : {},
    );
    const bash = await Language.load(
      options.bashWasm ?? require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'),
    );
    const p = new Parser();
    p.setLanguage(bash);
    parser = p;
  })().catch((err: unknown) => {
    pending = null;
    throw err;
  });
  return pending;
}

/** True once {@link initInspection} has resolved. */
export function inspectionReady(): boolean {
  return parser !== null;
}

/**
 * Parses shell text into a tree-sitter-bash syntax tree. Returns null when the grammar is not
 * loaded yet or the parser gave up; the caller then falls back to raw-text matching. Syntax
 * errors do not make it null: the tree carries ERROR nodes (`rootNode.hasError`).
 */
export function parseShell(text: string): Tree | null {
  if (!parser) return null;
  try {
    return parser.parse(text.length > MAX_PARSE_CHARS ? text.slice(0, MAX_PARSE_CHARS) : text);
  } catch {
    return null;
  }
}
