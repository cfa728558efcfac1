/**
 * The commander program and `run(argv, io)`: parses arguments, dispatches to one module per
 * command, and returns the exit code instead of exiting, so tests call it in process.
 */

import { Command, CommanderError, Option } from 'commander';
import tab from '@bomb.sh/tab/commander';
import { ConfigError } from '../config/load.js';
import { RuleSetError } from '../inspection/index.js';
import { registerCeiling } from './commands/ceiling.js';
import { registerScan } from './commands/scan.js';
import { registerReplay } from './commands/replay.js';
import { registerBaseline } from './commands/baseline.js';
import { registerRules } from './commands/rules.js';
import { registerFormats } from './commands/formats.js';
import { UsageError, EXIT } from './errors.js';
import type { CliIO } from './io.js';
import type { CommandState } from './state.js';
import { VERSION } from './version.js';


/** Builds the program; output and errors go to `io`, never to `process`. */
export function createProgram(io: CliIO, state: CommandState): Command {
  const program = new Command('guard')
    .description('Replay and triage captured LLM transcripts: leaked tool-call markup and dangerous tool calls.')
    .version(VERSION, '-V, --version')
    // --color first, then --no-color: the option stays undefined unless one is given
    .addOption(new Option('--color', 'colour even when not on a terminal or under NO_COLOR (default: only on a terminal, never under NO_COLOR)'))
    .addOption(new Option('--no-color', 'no colour in output'))
    .showHelpAfterError('(run guard --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    });
  registerScan(program, io, state);
  registerBaseline(program, io, state);
  registerRules(program, io, state);
  registerCeiling(program, io, state);
  registerReplay(program, io, state);
  registerFormats(program, io, state);
  // a usage error points at the help of the command it was made in
  for (const sub of program.commands) {
    sub.showHelpAfterError(`(run guard ${sub.name()} --help for usage)`);
    for (const leaf of sub.commands) leaf.showHelpAfterError(`(run guard ${sub.name()} ${leaf.name()} --help for usage)`);
  }
  // `guard completion bash|zsh|fish|powershell` prints the shell's completion script; the script
  // asks the hidden `guard complete -- WORDS` for the candidates (commands, options, choices),
  // both from @bomb.sh/tab, which reads them off this program
  tab(program, { completionCommandName: 'completion' });
  return program;
}

/** The commands whose output @bomb.sh/tab writes with console.log. */
const COMPLETION_COMMANDS = new Set(['completion', 'complete']);

/** Runs `fn` with console.log writing to `stdout` (the completion library prints with it). */
async function withConsoleOn<T>(stdout: CliIO['stdout'], fn: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = (...parts: unknown[]) => void stdout.write(`${parts.map(String).join(' ')}\n`);
  try {
    return await fn();
  } finally {
    console.log = log;
  }
}

/**
 * Runs guard with `argv` (the arguments after the executable, e.g. `['scan', 'x.jsonl']`).
 *
 * @returns the exit code: 0 nothing to report, 1 findings at or above `--fail-on`, 2 guard could
 *   not do its job (usage, configuration, unreadable or malformed input, internal error).
 */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const state: CommandState = { exitCode: EXIT.OK };
  const program = createProgram(io, state);
  if (argv.length === 0) {
    // no command: a usage error (clig.dev), with the help on stderr so a pipe gets no noise
    io.stderr.write(program.helpInformation());
    return EXIT.FAILURE;
  }
  try {
    const parse = () => program.parseAsync(argv, { from: 'user' });
    await (COMPLETION_COMMANDS.has(argv[0] ?? '') ? withConsoleOn(io.stdout, parse) : parse());
    return state.exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.OK;
      return EXIT.FAILURE; // commander already printed the message
    }
    if (e instanceof ConfigError) {
      io.stderr.write(`guard: invalid configuration\n${e.message}\n`);
      return EXIT.FAILURE;
    }
    if (e instanceof RuleSetError) {
      io.stderr.write(`guard: invalid rules\n${e.message}\n`);
      return EXIT.FAILURE;
    }
    if (e instanceof UsageError) {
      io.stderr.write(`guard: ${e.message}\n`);
      return EXIT.FAILURE;
    }
    io.stderr.write(`guard: internal error: ${(e as Error).stack ?? String(e)}\n`);
    return EXIT.FAILURE;
  }
}
