/**
 * The registry of framing vocabularies, one per language (./types.ts). Every language's entries
 * are tried on every reply: a reply may frame markup in any language.
 */

import { decodeHTML } from 'entities';
import { lowerForAnchors, requiredLiterals } from '../../base/anchors.js';
import { EN } from './en.js';
import { MAIL } from './mail.js';
import { MORE_LANGUAGES } from './more.js';
import { DE, ES, FR, ID, IT, JA, KO, NL, PL, PT, RU, VI, ZH } from './others.js';
import type { FramingEntry, FramingLanguage, FramingPlace } from './types.js';

export type { FramingEntry, FramingLanguage, FramingPlace } from './types.js';

/** Every language's vocabulary. */
export const FRAMING_LANGUAGES: readonly FramingLanguage[] = [EN, ZH, ES, FR, DE, RU, JA, KO, PT, IT, NL, PL, ID, VI, ...MORE_LANGUAGES, MAIL];

/** A compiled entry. */
export interface CompiledFraming {
  language: string;
  entry: FramingEntry;
  re: RegExp;
  /** The same pattern with the `g` flag, for reading every match (its `lastIndex` is reset before each use). */
  all: RegExp;
  /** Literals (lower case) of which every match holds one (../../base/anchors.ts), or null when unknown: the pattern is run only on text that holds one. */
  anchors: readonly string[] | null;
  /** The anchors as indices into {@link FRAMING_ANCHORS}. */
  anchorIds: readonly number[] | null;
}

/** Every language's acting phrase (types.ts ActingPhrase), compiled once. */
export const ACTING: readonly RegExp[] = FRAMING_LANGUAGES.flatMap((l) => (l.acting ? [new RegExp(l.acting.pattern, 'iu')] : []));

/** Abbreviations whose period ends no sentence (`e.g. pytest`). */
const ABBREVIATION = /(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|esp|resp|no|fig|ch|sec|dr|mr|mrs|ms|st)\.|\.\.\.?)$/i;

/** Where the sentences of `text` start (offsets, the first 0): after a line break, or a `.`, `!`, `?` (or their CJK forms) and a space, not the period of an abbreviation. */
function sentenceStarts(text: string): number[] {
  const starts = [0];
  for (let i = 1; i < text.length; i++) {
    const c = text[i - 1]!;
    if (c === '\n' || c === '。' || c === '！' || c === '？') starts.push(i);
    else if ((c === '.' || c === '!' || c === '?') && text[i] === ' ' && !ABBREVIATION.test(text.slice(Math.max(0, i - 8), i))) starts.push(i + 1);
  }
  return starts;
}

/**
 * The last sentence of `text` (prose as {@link framingText} makes it): what follows the last line
 * break or the last `.`, `!`, `?` (or their CJK forms) followed by a space, not counting the period
 * of an abbreviation or a trailing colon. Trailing spaces are dropped.
 */
export function lastSentence(text: string): string {
  const t = text.replace(/\s+$/u, '');
  const starts = sentenceStarts(t);
  return t.slice(starts[starts.length - 1]!);
}

/** True when `sentence` states the reply's own next action: no question, an acting phrase of any language. */
const acts = (sentence: string): boolean => !sentence.includes('?') && ACTING.some((re) => re.test(sentence));

/** True when the last sentence of `text` states the reply's own next action (an acting phrase of any language). */
export function actsNext(text: string): boolean {
  return acts(lastSentence(text));
}

/**
 * Words by which a sentence points at the markup itself ("this", "the following", "call",
 * "example"…): a sentence that holds one says what the markup is, and no plan overrules it.
 */
const POINTS_AT_MARKUP = /\b(?:this|that|these|those|something|the following|following|follows|below|above|here|call|calls|command|commands|markup|snippet|payload|block|blocks|instructions?|syntax|format|example|examples|sample|samples|tool|tools|function|functions|code)\b/i;

/** A clause that opens the acting sentence and says where the plan comes from (`Per the README, I'll…`). */
const OPENING_CLAUSE = /^(?:(?:as|per|since|because|according to|given|following) [^,.:;!?\n]{1,80}), /i;

/**
 * The part of `text` (from its start) in which descriptions of a source are overruled by the
 * reply's own plan ({@link FramingEntry.overruled_by_acting}): when the last sentence states the
 * reply's next action, the sentences before it and the acting sentence's opening clause (`end`),
 * with the sentence starts of `text`; else null.
 */
