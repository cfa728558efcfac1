/**
 * `guard scan [paths...]`: reads captures, prints a verdict for every assistant reply, a summary
 * on stderr, and sets the exit code (0 clean, 1 findings at or above --fail-on, 2 input problems).
 */

import { once } from 'node:events';
import { Option, type Command } from 'commander';
import ora, { type Ora } from 'ora';
import { CAPTURE_FORMATS, type CaptureFormat } from '../../capture/types.js';
import { loadConfig, type FailOn } from '../../config/load.js';
import { JsonReporter } from '../../report/json.js';
import { NdjsonReporter } from '../../report/ndjson.js';
import type { Reporter, ReportFormat } from '../../report/reporter.js';
import { REPORT_FORMATS } from '../../report/reporter.js';
import { formatSummary, TextReporter } from '../../report/text.js';
import { scanInputs } from '../../scan/scan.js';
import { DEFAULT_FAIL_ON, SummaryBuilder } from '../../scan/summary.js';
import { resolveEngines, type EngineFlags } from '../engines.js';
import { UsageError } from '../errors.js';
import { chalkFor, inCI, type CliIO } from '../io.js';
import type { CommandState } from '../program.js';
import { VERSION } from '../version.js';

const FAIL_ON: readonly FailOn[] = ['none', 'refused', 'flag', 'block'];

interface ScanFlags extends EngineFlags {
  format?: ReportFormat;
  inputFormat?: CaptureFormat;
  config?: string;
  failOn?: FailOn;
  maxLineBytes?: string;
  quiet?: boolean;
  color?: boolean;
}

function positiveInt(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive whole number, got '${value}'`);
  return n;
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
    .addOption(new Option('-f, --format <format>', 'output format (default: text on a terminal, ndjson otherwise)').choices([...REPORT_FORMATS]))
    .addOption(new Option('--input-format <format>', 'read every input as this capture format instead of detecting it').choices([...CAPTURE_FORMATS]))
    .option('-c, --config <file>', 'configuration file (default: ./guard.config.yaml when present)')
    .option('--mode <mode>', 'inspection mode: off, observe or enforce (default: observe)')
    .option('--tools <names>', 'comma-separated tool names treated as advertised when a capture does not record them')
    .option('--prose-ceiling <ratio>', 'largest prose ratio (0..1) at which a leak is still recovered')
    .addOption(new Option('--fail-on <level>', `what makes the exit code 1 (default: ${DEFAULT_FAIL_ON})`).choices([...FAIL_ON]))
    .option('--max-line-bytes <bytes>', 'longest input line read; longer lines are reported and skipped (default: 256 MiB)')
    .option('-q, --quiet', 'no summary on stderr')
    .action(async (paths: string[], flags: ScanFlags) => {
      state.exitCode = await scanCommand(paths, { ...flags, color: program.opts()['color'] as boolean | undefined }, io);
    });
}

async function scanCommand(paths: string[], flags: ScanFlags, io: CliIO): Promise<number> {
  const args = paths.length ? paths : ['-'];
  if (paths.length === 0 && io.stdin.isTTY) throw new UsageError('no captures given (usage: guard scan <paths...>, or pipe a capture into guard scan)');
  const config = await loadConfig(flags.config, io.cwd);
  const judge = await resolveEngines(config, flags);
  const failOn = flags.failOn ?? config.scan.failOn ?? DEFAULT_FAIL_ON;
  const maxLineBytes = flags.maxLineBytes === undefined ? undefined : positiveInt('--max-line-bytes', flags.maxLineBytes);
  const format: ReportFormat = flags.format ?? (io.stdout.isTTY ? 'text' : 'ndjson');
  const out = chalkFor(io.stdout, io.env, flags.color);
  const err = chalkFor(io.stderr, io.env, flags.color);

  const stdinUsed = args.includes('-');
  const spinner =
    io.stderr.isTTY && !inCI(io.env) && !flags.quiet
      ? ora({ stream: io.stderr, text: 'scanning', discardStdin: !stdinUsed, isEnabled: true }).start()
      : null;
  const write = spinnerAwareWriter(io, spinner);
  const reporter: Reporter =
    format === 'json' ? new JsonReporter(write, VERSION) : format === 'ndjson' ? new NdjsonReporter(write) : new TextReporter(write, out);
  const summary = new SummaryBuilder(failOn);

  try {
    for await (const ev of scanInputs(args, {
      judge,
      read: { inputFormat: flags.inputFormat, maxLineBytes },
      stdin: io.stdin,
      cwd: io.cwd,
    })) {
      if (ev.kind === 'reply') {
        summary.addVerdict(ev.verdict);
        reporter.reply(ev.verdict);
        if (spinner) spinner.text = `scanning ${ev.verdict.reply.source.file} (${summary.summary.replies} replies)`;
      } else if (ev.kind === 'error') {
        summary.addError(ev.error);
        reporter.error(ev.error);
      } else {
        const f = { file: ev.file, formats: ev.formats, replies: ev.replies, errors: ev.errors };
        summary.addFile(f);
        reporter.fileEnd(f);
      }
      // backpressure: a slow reader of stdout must not make guard buffer the whole report
      if (io.stdout.writableNeedDrain) await once(io.stdout, 'drain');
    }
  } finally {
    spinner?.stop();
  }
  reporter.finish(summary.summary);
  if (!flags.quiet) io.stderr.write(formatSummary(summary.summary, err));
  return summary.exitCode();
}
