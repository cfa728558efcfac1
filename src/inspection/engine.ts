/**
 * Runs a rule set over the tool calls of one reply. Each command value is parsed once; every
 * rule then runs over the parsed commands, the paths they write or read, and the file paths of
 * file tools. Text that cannot be parsed (arguments that are not JSON, shell with syntax errors,
 * parts of a command the parser did not analyse, or no parser loaded) falls back to each rule's
 * raw pattern, labelled `via: 'raw'`; command text left partly unparsed also fires the built-in
 * `unparsed-command` (docs/shell-parser.md "Hostile input"). Every character of every value is
 * looked at: nothing is cut at a length.
 *
 * The engine fails closed: a call that cannot be inspected (inspecting it throws) and a rule whose
 * predicate throws each give a hit of {@link INSPECTION_ERROR_RULE} (`inspection-error`, category
 * `guard`, action `block`) naming the call id and the reason, never a dropped call or a silent miss.
 */
import type { PathAccess, Rule } from './rule.js';
import type { CommandLine, ShellCommand, Span } from './shell/model.js';
import type { InspectableCall, InspectionMode, InspectionVerdict, RuleHit } from './types.js';
import { analyzeArgv, analyzeCommandLine } from './shell/analyze.js';
import { callSurfaces, toolPath, type CommandValue } from './extract.js';
import { readingsOf } from './readings.js';
import { effectsOf } from './effects/index.js';
import { redactSecrets } from '../base/redact.js';
import { work } from '../base/work.js';
import { compileBuiltinPattern, type TextPattern } from './pattern.js';
import { lowerForAnchors, requiredLiterals } from '../base/anchors.js';

/** Longest excerpt, in characters. */
export const MAX_EXCERPT = 120;

/** Id of the hit given when inspection itself fails. */
export const INSPECTION_ERROR = 'inspection-error';

/**
 * The rule behind the hits of a failed inspection: a call whose inspection threw, or a rule whose
 * predicate threw on it. It has no matcher of its own; the engine gives its hit. It is part of
 * every compiled rule set (re-gradable, not to be disabled: a security gate must not pass what it
 * could not look at).
 */
export const INSPECTION_ERROR_RULE: Rule = Object.freeze({
  id: INSPECTION_ERROR,
  name: 'Inspection failed',
  category: 'guard',
  action: 'block',
  description: 'A tool call could not be inspected, or a rule failed on it: the call was not checked, so it is treated as a hit.',
  help: 'guard could not check this call (the excerpt names the call id and the reason). Review the call by hand, and report the failure: it is a bug in guard or in a custom rule.',
  examples: { match: [], not_match: [] },
  match: {},
});

/** The reason an exception gives, on one line. */
function reasonOf(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.replace(/\s+/g, ' ').slice(0, 200);
}

/** The hit of a failed inspection of `call` (the rule in force: the rule set's own copy, re-graded). */
function errorHit(call: InspectableCall, rules: readonly Rule[], what: string): RuleHit {
  const rule = rules.find((r) => r.id === INSPECTION_ERROR) ?? INSPECTION_ERROR_RULE;
  let tool = '';
  let id: string | null = null;
  try {
    tool = String(call?.name ?? '');
    id = typeof call?.id === 'string' ? call.id : null;
  } catch {
    // a hostile call object: no name or id to report
  }
  const text = `call ${id ?? '(no id)'}: ${what}`;
  // labelled `raw`: no parsed analysis stands behind the hit (the record formats know three labels)
  return { rule: rule.id, action: rule.action, category: rule.category, tool, callId: id, excerpt: excerpt(whole(text)), via: 'raw' };
}

/** A rule predicate that threw: the rule and the reason, carried out of the matchers. */
class RuleFailure {
  constructor(readonly rule: Rule, readonly reason: string) {}
}

/**
 * Inspects the tool calls of one reply. `off` → outcome `pass` with no hits; `observe` → hits,
 * outcome `flag` when any; `enforce` → `block` when any hit's action is `block`, else `flag` when
 * hits. Each rule fires at most once per call. Never throws: a call whose inspection throws, or
 * a rule that throws on it, gives an `inspection-error` hit (graded `block`) for that call, and the
 * other calls are inspected as usual.
 */
