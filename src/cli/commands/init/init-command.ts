import type { Command } from 'commander';
import { addExamples } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';

export interface InitCommandFlags {
  config?: string;
  llmProvider?: string;
  llmBaseUrl?: string;
  llmModel?: string;
  searchProvider?: string;
  searxngUrl?: string;
  force?: boolean;
  yes?: boolean;
}

/** Registers `deepsearch init`: writes a commented config file, from flags or by asking. */
export function addInitCommand(program: Command, io: CliIo): void {
  const init = program
    .command('init')
    .description('write a commented deepsearch.config.json (asks in a terminal; flags answer beforehand)')
    .option('--config <path>', 'file to write (default ./deepsearch.config.json) [env DEEPSEARCH_CONFIG]')
    .option('--llm-provider <value>', 'openai-compatible (a local server) | openai | anthropic | google')
    .option(
      '--llm-base-url <value>',
      'base URL of an OpenAI-compatible server, e.g. http://localhost:11434/v1',
    )
    .option('--llm-model <value>', 'model id')
    .option('--search-provider <value>', 'auto (default), searxng, duckduckgo, brave, ... or a chain a,b')
    .option('--searxng-url <value>', 'base URL of a SearXNG instance with the JSON format enabled')
    .option('--force', 'overwrite an existing file')
    .option('--yes', 'ask nothing: flags, a local LLM server if one answers, defaults for the rest');
  addExamples(init, [
    'deepsearch init',
    'deepsearch init --yes --llm-base-url http://localhost:11434/v1 --llm-model qwen2.5:7b',
    'deepsearch init --yes --llm-provider openai --searxng-url http://localhost:8080',
  ]);
  init.action(async (flags: InitCommandFlags) => {
    const { runInitCommand } = await import('./run-init-command.js');
    await runInitCommand(io, flags);
  });
}
