import type { Command } from 'commander';
import { configFlag } from '../../flags/config-flag.js';
import { addExamples, addSettingFlags, collectSettingFlags } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';

/** Registers `deepsearch serve`; the server and the runtime are loaded only when it runs. */
export function addServeCommand(program: Command, io: CliIo): void {
  const serve = addSettingFlags(
    program
      .command('serve')
      .description(
        'serve the web page (/), the OpenAI-compatible API (POST /v1/chat/completions, /v1/responses), async runs (/v1/research, /v1/runs) and MCP (/mcp) until SIGTERM or Ctrl-C',
      )
      .addOption(configFlag())
      .option('--yes', 'download the default local model without asking'),
    { scope: 'serve' },
  );
  addExamples(serve, [
    'deepsearch serve',
    'DEEPSEARCH_API_KEYS=my-secret-key deepsearch serve --host 0.0.0.0 --port 8080',
    'deepsearch serve --config ./deepsearch.config.json --max-concurrent 2',
  ]);
  serve.action(async (options: { config?: string; yes?: boolean }) => {
    const { runServeCommand } = await import('./run-serve-command.js');
    await runServeCommand(io, {
      flags: collectSettingFlags(serve),
      configPath: options.config,
      yes: options.yes,
    });
  });
}
