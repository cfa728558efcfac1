/**
 * `guard baseline create [paths...] -o FILE`: scans captures as `guard scan` does and records
 * every finding (not allowed by an allow mark) in a baseline file, keyed by its line-independent
 * fingerprint; `guard scan --baseline FILE` then reports those findings as suppressed. The file
 * holds no secret: fingerprints, rule ids, files and lines only (src/baseline/baseline.ts).
 */

import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { BaselineError, baselineEntry, type BaselineEntry } from '../../verdict/baseline.js';
import { writeBaselineFile } from '../baseline-file.js';
import { expandInputs } from '../../capture/files.js';
import { CAPTURE_FORMATS } from '../../capture/formats.js';
import type { CaptureFormat } from '../../capture/types.js';
import { loadConfig } from '../../config/load.js';
import { printableMasked } from '../../report/printable.js';
import { judgedReply } from '../../verdict/findings.js';
import { scanInputs } from '../../scan/scan.js';
import { resolveEngines, type EngineFlags } from '../engines.js';
import { EXIT, UsageError } from '../errors.js';
import { refuseOverwrite } from '../files.js';
import type { CliIO } from '../io.js';
import type { CommandState } from '../state.js';
import { CONFIG_OPTION_HELP, positiveInt, MODE_OPTION_HELP } from '../flags.js';

/** The default baseline file name, at the root of the repository. */
export const DEFAULT_BASELINE_FILE = '.guard-baseline.json';

interface BaselineFlags extends EngineFlags {
  output: string;
  inputFormat?: CaptureFormat;
  config?: string;
  inlineAllow?: boolean;
  maxLineBytes?: string;
  quiet?: boolean;
}

export function registerBaseline(program: Command, io: CliIO, state: CommandState): void {
  const baseline = program.command('baseline').description('record accepted findings so that scans report only new ones');
  baseline
    .command('create')
    .description('scan captures and write every current finding to a baseline file (fingerprints only, no secrets)')
    .argument('[paths...]', 'captures to read; stdin when none are given and input is piped')
    .option('-o, --output <file>', 'baseline file to write', DEFAULT_BASELINE_FILE)
    .addOption(new Option('--input-format <format>', 'read every input as this capture format instead of detecting it').choices([...CAPTURE_FORMATS]))
    .option('-c, --config <file>', CONFIG_OPTION_HELP)
    .option('--mode <mode>', MODE_OPTION_HELP)
    .option('--tools <names>', 'comma-separated tool names treated as advertised when a capture does not record them')
    .option('--prose-ceiling <ratio>', 'largest prose ratio (0..1) at which a leak is still recovered')
    .option('--no-inline-allow', 'record findings that allow marks in record metadata suppress, too')
    .option('--max-line-bytes <bytes>', 'longest input line read (default: 256 MiB)')
    .option('-q, --quiet', 'no summary on stderr')
    .action(async (paths: string[], flags: BaselineFlags) => {
      state.exitCode = await createBaseline(paths, flags, io);
    });
}

/**
 * Writes the baseline. Exit code 0 when written from a complete read; 2 when an input could not
 * be read (the baseline is still written, from what was read, and the problems are listed).
 */
async function createBaseline(paths: string[], flags: BaselineFlags, io: CliIO): Promise<number> {
  if (paths.length === 0 && io.stdin.isTTY) throw new UsageError('no captures given (usage: guard baseline create <paths...> -o FILE)');
  const config = await loadConfig(flags.config, io.cwd);
  const judge = await resolveEngines(config, flags);
  const maxLineBytes = flags.maxLineBytes === undefined ? undefined : positiveInt('--max-line-bytes', flags.maxLineBytes);
  const { inputs, errors } = await expandInputs(paths.length ? paths : ['-'], io.cwd);
  refuseOverwrite(flags.output, io.cwd, inputs, io.stdin, [{ what: 'configuration file', path: config.path }], 'baseline');

  const entries: BaselineEntry[] = [];
  const problems = [...errors];
  const suppress = { failOn: 'refused' as const, inlineAllow: flags.inlineAllow !== false, baseline: null };
  if (inputs.length) {
    for await (const ev of scanInputs(inputs, { judge, read: { inputFormat: flags.inputFormat, maxLineBytes }, stdin: io.stdin, cwd: io.cwd })) {
      if (ev.kind === 'reply') {
        const { file, line } = ev.verdict.reply.source;
        for (const f of judgedReply(ev.verdict, suppress).judged.findings) if (!f.suppressed) entries.push(baselineEntry(f, file, line));
      } else if (ev.kind === 'error') problems.push(ev.error);
    }
  }
  try {
    await writeBaselineFile(flags.output, io.cwd, entries);
  } catch (e) {
    if (e instanceof BaselineError) throw new UsageError(e.message);
    throw e;
  }
  const failed = problems.filter((p) => p.severity === 'error');
  for (const p of problems) io.stderr.write(`${printableMasked(p.file)}${p.line === null ? '' : `:${p.line}`}: ${p.severity} ${p.code}: ${printableMasked(p.message)}\n`);
  if (!flags.quiet) {
    const files = new Set(entries.map((e) => e.file)).size;
    io.stderr.write(`guard: baseline ${flags.output}: ${entries.length} finding${entries.length === 1 ? '' : 's'} recorded from ${files} file${files === 1 ? '' : 's'}${failed.length ? `; ${failed.length} input problem${failed.length === 1 ? '' : 's'}, so it may be incomplete` : ''}\n`);
  }
  return failed.length ? EXIT.FAILURE : EXIT.OK;
}
