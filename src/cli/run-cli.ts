import { Command, CommanderError } from 'commander';
import { InputError } from '../errors/index.js';
import { runAskCommand } from './ask-command.js';
import type { CliIo } from './cli-io.js';
import { exitCodeFor, exitCodes, formatCliError } from './exit-codes.js';
import { addReadCommand } from './read-command.js';
import { addSearchCommand } from './search-command.js';
import { runServeCommand } from './serve-command.js';
import { addSettingFlags, collectSettingFlags } from './setting-flags.js';

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
  const ask = addSettingFlags(
    program
      .command('ask')
      .description('answer a question (reads it from stdin when none is given)')
      .argument('[question...]', 'the question')
      .option(
        '--json',
        'print one JSON document (answer, references, usage, steps...) and nothing else on stdout',
      )
      .option('--quiet', 'no progress on stderr')
      .option('--config <path>', 'config file (default ./deepsearch.config.json) [env DEEPSEARCH_CONFIG]'),
  );
  ask.action(async (words: string[], options: { json?: boolean; quiet?: boolean; config?: string }) => {
    await runAskCommand(io, {
      words,
      flags: collectSettingFlags(ask),
      json: options.json ?? false,
      quiet: options.quiet ?? false,
      configPath: options.config,
    });
  });
  addSearchCommand(program, io);
  addReadCommand(program, io);
  const serve = addSettingFlags(
    program
      .command('serve')
      .description('serve the OpenAI-compatible API (POST /v1/chat/completions) until SIGTERM or Ctrl-C')
      .option('--config <path>', 'config file (default ./deepsearch.config.json) [env DEEPSEARCH_CONFIG]'),
    { server: true },
  );
  serve.action(async (options: { config?: string }) => {
    await runServeCommand(io, { flags: collectSettingFlags(serve), configPath: options.config });
  });
  const debug =
    io.argv.includes('--debug') ||
    ['1', 'true', 'yes'].includes((io.env.DEEPSEARCH_DEBUG ?? '').toLowerCase());
  try {
    await program.parseAsync([...io.argv]);
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExit(error, io);
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
