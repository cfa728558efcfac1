/**
 * Side-by-side timings against two peers, on the project's own cases repeated to a few seconds of
 * work each:
 * - inspection: guard's `inspectCalls` on one `bash` call per command of
 *   the rules' vectors (src/inspection/rules/*.vectors.yaml) vs cc-safety-net's `checkCommand` on the same command string;
 * - recovery: guard's `recoverReply` vs @ai-sdk-tool/parser's hermes protocol
 *   (`parseGeneratedText`) on the leak texts both read: the Hermes / Qwen `<tool_call>` replies of
 *   fixtures/corpus/public.jsonl and the family units' cases (src/recovery/families/*.cases.yaml).
 * Both peers are devDependencies used only here. Prints per-call microseconds and the ratios.
 *
 * Usage: node bench/peers.mjs [--seconds S]   (S per side and engine, default 2)
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCases } from './generate.mjs';

/** Runs `fn(i)` over and over for about `seconds`; returns microseconds per call. */
function timeLoop(fn, n, seconds) {
  for (let i = 0; i < Math.min(n * 3, 2000); i++) fn(i % n); // warm-up
  const until = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  const start = process.hrtime.bigint();
  let calls = 0;
  while (process.hrtime.bigint() < until) {
    for (let i = 0; i < n; i++) fn(i);
    calls += n;
  }
  return Number(process.hrtime.bigint() - start) / 1e3 / calls;
}

/**
 * Measures both comparisons. `guardLib` is the built library (dist/index.js).
 *
 * @returns { inspection: { cases, guardUs (uncached), cachedUs (repeated command), peerUs, ratio }, recovery: { cases, guardUs, peerUs, ratio, agree } }
 */
export async function comparePeers(guardLib, seconds = 2) {
  const { commands, leaks } = loadCases();
  const { initInspection, compileRuleSet, inspectCalls, recoverReply, DEFAULT_PROSE_CEILING } = guardLib;
  await initInspection();
  const ruleSet = compileRuleSet({});
  const { checkCommand } = await import('cc-safety-net/api');
  // cc-safety-net resolves paths against a working directory: give it an empty scratch one
  const cwd = mkdtempSync(join(tmpdir(), 'guard-bench-cwd-'));
  const calls = commands.map((c, i) => [
    { id: `call_${i}`, name: 'bash', arguments: { command: c.command }, argumentsRaw: JSON.stringify({ command: c.command }), origin: 'structured' },
  ]);
  // guard caches analysed command values per rule list (src/inspection/engine.ts); a copy of the
  // list per call defeats the cache, so `guardUs` is the cost of a command seen for the first time
  // and `cachedUs` that of a repeated one
  const guardInspect = timeLoop((i) => inspectCalls(calls[i], { rules: ruleSet.rules.slice() }, 'observe'), calls.length, seconds);
  const guardCached = timeLoop((i) => inspectCalls(calls[i], ruleSet, 'observe'), calls.length, seconds);
  const peerInspect = timeLoop((i) => checkCommand({ command: commands[i].command, cwd }), commands.length, seconds);
  rmSync(cwd, { recursive: true, force: true });

  const { hermesProtocol } = await import('@ai-sdk-tool/parser');
  const hermes = hermesProtocol();
  const hermesLeaks = leaks.filter((l) => l.text.includes('<tool_call>'));
  const inputs = hermesLeaks.map((l) => ({
    guard: { text: l.text, reasoning: '', advertised: l.tools.map((name) => ({ name })), toolCalls: [], truncated: false, idSeed: '' },
    peer: { text: l.text, tools: l.tools.map((name) => ({ type: 'function', name, inputSchema: { type: 'object' } })) },
  }));
  const options = { proseCeiling: DEFAULT_PROSE_CEILING, tools: null };
  let agree = 0;
  for (const x of inputs) {
    const g = recoverReply(x.guard, options).calls.map((c) => c.name);
    const p = hermes.parseGeneratedText(x.peer).filter((part) => part.type === 'tool-call').map((part) => part.toolName);
    if (JSON.stringify(g) === JSON.stringify(p)) agree++;
  }
  const guardRecover = timeLoop((i) => recoverReply(inputs[i].guard, options), inputs.length, seconds);
  const peerRecover = timeLoop((i) => hermes.parseGeneratedText(inputs[i].peer), inputs.length, seconds);
  return {
    inspection: { cases: calls.length, guardUs: guardInspect, cachedUs: guardCached, peerUs: peerInspect, ratio: guardInspect / peerInspect },
    recovery: { cases: inputs.length, guardUs: guardRecover, peerUs: peerRecover, ratio: guardRecover / peerRecover, agree },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--seconds');
  const seconds = i > 0 ? Number(process.argv[i + 1]) : 2;
  const lib = await import('../dist/index.js');
  console.log(JSON.stringify(await comparePeers(lib, seconds), null, 2));
}
