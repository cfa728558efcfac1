/**
 * `guard scan [paths...]`: reads captures, reports a verdict for every assistant reply (to stdout
 * or to `--output FILE`), a summary on stderr, and sets the exit code (0 clean, 1 unsuppressed
 * findings at or above --fail-on, 2 input problems).
 */

import { once } from 'node:events';
import { OutputBatcher } from '../batch.js';
import { openOutputFile, refuseOverwrite } from '../files.js';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import ora, { type Ora } from 'ora';
import { BaselineError, BaselineMatcher } from '../../verdict/baseline.js';
import { readBaselineFile } from '../baseline-file.js';
import { expandInputs } from '../../capture/files.js';
import { CAPTURE_FORMATS } from '../../capture/formats.js';
import type { CaptureError, CaptureFormat } from '../../capture/types.js';
import { loadConfig } from '../../config/load.js';
import { DEFAULT_FAIL_ON, FAIL_ON_LEVELS, type FailOn } from '../../verdict/findings.js';
import { createReporter, formatFromFileName, REPORT_FORMATS, reportExtensions, type ReportFormat } from '../../report/formats.js';
import { plural, printable } from '../../report/printable.js';
import { formatSummary } from '../../report/text.js';
import { defaultJobs, scanInputsParallel } from '../../scan/parallel.js';
import { isSelfContainedFormat, ReportPipeline } from '../../scan/report-pipeline.js';
import { SummaryBuilder } from '../../verdict/summary.js';
import { resolveSettings, type EngineFlags } from '../engines.js';
import { findingRules } from '../../verdict/catalogue.js';
import { createJudge } from '../../verdict/engines.js';
import { UsageError } from '../errors.js';
import { positiveInt } from '../flags.js';
import { chalkFor, spinnerWanted, type CliIO } from '../io.js';
import type { CommandState } from '../state.js';
import { VERSION } from '../version.js';


interface ScanFlags extends EngineFlags {
  format?: ReportFormat;
  output?: string;
  inputFormat?: CaptureFormat;
  config?: string;
  failOn?: FailOn;
  baseline?: string;
  inlineAllow?: boolean;
  redact?: boolean;
  maxLineBytes?: string;
  jobs?: string;
  quiet?: boolean;
  color?: boolean;
}

/**
 * `--jobs` larger than this many threads per core is lowered to it: each thread costs ~30 MB and
 * its own start-up, and on a CPU-bound scan threads beyond the cores only wait.
 */
export const MAX_JOBS_PER_CORE = 4;

/**
 * The worker threads for `--jobs`: the number of cores when not given, else the value given, at
 * most {@link MAX_JOBS_PER_CORE} per core. @throws UsageError for a value that is not a positive whole number.
 */
export function jobsFlag(value: string | undefined, cores = defaultJobs()): number {
  return value === undefined ? cores : Math.min(positiveInt('--jobs', value), MAX_JOBS_PER_CORE * cores);
}

/** Keeps an ora spinner on stderr out of the way of lines written to a terminal stdout. */
function spinnerAwareWriter(io: CliIO, spinner: Ora | null): (s: string) => void {
  if (!spinner) return (s) => void io.stdout.write(s);
  return (s) => {
    spinner.clear();
    io.stdout.write(s);
    spinner.render();
  };
}

export function registerScan(program: Command, io: CliIO, state: CommandState): void {
  program
    .command('scan')
    .description('print a verdict for every assistant reply in the captures (files, directories, globs, - for stdin)')
    .argument('[paths...]', 'captures to read; stdin when none are given and input is piped')
    .addOption(
      new Option('-f, --format <format>', 'output format (default: from the --output extension, else text on a terminal and ndjson otherwise)').choices([
        ...REPORT_FORMATS,
      ]),
    )
    .option('-o, --output <file>', 'write the report to this file (- for stdout); the summary still goes to stderr')
    .addOption(new Option('--input-format <format>', 'read every input as this capture format instead of detecting it').choices([...CAPTURE_FORMATS]))
    .option('-c, --config <file>', 'configuration file (default: ./guard.config.yaml when present)')
    .option('--mode <mode>', 'inspection mode: off, observe or enforce (default: observe)')
    .option('--tools <names>', 'comma-separated tool names treated as advertised when a capture does not record them')
    .option('--prose-ceiling <ratio>', 'largest prose ratio (0..1) at which a leak is still recovered')
    .addOption(new Option('--fail-on <level>', `what makes the exit code 1 (default: ${DEFAULT_FAIL_ON})`).choices([...FAIL_ON_LEVELS]))
    .option('--baseline <file>', 'report findings recorded in this baseline (guard baseline create) as suppressed; they do not count')
    .option('--no-inline-allow', 'ignore allow marks in records\' harness metadata ("guard": {"allow": [...]})')
    .option('--no-redact', 'show secrets in excerpts instead of masking them')
    .option('--max-line-bytes <bytes>', 'longest input line read; longer lines are reported and skipped (default: 256 MiB)')
    .option('-j, --jobs <n>', `worker threads reading files in parallel; 1 reads in this thread (default: the number of cores, fewer for small inputs; at most ${MAX_JOBS_PER_CORE} per core)`)
    .option('-q, --quiet', 'no summary on stderr')
    .action(async (paths: string[], flags: ScanFlags) => {
      state.exitCode = await scanCommand(paths, { ...flags, color: program.opts()['color'] as boolean | undefined }, io);
    });
}

/** The report format: `--format`, else the `--output` extension, else text on a terminal and ndjson otherwise. */
function chooseFormat(flags: ScanFlags, io: CliIO): ReportFormat {
  if (flags.format) return flags.format;
  if (flags.output !== undefined && flags.output !== '-') {
    const inferred = formatFromFileName(flags.output);
    if (!inferred) throw new UsageError(`cannot tell the report format from '${flags.output}' (${reportExtensions().join(', ')}): give --format`);
    return inferred;
  }
  return io.stdout.isTTY ? 'text' : 'ndjson';
}

