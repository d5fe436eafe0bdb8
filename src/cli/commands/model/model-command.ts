import type { Command } from 'commander';
import { configFlag } from '../../flags/config-flag.js';
import type { CliIo } from '../../io/cli-io.js';

export type ModelAction = 'list' | 'pull' | 'remove' | 'use';

export interface ModelCommandInput {
  action: ModelAction;
  target: string | undefined;
  flags: { config?: string; json?: boolean; sha256?: string; quiet?: boolean };
}

/**
 * Registers `deepsearch model list|pull|remove|use`: the models the embedded runtime
 * (llm.provider "local-embedded") runs in-process, in the user's data directory.
 */
export function addModelCommand(program: Command, io: CliIo): void {
  const model = program
    .command('model')
    .description('local models run in-process by node-llama-cpp: list, download, remove, choose the default');
  const define = (action: ModelAction, description: string, argument?: string) => {
    const command = model.command(action).description(description);
    if (argument) command.argument(argument);
    command.addOption(configFlag());
    command.action(async (target: unknown) => {
      const { runModelCommand } = await import('./run-model-command.js');
      await runModelCommand(io, {
        action,
        target: typeof target === 'string' ? target : undefined,
        flags: command.opts(),
      });
    });
    return command;
  };
  define('list', 'the downloaded models, the default one, and those pull knows by name').option(
    '--json',
    'print one JSON document',
  );
  define(
    'pull',
    'download a model by name (default: the recommended one) or from a https URL of a .gguf file (resumes an interrupted download); a path to a .gguf on this machine registers it by its file name',
    '[name-url-or-path]',
  )
    .option('--sha256 <hex>', 'the SHA-256 the file from a URL must have')
    .option('--quiet', 'no progress bar');
  define(
    'remove',
    'delete a downloaded model (and any partial download of it; a registered one: its link)',
    '<name>',
  );
  define(
    'use',
    'make a downloaded model the one used when llm.model is not set (a path to a .gguf is registered first)',
    '<name-or-path>',
  );
}
