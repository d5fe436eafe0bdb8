import type { Command } from 'commander';
import { configFlag } from '../../flags/config-flag.js';
import { addExamples, addSettingFlags, collectSettingFlags } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';

export type KbAction = 'add' | 'list' | 'stats' | 'remove' | 'search';

export interface KbCommandFlags {
  kb?: string;
  config?: string;
  collection?: string;
  include?: string[];
  exclude?: string[];
  json?: boolean;
  limit?: string;
  debug?: boolean;
  expand?: boolean;
  quiet?: boolean;
  analyze?: boolean;
}

export interface KbCommandInput {
  action: KbAction;
  args: string[];
  flags: KbCommandFlags;
  settingFlags: Record<string, unknown>;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * Registers `deepsearch kb add|list|stats|remove|search`: the local knowledge base. Each
 * subcommand loads the store, the parsers and the providers only when it runs.
 */
export function addKbCommand(program: Command, io: CliIo): void {
  const kb = program
    .command('kb')
    .description('your own documents: add files, folders and URLs to a local knowledge base and search them');
  const define = (name: KbAction, description: string, argument?: string) => {
    const command = kb.command(name).description(description);
    if (argument) command.argument(argument);
    command
      .option(
        '--kb <path>',
        "knowledge base file (default: knowledge.sqlite in the user's data directory) [env DEEPSEARCH_KB]",
      )
      .addOption(configFlag());
    return command;
  };
  const run =
    (action: KbAction, command: Command) =>
    async (...values: unknown[]) => {
      const args = values[0];
      const { runKbCommand } = await import('./run-kb-command.js');
      await runKbCommand(io, {
        action,
        args: Array.isArray(args) ? (args as string[]) : typeof args === 'string' ? [args] : [],
        flags: command.opts() as KbCommandFlags,
        settingFlags: collectSettingFlags(command),
      });
    };

  // The setting flags (embedding, rerank, reader, --debug...) go on the subcommands that use them.
  const add = addSettingFlags(
    define(
      'add',
      'add files, folders (recursively) and URLs; unchanged ones are skipped',
      '<paths-or-urls...>',
    )
      .option('--collection <name>', 'collection to add to (default "default")')
      .option('--include <glob>', 'only files matching this glob inside folders (repeatable)', collect)
      .option('--exclude <glob>', 'skip files matching this glob inside folders (repeatable)', collect)
      .option(
        '--analyze',
        'an LLM (analyzer role) summarises each document and chunk and lists its entities and relations; costs are shown',
      )
      .option('--json', 'print the ingest report as JSON')
      .option('--quiet', 'no progress bar'),
    { scope: 'kb' },
  );
  addExamples(add, [
    'deepsearch kb add ~/notes',
    'deepsearch kb add ./handbook --include "*.md" --exclude "drafts/**" --collection handbook',
    'deepsearch kb add report.pdf https://example.com/spec.html --analyze',
  ]);
  add.action(run('add', add));
  const list = define('list', 'list the documents')
    .option('--collection <name>', 'only this collection')
    .option('--json', 'print JSON');
  list.action(run('list', list));
  const stats = addSettingFlags(
    define('stats', 'documents, chunks, collections, vector index and embedding model'),
    { scope: 'kb' },
  ).option('--json', 'print JSON');
  stats.action(run('stats', stats));
  const remove = define('remove', 'remove documents by id, file, folder or URL', '<id-or-path>');
  remove.action(run('remove', remove));
  const search = addSettingFlags(
    define('search', 'hybrid search (full text + vectors) with entity expansion', '<query...>')
      .option('--limit <n>', 'hits to show (default 10)')
      .option('--collection <name>', 'only this collection')
      .option('--no-expand', 'no graph-aware expansion (secondary searches for entities of the top hits)')
      .option('--json', 'print one JSON document {query, hits[]} with each score explained'),
    { scope: 'kb' },
  );
  addExamples(search, [
    'deepsearch kb search key rotation policy',
    'deepsearch kb search "on-call handover" --collection handbook --limit 5',
    'deepsearch kb search quarterly revenue --json',
  ]);
  search.action(run('search', search));
}
