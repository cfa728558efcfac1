/**
 * guard as a library: the capture readers, the recovery and inspection engines, and `judgeReply`,
 * which runs both engines on one normalised reply. The engines are pure (no fs, no process) once
 * their grammars are loaded (`initInspection`: bash, `initRecovery`: Python, for pythonic tool
 * calls), so a gateway can import them and call them per reply.
 *
 * @example
 * ```ts
 * import { initInspection, initRecovery, compileRuleSet, judgeReply, readCapture } from 'toolcall-guard';
 * await Promise.all([initInspection(), initRecovery()]);
 * const ruleSet = compileRuleSet();
 * for await (const item of readCapture('x.jsonl', createReadStream('x.jsonl'))) {
 *   if (item.kind === 'reply') console.log(judgeReply(item.reply, { recovery: { proseCeiling: 0.5 }, ruleSet, mode: 'observe' }));
 * }
 * ```
 */

export * from './capture/index.js';
export * from './recovery/index.js';
export * from './inspection/index.js';
export { judgeReply, callsToInspect, type JudgeOptions, type ReplyVerdict } from './verdict/judge.js';
export { scanInputs, type ScanEvent, type ScanOptions } from './scan/scan.js';
export { DEFAULT_FAIL_ON, FAIL_ON_LEVELS, type FailOn } from './verdict/findings.js';
export { SummaryBuilder, isFailing, type ScanSummary, type FileSummary } from './verdict/summary.js';
export { replyRecord, errorRecord, type ReplyRecord, type ErrorRecord, type HitRecord, type CallRecord } from './report/record.js';
export { loadConfig, parseConfig, ConfigError, type GuardConfig } from './config/load.js';
export * from './ceiling/index.js';
export * from './replay/index.js';
export { run } from './cli/program.js';
