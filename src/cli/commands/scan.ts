/**
 * `guard scan [paths...]`: reads captures, reports their findings (to stdout or to `--output
 * FILE`), and sets the exit code (0 clean, 1 unsuppressed findings at or above --fail-on, 2 input
 * problems, 130 interrupted).
 *
 * The report is text for triage whatever stdout is (a terminal, a pipe, a file); machine formats
 * are asked for with `-f` or implied by the `--output` extension. On a terminal, a progress bar on
 * stderr shows files, bytes, speed, ETA and findings so far. Ctrl-C (SIGINT, delivered through
 * `io.signal`) stops the scan at once: the report is closed with what was seen, the partial
 * summary printed, exit 130. A reader that closes stdout (`guard scan … | head`) ends the scan
 * quietly with the exit code of what was seen.
 */

import { once } from 'node:events';
import { appendFileSync, existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { OutputBatcher } from '../batch.js';
import { openOutputFile, refuseOverwrite } from '../files.js';
import { BaselineError, BaselineMatcher } from '../../verdict/baseline.js';
import { readBaselineFile } from '../baseline-file.js';
import { expandInputs } from '../../capture/files.js';
import { CAPTURE_FORMATS } from '../../capture/formats.js';
import type { CaptureError, CaptureFormat } from '../../capture/types.js';
import { loadConfig } from '../../config/load.js';
import { DEFAULT_FAIL_ON, FAIL_ON_LEVELS, type FailOn } from '../../verdict/findings.js';
import { createReporter, formatFromFileName, REPORT_FORMATS, reportExtensions, type ReportFormat } from '../../report/formats.js';
import { printable } from '../../report/printable.js';
import { formatSummary } from '../../report/text.js';
import { defaultJobs, scanInputsParallel } from '../../scan/parallel.js';
import { isSelfContainedFormat, ReportPipeline, type UnusedAllow } from '../../scan/report-pipeline.js';
import { SummaryBuilder } from '../../verdict/summary.js';
import { CACHE_STRATEGIES, configHash, DEFAULT_CACHE_LOCATION, ScanCache, type CacheStats, type CacheStrategy } from '../../scan/cache.js';
import { join } from 'node:path';
import { resolveSettings, type EngineFlags } from '../engines.js';
import { findingRules } from '../../verdict/catalogue.js';
import { deferJudge } from '../../verdict/engines.js';
import { EXIT, UsageError } from '../errors.js';
import { CONFIG_OPTION_HELP, positiveInt, MODE_OPTION_HELP } from '../flags.js';
import { chalkFor, type CliIO } from '../io.js';
import { ScanProgress, progressWanted } from '../progress.js';
import { printConfig } from '../print-config.js';
import type { CommandState } from '../state.js';
import { ruleLinks, VERSION } from '../version.js';

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
  verbose?: boolean;
  printConfig?: boolean;
  listFiles?: boolean;
  color?: boolean;
  cache?: boolean;
  cacheLocation?: string;
  cacheStrategy?: CacheStrategy;
}

/**
 * `--jobs` larger than this many threads per core is lowered to it: each thread costs ~30 MB and
 * its own start-up, and on a CPU-bound scan threads beyond the cores only wait.
 */
export const MAX_JOBS_PER_CORE = 4;

/** The exit code of a scan stopped by Ctrl-C (128 + SIGINT, as shells report it). */
export const EXIT_INTERRUPTED = 130;

/**
 * The worker threads for `--jobs`: the number of cores when not given, else the value given, at
 * most {@link MAX_JOBS_PER_CORE} per core. @throws UsageError for a value that is not a positive whole number.
 */
export function jobsFlag(value: string | undefined, cores = defaultJobs()): number {
  return value === undefined ? cores : Math.min(positiveInt('--jobs', value), MAX_JOBS_PER_CORE * cores);
}

