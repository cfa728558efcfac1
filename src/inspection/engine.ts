/**
 * Runs a rule set over the tool calls of one reply. Each command value is parsed once; every
 * rule then runs over the parsed commands, the paths they write or read, and the file paths of
 * file tools. Text that cannot be parsed (arguments that are not JSON, shell with syntax errors,
 * or no parser loaded) falls back to each rule's raw pattern, labelled `via: 'raw'`.
 */
import type { PathAccess, Rule } from './rule.js';
import type { CommandLine, ShellCommand, Span } from './shell/model.js';
import type { InspectableCall, InspectionMode, InspectionVerdict, RuleHit } from './types.js';
import type { RuleSet } from './ruleset.js';
import { analyzeArgv, analyzeCommandLine } from './shell/analyze.js';
import { callSurfaces } from './extract.js';
import { readSources, writeTargets } from './rules/util.js';
import { redactSecrets } from './redact.js';

/** Longest excerpt, in characters. */
export const MAX_EXCERPT = 120;
const MAX_RAW = 64 * 1024;

/**
 * Inspects the tool calls of one reply. `off` → outcome `pass` with no hits; `observe` → hits,
 * outcome `flag` when any; `enforce` → `block` when any hit's action is `block`, else `flag` when
 * hits. Each rule fires at most once per call. Never throws: a failing rule predicate counts as
 * no match.
 */
export function inspectCalls(calls: InspectableCall[], ruleSet: Pick<RuleSet, 'rules'>, mode: InspectionMode): InspectionVerdict {
  if (mode === 'off') return { mode, outcome: 'pass', hits: [] };
  const hits: RuleHit[] = [];
  for (const call of calls ?? []) {
    try {
      hits.push(...inspectCall(call, ruleSet.rules));
    } catch {
      // a malformed call must not stop the others
    }
  }
  const outcome = hits.length === 0 ? 'pass' : mode === 'enforce' && hits.some((h) => h.action === 'block') ? 'block' : 'flag';
  return { mode, outcome, hits };
}

/** The hits of one call (one per rule at most), in rule order. */
export function inspectCall(call: InspectableCall, rules: readonly Rule[]): RuleHit[] {
  const found = new Map<string, RuleHit>();
  const tool = String(call.name ?? '');
  const lower = tool.toLowerCase();
  const active = rules.filter((r) => !r.match.tools || r.match.tools.includes(lower));
  const add = (rule: Rule, via: RuleHit['via'], span: Span) => {
    if (found.has(rule.id)) return;
    found.set(rule.id, { rule: rule.id, action: rule.action, category: rule.category, tool, callId: call.id ?? null, excerpt: excerpt(span), via });
  };
  const surfaces = callSurfaces(call);
  for (const value of surfaces.commands) {
    const text = value.kind === 'text' ? value.text : value.argv.join(' ');
    const line = value.kind === 'text' ? analyzeCommandLine(text) : analyzeArgv(value.argv);
    if (line) matchLine(line, active, tool, add);
    if (!line || line.hasError || line.truncated) matchRaw(text, active.filter((r) => !found.has(r.id)), add);
  }
  for (const access of surfaces.paths) {
    for (const rule of active) {
      if (rule.match.path && safe(() => rule.match.path!(access))) add(rule, 'path', whole(access.path));
    }
  }
  if (surfaces.raw !== null) matchRaw(surfaces.raw, active, add);
  const order = new Map(rules.map((r, i) => [r.id, i]));
  return [...found.values()].sort((a, b) => (order.get(a.rule) ?? 0) - (order.get(b.rule) ?? 0));
}

type Add = (rule: Rule, via: RuleHit['via'], span: Span) => void;

function matchLine(line: CommandLine, rules: Rule[], tool: string, add: Add): void {
  const accesses = line.commands.map((c) => {
    const list: PathAccess[] = [];
    for (const p of safe(() => writeTargets(c)) || []) list.push({ path: p, mode: 'write', content: line.text, tool });
    for (const p of safe(() => readSources(c)) || []) list.push({ path: p, mode: 'read', content: null, tool });
    return list;
  });
  for (const rule of rules) {
    const m = rule.match;
    if (m.line) {
      const span = safe(() => m.line!(line));
      if (span) { add(rule, 'shell', span); continue; }
    }
    let hit = false;
    line.commands.forEach((c, i) => {
      if (hit) return;
      if (m.command && safe(() => m.command!(c, line))) hit = true;
      else if (m.path && accesses[i]!.some((a) => safe(() => m.path!(a)))) hit = true;
      else if (m.argv && argvStartsWith(c, m.argv)) hit = true;
      else if (m.text && m.text.find(c.argv.join(' '))) hit = true;
      if (hit) add(rule, 'shell', c.span);
    });
    if (!hit && m.text) {
      const found = m.text.find(cap(line.text));
      if (found) add(rule, 'shell', { source: line.text, ...found });
    }
  }
}

function matchRaw(text: string, rules: Rule[], add: Add): void {
  const capped = cap(text);
  for (const rule of rules) {
    const m = rule.match.raw ? safeExec(rule.match.raw, capped) : null;
    const found = m ? { start: m.index, end: m.index + m[0].length } : rule.match.text?.find(capped);
    if (found) add(rule, 'raw', { source: capped, ...found });
  }
}

function whole(text: string): Span {
  return { source: text, start: 0, end: text.length };
}

function safe<T>(f: () => T): T | false {
  try {
    return f();
  } catch {
    return false;
  }
}

function cap(text: string): string {
  return text.length > MAX_RAW ? text.slice(0, MAX_RAW) : text;
}

/** Built-in raw patterns only (trusted, written to run in linear time); custom ones run on RE2. */
function safeExec(re: RegExp, text: string): RegExpExecArray | null {
  try {
    re.lastIndex = 0;
    return re.exec(cap(text));
  } catch {
    return null;
  }
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
  const wide = redactSecrets(source.slice(wideStart, Math.min(source.length, end + 400))).replace(/\s+/g, ' ');
  const focus = redactSecrets(source.slice(start, end)).replace(/\s+/g, ' ').trim();
  let at = focus ? wide.indexOf(focus) : -1;
  if (at < 0) at = Math.round(((start - wideStart) / Math.max(1, end + 400 - wideStart)) * wide.length);
  if (focus.length >= MAX_EXCERPT) return wide.slice(at, at + MAX_EXCERPT).trim();
  const pad = Math.floor((MAX_EXCERPT - focus.length) / 2);
  let a = Math.max(0, at - pad);
  const b = Math.min(wide.length, a + MAX_EXCERPT);
  a = Math.max(0, b - MAX_EXCERPT);
  return wide.slice(a, b).trim();
}