export function inspectCalls(calls: InspectableCall[], ruleSet: { readonly rules: readonly Rule[] }, mode: InspectionMode): InspectionVerdict {
  if (mode === 'off') return { mode, outcome: 'pass', hits: [] };
  const hits: RuleHit[] = [];
  for (const call of calls ?? []) {
    try {
      hits.push(...inspectCall(call, ruleSet.rules));
    } catch (err) {
      hits.push(errorHit(call, ruleSet?.rules ?? [], `inspection failed: ${reasonOf(err)}`));
    }
  }
  const outcome = hits.length === 0 ? 'pass' : mode === 'enforce' && hits.some((h) => h.action === 'block') ? 'block' : 'flag';
  return { mode, outcome, hits };
}

/**
 * The hits of one call (one per rule at most), in rule order, over every reading a dispatcher
 * could make of its arguments (./readings.ts): a hit on any reading counts.
 */
export function inspectCall(call: InspectableCall, rules: readonly Rule[]): RuleHit[] {
  if (call.unreadable) return [errorHit(call, rules, `arguments not read: ${call.unreadable}`)];
  const readings = readingsOf(call);
  if (readings.length === 1) return inspectReading(call, rules);
  const found = new Map<string, RuleHit>();
  for (const r of readings) for (const h of inspectReading(r, rules)) if (!found.has(h.rule)) found.set(h.rule, h);
  const order = ruleOrder(rules);
  return [...found.values()].sort((a, b) => (order.get(a.rule) ?? 0) - (order.get(b.rule) ?? 0));
}

/** The hits of one reading of a call, in rule order. */
function inspectReading(call: InspectableCall, rules: readonly Rule[]): RuleHit[] {
  const found = new Map<string, RuleHit>();
  const tool = String(call.name ?? '');
  const lower = tool.toLowerCase();
  const active = rules.filter((r) => !r.match.tools || r.match.tools.includes(lower));
  const keep = (rule: Rule, via: RuleHit['via'], text: string) => {
    if (found.has(rule.id)) return;
    found.set(rule.id, { rule: rule.id, action: rule.action, category: rule.category, tool, callId: call.id ?? null, excerpt: text, via });
  };
  const add: Add = (rule, via, span) => {
    if (!found.has(rule.id)) keep(rule, via, excerpt(span));
  };
  const failures: RuleFailure[] = [];
  const guarded = (rule: Rule, f: () => unknown): boolean => {
    try {
      return !!f();
    } catch (err) {
      failures.push(new RuleFailure(rule, reasonOf(err)));
      return false;
    }
  };
  const surfaces = callSurfaces(call);
  for (const value of surfaces.commands) {
    for (const m of commandMatches(value, rules, active, tool)) {
      if (m.failure) failures.push(m.failure);
      else keep(m.rule, m.via, m.excerpt);
    }
  }
  for (const access of surfaces.paths) {
    for (const rule of active) {
      if (!rule.match.path) continue;
      work.ruleChecks++;
      if (guarded(rule, () => rule.match.path!(access))) add(rule, 'path', whole(access.path));
    }
  }
  if (surfaces.raw !== null) matchRaw(surfaces.raw, active, add, (rule, err) => failures.push(new RuleFailure(rule, reasonOf(err))));
  for (const f of failures) if (!found.has(INSPECTION_ERROR)) found.set(INSPECTION_ERROR, errorHit(call, rules, `rule ${f.rule.id} failed: ${f.reason}`));
  const order = ruleOrder(rules);
  return [...found.values()].sort((a, b) => (order.get(a.rule) ?? 0) - (order.get(b.rule) ?? 0));
}

const orders = new WeakMap<readonly Rule[], Map<string, number>>();

