import type { Command } from 'commander';
import { configFlag } from '../../flags/config-flag.js';
import { kbMergeFlagDescription } from '../../flags/kb-merge-flag.js';
import { addExamples, addSettingFlags, collectSettingFlags } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';

/** Registers `deepsearch ask`; the agent and its providers are loaded only when it runs. */
export function addAskCommand(program: Command, io: CliIo): void {
  const ask = addSettingFlags(
    program
      .command('ask')
      .description('answer a question (reads it from stdin when none is given)')
      .argument('[question...]', 'the question')
      .option('--json', 'print one JSON document and nothing else on stdout')
      .option('-o, --output <file>', 'write the answer here (markdown; JSON for *.json)')
      .option('--quiet', 'no progress on stderr')
      .option('--kb [path]', kbMergeFlagDescription)
      .option('--yes', 'download the default local model without asking')
      .addOption(configFlag()),
    { scope: 'ask' },
  );
  addExamples(ask, [
    'deepsearch ask "who won the 2022 Nobel prize in physics?"',
    'deepsearch ask --json --max-time 120 "latest stable Node.js version" > answer.json',
    'deepsearch ask "when was the Varnholt Observatory founded?" -o answer.md',
    'echo "what is SearXNG?" | deepsearch ask --llm-base-url http://localhost:11434/v1 --llm-model qwen2.5:7b',
  ]);
  ask.action(
    async (
      words: string[],
      options: {
        json?: boolean;
        quiet?: boolean;
        config?: string;
        kb?: string | boolean;
        output?: string;
        yes?: boolean;
      },
    ) => {
      const { runAskCommand } = await import('./run-ask-command.js');
      await runAskCommand(io, {
        words,
        flags: collectSettingFlags(ask),
        json: options.json ?? false,
        quiet: options.quiet ?? false,
        configPath: options.config,
        kb: options.kb,
        output: options.output,
        yes: options.yes,
      });
    },
  );
}
