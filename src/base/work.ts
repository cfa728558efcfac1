/**
 * Work counters: how much text the engines handed to their scanners, process-wide and only ever
 * increasing. Tests bound work with them instead of wall-clock time (a loaded machine slows time,
 * never these counts); nothing in guard reads them to decide anything.
 */

/** Counts of scanner work since the process started. */
export interface WorkCounters {
  /** Texts handed to the shell and code parsers (tree-sitter), and their characters summed. */
  parses: number;
  parsedChars: number;
  /** Characters the raw patterns, their RE2 union prefilter and custom text patterns ran over, summed over runs. */
  rawChars: number;
  /** Steps of the shell pre-scan's main loop (shell/split.ts), each moving forward at least one character. */
  prescanSteps: number;
  /** Rule predicates tried: a rule on one parsed command, one path access or one raw text. */
  ruleChecks: number;
  /** Characters recovery's scanners (Scanner.find, scanJson, indexOutsideStrings in recovery/scan.ts) stepped over. */
  recoveryScanChars: number;
}

/** The live counters; the engines add to them. */
export const work: WorkCounters = { parses: 0, parsedChars: 0, prescanSteps: 0, rawChars: 0, ruleChecks: 0, recoveryScanChars: 0 };

/** A copy of the counters now (subtract two copies for the work done in between). */
export function workCounters(): WorkCounters {
  return { ...work };
}

/** The work done since `before` (a {@link workCounters} copy). */
export function workSince(before: WorkCounters): WorkCounters {
  const now = workCounters();
  return {
    parses: now.parses - before.parses,
    parsedChars: now.parsedChars - before.parsedChars,
    prescanSteps: now.prescanSteps - before.prescanSteps,
    rawChars: now.rawChars - before.rawChars,
    ruleChecks: now.ruleChecks - before.ruleChecks,
    recoveryScanChars: now.recoveryScanChars - before.recoveryScanChars,
  };
}
