/**
 * Shared reader for pythonic tool calls (`[get_weather(city="Paris"), …]`, one call per line in
 * OLMo 3's `<function_calls>`, Gemma's ```` ```tool_code ````), parsed with the real Python grammar:
 * tree-sitter-python compiled to WebAssembly, run by web-tree-sitter, as the inspection engine runs
 * tree-sitter-bash (src/inspection/shell/parser.ts). Not a family itself; pythonic.ts, lfm2.ts,
 * olmo3.ts and gemma3-tool-code.ts call it.
 *
 * Loading the grammar is asynchronous and happens once, in {@link initRecovery} (the verdict layer
 * awaits it before judging, src/verdict/engines.ts); reading is synchronous and pure afterwards.
 * Until it is loaded, pythonic markup is still found (its delimiters are scanned here, without the
 * grammar) but refused `shape` with the detail "the Python grammar is not loaded"; nothing throws.
 * Hostile input cannot take the run down: the WebAssembly instance has its own memory with a
 * ceiling ({@link DEFAULT_PYTHON_MEMORY}), texts longer than {@link MAX_PYTHON_CHARS} are refused,
 * a parse that throws retires the instance (the spare takes over, a new spare loads in the
 * background), and whatever the module prints is kept, never written to stderr.
 *
 * What a call may hold (the literal subset Meta's reference parser accepts with `ast.literal_eval`,
 * made stricter where servers guess; never evaluated):
 * - the callee is a name, or names joined by dots (`a.b`), read as the tool name;
 * - keyword arguments only: a positional argument, `*args` or `**kwargs` is `bad_arguments`; a
 *   keyword given twice is `shape` (Python refuses it, servers keep one);
 * - values are literals: strings (`'…'`, `"…"`, triple-quoted, raw, implicitly concatenated; escapes
 *   decoded as Python does, an unknown escape such as `\q` or a `\N{…}` name refused), numbers in
 *   JSON's syntax with an optional leading `-` (`07`, `0x1F`, `1_000`, `.5`, `1j` refused), `True`,
 *   `False`, `None` and their JSON spellings `true`, `false`, `null` (OLMo 3 writes JSON values;
 *   vLLM accepts them), lists and tuples (arrays), dicts with string keys (objects; a key given
 *   twice refused); anything else (a name, a call, an attribute, an operator, an f-string, bytes, a
 *   set, a comprehension) is `bad_arguments`. A comment anywhere is `shape`.
 * Values keep their types (`True` → true, `None` → null); `argumentsRaw` is the JSON object text
 * built from them, numbers with the digits the markup wrote.
 */

import { createRequire } from 'node:module';
import type * as TreeSitter from 'web-tree-sitter';
import type { Node } from 'web-tree-sitter';
import { ARGUMENTS_TOO_DEEP, MAX_ARGUMENT_DEPTH } from '../../base/json.js';
import { shape, truncated, type FamilyCall, type FamilyProblem } from '../family.js';

/** Longest pythonic block handed to the parser, in UTF-16 code units (1 MiB); longer is `shape`. */
export const MAX_PYTHON_CHARS = 1024 * 1024;
/** Default ceiling of the Python parser's WebAssembly memory, in bytes (256 MiB). */
export const DEFAULT_PYTHON_MEMORY = 256 * 1024 * 1024;

const PAGE = 64 * 1024;
const INITIAL_MEMORY = 32 * 1024 * 1024;

/** Where the WebAssembly binaries come from (defaults: the files of the installed `web-tree-sitter`
 * and `tree-sitter-python` packages) and the memory ceiling of one parser instance in bytes. */
export interface InitRecoveryOptions {
  treeSitterWasm?: string | Uint8Array;
  pythonWasm?: string | Uint8Array;
  maxMemoryBytes?: number;
}

interface Engine {
  parser: TreeSitter.Parser;
  memory: WebAssembly.Memory;
}

