/**
 * The registry of framing vocabularies, one per language (./types.ts). Every language's entries
 * are tried on every reply: a reply may frame markup in any language.
 */

import { EN } from './en.js';
import { DE, ES, FR, ID, IT, JA, KO, NL, PL, PT, RU, VI, ZH } from './others.js';
import type { FramingEntry, FramingLanguage, FramingPlace } from './types.js';

export type { FramingEntry, FramingLanguage, FramingPlace } from './types.js';

/** Every language's vocabulary. */
export const FRAMING_LANGUAGES: readonly FramingLanguage[] = [EN, ZH, ES, FR, DE, RU, JA, KO, PT, IT, NL, PL, ID, VI];

/** A compiled entry. */
export interface CompiledFraming {
  language: string;
  entry: FramingEntry;
  re: RegExp;
}

/** Every language's acting phrase (types.ts ActingPhrase), compiled once. */
export const ACTING: readonly RegExp[] = FRAMING_LANGUAGES.flatMap((l) => (l.acting ? [new RegExp(l.acting.pattern, 'iu')] : []));

/** Abbreviations whose period ends no sentence (`e.g. pytest`). */
const ABBREVIATION = /(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|esp|resp|no|fig|ch|sec|dr|mr|mrs|ms|st)\.|\.\.\.?)$/i;

/**
 * The last sentence of `text` (prose as {@link framingText} makes it): what follows the last line
 * break or the last `.`, `!`, `?` (or their CJK forms) followed by a space, not counting the period
 * of an abbreviation or a trailing colon. Trailing spaces are dropped.
 */
export function lastSentence(text: string): string {
  const t = text.replace(/\s+$/u, '');
  for (let i = t.length - 1; i > 0; i--) {
    const c = t[i - 1]!;
    if (t[i] === '\n') return t.slice(i + 1);
    if (c === '。' || c === '！' || c === '？') return t.slice(i);
    if ((c === '.' || c === '!' || c === '?') && t[i] === ' ' && !ABBREVIATION.test(t.slice(Math.max(0, i - 8), i))) return t.slice(i + 1);
  }
  return t[0] === '\n' ? t.slice(1) : t;
}

/** True when the last sentence of `text` states the reply's own next action (an acting phrase of any language). */
export function actsNext(text: string): boolean {
  const last = lastSentence(text);
  return !last.includes('?') && ACTING.some((re) => re.test(last));
}

/** Every entry, compiled once (case-insensitive, Unicode). */
export const FRAMING: readonly CompiledFraming[] = FRAMING_LANGUAGES.flatMap((l) => l.entries.map((entry) => ({ language: l.language, entry, re: new RegExp(entry.pattern, 'iu') })));

/**
 * Prose as the patterns read it: typographic apostrophes made ASCII, runs of spaces and tabs one
 * space, line breaks kept (one per run).
 */
export function framingText(prose: string): string {
  return prose.replace(/[’‘`´]/g, "'").replace(/[ \t\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+/g, ' ').replace(/\s*\n\s*/g, '\n');
}

/**
 * The first framing phrase found in `prose` for markup at `place` (its entry and the words), or null.
 * Before the markup and between blocks, entries marked `overruled_by_acting` are skipped when the
 * prose's last sentence states the reply's own next action ({@link actsNext}).
 *
 * @param prose text before, between or after markup.
 * @param place where the text stands relative to the markup (`around` entries apply everywhere;
 *   `before` entries also between two blocks; `after` entries only after the last call).
 */
export function findFraming(prose: string, place: 'before' | 'after' | 'between'): { framing: CompiledFraming; words: string } | null {
  const text = framingText(prose);
  if (text.trim() === '') return null;
  // prose right before markup that ends in the reply's own plan ("Let me check the log:") is not
  // overruled by what it says about a source or an example ("The README says to run make, so I'll run it:")
  const acting = place !== 'after' && actsNext(text);
  for (const f of FRAMING) {
    const p: FramingPlace = f.entry.place;
    if (p === 'before' && place === 'after') continue;
    if (p === 'after' && place !== 'after') continue;
    if (acting && f.entry.overruled_by_acting) continue;
    const m = f.re.exec(text);
    if (m) return { framing: f, words: m[0].trim() };
  }
  return null;
}
