import { type Command, Option } from 'commander';
import { timeRanges } from '../../../providers/spec/search-provider.js';
import { configFlag } from '../../flags/config-flag.js';
import { kbMergeFlagDescription } from '../../flags/kb-merge-flag.js';
import { addExamples, addSettingFlags, collectSettingFlags } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';

export interface SearchCommandFlags {
  json?: boolean;
  quiet?: boolean;
  config?: string;
  count?: string;
  timeRange?: string;
  site?: string;
  lang?: string;
  region?: string;
  /** --kb: true, or the knowledge base file. */
  kb?: string | boolean;
}

/**
 * Registers `deepsearch search`: the configured provider (or chain) and cache, without the agent;
 * they are loaded only when it runs.
 */
export function addSearchCommand(program: Command, io: CliIo): void {
  const command = addSettingFlags(
    program
      .command('search')
      .description('search the web with the configured provider(s) and print the hits')
      .argument('[query...]', 'the query (read from stdin when none is given)')
      .option('--json', 'print one JSON document {query, provider, hits[]} and nothing else on stdout')
      .option('--quiet', 'no fallback notices on stderr')
      .option('--count <n>', 'hits wanted (default: --search-results)')
      .addOption(new Option('--time-range <range>', 'only recent results').choices([...timeRanges]))
      .option('--site <host>', 'only results from this host')
      .option('--lang <tag>', 'result language, e.g. en, fr-FR')
      .option('--region <code>', 'two-letter country code, e.g. us, de')
      .option('--kb [path]', `${kbMergeFlagDescription}: its hits as ask --kb sees them`)
      .addOption(configFlag()),
    { scope: 'search' },
  );
  addExamples(command, [
    'deepsearch search "rust async runtime comparison"',
    'deepsearch search --site nodejs.org --time-range month "release notes"',
    'deepsearch search --json --search-provider duckduckgo --count 5 "sqlite wal mode"',
    'deepsearch search --kb "key rotation policy"',
  ]);
  command.action(async (words: string[], flags: SearchCommandFlags) => {
    const { runSearchCommand } = await import('./run-search-command.js');
    await runSearchCommand(io, { words, flags, settingFlags: collectSettingFlags(command) });
  });
}
