/**
 * The shape of the framing vocabulary: phrases that, written around leaked markup, show that the
 * markup is not the reply's own call (a refusal, a negated instruction, an attribution to someone
 * else, an example, a question). One module per language holds a list of entries; each entry
 * carries the sentences it must find and the near misses it must not (test/recovery/framing.test.ts
 * runs them), so the vocabulary grows by entries, not code.
 */

/** Where, relative to the markup, a phrase frames it. */
export type FramingPlace = 'before' | 'after' | 'around';

/** One framing phrase family. */
export interface FramingEntry {
  /** kebab-case, unique within the language. */
  id: string;
  /** What the phrase says about the markup, for the verdict's detail (`a refusal`, `an example`). */
  says: string;
  /** `before`: only in the prose before the markup; `after`: only after it; `around`: anywhere. */
  place: FramingPlace;
  /**
   * A regular expression (JavaScript syntax, matched case-insensitively with the `u` flag) over the
   * prose with whitespace collapsed to single spaces and typographic apostrophes made ASCII. It must
   * be linear: no nested quantifiers, bounded repetition only.
   */
  pattern: string;
  /** Prose it must find (each in its place). */
  match: string[];
  /** Near misses it must not find: real prefaces of leaks and ordinary sentences. */
  not_match: string[];
  /**
   * True for framing that describes where a call came from or what it is like (an attribution, a
   * cited document, an example, an earlier call, a transcript label), which a reply's own plan
   * overrules: when the sentence right before the markup states the reply's next action in the
   * first person ({@link FramingLanguage.acting}: "The README says to run make first, so I'll run
   * it:", "Let me search for examples in the repo:"), such an entry does not frame the markup
   * before it. Refusals, negations, hypotheticals, requests for approval are never overruled.
   */
  overruled_by_acting?: boolean;
}

/**
 * A sentence in which the reply states its own next action (`Let me check the log:`, `I'll run
 * the tests now:`), matched at the start of the last sentence before the markup. The verbs of
 * showing (show, quote, demonstrate, paste, print…) do not count: "Let me show the syntax:" is
 * still an example.
 */
export interface ActingPhrase {
  /** A regular expression over the sentence (as {@link FramingEntry.pattern}), anchored with `^`. */
  pattern: string;
  /** Sentences that state an action. */
  match: string[];
  /** Sentences that must not: showing, refusing, asking. */
  not_match: string[];
}

/** The framing vocabulary of one language. */
export interface FramingLanguage {
  /** BCP 47 tag. */
  language: string;
  entries: FramingEntry[];
  /** How a sentence of this language states the reply's own next action, if known. */
  acting?: ActingPhrase;
}