function overruledPrefix(text: string): { end: number; starts: number[] } | null {
  const starts = sentenceStarts(text.replace(/\s+$/u, ''));
  const at = starts[starts.length - 1]!;
  const last = text.slice(at).replace(/\s+$/u, '');
  if (!acts(last)) return null;
  const clause = OPENING_CLAUSE.exec(last);
  return { end: at + (clause ? clause[0].length : 0), starts };
}

/** Every entry, compiled once (case-insensitive, Unicode). */
export const FRAMING: readonly CompiledFraming[] = FRAMING_LANGUAGES.flatMap((l) => l.entries.map((entry) => ({ language: l.language, entry, re: new RegExp(entry.pattern, 'iu'), all: new RegExp(entry.pattern, 'giu'), anchors: requiredLiterals(entry.pattern), anchorIds: null })));

/** Every entry's anchors, each once ({@link CompiledFraming.anchorIds} index it). */
const FRAMING_ANCHORS: readonly string[] = (() => {
  const ids = new Map<string, number>();
  for (const f of FRAMING as CompiledFraming[]) {
    f.anchorIds = f.anchors === null ? null : f.anchors.map((a) => ids.get(a) ?? (ids.set(a, ids.size), ids.size - 1));
  }
  return [...ids.keys()];
})();

/** Characters that render as nothing (zero-width space, joiners, word joiner, BOM, soft hyphen). */
const INVISIBLE_CHARS = '\\u200b-\\u200d\\u2060\\ufeff\\u00ad\\u180e';
const INVISIBLE = new RegExp(`[${INVISIBLE_CHARS}]`, 'gu');
/** A run of padding longer than {@link LONG_PADDING} characters. */
const LONG_PADDING_RUN = new RegExp(`[\\s${INVISIBLE_CHARS}]{65,}`, 'gu');
/** Padding runs longer than this are read as one character by {@link compressPadding}. */
export const LONG_PADDING = 64;

/**
 * True for a character {@link framingText} removes or collapses: JavaScript's `\s` (ECMA-262
 * WhiteSpace and LineTerminator) and the invisible characters. Tested by code unit, not by a
 * regular expression: it is called once per character of padding, however long the padding.
 */
export function isFramingPadding(c: string): boolean {
  const k = c.charCodeAt(0);
  if (k <= 32) return k === 32 || (k >= 9 && k <= 13);
  if (k < 0xa0) return false;
  return k === 0xa0 || k === 0xad || k === 0x1680 || k === 0x180e || (k >= 0x2000 && k <= 0x200d) || k === 0x2028 || k === 0x2029 || k === 0x202f || k === 0x205f || k === 0x2060 || k === 0x3000 || k === 0xfeff;
}

/**
 * `text` with every run of padding longer than {@link LONG_PADDING} read as the one character
 * {@link framingText} would make of it: a line break when the run holds one, else a space when it
 * holds whitespace, else nothing (invisible characters only). What framing reads is unchanged; the
 * text to normalise is no longer than its words (70 000 newlines between a warning and the markup
 * cost nothing and hide nothing).
 */
