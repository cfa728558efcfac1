/**
 * `guard formats`: every capture format guard reads, from the format registry
 * (src/capture/formats.ts): its name (the `--input-format` value), what it is, how a file or
 * record of it is recognised, whether `--input-format` may force it, and the file names it is
 * usually kept under (directory walks take those names). `-f json` prints the same as one JSON
 * object with snake_case keys. Exit 0.
 */

import { Option, type Command } from 'commander';
import { CAPTURE_EXTENSIONS } from '../../capture/files.js';
import { CAPTURE_FORMAT_SPECS, isForcible, type CaptureFormatSpec } from '../../capture/formats.js';
import { EXIT } from '../errors.js';
import type { CliIO } from '../io.js';
import type { CommandState } from '../state.js';

const OUTPUTS = ['text', 'json'] as const;
type Output = (typeof OUTPUTS)[number];

/** One format as `guard formats -f json` prints it. */
export interface FormatRow {
  name: string;
  /** `record` (JSON records), `sse` (a raw event stream) or `text` (a text layout of its own). */
  kind: CaptureFormatSpec['kind'];
  description: string;
  recognition: string;
  forcible: boolean;
  file_names: string[];
}

/** Every registered format, in registry (sniffing) order. */
export function formatRows(): FormatRow[] {
  return (CAPTURE_FORMAT_SPECS as readonly CaptureFormatSpec[]).map((s) => ({
    name: s.name,
    kind: s.kind,
    description: s.description,
    recognition: s.recognition,
    forcible: isForcible(s),
    file_names: [...s.fileNames],
  }));
}

export function registerFormats(program: Command, io: CliIO, state: CommandState): void {
  program
    .command('formats')
    .description('list every capture format guard reads: how it is recognised, whether --input-format can force it, its usual file names')
    .addOption(new Option('-f, --format <format>', 'output format').choices([...OUTPUTS]).default('text'))
    .action((flags: { format: Output }) => {
      const rows = formatRows();
      if (flags.format === 'json') {
        io.stdout.write(`${JSON.stringify({ formats: rows, walk_extensions: [...CAPTURE_EXTENSIONS] }, null, 2)}\n`);
      } else {
        for (const r of rows) {
          io.stdout.write(`${r.name}  (${r.kind}; --input-format ${r.forcible ? 'yes' : 'no'})\n`);
          io.stdout.write(`  ${r.description}\n`);
          io.stdout.write(`  recognised by: ${r.recognition}\n`);
          io.stdout.write(`  file names: ${r.file_names.join(', ')}\n`);
        }
        io.stdout.write(
          `${rows.length} formats, detected per file then per record (records in sniffing order, as listed); directory walks take ${CAPTURE_EXTENSIONS.join(', ')} and the file names above\n`,
        );
      }
      state.exitCode = EXIT.OK;
    });
}