/** Each rule's index in `rules`, computed once per rule list. */
function ruleOrder(rules: readonly Rule[]): Map<string, number> {
  let order = orders.get(rules);
  if (order === undefined) {
    order = new Map(rules.map((r, i) => [r.id, i]));
    orders.set(rules, order);
  }
  return order;
}

/** One rule that fired on a command value, in the order it fired, with its excerpt. */
interface CommandMatch {
  rule: Rule;
  via: RuleHit['via'];
  excerpt: string;
  /** Set when the rule's predicate threw instead of answering. */
  failure?: RuleFailure;
}

/** Command values analysed per rule list, keyed by tool name and exact command text. */
const analysed = new WeakMap<readonly Rule[], Lru<CommandMatch[]>>();

/** Entries kept per rule list by the cache of analysed command values. A scan's distinct command
 * values (each reading of each call: as written, decoded, first- and last-wins) outnumber its
 * distinct commands two to one; 2048 entries missed a third of the repeats of a 2 000-command
 * capture. */
export const COMMAND_CACHE_ENTRIES = 16384;
/** Characters of keys kept per rule list by the cache (about 8 MB of strings at most). */
export const COMMAND_CACHE_CHARS = 4 * 1024 * 1024;
/** Command values longer than this (characters) are analysed every time, never cached. */
export const COMMAND_CACHE_MAX_CHARS = 4096;

/**
 * The rules (of `active`, the rules of `rules` that apply to `tool`) that fire on one command
 * value, in firing order, with their excerpts. The result depends only on the rule list, the tool
 * name and the value (rules are pure), so it is cached: a bounded LRU of
 * {@link COMMAND_CACHE_ENTRIES} entries per rule list, keyed by the exact tool name and command
 * text; values over {@link COMMAND_CACHE_MAX_CHARS} characters are not cached. Captures repeat
 * commands (`ls`, `git status`), and this skips their parse and rule walk.
 */
function commandMatches(value: CommandValue, rules: readonly Rule[], active: Rule[], tool: string): CommandMatch[] {
  const text = value.kind === 'text' ? value.text : value.argv.join(' ');
  const key = text.length > COMMAND_CACHE_MAX_CHARS ? null : value.kind === 'text' ? `t\u0000${tool}\u0000${text}` : `a\u0000${tool}\u0000${value.argv.join('\u0000')}`;
  let cache = analysed.get(rules);
  if (key !== null) {
    const hit = cache?.get(key);
    if (hit !== undefined) return hit;
  }
  const out: CommandMatch[] = [];
  const fired = new Set<string>();
  const add: Add = (rule, via, span) => {
    if (fired.has(rule.id)) return;
    fired.add(rule.id);
    out.push({ rule, via, excerpt: excerpt(span) });
  };
  const fail = (rule: Rule, err: unknown) => {
    out.push({ rule, via: 'raw', excerpt: '', failure: new RuleFailure(rule, reasonOf(err)) });
  };
  const line = value.kind === 'text' ? analyzeCommandLine(text) : analyzeArgv(value.argv);
  if (line) matchLine(line, active, tool, add, fail);
  if (!line || line.hasError || line.unparsed.length > 0) matchRaw(text, active.filter((r) => !fired.has(r.id)), add, fail);
  if (key !== null) {
    if (cache === undefined) {
      cache = new Lru(COMMAND_CACHE_ENTRIES, COMMAND_CACHE_CHARS);
      analysed.set(rules, cache);
    }
    cache.set(key, out);
  }
  return out;
}

/** A least-recently-used map of at most `max` entries whose keys hold at most `maxChars` characters in all. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  private chars = 0;
  constructor(
    private readonly max: number,
    private readonly maxChars: number,
  ) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    if (this.map.delete(key)) this.chars -= key.length;
    this.map.set(key, value);
    this.chars += key.length;
    while (this.map.size > this.max || this.chars > this.maxChars) {
      const oldest = this.map.keys().next().value!;
      this.map.delete(oldest);
      this.chars -= oldest.length;
    }
  }
}

type Add = (rule: Rule, via: RuleHit['via'], span: Span) => void;

/** Programs that copy what they read into a file, printing nothing of it. */
const COPIERS = new Set(['cp', 'mv', 'install', 'ditto', 'ln', 'rsync', 'openssl', 'gpg', 'tar', 'zip', 'sort', 'iconv']);