export function registerScan(program: Command, io: CliIO, state: CommandState): void {
  program
    .command('scan')
    .description('report the findings of the captures (files, directories, globs, - for stdin): leaked tool-call markup and dangerous tool calls')
    .argument('[paths...]', 'captures to read; stdin when none are given and input is piped')
    .addOption(
      new Option('-f, --format <format>', 'report format (default: from the --output extension, else text, whatever stdout is)').choices([...REPORT_FORMATS]),
    )
    .option('-o, --output <file>', 'write the report to this file (- for stdout); the summary still goes to stderr')
    .addOption(new Option('--input-format <format>', 'read every input as this capture format instead of detecting it').choices([...CAPTURE_FORMATS]))
    .option('-c, --config <file>', CONFIG_OPTION_HELP)
    .option('--print-config', 'print the configuration in force (file, flags, defaults) and where each setting comes from, then exit')
    .option('--list-files', 'print the files the paths expand to (what a scan would read, in its order), one per line, then exit (2 when a path names nothing to read)')
    .option('--mode <mode>', MODE_OPTION_HELP)
    .option('--tools <names>', 'comma-separated tool names treated as advertised when a capture does not record them')
    .option('--prose-ceiling <ratio>', 'largest prose ratio (0..1) at which a leak is still recovered')
    .addOption(new Option('--fail-on <level>', `what makes the exit code 1 (default: ${DEFAULT_FAIL_ON})`).choices([...FAIL_ON_LEVELS]))
    .option('--baseline <file>', 'report findings recorded in this baseline (guard baseline create) as suppressed; they do not count')
    .option('--no-inline-allow', 'ignore allow marks in records\' harness metadata ("guard": {"allow": [...]})')
    .option('--no-redact', 'show secrets in excerpts instead of masking them')
    .option('--max-line-bytes <bytes>', 'longest input line read; longer lines are reported and skipped (default: 256 MiB)')
    .option('-j, --jobs <n>', `worker threads reading files in parallel; 1 reads in this thread (default: the number of cores, fewer for small inputs; at most ${MAX_JOBS_PER_CORE} per core)`)
    .option('--cache', `replay unchanged files from a cache of their results instead of reading them again (default file: ${DEFAULT_CACHE_LOCATION}); never for stdin`)
    .option('--cache-location <path>', `the cache file, or a directory to keep ${DEFAULT_CACHE_LOCATION} in: an existing one, or a path ending with / (needs --cache)`)
    .addOption(new Option('--cache-strategy <strategy>', 'how a file is known unchanged: metadata (size and mtime; a changed mtime is confirmed by content) or content (size and SHA-256) (needs --cache; default: metadata)').choices([...CACHE_STRATEGIES]))
    .option('-v, --verbose', 'text: list every reply with its verdict, not only the findings')
    .option('-q, --quiet', 'as ESLint: text lists only what fails the scan (failing findings, error-level problems), no summary; no progress and no summary on stderr for any format')
    .action(async (paths: string[], flags: ScanFlags) => {
      state.exitCode = await scanCommand(paths, { ...flags, color: program.opts()['color'] as boolean | undefined }, io);
    });
}

/** The report format: `--format`, else the `--output` extension, else text (whatever stdout is). */
function chooseFormat(flags: ScanFlags): ReportFormat {
  if (flags.format) return flags.format;
  if (flags.output !== undefined && flags.output !== '-') {
    const inferred = formatFromFileName(flags.output);
    if (!inferred) throw new UsageError(`cannot tell the report format from '${flags.output}' (${reportExtensions().join(', ')}): give --format`);
    return inferred;
  }
  return 'text';
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

/** The next value of an async iterator, or `null` once `signal` aborts (whichever comes first). */
function nextOrAbort<T>(it: AsyncIterator<T>, signal: AbortSignal | undefined): Promise<IteratorResult<T> | null> {
  if (!signal) return it.next();
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((ok, fail) => {
    const onAbort = () => ok(null);
    signal.addEventListener('abort', onAbort, { once: true });
    it.next().then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        ok(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        fail(e);
      },
    );
  });
}

/**
 * The cache file of `--cache-location` (relative to `cwd`): the path, or `.guard-cache` inside it
 * when it names a directory; `.guard-cache` when not given.
 * @throws UsageError for `--cache-location` or `--cache-strategy` without `--cache`.
 */
export function cacheLocation(flags: Pick<ScanFlags, 'cache' | 'cacheLocation' | 'cacheStrategy'>, cwd: string): string | null {
  if (!flags.cache) {
    if (flags.cacheLocation !== undefined) throw new UsageError('--cache-location needs --cache');
    if (flags.cacheStrategy !== undefined) throw new UsageError('--cache-strategy needs --cache');
    return null;
  }
  const given = flags.cacheLocation ?? DEFAULT_CACHE_LOCATION;
  // a path ending with a separator names a directory, existing or not (ESLint's --cache-location)
  if (/[\\/]$/.test(given)) return join(given, DEFAULT_CACHE_LOCATION);
  let dir = false;
  try {
    dir = statSync(resolve(cwd, given)).isDirectory();
  } catch {
    dir = false;
  }
  return dir ? join(given, DEFAULT_CACHE_LOCATION) : given;
}