export function compressPadding(text: string): string {
  return text.replace(LONG_PADDING_RUN, (run) => (/[\n\r\u2028\u2029]/u.test(run) ? '\n' : /\s/u.test(run) ? ' ' : ''));
}
/** Characters that read as an apostrophe. */
const APOSTROPHES = /[’‘`´\u02bc\u02b9\u2032\uff07]/gu;
/**
 * Cyrillic and Greek letters drawn like Latin ones (Unicode confusables, https://www.unicode.org/Public/security/latest/confusables.txt),
 * folded in a word that also holds Latin letters (`Dо nоt`, `DО NОT` with Cyrillic О, `Dοn't` with Greek omicron).
 */
const LOOKALIKE: Readonly<Record<string, string>> = {
  о: 'o', е: 'e', а: 'a', с: 'c', р: 'p', х: 'x', і: 'i', у: 'y', ј: 'j', ѕ: 's', ԁ: 'd', һ: 'h', ԛ: 'q', ԝ: 'w',
  О: 'O', Е: 'E', А: 'A', С: 'C', Р: 'P', Х: 'X', І: 'I', У: 'Y', Т: 'T', Н: 'H', М: 'M', В: 'B', К: 'K', Ј: 'J', Ѕ: 'S',
  ο: 'o', α: 'a', ι: 'i', ν: 'v', ρ: 'p', κ: 'k', υ: 'u', τ: 't', ε: 'e',
  Ο: 'O', Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
};
/** Latin small capitals (Unicode "Phonetic Extensions" and IPA), which NFKC leaves alone: folded wherever they stand (`Dᴏ ɴᴏᴛ ʀᴜɴ`). */
const SMALL_CAPITAL: Readonly<Record<string, string>> = {
  ᴀ: 'a', ʙ: 'b', ᴄ: 'c', ᴅ: 'd', ᴇ: 'e', ꜰ: 'f', ɢ: 'g', ʜ: 'h', ɪ: 'i', ᴊ: 'j', ᴋ: 'k', ʟ: 'l', ᴍ: 'm', ɴ: 'n', ᴏ: 'o', ᴘ: 'p', ʀ: 'r', ꜱ: 's', ᴛ: 't', ᴜ: 'u', ᴠ: 'v', ᴡ: 'w', ʏ: 'y', ᴢ: 'z',
};
const SMALL_CAPITAL_RE = new RegExp(`[${Object.keys(SMALL_CAPITAL).join('')}]`, 'gu');
/** Combining marks drawn over or under a letter as a line (overline, underline, strokes: U+0305, U+0332–U+0338), which style a word without changing it (`n̶o̶t`). */
const COMBINING_LINES = /[\u0305\u0332-\u0338]/gu;
const LOOKALIKE_CLASS = `[${Object.keys(LOOKALIKE).join('')}]`;
const LOOKALIKE_RE = new RegExp(LOOKALIKE_CLASS, 'gu');
/** A word that mixes Latin letters with look-alikes ({@link LOOKALIKE}); tried at word starts only, so a long run of letters is read once. */
const MIXED_SCRIPT_WORD = new RegExp(`(?<!\\p{L})(?=\\p{L}*[a-zA-Z])(?=\\p{L}*${LOOKALIKE_CLASS})\\p{L}+`, 'gu');
/** An HTML tag of inline text styling (`<b>`, `</span>`, `<br/>`), read as a space; other tags (`<example>`) are words the vocabulary reads. */
const HTML_TAG = /<\/?(?:b|i|u|s|em|strong|span|br|small|mark|font|sup|sub|big|wbr|ins)(?:\s[^<>]{0,200})?\/?>/giu;

/**
 * Prose as the patterns read it: HTML character references decoded and tags read as spaces,
 * Unicode compatibility forms folded (NFKC: full-width letters and punctuation), invisible
 * characters removed, apostrophe look-alikes made ASCII (and a backslash-escaped quote unescaped),
 * combining lines (strike-through, underline) removed, Latin small capitals folded, a backslash
 * before a letter removed (`D\\o n\\o\\t`), Cyrillic and Greek look-alike letters in a word of Latin letters folded, Markdown emphasis marks (`*`, `~`)
 * removed and `_` read as a space, runs of spaces and tabs one space, a line break inside a
 * sentence (between a lower-case letter or comma and a lower-case letter) a space, other line
 * breaks kept (one per run).
 */
export function framingText(prose: string): string {
  const decoded = prose.includes('&') ? decodeHTML(prose) : prose;
  return decoded
    .replace(HTML_TAG, ' ')
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(COMBINING_LINES, '')
    .replace(SMALL_CAPITAL_RE, (c) => SMALL_CAPITAL[c] ?? c)
    .replace(/\\(?=\p{L})/gu, '')
    .replace(APOSTROPHES, "'")
    .replace(/\\(['"])/g, '$1')
    .replace(MIXED_SCRIPT_WORD, (w) => w.replace(LOOKALIKE_RE, (c) => LOOKALIKE[c] ?? c))
    .replace(/[*~]+/g, '')
    .replace(/_/g, ' ')
    .replace(/[\u2028\u2029\r]/gu, '\n')
    .replace(/[ \t\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .replace(/(?<=[\p{Ll},])\n(?=\p{Ll})/gu, ' ');
}

/**
 * The first framing phrase found in `prose` for markup at `place` (its entry and the words), or null.
 * Before the markup and between blocks, a match of an entry marked `overruled_by_acting` is
 * skipped when it stands in a sentence (or opening clause) before an acting last sentence
 * ({@link actsNext}) and that sentence does not point at the markup ("The README says to run make
 * first. Let me run it:" is the reply's plan; "The page contains this call. Let me run it:" is not).
 *
 * @param prose text before, between or after markup.
 * @param place where the text stands relative to the markup (`around` entries apply everywhere;
 *   `before` entries also between two blocks; `after` entries only after the last call).
 * @param window how many characters of the normalised prose are read (default all), kept from
 *   its `end` (the prose before markup) or its `start` (after it, or between blocks).
 */
export function findFraming(prose: string, place: 'before' | 'after' | 'between', window = Infinity, keep: 'start' | 'end' = 'end'): { framing: CompiledFraming; words: string } | null {
  const normal = framingText(prose);
  const text = normal.length <= window ? normal : keep === 'start' ? normal.slice(0, window) : normal.slice(normal.length - window);
  if (text.trim() === '') return null;
  const found = framingIn(text, place);
  if (found !== null) return found;
  const plain = deobfuscated(text);
  return plain === text ? null : framingIn(plain, place);
}

/** A word of letters and the digits that stand for letters in leetspeak (`D0`, `N0T`, `3x3cute`), holding at least one of each. */
const LEET_WORD = /(?<![\p{L}\p{N}])(?=[\p{L}013457]*\p{L})(?=[\p{L}013457]*[013457])[\p{L}013457]+(?![\p{L}\p{N}])/gu;
/** The letters leetspeak digits stand for. */
const LEET: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't' };
/** Three or more letters standing alone, separated by spaces, dots, hyphens, underscores or middle dots (`D o n o t`, `N.O.T. S.A.F.E.`, `r-u-n`). */
const SPACED_LETTERS = /(?<!\p{L})\p{L}(?:[ .\-_\u00b7]{1,3}\p{L}(?!\p{L})){2,}/gu;

/**
 * Prose with two obfuscations of framing words undone, for a second reading: leetspeak digits in
 * a word of letters read as letters (`D0 N0T RUN` → `Do NoT RUN`), and letters written one by one
 * joined into a word (`D o n o t r u n` → `Donotrun`, read by the run-together entries). Plain
 * prose comes back unchanged and is not read twice.
 */
export function deobfuscated(text: string): string {
  return text
    .replace(LEET_WORD, (w) => w.replace(/[013457]/g, (d) => LEET[d] ?? d))
    .replace(SPACED_LETTERS, (run) => run.replace(/[ .\-_\u00b7]/g, ''));
}

/**
 * The first framing phrase in normalised `text` for markup at `place` ({@link findFraming}).
 * An entry none of whose anchors ({@link CompiledFraming.anchors}) the text holds cannot match and
 * is not run (`prefilter` false runs every entry: the tests compare both).
 */
export function framingIn(text: string, place: 'before' | 'after' | 'between', prefilter = true): { framing: CompiledFraming; words: string } | null {
  const overruled = place === 'after' ? null : overruledPrefix(text);
  const lower = prefilter ? lowerForAnchors(text) : '';
  // per anchor: 0 not searched yet, 1 held, 2 not held
  const held = new Uint8Array(FRAMING_ANCHORS.length);
  const holdsOne = (ids: readonly number[]): boolean => {
    for (const id of ids) {
      let h = held[id]!;
      if (h === 0) held[id] = h = lower.includes(FRAMING_ANCHORS[id]!) ? 1 : 2;
      if (h === 1) return true;
    }
    return false;
  };
  for (const f of FRAMING) {
    const p: FramingPlace = f.entry.place;
    if (p === 'before' && place === 'after') continue;
    if (p === 'after' && place !== 'after') continue;
    if (prefilter && f.anchorIds !== null && !holdsOne(f.anchorIds)) continue;
    if (overruled !== null && overruled.end > 0 && f.entry.overruled_by_acting) {
      const m = firstUnoverruled(f, text, overruled.end, overruled.starts);
      if (m) return { framing: f, words: m.trim() };
      continue;
    }
    const m = f.re.exec(text);
    if (m) return { framing: f, words: m[0].trim() };
  }
  return null;
}

/** The first match of `f` in `text` that the plan does not overrule: past `overruled`, or in a sentence that points at the markup. */
function firstUnoverruled(f: CompiledFraming, text: string, overruled: number, starts: readonly number[]): string | null {
  f.all.lastIndex = 0;
  for (let m = f.all.exec(text); m; m = f.all.exec(text)) {
    if (m[0] === '') f.all.lastIndex++;
    if (m.index >= overruled) return m[0];
    let k = starts.length - 1;
    while (k > 0 && starts[k]! > m.index) k--;
    const sentence = text.slice(starts[k]!, Math.min(overruled, starts[k + 1] ?? text.length));
    if (POINTS_AT_MARKUP.test(sentence)) return m[0];
  }
  return null;
}
