import { Command, CommanderError } from 'commander';
import { InputError } from '../errors/index.js';
import { addAskCommand } from './ask-command.js';
import type { CliIo } from './cli-io.js';
import { exitCodeFor, exitCodes, formatCliError } from './exit-codes.js';
import { addReadCommand } from './read-command.js';
import { ReportedFailure } from './reported-failure.js';
import { addSearchCommand } from './search-command.js';
import { addServeCommand } from './serve-command.js';

/** Runs the CLI and returns the exit code; never throws, never exits the process itself. */
export async function runCli(io: CliIo): Promise<number> {
  const program = new Command('deepsearch')
    .description('Deep search agent: searches, reads and reasons until it can give a short, cited answer.')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: () => undefined,
    })
    .showSuggestionAfterError(true);
  // Each command is defined here with its flags and help; what it runs is loaded only when it runs,
  // so --help and usage errors load none of the runtime.
  addAskCommand(program, io);
  addSearchCommand(program, io);
  addReadCommand(program, io);
  addServeCommand(program, io);
  const debug =
    io.argv.includes('--debug') ||
    ['1', 'true', 'yes'].includes((io.env.DEEPSEARCH_DEBUG ?? '').toLowerCase());
  try {
    await program.parseAsync([...io.argv]);
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExit(error, io);
    if (error instanceof ReportedFailure) return exitCodeFor(error.failure);
    io.stderr.write(`${formatCliError(error, debug)}\n`);
    return exitCodeFor(error);
  }
}

function commanderExit(error: CommanderError, io: CliIo): number {
  if (
    error.code === 'commander.helpDisplayed' ||
    error.code === 'commander.version' ||
    error.exitCode === 0
  ) {
    return exitCodes.ok;
  }
  const message = error.message.replace(/^error:\s*/i, '');
  io.stderr.write(`${formatCliError(new InputError(`${message} (see deepsearch --help)`), false)}\n`);
  return exitCodes.usage;
}
