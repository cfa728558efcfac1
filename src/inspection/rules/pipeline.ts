/**
 * Pipeline helpers for the rules: the stages before a command, and cached "some stage before this
 * one satisfies P" answers (linear in the pipeline, not quadratic).
 */
import type { Pipeline, ShellCommand } from '../shell/model.js';

/** The stages before this command in its pipeline, nearest first. */
export function upstream(cmd: ShellCommand): ShellCommand[] {
  if (!cmd.pipeline) return [];
  return cmd.pipeline.stages.slice(0, cmd.stage).reverse();
}

const prefixes = new WeakMap<Pipeline, Map<(c: ShellCommand) => boolean, Uint8Array>>();

/**
 * True when a stage before `cmd` in its pipeline satisfies `pred`, or, for a command run in a
 * `>(…)`, the command feeding it or a stage before that one. The answer for every stage is
 * computed once per pipeline and predicate (one pass), so checking each stage of an n-stage
 * pipeline costs O(n) in all, not O(n²) as `upstream(c).some(pred)` does. `pred` is the cache
 * key: pass a module-level function, not a fresh arrow.
 */
export function anyUpstream(cmd: ShellCommand, pred: (c: ShellCommand) => boolean): boolean {
  const p = cmd.pipeline;
  if (p !== null && prefixOf(p, pred)[cmd.stage] === 1) return true;
  // a command of a `>(…)` reads what the command holding it writes (`curl … | tee >(sh)`)
  const feeder = cmd.fedBy;
  return feeder !== null && (pred(feeder) || anyUpstream(feeder, pred));
}

/** True when any stage of the pipeline satisfies `pred` (cached like {@link anyUpstream}). */
export function anyStage(p: Pipeline, pred: (c: ShellCommand) => boolean): boolean {
  return prefixOf(p, pred)[p.stages.length] === 1;
}

/** prefix[i] = 1 when one of stages[0..i-1] satisfies `pred`. */
function prefixOf(p: Pipeline, pred: (c: ShellCommand) => boolean): Uint8Array {
  let byPred = prefixes.get(p);
  if (!byPred) prefixes.set(p, (byPred = new Map()));
  let prefix = byPred.get(pred);
  if (!prefix) {
    prefix = new Uint8Array(p.stages.length + 1);
    for (let i = 0; i < p.stages.length; i++) prefix[i + 1] = prefix[i] || pred(p.stages[i]!) ? 1 : 0;
    byPred.set(pred, prefix);
  }
  return prefix;
}
