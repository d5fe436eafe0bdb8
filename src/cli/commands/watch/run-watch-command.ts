import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { InputError } from '../../../core/errors/index.js';
import type { ClaimChange } from '../../../watch/claims/claim-types.js';
import type { Watch, WatchRun } from '../../../watch/watch-record.js';
import { describeSchedule } from '../../../watch/watch-schedule.js';
import { watchObject, watchRunObject } from '../../../watch/watch-view.js';
import type { CliIo } from '../../io/cli-io.js';
import { ReportedFailure } from '../../io/exit-codes.js';
import { clipLine, createTerminal } from '../../io/terminal-style.js';
import { prepareLlm, prepareSearch } from '../../setup/first-run-setup.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import { openCliWatches } from './open-cli-watches.js';
import type { WatchAction, WatchCommandFlags } from './watch-command.js';

export interface WatchCommandInput {
  action: WatchAction;
  argument: string | undefined;
  flags: WatchCommandFlags;
  settingFlags: Record<string, unknown>;
}

// The CLI is one user: its watches belong to `local`, as its runs do (the CLI sees every owner's).
const cliOwner = 'local';

/** `deepsearch watch ...`: on this machine's run store, or in queue mode the deployment's. */
export async function runWatchCommand(io: CliIo, input: WatchCommandInput): Promise<void> {
  const loaded = loadCliConfig(io, input.settingFlags, input.flags.config);
  const runs = input.action === 'run' || input.action === 'run-due';
  // A check needs the LLM and search: set up (or refused, saying what to set) before it starts.
  const config = runs ? await checkedForRuns(io, loaded) : loaded;
  const watches = await openCliWatches(io, config);
  const { service } = watches;
  const id = input.argument ?? '';
  try {
    switch (input.action) {
      case 'add': {
        const watch = await service.add(addBody(input), cliOwner);
        io.stdout.write(`${watch.id}\n`);
        io.stderr.write(
          `deepsearch: watching "${clipLine(watch.question, 60)}" ${describeSchedule(watch.schedule)}; the first check (the baseline) runs at the next \`serve\` tick or \`watch run-due\`\n`,
        );
        return;
      }
      case 'list':
        return listWatches(io, await service.list(), input.flags.json ?? false);
      case 'show': {
        const { watch, runs: checks } = await service.show(id);
        return showWatch(io, watch, checks, input.flags.json ?? false);
      }
      case 'run': {
        const run = await service.runNow(id);
        if (input.flags.json) io.stdout.write(`${JSON.stringify(watchRunObject(run), null, 2)}\n`);
        else io.stdout.write(`${runLines(run).join('\n')}\n`);
        if (run.status === 'failed') throw new ReportedFailure(new Error(run.summary));
        return;
      }
      case 'pause':
      case 'resume': {
        const watch = await service.update(id, undefined, { paused: input.action === 'pause' });
        io.stderr.write(`deepsearch: ${input.action === 'pause' ? 'paused' : 'resumed'} watch ${watch.id}\n`);
        return;
      }
      case 'remove': {
        const watch = await service.remove(id);
        io.stderr.write(`deepsearch: removed watch ${watch.id} and its checks\n`);
        return;
      }
      case 'run-due': {
        const done = await service.runDue();
        for (const run of done) io.stdout.write(`${run.watchId}  ${run.status}  ${run.summary}\n`);
        io.stderr.write(`deepsearch: ${done.length} due watch(es) checked\n`);
        return;
      }
    }
  } finally {
    await watches.close();
  }
}

async function checkedForRuns(io: CliIo, loaded: DeepSearchConfig): Promise<DeepSearchConfig> {
  // Queue mode: the workers run the checks with their own settings.
  if (loaded.scale.redisUrl && loaded.scale.databaseUrl) return loaded;
  const config = await prepareLlm(io, loaded, { quiet: true });
  prepareSearch(io, config, { quiet: true });
  return config;
}

