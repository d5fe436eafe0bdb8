import type { Command } from 'commander';
import { configFlag } from '../../flags/config-flag.js';
import type { CliIo } from '../../io/cli-io.js';

export interface TrustCommandInput {
  action: 'list' | 'show';
  domain?: string;
  flags: { kb?: string; config?: string; json?: boolean };
}

/**
 * Registers `deepsearch trust list|show <domain>`: the domain trust profiles kept across runs
 * (in the knowledge base's database, or retrieval.hostHealthFile; in queue mode, in Postgres).
 * Loaded only when run.
 */
export function addTrustCommand(program: Command, io: CliIo): void {
  const trust = program
    .command('trust')
    .description(
      'domain trust profiles: reads that failed or were blocked, citations, provisional trust scores',
    );
  const define = (name: 'list' | 'show', description: string) =>
    trust
      .command(name)
      .description(description)
      .option(
        '--kb <path>',
        "knowledge base file holding the profiles (default: knowledge.sqlite in the user's data directory; in queue mode, Postgres) [env DEEPSEARCH_KB]",
      )
      .addOption(configFlag())
      .option('--json', 'print JSON');
  const run = async (input: TrustCommandInput) => {
    const { runTrustCommand } = await import('./run-trust-command.js');
    await runTrustCommand(io, input);
  };
  const list = define('list', 'every domain seen, most trusted first');
  list.action(() => run({ action: 'list', flags: list.opts() }));
  const show = define('show', "one domain's profile and why it has its score").argument(
    '<domain>',
    'a host name (example.org) or a URL',
  );
  show.action((domain: string) => run({ action: 'show', domain, flags: show.opts() }));
}
