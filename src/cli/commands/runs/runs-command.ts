import type { Command } from 'commander';
import { configFlag } from '../../flags/config-flag.js';
import { addExamples, collectSettingFlags } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';

export type RunsAction = 'list' | 'show' | 'export' | 'delete' | 'replay' | 'evidence' | 'source';

export interface RunsCommandFlags {
  config?: string;
  json?: boolean;
  limit?: string;
  format?: string;
}

const runsFileOption = [
  '--runs-file <path>',
  "run store file (default: runs.sqlite in the user's data directory) [env DEEPSEARCH_RUNS_FILE]",
] as const;

/**
 * Registers `deepsearch runs list|show|export|delete` and `deepsearch replay <id>`: the run store,
 * loaded only when a command runs (`deepsearch resume` is in commands/resume/).
 */
export function addRunsCommands(program: Command, io: CliIo): void {
  const runs = program
    .command('runs')
    .description('the runs kept in the run store: list, show, export, evidence, source, delete');
  const run =
    (action: RunsAction, command: Command) =>
    async (...values: unknown[]) => {
      const { runRunsCommand } = await import('./run-runs-command.js');
      await runRunsCommand(io, {
        action,
        id: typeof values[0] === 'string' ? values[0] : undefined,
        n: typeof values[1] === 'string' ? values[1] : undefined,
        flags: command.opts() as RunsCommandFlags,
        settingFlags: collectSettingFlags(command),
      });
    };
  const define = (parent: Command, name: string, description: string, ...argumentNames: string[]) => {
    const command = parent.command(name).description(description);
    for (const argument of argumentNames) command.argument(argument);
    return command.addOption(configFlag()).option(...runsFileOption);
  };
  const list = define(runs, 'list', 'the latest runs, newest first')
    .option('--json', 'print JSON')
    .option('--limit <n>', 'runs to show (default 20)');
  list.action(run('list', list));
  const show = define(
    runs,
    'show',
    "a run's question, status, usage and cost per role, and answer",
    '<id>',
  ).option('--json', 'print the stored run as JSON');
  show.action(run('show', show));
  const exported = define(
    runs,
    'export',
    'a run as markdown (answer, sources, timeline) or JSON (with every event)',
    '<id>',
  ).option('--format <format>', 'md or json (default md)');
  exported.action(run('export', exported));
  const evidence = define(
    runs,
    'evidence',
    "each claim of a run's answer with its quote, source, when it was read, and how it was checked",
    '<id>',
  )
    .option('--json', 'print JSON')
    .option('--format <format>', 'export the sources: csl-json, bibtex or ris');
  evidence.action(run('evidence', evidence));
  const source = define(
    runs,
    'source',
    'the text a run read for footnote <n>, as it was then, its quote marked',
    '<id>',
    '<n>',
  );
  source.action(run('source', source));
  const remove = define(runs, 'delete', 'delete a run, its events and its source snapshots', '<id>');
  remove.action(run('delete', remove));
  addExamples(runs, [
    'deepsearch runs list',
    'deepsearch runs show 3f2a',
    'deepsearch runs export 3f2a --format md > run.md',
    'deepsearch runs evidence 3f2a --format bibtex > sources.bib',
    'deepsearch runs source 3f2a 1',
  ]);

  const replay = define(
    program,
    'replay',
    "re-render a stored run's progress and answer from its events (no network)",
    '<id>',
  ).option('--json', 'print the stored result as JSON, like ask --json');
  replay.action(run('replay', replay));
}