let active: Engine | null = null;
let spare: Engine | null = null;
let spareLoading: Promise<void> | null = null;
let pending: Promise<void> | null = null;
let settings: InitRecoveryOptions & { maxMemoryBytes: number } = { maxMemoryBytes: DEFAULT_PYTHON_MEMORY };
/** The last message the WebAssembly module printed, or the last load or parse error. */
let lastMessage: string | null = null;

const require = createRequire(import.meta.url);

/** A fresh copy of web-tree-sitter's CommonJS build (its own emscripten module instance, as the
 * inspection engine loads its own). */
function freshBinding(): typeof TreeSitter {
  const path = require.resolve('web-tree-sitter');
  delete require.cache[path];
  return require(path) as typeof TreeSitter;
}

async function loadEngine(): Promise<Engine> {
  const binding = freshBinding();
  const maximum = Math.max(INITIAL_MEMORY / PAGE + 16, Math.floor(settings.maxMemoryBytes / PAGE));
  const memory = new WebAssembly.Memory({ initial: INITIAL_MEMORY / PAGE, maximum });
  const note = (msg: unknown) => {
    lastMessage = String(msg);
  };
  const moduleOptions: Record<string, unknown> = { wasmMemory: memory, print: note, printErr: note, onAbort: note };
  const wasm = settings.treeSitterWasm;
  if (wasm instanceof Uint8Array) moduleOptions['wasmBinary'] = wasm;
  else if (wasm) moduleOptions['locateFile'] = () => wasm;
  await binding.Parser.init(moduleOptions);
  const python = await binding.Language.load(settings.pythonWasm ?? require.resolve('tree-sitter-python/tree-sitter-python.wasm'));
  const parser = new binding.Parser();
  parser.setLanguage(python);
  return { parser, memory };
}

function loadSpare(): void {
  if (spare || spareLoading) return;
  spareLoading = loadEngine()
    .then((e) => {
      spare = e;
    })
    .catch((err: unknown) => {
      lastMessage = err instanceof Error ? err.message : String(err);
    })
    .finally(() => {
      spareLoading = null;
    });
}

function retire(): void {
  const old = active;
  active = spare;
  spare = null;
  try {
    old?.parser.delete();
  } catch {
    // a dead module may trap on delete
  }
  loadSpare();
}

/**
 * Loads the Python grammar the pythonic families read with (two parser instances, module header).
 * Await it once before judging replies; repeated calls return the same promise (options of later
 * calls are ignored). Rejects when a `.wasm` file cannot be found or instantiated; a later call
 * tries again. Without it, pythonic markup is refused `shape` (never recovered, never thrown).
 */
export function initRecovery(options: InitRecoveryOptions = {}): Promise<void> {
  if (active !== null) return Promise.resolve();
  pending ??= (async () => {
    settings = { ...options, maxMemoryBytes: options.maxMemoryBytes ?? DEFAULT_PYTHON_MEMORY };
    const [a, b] = await Promise.all([loadEngine(), loadEngine()]);
    active = a;
    spare = b;
  })().catch((err: unknown) => {
    pending = null;
    throw err;
  });
  return pending;
}

/** True once the Python grammar is loaded (pythonic calls can be read). */
export function recoveryReady(): boolean {
  return active !== null || spare !== null;
}

/** The last message of the Python parser (a load error, an abort), or null; for diagnostics. */
export function pythonParserMessage(): string | null {
  return lastMessage;
}

/** Why pythonic markup is refused when the grammar is not loaded. */
export const NOT_LOADED = 'the Python grammar is not loaded (initRecovery() was not awaited), so pythonic calls are not read';