/** The flags as the API's body: one parser checks both. */
function addBody(input: WatchCommandInput): Record<string, unknown> {
  const { flags } = input;
  if (flags.notifyFormat !== undefined && flags.notifyFormat !== 'json' && flags.notifyFormat !== 'slack')
    throw new InputError(`--notify-format must be json or slack (got "${clipLine(flags.notifyFormat, 20)}")`);
  if (flags.notify === undefined && (flags.notifySecret || flags.notifyFormat || flags.notifyAlways))
    throw new InputError('--notify-secret, --notify-format and --notify-always go with --notify <url>');
  if (flags.every === undefined && flags.cron === undefined)
    throw new InputError('a watch needs a schedule: --every 6h (30m, 1d, 1w) or --cron "0 8 * * 1"', {
      code: 'watch_invalid_schedule',
    });
  return {
    question: input.argument ?? '',
    mode: flags.research ? 'research' : 'search',
    ...(flags.name !== undefined ? { name: flags.name } : {}),
    ...(flags.every !== undefined ? { every: flags.every } : {}),
    ...(flags.cron !== undefined ? { cron: flags.cron } : {}),
    ...(flags.notify !== undefined
      ? {
          notify: {
            url: flags.notify,
            ...(flags.notifySecret ? { secret: flags.notifySecret } : {}),
            ...(flags.notifyFormat ? { format: flags.notifyFormat } : {}),
          },
        }
      : {}),
    notify_always: flags.notifyAlways ?? false,
  };
}

const when = (ms: number | null) =>
  ms === null ? '-' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

function listWatches(io: CliIo, watches: Watch[], json: boolean): void {
  if (json) {
    io.stdout.write(`${JSON.stringify(watches.map(watchObject), null, 2)}\n`);
    return;
  }
  if (watches.length === 0) {
    io.stdout.write('no watches yet: deepsearch watch add "<question>" --every 1d adds one\n');
    return;
  }
  const terminal = createTerminal(io.stdout, io.env);
  const row = (id: string, schedule: string, next: string, last: string, name: string) =>
    `${id.padEnd(26)}  ${schedule.padEnd(18)}  ${next.padEnd(16)}  ${last.padEnd(16)}  ${name}`;
  terminal.write(terminal.style('dim', row('ID', 'SCHEDULE', 'NEXT RUN', 'LAST RUN', 'NAME')));
  for (const watch of watches)
    terminal.write(
      row(
        watch.id,
        clipLine(describeSchedule(watch.schedule), 18),
        watch.paused ? 'paused' : when(watch.nextRunAt),
        when(watch.lastRunAt),
        clipLine(watch.name, Math.max(20, terminal.width - 86)),
      ),
    );
}

function showWatch(io: CliIo, watch: Watch, runs: WatchRun[], json: boolean): void {
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ ...watchObject(watch), runs: runs.map(watchRunObject) }, null, 2)}\n`,
    );
    return;
  }
  const lines = [
    `watch     ${watch.id}`,
    `name      ${watch.name}`,
    `question  ${watch.question}`,
    `mode      ${watch.mode} · ${describeSchedule(watch.schedule)}${watch.paused ? ' · paused' : ''}`,
    `next run  ${watch.paused ? 'paused' : when(watch.nextRunAt)}`,
    `notify    ${watch.notify ? `${watch.notify.url} (${watch.notify.format}${watch.notify.secret ? ', signed' : ''}${watch.notifyAlways ? ', always' : ''})` : '-'}`,
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  if (runs.length === 0) {
    io.stdout.write('\nno checks yet\n');
    return;
  }
  for (const run of runs) io.stdout.write(`\n${runLines(run).join('\n')}\n`);
}

/** A check: when, its run, its summary, then each change with before, after and sources. */
function runLines(run: WatchRun): string[] {
  const lines = [
    `check ${run.id} · ${run.status} · ${when(run.startedAt)}${run.runId ? ` · run ${run.runId}` : ''}`,
    `  ${run.summary}`,
  ];
  for (const change of run.changes) lines.push(...changeLines(change));
  return lines;
}

function changeLines(change: ClaimChange): string[] {
  if (change.kind === 'unchanged') return [];
  const lines: string[] = [];
  if (change.kind === 'changed') {
    lines.push(`  ~ changed  before: ${change.before?.text}`, `             after:  ${change.after?.text}`);
  } else if (change.kind === 'new') lines.push(`  + new      ${change.after?.text}`);
  else lines.push(`  - removed  ${change.before?.text}`);
  for (const [side, claim] of [
    ['before', change.before],
    ['after', change.after],
  ] as const)
    for (const source of claim?.sources ?? [])
      lines.push(`      ${side} source: ${source.url} “${clipLine(source.quote, 160)}”`);
  return lines;
}