/** The cache's line for stderr: files replayed, scanned, and scanned but not stored. */
export function cacheLine(location: string, s: CacheStats): string {
  const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
  if (s.unwritable) return `guard: cache ${printable(location)}: ${files(s.replayed)} replayed, ${files(s.scanned)} scanned (nothing stored: the cache could not be written)\n`;
  const uncached = s.uncached > 0 ? ` (${files(s.uncached)} not cached: unreadable, changed while read, or results over 16 MiB)` : '';
  return `guard: cache ${printable(location)}: ${files(s.replayed)} replayed, ${files(s.scanned)} scanned${uncached}\n`;
}

/** Unused allow marks, by file and line, for stderr. */
function unusedAllowLines(list: readonly UnusedAllow[], total: number): string {
  if (list.length === 0) return '';
  const lines = list.map((u) => `guard: ${printable(u.file)}:${u.line}: allow mark for ${JSON.stringify(printable(u.rule))} matched no finding of its reply (reason: ${printable(u.reason)})\n`);
  if (total > list.length) lines.push(`guard: … ${total - list.length} more unused allow marks\n`);
  return lines.join('');
}

/**
 * `guard scan --list-files`: the files `args` expand to, one per line on stdout (as given or
 * found, control characters escaped), and each path that names nothing to read on stderr.
 *
 * @returns exit 0, or 2 when a path named nothing to read (NO_MATCH, UNREADABLE).
 */
async function listFiles(args: string[], io: CliIO): Promise<number> {
  const { inputs, errors } = await expandInputs(args, io.cwd);
  io.stdout.write(inputs.map((f) => `${printable(f)}\n`).join(''));
  for (const e of errors) io.stderr.write(`guard: ${printable(e.file)}: ${e.code}: ${printable(e.message)}\n`);
  return errors.length > 0 ? EXIT.FAILURE : EXIT.OK;
}