/** True when what the command reads goes only into local files: stdout redirected to a file (not a
 * terminal device) and not piped on, or a copier or writer with an output path. */
function outputStaysLocal(c: ShellCommand, writes: string[]): boolean {
  if (c.pipeline !== null && c.stage < c.pipeline.stages.length - 1) return false;
  if (c.fedBy !== null || c.words.some((w) => w.subs.some((s) => s.kind === 'process-out'))) return false;
  const out = c.redirects.find((r) => /^1?(?:>|>>|>\|)$|^&>>?$/.test(r.op));
  if (out) return !/^\/dev\/(?:stdout|stderr|tty|tcp|udp|fd\/[12])/.test(out.target);
  return COPIERS.has(c.name) && writes.length > 0;
}

/** An in-place editor (`sed -i`, `perl -pi -e`, `ruby -pi -e`) whose script writes nowhere else (no
 * sed `w FILE` or `e` command, no perl `open`/`print` to a handle): what it reads from a file goes back into
 * that file only (GNU sed's -i: https://www.gnu.org/software/sed/manual/sed.html#Command_002dLine-Options). */
function editsInPlace(c: ShellCommand): boolean {
  const args = c.argv.slice(1);
  if (c.name === 'sed') {
    if (!args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) return false;
    return !args.some((a) => /(?:^|[;}\s/])w\s*\S|(?:^|;)\s*[\d,$]*\s*e\b|\/dev\//.test(a));
  }
  if (c.name === 'perl' || c.name === 'ruby') {
    return args.some((a) => /^-[a-zA-Z]*i/.test(a)) && args.some((a) => /^-[a-zA-Z]*p/.test(a)) && !args.some((a) => /\b(?:open|system|exec|print\s+[A-Z$]|STDERR|`)/.test(a));
  }
  return false;
}

/** A path written the Windows way: a backslash, a drive letter or a profile variable. */
const WINDOWS_PATH = /\\|^[A-Za-z]:[\\/]|%USERPROFILE%|\$env:USERPROFILE/i;

/** Runs each rule over a parsed command line; a rule whose predicate throws is reported to `fail`
 * and stops being tried on this line. */
function matchLine(line: CommandLine, rules: Rule[], tool: string, add: Add, fail: (rule: Rule, err: unknown) => void): void {
  const accesses = line.commands.map((c) => {
    const list: PathAccess[] = [];
    const e = effectsOf(c);
    for (const p of e.writes) list.push({ path: p, mode: 'write', content: line.text, tool });
    const sink = outputStaysLocal(c, e.writes) ? { sink: 'file' as const } : {};
    const inPlace = editsInPlace(c);
    for (const p of e.reads) {
      list.push({ path: p, mode: 'read', content: null, tool, ...(inPlace && e.writes.includes(p) ? { sink: 'in-place' as const } : sink) });
      // a Windows spelling (a cmd tool keeps backslashes; a quoted word in bash too): read as a file tool's path
      // (`certutil -encode %USERPROFILE%\.aws\credentials x.b64` reads ~/.aws/credentials)
      if (WINDOWS_PATH.test(p)) {
        const w = toolPath(p);
        if (w !== p) list.push({ path: w, mode: 'read', content: null, tool, ...sink });
      }
    }
    return list;
  });
  for (const rule of rules) {
    try {
      matchRule(rule, line, accesses, add);
    } catch (err) {
      fail(rule, err);
    }
  }
}

/** One rule over a parsed command line: its line predicate, then each command (predicate, paths,
 * argv prefix, text pattern), then a custom text pattern over the whole line. Throws what the
 * rule's predicates throw. */
function matchRule(rule: Rule, line: CommandLine, accesses: PathAccess[][], add: Add): void {
  const m = rule.match;
  if (m.line) {
    const span = m.line(line);
    if (span) {
      add(rule, 'shell', span);
      return;
    }
  }
  for (let i = 0; i < line.commands.length; i++) {
    const c = line.commands[i]!;
    work.ruleChecks++;
    const byCommand = m.command ? m.command(c, line) : false;
    if (byCommand === 'raw') {
      add(rule, 'raw', c.span);
      return;
    }
    if (byCommand || (m.path && accesses[i]!.some((a) => m.path!(a))) || (m.argv && argvStartsWith(c, m.argv)) || (m.text && m.text.find(c.argv.join(' ')))) {
      add(rule, 'shell', c.span);
      return;
    }
  }
  if (m.text) {
    const found = m.text.find(line.text);
    if (found) add(rule, 'shell', { source: line.text, ...found });
  }
}

/** Runs each rule's raw pattern (or custom text pattern) over `text`; a rule whose match fails
 * (the regex engine ran out of memory, say) is reported to `fail`, never taken as a miss. */
function matchRaw(text: string, rules: Rule[], add: Add, fail: (rule: Rule, err: unknown) => void): void {
  for (const rule of withoutSureMisses(text, rules)) {
    work.ruleChecks++;
    if (!rule.match.raw) work.rawChars += text.length; // a custom text pattern (rawFind counts its own)
    try {
      const found = rule.match.raw ? rawFind(rule.match.raw, text) : rule.match.text?.find(text);
      if (found) add(rule, 'raw', { source: text, ...found });
    } catch (err) {
      fail(rule, err);
    }
  }
}

function whole(text: string): Span {
  return { source: text, start: 0, end: text.length };
}


const onRe2 = new WeakMap<RegExp, TextPattern | null>();
const unions = new Map<string, TextPattern | null>();
/** Texts at least this long (characters) are first matched against the union of the RE2 raw
 * patterns: one pass instead of one per rule (about 0.1 s instead of 1 s on 1 MB). */
const UNION_MIN = 16 * 1024;

/** Raw patterns joined per union: a union of all of them can outgrow RE2's fixed heap. */
const UNION_CHUNK = 8;

/** A raw pattern's `i` flag as RE2's inline `(?i)`, so patterns of either case join one union. */
const inlineFlags = (r: Rule): string => (r.match.raw!.flags.includes('i') ? '(?i)' : '');

/** The rules left to try on a long text: the RE2 raw patterns are matched in unions of
 * {@link UNION_CHUNK} (one pass each); the rules of a union that does not match at all, and that
 * have no other matcher, are dropped. */
function withoutSureMisses(text: string, rules: Rule[]): Rule[] {
  if (text.length < UNION_MIN) return rules;
  const onlyRe2 = rules.filter((r) => r.match.raw && /^i?$/.test(r.match.raw.flags) && !r.match.text && rawPatternOnRe2(r.match.raw));
  if (onlyRe2.length < 2) return rules;
  const dropped = new Set<Rule>();
  for (let i = 0; i < onlyRe2.length; i += UNION_CHUNK) {
    const chunk = onlyRe2.slice(i, i + UNION_CHUNK);
    const key = chunk.map((r) => `${inlineFlags(r)}${r.match.raw!.source}`).join('\u0000');
    let union = unions.get(key);
    if (union === undefined) {
      try {
        union = compileBuiltinPattern(chunk.map((r) => `(?:${inlineFlags(r)}${r.match.raw!.source})`).join('|'));
      } catch {
        union = null;
      }
      if (unions.size >= 64) {
        // freed at once, not left to their finalizers: built-in patterns share one engine heap
        for (const u of unions.values()) u?.dispose();
        unions.clear();
      }
      unions.set(key, union);
    }
    let miss = false;
    try {
      if (union) work.rawChars += text.length;
      miss = !!union && !union.find(text);
    } catch {
      miss = false; // the union failed: each rule of the chunk is tried (and fails closed) alone
    }
    if (miss) for (const r of chunk) dropped.add(r);
  }
  return dropped.size ? rules.filter((r) => !dropped.has(r)) : rules;
}

/** The literals of each raw pattern (../base/anchors.ts), of which every match holds one, or null. */
const rawAnchors = new WeakMap<RegExp, string[] | null>();
/** The last text raw patterns were matched on, lower-cased for its anchors (one text takes every rule in turn). */
const lowered = { text: '', lower: '' };

/**
 * The first match of a built-in raw pattern. A text that holds none of the pattern's literals
 * ({@link requiredLiterals}) is a miss without running it (`prefilter` false runs it anyway: the
 * tests compare both). Patterns RE2 accepts (all but `fork-bomb`, which
 * needs a back-reference and is written with bounded quantifiers instead) run on RE2, linear in
 * the text; test/inspection/hostile.test.ts runs every one on 1 MB adversarial text.
 */
export function rawFind(re: RegExp, text: string, prefilter = true): { start: number; end: number } | null {
  if (prefilter) {
    let anchors = rawAnchors.get(re);
    if (anchors === undefined) rawAnchors.set(re, (anchors = requiredLiterals(re.source)));
    if (anchors !== null) {
      if (text !== lowered.text) (lowered.text = text), (lowered.lower = lowerForAnchors(text));
      const lower = lowered.lower;
      if (!anchors.some((a) => lower.includes(a))) {
        work.rawChars += text.length; // counted as the match it stands for
        return null;
      }
    }
  }
  let compiled = onRe2.get(re);
  if (compiled === undefined) {
    try {
      compiled = compileBuiltinPattern(re.source, re.flags.replace(/[^ims]/g, ''));
    } catch {
      compiled = null;
    }
    onRe2.set(re, compiled);
  }
  work.rawChars += text.length;
  if (compiled) return compiled.find(text);
  re.lastIndex = 0;
  const m = re.exec(text); // a throw (stack or memory) reaches the caller: the rule fails closed
  return m ? { start: m.index, end: m.index + m[0].length } : null;
}

/** True when the built-in raw pattern runs on RE2 (for tests and docs). */
export function rawPatternOnRe2(re: RegExp): boolean {
  rawFind(re, '', false);
  return onRe2.get(re) !== null;
}

/** True when the command's normalised argv starts with `prefix` (argv[0] compared by basename). */
function argvStartsWith(cmd: ShellCommand, prefix: readonly string[]): boolean {
  if (cmd.argv.length < prefix.length || prefix.length === 0) return false;
  const first = prefix[0]!;
  if (first.includes('/') ? cmd.argv[0] !== first : cmd.name !== first) return false;
  return prefix.every((w, i) => i === 0 || cmd.argv[i] === w);
}

/**
 * An excerpt of at most {@link MAX_EXCERPT} characters around a span, whitespace collapsed and
 * secrets redacted. Secrets are masked on a wider window first, so a key cut by the window edge
 * is never shown in part.
 */
export function excerpt(span: Span): string {
  const { source } = span;
  const start = Math.max(0, Math.min(span.start, source.length));
  const end = Math.max(start, Math.min(span.end, source.length));
  const wideStart = Math.max(0, start - 400);
  const wideEnd = Math.min(source.length, end + 400, start + MAX_EXCERPT + 800); // a span of megabytes is shown from its start
  const wide = redactSecrets(source.slice(wideStart, wideEnd)).replace(/\s+/g, ' ');
  const focus = redactSecrets(source.slice(start, Math.min(end, start + MAX_EXCERPT + 400))).replace(/\s+/g, ' ').trim();
  let at = focus ? wide.indexOf(focus) : -1;
  if (at < 0) at = Math.round(((start - wideStart) / Math.max(1, wideEnd - wideStart)) * wide.length);
  if (focus.length >= MAX_EXCERPT) return wide.slice(at, at + MAX_EXCERPT).trim();
  const pad = Math.floor((MAX_EXCERPT - focus.length) / 2);
  let a = Math.max(0, at - pad);
  const b = Math.min(wide.length, a + MAX_EXCERPT);
  a = Math.max(0, b - MAX_EXCERPT);
  return wide.slice(a, b).trim();
}