/** Parses Python source; null when no parser is loaded or the parse failed. The caller deletes the tree. */
function parsePython(source: string): TreeSitter.Tree | null {
  if (active && active.memory.buffer.byteLength > settings.maxMemoryBytes / 2 && spare) retire();
  if (!active && spare) {
    active = spare;
    spare = null;
    loadSpare();
  }
  if (!active) return null;
  try {
    const tree = active.parser.parse(source);
    if (!tree) throw new Error('the Python parser returned no tree');
    return tree;
  } catch (err) {
    lastMessage = err instanceof Error ? err.message : String(err);
    retire();
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Delimiting pythonic text without the grammar: strings, brackets, comments.

/** Where a Python-aware scan stopped. */
export type PyScan =
  /** `end`: index past the bracket that closes the one at the start (bracket mode), or the index of
   * the closer (closer mode). */
  | { ok: true; end: number }
  /** The text ends inside a string or with brackets open, or (closer mode) before the closer. */
  | { ok: false; cut: true; inString: boolean }
  /** A bracket closes one of another kind. */
  | { ok: false; cut: false; at: number };

/** Length of the string opener at `i` (`'`, `"`, `'''`, `"""`), or 0. */
function quoteAt(text: string, i: number): number {
  const q = text.charCodeAt(i);
  if (q !== 0x22 && q !== 0x27) return 0;
  return text.charCodeAt(i + 1) === q && text.charCodeAt(i + 2) === q ? 3 : 1;
}

/**
 * Index past the string whose opener (`q` quote characters long) is at `i`: past its closing
 * quote, or at the line break that ends a broken one-quote string; -1 when the text ends inside it.
 */
function stringEndAt(text: string, i: number, q: number): number {
  const quote = text.charCodeAt(i);
  let j = i + q;
  for (;;) {
    if (j >= text.length) return -1;
    const c = text.charCodeAt(j);
    if (c === 0x5c) j += 2; // backslash
    else if (c === quote && (q === 1 || (text.charCodeAt(j + 1) === quote && text.charCodeAt(j + 2) === quote))) return j + q;
    else if (q === 1 && c === 0x0a) return j;
    else j++;
  }
}

/**
 * Scans Python text from `from`: strings (either quote, triple-quoted, a backslash escaping the
 * next character; a one-quote string ends at its quote or, broken, at the end of its line),
 * comments (to the end of the line) and brackets. With `closer`, stops at the first occurrence of
 * it outside strings and comments, whatever the bracket depth; otherwise `from` is an opening
 * bracket and the scan stops past the one that closes it. Linear.
 */
export function scanPython(text: string, from: number, closer?: string): PyScan {
  const stack: string[] = [];
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  let i = from;
  const first = closer === undefined ? -1 : closer.charCodeAt(0);
  while (i < text.length) {
    const code = text.charCodeAt(i);
    // plain characters (letters, digits, space, `=`, `,`, `.`) cannot start anything
    if (code !== first && code !== 0x22 && code !== 0x27 && code !== 0x23 && code !== 0x28 && code !== 0x29 && code !== 0x5b && code !== 0x5d && code !== 0x7b && code !== 0x7d) {
      i++;
      continue;
    }
    const ch = text[i]!;
    if (closer !== undefined && code === first && text.startsWith(closer, i)) return { ok: true, end: i };
    const q = quoteAt(text, i);
    if (q > 0) {
      const j = stringEndAt(text, i, q);
      if (j < 0) return { ok: false, cut: true, inString: true };
      i = j;
      continue;
    }
    if (ch === '#') {
      const nl = text.indexOf('\n', i);
      if (nl < 0) return { ok: false, cut: true, inString: false };
      i = nl;
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') stack.push(ch);
    else if (ch === ')' || ch === ']' || ch === '}') {
      const top = stack.pop();
      if (top !== pairs[ch]) {
        if (closer === undefined) return { ok: false, cut: false, at: i };
      } else if (closer === undefined && stack.length === 0) return { ok: true, end: i + 1 };
    }
    i++;
  }
  return { ok: false, cut: true, inString: false };
}

/**
 * The body of a block from `from` up to its `closer` (outside strings), or a problem: the text
 * ending before the closer is `truncated`; a closer that only appears inside what scans as a string
 * (an unescaped quote in a value) ends the body there, which then fails to parse (`bad_arguments`),
 * as a closed JSON block whose brackets do not balance does.
 */
export function bodyTo(text: string, from: number, closer: string): { end: number } | { problem: FamilyProblem } {
  const s = scanPython(text, from, closer);
  if (s.ok) return { end: s.end };
  const c = text.indexOf(closer, from);
  if (c >= 0) return { end: c };
  return { problem: truncated(`the text ends before ${closer}`) };
}

// ---------------------------------------------------------------------------------------------
// Reading calls from the syntax tree.

/** How a block writes its calls. */
export type PyLayout =
  /** One Python list of calls: `[f(a=1), g(b=2)]`. */
  | 'list'
  /** One call per statement (line): `f(a=1)\ng(b=2)`. */
  | 'lines'
  /** Either of the two (LFM2, Gemma's tool_code). */
  | 'either';

/** A value read from the tree: the value and its JSON text. */
type Lit = { ok: true; value: unknown; json: string } | { ok: false; error: string };

const JSON_NUMBER = /^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const SIMPLE_ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** Decodes one Python string literal's text (prefix, quotes, body). */
function stringValue(raw: string): Lit {
  let p = 0;
  while (p < raw.length && /[A-Za-z]/.test(raw[p]!)) p++;
  const prefix = raw.slice(0, p).toLowerCase();
  if (prefix.includes('f')) return { ok: false, error: 'an f-string is an expression, not a literal' };
  if (prefix.includes('b')) return { ok: false, error: 'a bytes literal is not a JSON value' };
  if (prefix !== '' && prefix !== 'r' && prefix !== 'u') return { ok: false, error: `a string prefix ${JSON.stringify(prefix)} is not read` };
  const q = quoteAt(raw, p);
  if (q === 0 || raw.length < p + 2 * q) return { ok: false, error: 'a malformed string' };
  const body = raw.slice(p + q, raw.length - q);
  if (prefix === 'r' || !body.includes('\\')) return { ok: true, value: body, json: JSON.stringify(body) };
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined) return { ok: false, error: 'a string ends with a backslash' };
    if (e === '\n') continue; // a backslash-newline joins the lines
    if (e in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[e];
      continue;
    }
    const hex = (n: number): number | null => {
      const h = body.slice(i + 1, i + 1 + n);
      return h.length === n && /^[0-9A-Fa-f]+$/.test(h) ? parseInt(h, 16) : null;
    };
    if (e >= '0' && e <= '7') {
      let k = i;
      while (k < i + 3 && body[k]! >= '0' && body[k]! <= '7') k++;
      out += String.fromCharCode(parseInt(body.slice(i, k), 8));
      i = k - 1;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const v = hex(n);
      if (v === null || v > 0x10ffff) return { ok: false, error: `a malformed \\${e} escape` };
      out += String.fromCodePoint(v);
      i += n;
    } else return { ok: false, error: `an escape \\${e} that Python keeps and JSON readers differ on` };
  }
  return { ok: true, value: out, json: JSON.stringify(out) };
}

const fail = (error: string): Lit => ({ ok: false, error });

/** Reads a literal value node (module header for what is accepted). */
function literal(n: Node, depth: number): Lit {
  if (depth > MAX_ARGUMENT_DEPTH) return fail(ARGUMENTS_TOO_DEEP);
  switch (n.type) {
    case 'string':
      if (n.namedChildren.some((c) => c?.type === 'interpolation')) return fail('an f-string is an expression, not a literal');
      return stringValue(n.text);
    case 'concatenated_string': {
      let s = '';
      for (const c of n.namedChildren) {
        if (c === null || c.type === 'comment') return fail('a comment inside a value');
        const v = literal(c, depth + 1);
        if (!v.ok) return v;
        if (typeof v.value !== 'string') return fail('a concatenation of non-strings');
        s += v.value;
      }
      return { ok: true, value: s, json: JSON.stringify(s) };
    }
    case 'integer':
    case 'float': {
      const t = n.text;
      if (!JSON_NUMBER.test(t)) return fail(`the number ${t.slice(0, 40)} is not written as JSON writes numbers`);
      const v = Number(t);
      if (!Number.isFinite(v)) return fail(`the number ${t.slice(0, 40)} is out of range`);
      return { ok: true, value: v, json: t };
    }
    case 'unary_operator': {
      const op = n.childForFieldName('operator')?.text;
      const arg = n.childForFieldName('argument');
      if (op !== '-' || arg === null || (arg.type !== 'integer' && arg.type !== 'float')) return fail('an operator expression, not a literal');
      const v = literal(arg, depth + 1);
      if (!v.ok) return v;
      return { ok: true, value: -(v.value as number), json: `-${v.json}` };
    }
    case 'true':
      return { ok: true, value: true, json: 'true' };
    case 'false':
      return { ok: true, value: false, json: 'false' };
    case 'none':
      return { ok: true, value: null, json: 'null' };
    case 'identifier':
      if (n.text === 'true') return { ok: true, value: true, json: 'true' };
      if (n.text === 'false') return { ok: true, value: false, json: 'false' };
      if (n.text === 'null') return { ok: true, value: null, json: 'null' };
      return fail(`the name ${n.text.slice(0, 40)} is a variable, not a literal (never evaluated)`);
    case 'parenthesized_expression': {
      const inner = n.namedChildren.filter((c) => c !== null && c.type !== 'comment');
      if (inner.length !== 1 || n.namedChildren.length !== 1) return fail('a parenthesised expression');
      return literal(inner[0]!, depth + 1);
    }
    case 'list':
    case 'tuple': {
      const values: unknown[] = [];
      const texts: string[] = [];
      for (const c of n.namedChildren) {
        if (c === null || c.type === 'comment') return fail('a comment inside a value');
        const v = literal(c, depth + 1);
        if (!v.ok) return v;
        values.push(v.value);
        texts.push(v.json);
      }
      return { ok: true, value: values, json: `[${texts.join(',')}]` };
    }
    case 'dictionary': {
      const value: Record<string, unknown> = {};
      const members: string[] = [];
      for (const c of n.namedChildren) {
        if (c === null || c.type !== 'pair') return fail(c?.type === 'dictionary_splat' ? 'a ** splat inside a dict' : 'a dict entry that is not key: value');
        const k = c.childForFieldName('key');
        const v = c.childForFieldName('value');
        if (k === null || v === null) return fail('a malformed dict entry');
        const key = literal(k, depth + 1);
        if (!key.ok) return key;
        if (typeof key.value !== 'string') return fail('a dict key that is not a string (JSON keys are strings)');
        if (Object.prototype.hasOwnProperty.call(value, key.value)) return fail(`the dict key ${JSON.stringify(key.value).slice(0, 60)} appears twice`);
        const val = literal(v, depth + 1);
        if (!val.ok) return val;
        Object.defineProperty(value, key.value, { value: val.value, enumerable: true, writable: true, configurable: true });
        members.push(`${key.json}:${val.json}`);
      }
      return { ok: true, value, json: `{${members.join(',')}}` };
    }
    default:
      return fail(`${article(n.type)} is an expression, not a literal (never evaluated)`);
  }
}

const article = (type: string): string => {
  const words = type.replace(/_/g, ' ');
  return /^[aeiou]/.test(words) ? `an ${words}` : `a ${words}`;
};

/** The tool name of a callee: a name or dotted names, or null. */
function calleeName(n: Node | null): string | null {
  if (n === null) return null;
  if (n.type === 'identifier') return n.text;
  if (n.type === 'attribute') {
    const obj = calleeName(n.childForFieldName('object'));
    const attr = n.childForFieldName('attribute');
    return obj !== null && attr?.type === 'identifier' ? `${obj}.${attr.text}` : null;
  }
  return null;
}

/** True when the node or a descendant is an ERROR or MISSING node. */
const broken = (n: Node): boolean => n.hasError || n.isError || n.isMissing;

/** Reads one `call` node into a call (never throws). */
function readCall(n: Node): FamilyCall | FamilyProblem {
  const name = calleeName(n.childForFieldName('function'));
  if (name === null) return shape('the callee of a call is not a name');
  const args = n.childForFieldName('arguments');
  const bad = (why: string): FamilyCall => ({ name, argumentsRaw: '', arguments: null, argumentsError: why });
  if (args === null || args.type !== 'argument_list') return bad('the arguments are not an argument list (a generator expression?)');
  if (broken(args)) return bad('the arguments are not valid Python');
  const value: Record<string, unknown> = {};
  const members: string[] = [];
  let error: string | null = null;
  let shapeError: string | undefined;
  for (const a of args.namedChildren) {
    if (a === null) continue;
    if (a.type === 'comment') return shape('a comment inside a call');
    if (a.type !== 'keyword_argument') {
      error ??= a.type === 'list_splat' || a.type === 'dictionary_splat' ? 'a * or ** splat argument' : 'a positional argument (only keyword arguments name parameters)';
      continue;
    }
    const key = a.childForFieldName('name')?.text ?? '';
    const v = a.childForFieldName('value');
    if (Object.prototype.hasOwnProperty.call(value, key)) {
      shapeError ??= `parameter "${key}" appears twice (Python refuses it; servers keep the first or the last)`;
      continue;
    }
    const lit = v === null ? fail('a keyword without a value') : literal(v, 1);
    if (!lit.ok) {
      error ??= `parameter "${key}": ${lit.error}`;
      continue;
    }
    Object.defineProperty(value, key, { value: lit.value, enumerable: true, writable: true, configurable: true });
    members.push(`${JSON.stringify(key)}:${lit.json}`);
  }
  const shaped = shapeError === undefined ? {} : { shapeError };
  const raw = `{${members.join(',')}}`;
  if (error !== null) return { name, argumentsRaw: raw, arguments: null, argumentsError: error, ...shaped };
  return { name, argumentsRaw: raw, arguments: value, argumentsError: null, ...shaped };
}

const isProblem = (x: FamilyCall | FamilyProblem): x is FamilyProblem => 'reason' in x;

/** The call nodes a module holds in a layout, or why it holds none. */
function callNodes(root: Node, layout: PyLayout): Node[] | FamilyProblem {
  const stmts = root.namedChildren.filter((c): c is Node => c !== null);
  if (stmts.some((s) => s.type === 'comment')) return shape('a comment inside the calls');
  const exprs: Node[] = [];
  for (const s of stmts) {
    if (s.type !== 'expression_statement' || s.namedChildCount !== 1) return shape('a statement that is not one call');
    exprs.push(s.namedChild(0)!);
  }
  if (exprs.length === 0) return shape('no call');
  if (exprs.length === 1 && exprs[0]!.type === 'list' && layout !== 'lines') {
    const items = exprs[0]!.namedChildren.filter((c): c is Node => c !== null);
    if (items.length === 0) return shape('an empty call list');
    if (items.some((c) => c.type === 'comment')) return shape('a comment inside the call list');
    if (items.some((c) => c.type !== 'call')) return shape('an element of the call list is not a call');
    return items;
  }
  if (layout === 'list') return shape('not a Python list of calls');
  if (layout === 'either' && exprs.length > 1 && exprs.some((e) => e.type === 'list')) return shape('a call list among other statements');
  if (exprs.some((e) => e.type !== 'call')) return shape(layout === 'lines' ? 'a line that is not a call' : 'neither a list of calls nor calls');
  return exprs;
}

/** Most non-space characters outside strings a pythonic block may hold (the parser's work grows with
 * them, not with string length; 64 Ki is thousands of calls, far past MAX_RECOVERED_CALLS). */
export const MAX_PYTHON_CODE = 64 * 1024;

/** Non-space characters of `source` outside its strings (strings delimited as {@link scanPython} does). */
function codeLength(source: string): number {
  let n = 0;
  for (let i = 0; i < source.length; ) {
    const q = quoteAt(source, i);
    if (q > 0) {
      const j = stringEndAt(source, i, q);
      n += 2;
      if (j < 0) break;
      i = j;
      continue;
    }
    const c = source.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) n++;
    i++;
  }
  return n;
}