async function scanCommand(paths: string[], flags: ScanFlags, io: CliIO): Promise<number> {
  let args = paths.length ? paths : ['-'];
  const config = await loadConfig(flags.config, io.cwd);
  if (flags.printConfig) {
    io.stdout.write(await printConfig(config, flags, io.cwd));
    return EXIT.OK;
  }
  if (paths.length === 0 && io.stdin.isTTY) throw new UsageError('no captures given (usage: guard scan <paths...>, or pipe a capture into guard scan)');
  if (flags.listFiles) return listFiles(args, io);
  const settings = resolveSettings(config, flags);
  // the grammars load when the first file is scanned: a rescan that replays every file from the cache never loads them
  const { judge, ready } = await deferJudge(settings);
  const failOn = flags.failOn ?? config.scan.failOn ?? DEFAULT_FAIL_ON;
  const maxLineBytes = flags.maxLineBytes === undefined ? undefined : positiveInt('--max-line-bytes', flags.maxLineBytes);
  const jobs = jobsFlag(flags.jobs);
  const format = chooseFormat(flags);
  const baseline = flags.baseline === undefined ? null : await loadBaseline(flags.baseline, io.cwd);
  const out = chalkFor(io.stdout, io.env, flags.color);
  const err = chalkFor(io.stderr, io.env, flags.color);

  // With a report file or a progress bar, the inputs are expanded first: a report file is then
  // never read as an input, and the bar knows how many files there are.
  // With the cache too: it plans per file, and is never an input or the report.
  if (flags.quiet && flags.verbose) throw new UsageError('--quiet lists only what fails the scan and --verbose every reply: give one');
  const toFile = flags.output !== undefined && flags.output !== '-';
  const showProgress = progressWanted(io, flags.quiet === true);
  const cachePath = cacheLocation(flags, io.cwd);
  let expansionErrors: CaptureError[] = [];
  if (toFile || showProgress || cachePath !== null) {
    const expanded = await expandInputs(args, io.cwd);
    if (toFile) {
      refuseOverwrite(flags.output!, io.cwd, expanded.inputs, io.stdin, [
        { what: 'configuration file', path: config.path },
        { what: '--baseline file', path: flags.baseline ?? null },
        { what: '--cache-location file', path: cachePath },
      ], 'scan');
    }
    if (cachePath !== null) {
      refuseOverwrite(cachePath, io.cwd, expanded.inputs, io.stdin, [
        { what: 'configuration file', path: config.path },
        { what: '--baseline file', path: flags.baseline ?? null },
      ], 'scan', '--cache-location');
    }
    args = expanded.inputs;
    expansionErrors = expanded.errors;
  }
  // opened before the scan, so an unwritable path fails fast (exit 2)
  const file = toFile ? await openOutputFile(flags.output!, io.cwd, '--output') : null;
  const sink = file?.stream ?? io.stdout;
  const progress = showProgress ? new ScanProgress(io.stderr, args, io.cwd) : null;
  // the bar and a terminal stdout share the screen: its line is cleared before each write
  const toStdout = (s: string | Uint8Array) => void io.stdout.write(s);
  const write = file ? (s: string | Uint8Array) => void file.stream.write(s) : progress && io.stdout.isTTY ? progress.around(toStdout) : toStdout;
  const output = new OutputBatcher(write, write);
  const drained = async (): Promise<void> => {
    output.flush();
    // stdout's reader may go away meanwhile (EPIPE): the signal then stops the scan, quietly
    if (sink.writableNeedDrain && !io.signal?.aborted) await (file ? file.drained() : once(sink, 'drain').catch(() => undefined));
  };
  const stepSummaryFile = format === 'github' ? io.env['GITHUB_STEP_SUMMARY'] : undefined;
  const reporter = createReporter(format, output.add, {
    version: VERSION,
    rules: findingRules(judge.ruleSet.rules),
    failOn,
    cwd: io.cwd,
    redact: flags.redact !== false,
    baseline: baseline !== null,
    chalk: file ? chalkFor(file.stream, io.env, false) : out,
    verbose: flags.verbose === true,
    quiet: flags.quiet === true,
    inputFormat: flags.inputFormat ?? null,
    proseCeiling: settings.recovery.proseCeiling,
    links: ruleLinks(),
    pause: drained,
    stepSummary: stepSummaryFile
      ? (md) => {
          try {
            appendFileSync(resolve(io.cwd, stepSummaryFile), md);
          } catch (e) {
            io.stderr.write(`guard: cannot write the job summary to $GITHUB_STEP_SUMMARY (${(e as Error).message})\n`);
          }
        }
      : null,
  });
  const summary = new SummaryBuilder(failOn);
  const pipeline = new ReportPipeline(reporter, summary, { failOn, inlineAllow: flags.inlineAllow !== false, baseline }, flags.redact !== false);

  const read = { inputFormat: flags.inputFormat, maxLineBytes };
  // opened before the scan: a problem with it is a warning, and every file is scanned
  // a streaming format without a baseline: files' report text is stored and replayed as well
  const renderSetup = isSelfContainedFormat(format) && baseline === null ? { format, redact: flags.redact !== false, failOn, inlineAllow: flags.inlineAllow !== false } : null;
  const cache = cachePath === null
    ? null
    : ScanCache.open({ location: cachePath, cwd: io.cwd, strategy: flags.cacheStrategy ?? 'metadata', version: VERSION, configHash: configHash(settings, read), render: renderSetup, warn: (m) => void io.stderr.write(`guard: warning: ${m}\n`) });
  let failed = false;
  let stopped = false;
  // listening for the whole scan tells src/cli/main.ts that Ctrl-C is handled here (a command that
  // does not listen is ended at once)
  const listening = () => undefined;
  io.signal?.addEventListener('abort', listening);
  try {
    for (const error of expansionErrors) pipeline.error(error);
    // workers build the same judge from the same settings; for a streaming format without a
    // baseline they also write the report of their replies
    // (not with the cache, which stores events, whatever the format)
    const render = cache === null ? renderSetup ?? undefined : undefined;
    const parallel = { jobs, auto: flags.jobs === undefined, setup: { settings, slim: true, render } };
    const onRead = progress ? (f: string, bytes: number) => progress.read(f, bytes) : undefined;
    const scanOptions = { judge, read, stdin: io.stdin, cwd: io.cwd, ...(onRead ? { onRead } : {}) };
    const scanned = async function* (files: string[], expanded: boolean) {
      await ready();
      yield* scanInputsParallel(files, scanOptions, { ...parallel, expanded });
    };
    const events = args.length === 0
      ? (async function* () {})()
      : cache
        ? cache.events(args, (files) => scanned(files, true))
        : scanned(args, false);
    const it = events[Symbol.asyncIterator]();
    for (;;) {
      const next = await nextOrAbort(it, io.signal);
      if (next === null) {
        stopped = true;
        // the generator may be waiting on a read: it is left to the process's exit
        void it.return?.(undefined).catch(() => undefined);
        break;
      }
      if (next.done) break;
      const ev = next.value;
      if (ev.kind === 'rendered') {
        output.add(ev.text);
        summary.merge(ev.summary);
        pipeline.addUnused(ev.unused);
      } else pipeline.handle(ev);
      if (progress) {
        if (ev.kind === 'file-end') progress.fileDone(ev.file);
        const s = summary.summary;
        progress.setFindings(s.leaks.recovered + s.leaks.refused + s.quotations.total + s.hits.total - s.suppressed.inline - s.suppressed.baseline);
      }
      // a report file that cannot be written ends the scan (exit 2), rather than scanning on for nothing
      file?.check();
      // backpressure: a slow reader of the report must not make guard buffer the whole report
      if (sink.writableNeedDrain) await drained();
    }
    const interrupted = stopped && io.signal?.reason === 'interrupt';
    // an interrupted scan leaves the old cache as it was
    if (cache && !stopped) cache.commit();
    if (baseline && !stopped) {
      const read = new Set(summary.summary.files.map((f) => resolve(io.cwd, f.file)));
      // an entry's capture was checked when this scan read it, or when it no longer exists (its
      // finding is gone with it: stale); one that exists unread is only counted as not checked
      const known = new Map<string, boolean>();
      const checked = (file: string): boolean => {
        const path = resolve(io.cwd, file);
        let is = known.get(path);
        if (is === undefined) known.set(path, (is = read.has(path) || !existsSync(path)));
        return is;
      };
      summary.setBaseline({ file: flags.baseline!, matched: baseline.matched, stale: baseline.stale(checked), unchecked: baseline.unchecked(checked) });
    }
    progress?.stop(interrupted || stopped ? undefined : { replies: summary.summary.replies, files: summary.summary.files.length });
    // a reader that closed stdout gets nothing more; otherwise the report is closed, partial or not
    if (!(stopped && !interrupted)) await reporter.finish(summary.summary, { interrupted });
  } catch (e) {
    failed = true;
    throw e;
  } finally {
    cache?.discard();
    io.signal?.removeEventListener('abort', listening);
    output.flush();
    progress?.stop();
    // a report that did not reach its file fails the scan (exit 2); after another failure, that one is reported
    if (file) await (failed ? file.close().catch(() => undefined) : file.close());
  }
  const interrupted = stopped && io.signal?.reason === 'interrupt';
  // stdout closed by its reader (`| head`): quietly, with the exit code of what was seen
  if (stopped && !interrupted) return summary.exitCode();
  // a write to stdout that failed is reported when its error event comes (src/cli/main.ts: exit 2);
  // let it come before the summary, which would otherwise read as a finished scan
  if (!file) await new Promise<void>((next) => setImmediate(next));
  if (io.stdout.errored) return summary.exitCode();
  const unused = unusedAllowLines(pipeline.unusedAllows, summary.summary.unusedAllows);
  // text on stdout ends with its own summary; any other report gets the summary on stderr
  const textOnStdout = format === 'text' && !file;
  if (!flags.quiet || interrupted) {
    if (!textOnStdout) io.stderr.write(formatSummary(summary.summary, err, config.path, { interrupted }, failOn));
    else if (config.path !== null) io.stderr.write(`guard: configuration ${printable(config.path)}\n`);
    io.stderr.write(unused);
    if (cache) io.stderr.write(cacheLine(cachePath!, cache.stats));
    // "no findings" must not read as a clean pass when nothing was inspected
    if (settings.mode === 'off') io.stderr.write(`guard: inspection off (${flags.mode === 'off' ? '--mode off' : 'inspection.mode: off in the configuration'}): tool calls were not checked against any rule, only leaks were judged\n`);
  }
  if (interrupted) io.stderr.write('guard: interrupted (Ctrl-C): the report above is partial; exit 130\n');
  return interrupted ? EXIT_INTERRUPTED : summary.exitCode();
}
