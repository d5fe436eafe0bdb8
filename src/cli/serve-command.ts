import type { Command } from 'commander';
import type { CliIo } from './cli-io.js';
import { addSettingFlags, collectSettingFlags } from './setting-flags.js';

/** Registers `deepsearch serve`; the server and the runtime are loaded only when it runs. */
export function addServeCommand(program: Command, io: CliIo): void {
  const serve = addSettingFlags(
    program
      .command('serve')
      .description(
        'serve the OpenAI-compatible API (POST /v1/chat/completions, /v1/responses) until SIGTERM or Ctrl-C',
      )
      .option('--config <path>', 'config file (default ./deepsearch.config.json) [env DEEPSEARCH_CONFIG]'),
    { server: true },
  );
  serve.action(async (options: { config?: string }) => {
    const { runServeCommand } = await import('./run-serve-command.js');
    await runServeCommand(io, { flags: collectSettingFlags(serve), configPath: options.config });
  });
}
