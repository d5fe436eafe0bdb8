import { Command, CommanderError } from 'commander';
import { createRedactor, InputError, type Redactor, type Secret } from '../core/errors/index.js';
import { packageVersion } from '../core/package-version.js';
import { addAskCommand } from './commands/ask/ask-command.js';
import { addDoctorCommand } from './commands/doctor/doctor-command.js';
import { addEvalCommand } from './commands/eval/eval-command.js';
import { addInitCommand } from './commands/init/init-command.js';
import { addKbCommand } from './commands/kb/kb-command.js';
import { addMcpCommand } from './commands/mcp/mcp-command.js';
import { addModelCommand } from './commands/model/model-command.js';
import { addReadCommand } from './commands/read/read-command.js';
import { addResearchCommand } from './commands/research/research-command.js';
import { addResumeCommand } from './commands/resume/resume-command.js';
import { addRunsCommands } from './commands/runs/runs-command.js';
import { addSearchCommand } from './commands/search/search-command.js';
import { addServeCommand } from './commands/serve/serve-command.js';
import { addTrustCommand } from './commands/trust/trust-command.js';
import { addWatchCommands } from './commands/watch/watch-command.js';
import { addWorkerCommand } from './commands/worker/worker-command.js';
import { withSettingFlags } from './flags/setting-flags.js';
import type { CliIo } from './io/cli-io.js';
import { exitCodeFor, exitCodes, formatCliError, ReportedFailure } from './io/exit-codes.js';

/** One row each in `deepsearch --help` (a command's own --help shows its longer description). */
const commandSummaries: Readonly<Record<string, string>> = {
  ask: 'answer a question, citing verified quotes',
  research: 'research a topic and write a cited report',
  search: 'search the web and print the hits',
  read: 'print the main content of pages or files',
  serve: 'serve the OpenAI-compatible API, MCP, web page',
  mcp: 'serve the MCP tools over stdio',
  init: 'write a commented deepsearch.config.json',
  doctor: 'check the LLM, search, reader and cache',
  kb: 'your own documents: a local knowledge base',
  trust: 'the trust profiles of the domains read',
  eval: 'run a benchmark and grade the answers',
  model: 'models run in-process: list, pull, use',
  runs: 'stored runs: list, show, export, delete',
  replay: 'show a stored run again (no network)',
  resume: 'go on with a run from its last checkpoint',
  watch: 'questions re-run on a schedule: what changed',
  help: 'help for a command; help settings: all settings',
};

/** Runs the CLI and returns the exit code; never throws, never exits the process itself. */
export async function runCli(rawIo: CliIo): Promise<number> {
  const io = withRedactedOutput(rawIo);
  const program = new Command('deepsearch')
    .description('Deep search agent: searches, reads and reasons until it can give a short, cited answer.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: () => undefined,
    })
    .showSuggestionAfterError(true)
    .helpCommand(false);
  // Each command is defined here with its flags and help; what it runs is loaded only when it runs,
  // so --help and usage errors load none of the runtime.
  addAskCommand(program, io);
  addResearchCommand(program, io);
  addSearchCommand(program, io);
  addReadCommand(program, io);
  addServeCommand(program, io);
  addWorkerCommand(program, io);
  addMcpCommand(program, io);
  addInitCommand(program, io);
  addDoctorCommand(program, io);
  program.addHelpText(
    'after',
    '\nGetting started: deepsearch init writes deepsearch.config.json (LLM and search settings, with\n' +
      'comments); deepsearch doctor checks them. Flags > environment variables > that file > defaults;\n' +
      'deepsearch <command> --help shows what a first run needs; deepsearch help settings lists every setting.\n',
  );
  addKbCommand(program, io);
  addTrustCommand(program, io);
  addEvalCommand(program, io);
  addModelCommand(program, io);
  addRunsCommands(program, io);
  addWatchCommands(program, io);
  addResumeCommand(program, io);
  addHelpCommand(program, io);
  for (const command of program.commands) command.summary(commandSummaries[command.name()] ?? '');
  const debug =
    io.argv.includes('--debug') ||
    ['1', 'true', 'yes'].includes((io.env.DEEPSEARCH_DEBUG ?? '').toLowerCase());
  // No command at all: the list of commands is what the person asked for, not a usage error.
  if (io.argv.length <= 2) {
    program.outputHelp();
    return exitCodes.ok;
  }
  try {
    await program.parseAsync([...io.argv]);
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExit(error, io, program);
    if (error instanceof ReportedFailure) return exitCodeFor(error.failure);
    io.stderr.write(`${formatCliError(error, debug)}\n`);
    return exitCodeFor(error);
  }
}

function commanderExit(error: CommanderError, io: CliIo, program: Command): number {
  if (
    error.code === 'commander.helpDisplayed' ||
    error.code === 'commander.version' ||
    error.exitCode === 0
  ) {
    return exitCodes.ok;
  }
  const message = error.message.replace(/^error:\s*/i, '').replace(/\s*\n\s*/g, ' ');
  const help = `${commandPath(program, io.argv.slice(2)).join(' ')} --help`;
  io.stderr.write(`${formatCliError(new InputError(`${message} (see ${help})`), false)}\n`);
  return exitCodes.usage;
}

/**
 * `deepsearch help [command...]` shows that command's help, and `deepsearch help settings [words]`
 * every setting (or those matching the words).
 */
function addHelpCommand(program: Command, io: CliIo): void {
  program
    .command('help')
    .description('help for a command; "help settings [words]" lists every setting')
    .argument('[command...]', 'a command, or settings')
    .action(async (words: string[]) => {
      if (words[0] === 'settings') {
        const { renderSettingsHelp } = await import('./help/settings-help.js');
        io.stdout.write(renderSettingsHelp(words.slice(1)));
        return;
      }
      let command = program;
      for (const word of words) {
        const next = command.commands.find((candidate) => candidate.name() === word);
        if (!next) throw new InputError(`unknown command '${words.join(' ')}' (see deepsearch --help)`);
        command = next;
      }
      withSettingFlags(command).outputHelp();
    });
}

/**
 * The command the arguments name ("deepsearch kb add"), so a usage error points at that
 * command's help, where its flags are, rather than the list of commands.
 */
function commandPath(program: Command, args: readonly string[]): string[] {
  const path = [program.name()];
  let current = program;
  for (const arg of args) {
    if (arg.startsWith('-')) continue;
    const next = current.commands.find(
      (command) => command.name() === arg || command.aliases().includes(arg),
    );
    if (!next) break;
    path.push(next.name());
    current = next;
  }
  return path;
}

/**
 * The io with stdout and stderr passed through a redactor of every configured secret, once a
 * command has loaded its config: an upstream error, a model's reasoning or a stack never prints a key.
 */
function withRedactedOutput(io: CliIo): CliIo {
  const secrets: Secret[] = [];
  let redact: Redactor = (text) => text;
  const redacting = (stream: CliIo['stdout']): CliIo['stdout'] => ({
    write: (text: string) => stream.write(redact(text)),
    isTTY: stream.isTTY,
    columns: stream.columns,
  });
  return {
    ...io,
    stdout: redacting(io.stdout),
    stderr: redacting(io.stderr),
    addSecrets: (more) => {
      secrets.push(...more);
      redact = createRedactor(secrets);
    },
  };
}
