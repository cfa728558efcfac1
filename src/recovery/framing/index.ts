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
 *
 * @param prose text before, between or after markup.
 * @param place where the text stands relative to the markup (`around` entries apply everywhere;
 *   `before` entries also between two blocks; `after` entries only after the last call).
 */
export function findFraming(prose: string, place: 'before' | 'after' | 'between'): { framing: CompiledFraming; words: string } | null {
  const text = framingText(prose);
  if (text.trim() === '') return null;
  for (const f of FRAMING) {
    const p: FramingPlace = f.entry.place;
    if (p === 'before' && place === 'after') continue;
    if (p === 'after' && place !== 'after') continue;
    const m = f.re.exec(text);
    if (m) return { framing: f, words: m[0].trim() };
  }
  return null;
}