/** A reading (with whether every argument is a keyword argument), and whether a problem means
 * the text is not calls at all (so not markup). */
type Analysis = { calls: FamilyCall[]; keywordsOnly: boolean } | { problem: FamilyProblem; notCalls: boolean };

/** The last reading: detection and parsing read the same block, so it is parsed once. */
let last: { source: string; layout: PyLayout; result: Analysis } | null = null;

function analyse(source: string, layout: PyLayout): Analysis {
  if (last !== null && last.source === source && last.layout === layout) return last.result;
  const result = analyseOnce(source, layout);
  last = { source, layout, result };
  return result;
}

function analyseOnce(source: string, layout: PyLayout): Analysis {
  const not = (problem: FamilyProblem): Analysis => ({ problem, notCalls: true });
  if (source.length > MAX_PYTHON_CHARS) return { problem: shape(`a pythonic block longer than ${MAX_PYTHON_CHARS} characters is not parsed`), notCalls: false };
  if (codeLength(source) > MAX_PYTHON_CODE) return { problem: shape(`a pythonic block with more than ${MAX_PYTHON_CODE} characters of code outside its strings is not parsed`), notCalls: false };
  if (!recoveryReady()) return { problem: shape(NOT_LOADED), notCalls: false };
  const tree = parsePython(source);
  if (tree === null) return { problem: shape(`the Python parser failed on this text (${lastMessage ?? 'no message'})`), notCalls: false };
  try {
    const nodes = callNodes(tree.rootNode, layout);
    if (!Array.isArray(nodes)) return not(nodes);
    // A syntax error outside every call's argument list: not calls at all.
    if (tree.rootNode.hasError && nodes.every((c) => !broken(c.childForFieldName('arguments') ?? c))) return not(shape('not valid Python calls'));
    const calls: FamilyCall[] = [];
    let keywordsOnly = true;
    for (const n of nodes) {
      const c = readCall(n);
      if (isProblem(c)) return not(c);
      calls.push(c);
      // (arguments that are not valid Python count as keywords: the call is still markup, `bad_arguments`)
      const args = n.childForFieldName('arguments');
      keywordsOnly &&= args === null || broken(args) || args.namedChildren.every((a) => a?.type === 'keyword_argument');
    }
    return { calls, keywordsOnly };
  } finally {
    tree.delete();
  }
}

