/**
 * `guard ceiling --corpus PATHS...`: measures a labelled corpus with the recovery engine (the same
 * path as guard scan: scanInputs → judgeReply → recoverReply) and shows whether the prose ceiling
 * separates leaks from quotations. Exit 0 separated, 1 a reply on the wrong side, 2 the corpus
 * cannot be read or lacks a label. Labels come from the record (`label`) or a side file
 * (src/ceiling/labels.ts).
 */

import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { expandInputs } from '../../capture/files.js';
import { CAPTURE_FORMATS } from '../../capture/formats.js';
import type { CaptureError, CaptureFormat } from '../../capture/types.js';
import {
  analyseCeiling,
  ceilingJson,
  isLabelFile,
  labelFileFor,
  LabelLookup,
  parseLabelFile,
  renderMarkdown,
  renderText,
  rowLocation,
  suggestCeiling,
  type CeilingLabel,
  type CeilingSample,
  type CeilingStyle,
} from '../../ceiling/index.js';
import { loadConfig } from '../../config/load.js';
import { printable, printableMasked } from '../../report/printable.js';
import { redactSecrets } from '../../base/redact.js';
import { scanInputs } from '../../scan/scan.js';
import { resolveEngines } from '../engines.js';
import { CONFIG_OPTION_HELP, parseRatio } from '../flags.js';
import { EXIT, UsageError } from '../errors.js';
import { chalkFor, type CliIO } from '../io.js';
import type { CommandState } from '../state.js';
import { wellFormedJson } from '../../base/json.js';

const FORMATS = ['text', 'json', 'markdown'] as const;
type CeilingFormat = (typeof FORMATS)[number];

/** Largest label side file read, in bytes (it maps ids and lines to labels; a real one is tiny). */
const MAX_LABEL_FILE_BYTES = 16 * 1024 * 1024;

interface CeilingFlags {
  corpus?: string[];
  ceiling?: string;
  suggest?: boolean;
  format?: CeilingFormat;
  config?: string;
  tools?: string;
  inputFormat?: CaptureFormat;
  color?: boolean;
}

export function registerCeiling(program: Command, io: CliIO, state: CommandState): void {
  program
    .command('ceiling')
    .description('check on a labelled corpus that the prose ceiling separates leaks from quotations')
    .requiredOption('--corpus <paths...>', 'labelled replies: files, directories, globs (labels: record "label" or a <capture>.labels side file)')
    .option('--ceiling <ratio>', 'check this prose ceiling (0..1) instead of the configured one')
    .option('--suggest', 'also print the bound that keeps the largest margin while sitting nearer the leaks')
    .addOption(new Option('-f, --format <format>', 'output format (default: text)').choices([...FORMATS]))
    .option('-c, --config <file>', CONFIG_OPTION_HELP)
    .option('--tools <names>', 'comma-separated tool names treated as advertised when a capture does not record them')
    .addOption(new Option('--input-format <format>', 'read every input as this capture format instead of detecting it').choices([...CAPTURE_FORMATS]))
    .action(async (flags: CeilingFlags) => {
      state.exitCode = await ceilingCommand({ ...flags, color: program.opts()['color'] as boolean | undefined }, io);
    });
}

/** `file:line: message` (line left out when unknown). */
function problem(file: string, line: number | null, message: string): string {
  return `${file}${line !== null ? `:${line}` : ''}: ${message}`;
}

/** A capture problem as ceiling reports it, secrets masked (ceiling has no `--no-redact`). */
const captureProblem = (e: CaptureError): string => problem(redactSecrets(e.file), e.line, `${e.code}: ${redactSecrets(e.message)}`);

/**
 * Reads the label side file of one capture, if there is one.
 * @returns null when there is none; problems when it cannot be read or parsed.
 */
async function loadSideFile(capture: string, cwd: string): Promise<{ lookup: LabelLookup | null; problems: string[] }> {
  if (capture === '-') return { lookup: null, problems: [] };
  const path = labelFileFor(capture);
  try {
    const info = await stat(resolve(cwd, path));
    if (info.size > MAX_LABEL_FILE_BYTES) return { lookup: null, problems: [problem(path, null, `label file is larger than ${MAX_LABEL_FILE_BYTES} bytes`)] };
    const parsed = parseLabelFile(await readFile(resolve(cwd, path), 'utf8'));
    if (parsed.labels === null) return { lookup: null, problems: parsed.problems.map((p) => problem(path, null, p)) };
    return { lookup: new LabelLookup(parsed.labels), problems: [] };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { lookup: null, problems: [] };
    return { lookup: null, problems: [problem(path, null, `cannot read the label file: ${(e as Error).message}`)] };
  }
}

function styleFor(io: CliIO, flag: boolean | undefined): CeilingStyle {
  const c = chalkFor(io.stdout, io.env, flag);
  return { leak: c.cyan, quotation: c.magenta, wrong: c.red.bold, ceiling: c.yellow, dim: c.dim };
}

