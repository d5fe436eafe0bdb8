import { type Command, Option } from 'commander';
import { addExamples, addSettingFlags, collectSettingFlags } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';
import { type ReportFormat, reportFormats } from '../research/research-command.js';

export type RunsAction = 'list' | 'show' | 'export' | 'delete' | 'replay';

export interface RunsCommandFlags {
  config?: string;
  json?: boolean;
  limit?: string;
  format?: string;
}

interface ResumeFlags {
  json?: boolean;
  quiet?: boolean;
  config?: string;
  output?: string;
  format?: ReportFormat;
}

const configOption = ['--config <path>', 'config file (default ./deepsearch.config.json)'] as const;
const runsFileOption = [
  '--runs-file <path>',
  "run store file (default: runs.sqlite in the user's data directory) [env DEEPSEARCH_RUNS_FILE]",
] as const;

/**
 * Registers `deepsearch runs list|show|export|delete`, `deepsearch replay <id>` and
 * `deepsearch resume <id>`: the run store. Each loads the store (and, for resume, the agent) only
 * when it runs.
 */
export function addRunsCommands(program: Command, io: CliIo): void {
  const runs = program
    .command('runs')
    .description('the runs kept in the run store: list, show, export, delete');
  const run =
    (action: RunsAction, command: Command) =>
    async (...values: unknown[]) => {
      const { runRunsCommand } = await import('./run-runs-command.js');
      await runRunsCommand(io, {
        action,
        id: typeof values[0] === 'string' ? values[0] : undefined,
        flags: command.opts() as RunsCommandFlags,
        settingFlags: collectSettingFlags(command),
      });
    };
  const define = (parent: Command, name: string, description: string, argument?: string) => {
    const command = parent.command(name).description(description);
    if (argument) command.argument(argument);
    return command.option(...configOption).option(...runsFileOption);
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
  const remove = define(runs, 'delete', 'delete a run and its events', '<id>');
  remove.action(run('delete', remove));
  addExamples(runs, [
    'deepsearch runs list',
    'deepsearch runs show 3f2a',
    'deepsearch runs export 3f2a --format md > run.md',
  ]);

  const replay = define(
    program,
    'replay',
    "re-render a stored run's progress and answer from its events (no network)",
    '<id>',
  ).option('--json', 'print the stored result as JSON, like ask --json');
  replay.action(run('replay', replay));

  const resume = addSettingFlags(
    program
      .command('resume')
      .description('go on with a run from its last checkpoint (after a crash, a kill or a budget stop)')
      .argument('<id>', 'the run id, or a unique prefix of it')
      .option('--json', 'print one JSON document, as ask or research does')
      .option('-o, --output <file>', 'a research run: write the report here')
      .addOption(new Option('--format <format>', 'a research run: report format').choices([...reportFormats]))
      .option('--quiet', 'no progress on stderr')
      .option(...configOption),
    // A research run takes research's flags too (--max-hops...).
    { scope: 'research' },
  );
  addExamples(resume, [
    'deepsearch resume 3f2a',
    'deepsearch resume 3f2a --max-tokens 2000000 --max-steps 60',
    'deepsearch resume 9c1e -o report.md',
  ]);
  resume.action(async (id: string, options: ResumeFlags) => {
    const { runResumeCommand } = await import('../resume/run-resume-command.js');
    await runResumeCommand(io, {
      id,
      flags: collectSettingFlags(resume),
      json: options.json ?? false,
      quiet: options.quiet ?? false,
      configPath: options.config,
      report: { output: options.output, format: options.format },
    });
  });
}