/**
 * Reads the calls of a pythonic block's source (module header).
 *
 * @param source the Python text of the block (the list, or the lines of calls).
 * @param layout how the family writes its calls.
 * @returns the calls (a call's argument problems are its `argumentsError`), or a problem: `shape`
 *   when the grammar is not loaded, the text is too long ({@link MAX_PYTHON_CHARS},
 *   {@link MAX_PYTHON_CODE}), or it is not calls in that layout.
 */
export function readPythonCalls(source: string, layout: PyLayout): { calls: FamilyCall[] } | { problem: FamilyProblem } {
  const r = analyse(source, layout);
  return 'calls' in r ? { calls: r.calls } : { problem: r.problem };
}

/**
 * True when `source` parses as a list of calls whose arguments are all keyword arguments (whatever
 * their values hold): the test that a bracketed text with no marker is pythonic markup rather than
 * prose or code. `[A(0, 0), B(1, 0)]` (points, code) is not: no pythonic grammar writes a
 * positional argument, and no server dispatches one (inside a family's own tokens a positional
 * argument is `bad_arguments`). A text the parser does not read (the grammar not loaded, too long)
 * counts, and is then refused `shape`.
 */
export function isPythonCallList(source: string): boolean {
  const r = analyse(source, 'list');
  return 'calls' in r ? r.keywordsOnly : !r.notCalls;
}