/** The baseline matcher for `--baseline FILE`. @throws UsageError when the file is unusable. */
async function loadBaseline(path: string, cwd: string): Promise<BaselineMatcher> {
  try {
    return new BaselineMatcher(await readBaselineFile(path, cwd), path);
  } catch (e) {
    if (e instanceof BaselineError) throw new UsageError(e.message);
    throw e;
  }
}

async function scanCommand(paths: string[], flags: ScanFlags, io: CliIO): Promise<number> {
  let args = paths.length ? paths : ['-'];
  if (paths.length === 0 && io.stdin.isTTY) throw new UsageError('no captures given (usage: guard scan <paths...>, or pipe a capture into guard scan)');
  const config = await loadConfig(flags.config, io.cwd);
  const settings = resolveSettings(config, flags);
  const judge = await createJudge(settings);
  const failOn = flags.failOn ?? config.scan.failOn ?? DEFAULT_FAIL_ON;
  const maxLineBytes = flags.maxLineBytes === undefined ? undefined : positiveInt('--max-line-bytes', flags.maxLineBytes);
  const jobs = jobsFlag(flags.jobs);
  const format = chooseFormat(flags, io);
  const baseline = flags.baseline === undefined ? null : await loadBaseline(flags.baseline, io.cwd);
  const out = chalkFor(io.stdout, io.env, flags.color);
  const err = chalkFor(io.stderr, io.env, flags.color);

  // With a report file, the inputs are expanded before it is created, so it is never read as one.
  const toFile = flags.output !== undefined && flags.output !== '-';
  let expansionErrors: CaptureError[] = [];
  if (toFile) {
    const expanded = await expandInputs(args, io.cwd);
    refuseOverwrite(flags.output!, io.cwd, expanded.inputs, io.stdin, [
      { what: 'configuration file', path: config.path },
      { what: '--baseline file', path: flags.baseline ?? null },
    ], 'scan');
    args = expanded.inputs;
    expansionErrors = expanded.errors;
  }
  // opened before the scan, so an unwritable path fails fast (exit 2)
  const file = toFile ? await openOutputFile(flags.output!, io.cwd, '--output') : null;
  const sink = file?.stream ?? io.stdout;

  const stdinUsed = args.includes('-');
  const spinner = spinnerWanted(io, flags.quiet === true)
    ? ora({ stream: io.stderr, text: 'scanning', discardStdin: !stdinUsed, isEnabled: true }).start()
    : null;
  const output = new OutputBatcher(file ? (s: string) => void file.stream.write(s) : spinnerAwareWriter(io, spinner));
  const reporter = createReporter(format, output.add, {
    version: VERSION,
    rules: findingRules(judge.ruleSet.rules),
    failOn,
    cwd: io.cwd,
    redact: flags.redact !== false,
    baseline: baseline !== null,
    chalk: file ? chalkFor(file.stream, io.env, false) : out,
  });
  const summary = new SummaryBuilder(failOn);
  const pipeline = new ReportPipeline(reporter, summary, { failOn, inlineAllow: flags.inlineAllow !== false, baseline }, flags.redact !== false);

  let failed = false;
  try {
    for (const error of expansionErrors) pipeline.error(error);
    // workers build the same judge from the same settings; for a streaming format without a
    // baseline they also write the report of their replies
    const render = isSelfContainedFormat(format) && baseline === null ? { format, redact: flags.redact !== false, failOn, inlineAllow: flags.inlineAllow !== false } : undefined;
    const parallel = { jobs, auto: flags.jobs === undefined, setup: { settings, slim: true, render } };
    const events = args.length
      ? scanInputsParallel(args, { judge, read: { inputFormat: flags.inputFormat, maxLineBytes }, stdin: io.stdin, cwd: io.cwd }, parallel)
      : (async function* () {})();
    for await (const ev of events) {
      if (ev.kind === 'rendered') {
        output.add(ev.text);
        summary.merge(ev.summary);
      } else pipeline.handle(ev);
      if (spinner && ev.kind !== 'error') spinner.text = `scanning ${printable(ev.kind === 'reply' ? ev.verdict.reply.source.file : ev.file)} (${plural(summary.summary.replies, 'reply', 'replies')})`;
      // a report file that cannot be written ends the scan (exit 2), rather than scanning on for nothing
      file?.check();
      // backpressure: a slow reader of the report must not make guard buffer the whole report
      if (sink.writableNeedDrain) {
        output.flush();
        await (file ? file.drained() : once(sink, 'drain'));
      }
    }
    if (baseline) {
      const read = new Set(summary.summary.files.map((f) => resolve(io.cwd, f.file)));
      summary.setBaseline({ file: flags.baseline!, matched: baseline.matched, stale: baseline.stale((file) => read.has(resolve(io.cwd, file))) });
    }
    reporter.finish(summary.summary);
  } catch (e) {
    failed = true;
    throw e;
  } finally {
    output.flush();
    spinner?.stop();
    // a report that did not reach its file fails the scan (exit 2); after another failure, that one is reported
    if (file) await (failed ? file.close().catch(() => undefined) : file.close());
  }
  // a write to stdout that failed is reported when its error event comes (src/cli/main.ts: exit 2);
  // let it come before the summary, which would otherwise read as a finished scan
  if (!file) await new Promise<void>((next) => setImmediate(next));
  if (!flags.quiet && !io.stdout.errored) io.stderr.write(formatSummary(summary.summary, err, config.path));
  return summary.exitCode();
}