async function ceilingCommand(flags: CeilingFlags, io: CliIO): Promise<number> {
  const paths = flags.corpus ?? [];
  if (paths.length === 0) throw new UsageError('--corpus needs at least one path');
  const override = flags.ceiling !== undefined ? parseRatio('--ceiling', flags.ceiling) : undefined;
  const config = await loadConfig(flags.config, io.cwd);
  const judge = await resolveEngines(config, {
    tools: flags.tools,
    proseCeiling: override !== undefined ? String(override) : undefined,
  });
  const ceiling = judge.recovery.proseCeiling;
  const format: CeilingFormat = flags.format ?? 'text';

  const problems: string[] = [];
  const warnings: string[] = [];
  const { inputs, errors } = await expandInputs(paths, io.cwd);
  problems.push(...errors.map(captureProblem));
  const captures = inputs.filter((p) => !isLabelFile(p));
  const lookups = new Map<string, LabelLookup>();
  for (const capture of captures) {
    const side = await loadSideFile(capture, io.cwd);
    problems.push(...side.problems);
    if (side.lookup) lookups.set(capture, side.lookup);
  }

  const samples: CeilingSample[] = [];
  const unlabelled: string[] = [];
  for await (const ev of scanInputs(captures, { judge, read: { inputFormat: flags.inputFormat }, stdin: io.stdin, cwd: io.cwd })) {
    if (ev.kind === 'error') {
      if (ev.error.severity === 'warning') warnings.push(captureProblem(ev.error));
      else problems.push(captureProblem(ev.error));
      continue;
    }
    if (ev.kind !== 'reply') continue;
    const { reply, recovery } = ev.verdict;
    const fromSide = lookups.get(reply.source.file)?.labelOf(reply.id, reply.source.line) ?? null;
    const fromRecord: CeilingLabel | null = reply.label ?? null;
    if (fromSide !== null && fromRecord !== null && fromSide !== fromRecord) {
      problems.push(problem(reply.source.file, reply.source.line, `the record says "${fromRecord}" but the label file says "${fromSide}"`));
      continue;
    }
    const label = fromRecord ?? fromSide;
    if (label === null) {
      unlabelled.push(`${reply.source.file}:${reply.source.line}`);
      continue;
    }
    const text = format !== 'json';
    samples.push({
      id: reply.id === null ? null : text ? printableMasked(reply.id) : redactSecrets(reply.id),
      file: text ? printableMasked(reply.source.file) : redactSecrets(reply.source.file),
      line: reply.source.line,
      label,
      family: text && recovery.family !== null ? printable(recovery.family) : recovery.family,
      proseRatio: recovery.proseRatio,
      reason: recovery.reason,
      outcome: recovery.outcome,
    });
  }
  for (const [capture, lookup] of lookups) {
    for (const entry of lookup.unused()) problems.push(problem(labelFileFor(capture), null, `${entry} matches no reply in ${capture}`));
  }

  // every string from the captures is printed with its control characters escaped visibly
  for (const w of warnings) io.stderr.write(`guard: warning: ${printable(w)}\n`);
  for (const p of problems) io.stderr.write(`guard: ${printable(p)}\n`);
  if (unlabelled.length > 0) {
    const shown = unlabelled.slice(0, 5).map(printable).join(', ');
    io.stderr.write(`guard: ${unlabelled.length} repl${unlabelled.length === 1 ? 'y has' : 'ies have'} no label and ${unlabelled.length === 1 ? 'was' : 'were'} left out: ${shown}${unlabelled.length > 5 ? ', ...' : ''}\n`);
  }
  if (samples.length === 0) {
    io.stderr.write(`guard: the corpus holds no labelled reply (label "leak" or "quotation" in the record, or a ${labelFileFor('<capture>')} side file)\n`);
    return EXIT.FAILURE;
  }
  const missing = (['leak', 'quotation'] as const).filter((l) => !samples.some((s) => s.label === l));
  if (missing.length > 0) {
    io.stderr.write(`guard: the corpus has no ${missing[0]} reply: the ceiling can only be checked between leaks and quotations\n`);
    return EXIT.FAILURE;
  }

  const analysis = analyseCeiling(samples, ceiling);
  const suggestion = flags.suggest ? suggestCeiling(analysis) : undefined;
  if (format === 'json') io.stdout.write(wellFormedJson(ceilingJson(analysis, suggestion), 2) + '\n');
  else if (format === 'markdown') io.stdout.write(renderMarkdown(analysis, suggestion));
  else io.stdout.write(renderText(analysis, styleFor(io, flags.color), suggestion));
  if (format !== 'text') {
    for (const r of analysis.wrong) io.stderr.write(`guard: wrong side of the ceiling ${ceiling}: ${printable(rowLocation(r))} ${r.label} ${r.proseRatio === null ? 'unmeasured' : r.proseRatio.toFixed(2)}\n`);
  }
  if (problems.length > 0) return EXIT.FAILURE;
  return analysis.separated ? EXIT.OK : EXIT.FINDINGS;
}
