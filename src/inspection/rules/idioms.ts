/**
 * Rules made of idioms: a data table of patterns, each one way of doing the thing the rule is
 * about (a Windows LOLBin's abuse form, a PowerShell cmdlet with a tampering option). A new idiom
 * is one more entry (and a vector in the group's `*.vectors.yaml`). Each pattern is tried on every
 * simple command of the parsed line, on its normalised argv and on its text as written (PowerShell
 * and cmd.exe quoting and backslashes survive there), and, as the labelled raw fallback, on text
 * that did not parse. Patterns are RE2-compatible (no lookaround, no back-references).
 */
import type { Rule } from '../rule.js';
import type { ShellCommand } from '../shell/model.js';

/** One idiom: a pattern (case-insensitive) and, optionally, the command names it applies to. */
export interface Idiom {
  re: RegExp;
  /** Only commands with one of these names (lower-case, `.exe` stripped). */
  names?: readonly string[];
}

/** A rule's identity and documentation, plus its idioms. */
export type IdiomRuleSpec = Omit<Rule, 'match'> & { idioms: readonly Idiom[] };

/** The text of a command as written (its span in the source). */
export function writtenText(c: ShellCommand): string {
  return c.span.source.slice(c.span.start, c.span.end);
}

/** The two texts idioms are tried on, computed once per command. */
const texts = new WeakMap<ShellCommand, { name: string; joined: string; written: string }>();

function textsOf(c: ShellCommand): { name: string; joined: string; written: string } {
  let t = texts.get(c);
  if (t === undefined) {
    // redirect targets too: an alternate data stream is named there (`type x > y.txt:evil.exe`)
    const targets = c.redirects.filter((r) => r.target).map((r) => `${r.op} ${r.target}`);
    const joined = [c.argv.join(' '), ...targets].join(' ');
    const written = [writtenText(c), ...targets].join(' ');
    t = { name: c.name.toLowerCase(), joined, written: written === joined ? '' : written };
    texts.set(c, t);
  }
  return t;
}

/** True when one of the idioms matches the command. */
export function matchesIdiom(c: ShellCommand, idioms: readonly Idiom[]): boolean {
  if (c.argv.length === 0) return false;
  const t = textsOf(c);
  for (const i of idioms) {
    if (i.names && !i.names.includes(t.name)) continue;
    if (i.re.test(t.joined) || (t.written !== '' && i.re.test(t.written))) return true;
  }
  return false;
}

/** Builds a rule from its idioms: a command predicate over them and a raw fallback (their union,
 * for the idioms without a name restriction). */
export function idiomRule(spec: IdiomRuleSpec): Rule {
  const { idioms, ...rest } = spec;
  const free = idioms.filter((i) => !i.names).map((i) => `(?:${i.re.source})`);
  return {
    ...rest,
    match: {
      command: (c) => matchesIdiom(c, idioms),
      ...(free.length ? { raw: new RegExp(free.join('|'), 'i') } : {}),
    },
  };
}
