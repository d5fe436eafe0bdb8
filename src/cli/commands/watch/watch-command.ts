import type { Command } from 'commander';
import { configFlag } from '../../flags/config-flag.js';
import { addExamples, collectSettingFlags } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';

export type WatchAction = 'add' | 'list' | 'show' | 'run' | 'pause' | 'resume' | 'remove' | 'run-due';

export interface WatchCommandFlags {
  config?: string;
  json?: boolean;
  every?: string;
  cron?: string;
  research?: boolean;
  notify?: string;
  notifySecret?: string;
  notifyFormat?: string;
  notifyAlways?: boolean;
  name?: string;
}

const runsFileOption = [
  '--runs-file <path>',
  "run store file, which keeps the watches too (default: runs.sqlite in the user's data directory) [env DEEPSEARCH_RUNS_FILE]",
] as const;

/**
 * Registers `deepsearch watch add|list|show|run|pause|resume|remove|run-due`: questions re-run on a
 * schedule, each check saying claim by claim what changed. Loaded only when a command runs.
 */
export function addWatchCommands(program: Command, io: CliIo): void {
  const watch = program
    .command('watch')
    .description('questions that keep themselves up to date: re-run on a schedule, told what changed');
  const run =
    (action: WatchAction, command: Command) =>
    async (...values: unknown[]) => {
      const { runWatchCommand } = await import('./run-watch-command.js');
      await runWatchCommand(io, {
        action,
        argument: typeof values[0] === 'string' ? values[0] : undefined,
        flags: command.opts() as WatchCommandFlags,
        settingFlags: collectSettingFlags(command),
      });
    };
  const define = (name: string, description: string, argument?: string) => {
    const command = watch.command(name).description(description);
    if (argument) command.argument(argument);
    return command.addOption(configFlag()).option(...runsFileOption);
  };
  const add = define('add', 'watch a question: prints the new watch id', '<question>')
    .option('--every <duration>', 'run every 30m, 6h, 1d, 1w (at least a minute)')
    .option('--cron <pattern>', 'run on a cron pattern instead, e.g. "0 8 * * 1" (Mondays at 8)')
    .option('--research', 'write a research report each time instead of a deep search answer')
    .option('--notify <url>', 'webhook to POST the changes to')
    .option('--notify-secret <secret>', 'sign each post: X-Deepsearch-Signature: sha256=<HMAC of the body>')
    .option('--notify-format <format>', 'json (default) or slack (a Slack-compatible incoming webhook)')
    .option('--notify-always', 'post after every check, even when nothing changed or it failed')
    .option('--name <text>', 'a name to tell it by (default: the question)');
  add.action(run('add', add));
  const list = define('list', 'the watches, with their schedule and next run').option('--json', 'print JSON');
  list.action(run('list', list));
  const show = define(
    'show',
    "a watch and its checks, each check's changes with before, after and sources",
    '<id>',
  ).option('--json', 'print JSON');
  show.action(run('show', show));
  const now = define('run', 'check a watch now, wait for it and print what changed', '<id>').option(
    '--json',
    'print the check as JSON',
  );
  now.action(run('run', now));
  for (const [action, description] of [
    ['pause', 'stop running a watch on its schedule (kept, with its checks)'],
    ['resume', 'run a paused watch on its schedule again'],
    ['remove', 'delete a watch and its checks (its runs stay in the run store)'],
  ] as const) {
    const command = define(action, description, '<id>');
    command.action(run(action, command));
  }
  const due = define(
    'run-due',
    'check every due watch once, send pending notifications, and exit (for cron or systemd timers)',
  );
  due.action(run('run-due', due));
  addExamples(watch, [
    'deepsearch watch add "Latest stable release of Node.js?" --every 1d --notify https://hooks.example.com/x',
    'deepsearch watch add "EU AI Act status" --cron "0 8 * * 1" --research --notify-format slack --notify https://hooks.slack.com/...',
    'deepsearch watch show watch_3f2a',
    'deepsearch watch run-due',
  ]);
}
