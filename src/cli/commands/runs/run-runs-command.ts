import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { ConfigError, InputError } from '../../../errors/index.js';
import type { AgentEvent } from '../../../events/agent-events.js';
import type { DeepSearchResult } from '../../../events/agent-types.js';
import { isOrphaned } from '../../../runs/resume-target.js';
import { runMarkdown } from '../../../runs/run-markdown.js';
import type { RunRecord } from '../../../runs/run-record.js';
import { createRunStore, type RunStore } from '../../../runs/run-store.js';
import type { CliIo } from '../../io/cli-io.js';
import { clipLine, createTerminal, formatTokens } from '../../io/terminal-style.js';
import { renderResultText, resultJson } from '../../output/render-result.js';
import { createProgressRenderer } from '../../progress/progress-renderer.js';
import { sqliteLoaderFrom } from '../../setup/create-cli-runtime.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import type { RunsAction, RunsCommandFlags } from './runs-command.js';

export interface RunsCommandInput {
  action: RunsAction;
  id: string | undefined;
  flags: RunsCommandFlags;
  settingFlags: Record<string, unknown>;
}

/** The run store the CLI's config names (opened on first use; the caller closes it). */
export function openCliRunStore(io: CliIo, config: DeepSearchConfig): RunStore {
  if (!config.runs.enabled || !config.runs.file)
    throw new ConfigError('the run store is off (--no-runs or DEEPSEARCH_NO_RUNS): no runs are kept');
  return createRunStore({
    file: config.runs.file,
    retention: config.runs.retention,
    loadDriver: sqliteLoaderFrom(io),
  });
}

/** A run by its id or a unique prefix of it, or a one-line error saying how to find one. */
export function findRun(store: RunStore, id: string): RunRecord {
  const record = store.get(id) ?? store.get(store.resolveId(id) ?? '');
  if (!record)
    throw new InputError(`no run '${clipLine(id, 60)}' (deepsearch runs list shows the runs kept)`);
  return record;
}

/** `deepsearch runs list|show|export|delete` and `deepsearch replay`. */
export async function runRunsCommand(io: CliIo, input: RunsCommandInput): Promise<void> {
  const config = loadCliConfig(io, input.settingFlags, input.flags.config);
  const store = openCliRunStore(io, config);
  try {
    if (input.action === 'list') return listRuns(io, store, input.flags);
    const record = findRun(store, input.id ?? '');
    if (input.action === 'show') return showRun(io, record, input.flags.json ?? false);
    if (input.action === 'export') return exportRun(io, store, record, input.flags.format ?? 'md');
    if (input.action === 'replay') return replayRun(io, store, record, input.flags.json ?? false);
    // A run another process (an ask, a server) is still running would go on writing to a deleted run.
    if ((record.status === 'running' || record.status === 'queued') && !isOrphaned(record))
      throw new InputError(
        `run ${record.id} is still running (process ${record.pid}): stop it first, then delete it`,
        { code: 'run_running' },
      );
    store.delete(record.id);
    io.stderr.write(`deepsearch: deleted run ${record.id}\n`);
  } finally {
    store.close();
  }
}

/** What a run is now: a run whose process is gone is `interrupted` (resume it), not running. */
function statusOf(record: Pick<RunRecord, 'status' | 'pid'>): string {
  return isOrphaned(record) ? 'interrupted' : record.status;
}

function listRuns(io: CliIo, store: RunStore, flags: RunsCommandFlags): void {
  const limit = flags.limit === undefined ? 20 : Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new InputError(
      `--limit must be a whole number from 1 to 10000 (got "${clipLine(String(flags.limit), 20)}")`,
    );
  const { runs } = store.list({ limit });
  if (flags.json) {
    // As `runs show --json` and the text list say it: a run whose process is gone is interrupted.
    io.stdout.write(
      `${JSON.stringify(
        runs.map((run) => ({ ...run, status: statusOf(run) })),
        null,
        2,
      )}\n`,
    );
    return;
  }
  if (runs.length === 0) {
    io.stdout.write('no runs kept yet: deepsearch ask "..." records one\n');
    return;
  }
  const terminal = createTerminal(io.stdout, io.env);
  const row = (id: string, when: string, mode: string, status: string, tokens: string, question: string) =>
    `${id.padEnd(12)}  ${when.padEnd(16)}  ${mode.padEnd(8)}  ${status.padEnd(11)} ${tokens.padStart(7)}  ${question}`;
  terminal.write(terminal.style('dim', row('ID', 'CREATED', 'MODE', 'STATUS', 'TOKENS', 'QUESTION')));
  for (const run of runs) {
    const when = new Date(run.createdAt).toISOString().slice(0, 16).replace('T', ' ');
    const tokens = run.totalTokens === null ? '-' : formatTokens(run.totalTokens);
    // An evaluation's question is a search run; saying so tells a dataset's hundreds of runs apart.
    const mode = run.evaluation ? 'eval' : run.mode;
    terminal.write(
      row(
        run.id.slice(0, 12),
        when,
        mode,
        statusOf(run),
        tokens,
        clipLine(run.question, terminal.width - 62),
      ),
    );
  }
}

function showRun(io: CliIo, record: RunRecord, json: boolean): void {
  if (json) {
    io.stdout.write(`${JSON.stringify({ ...record, status: statusOf(record) }, null, 2)}\n`);
    return;
  }
  const terminal = createTerminal(io.stdout, io.env);
  const lines = [
    `run       ${record.id}`,
    `status    ${statusOf(record)}${checkpointNote(record)}`,
    `source    ${record.source} · mode ${record.mode}`,
    `created   ${new Date(record.createdAt).toISOString()}`,
    ...(record.finishedAt ? [`finished  ${new Date(record.finishedAt).toISOString()}`] : []),
    `question  ${record.question}`,
    ...usageLines(record),
    ...(record.error ? [`error     ${record.error.message}`] : []),
  ];
  for (const line of lines) terminal.write(line);
  if (record.result?.answer)
    terminal.write(`\n${renderResultText(record.result as unknown as DeepSearchResult, terminal)}`);
  else if (typeof record.result?.markdown === 'string') terminal.write(`\n${record.result.markdown}`);
}

/** Where a run can go on from: a deep search's last step, a research task's sections gathered. */
function checkpointNote(record: RunRecord): string {
  if (record.checkpointStep === null) return '';
  return record.mode === 'research'
    ? ` (checkpoint after ${record.checkpointStep} section(s) gathered)`
    : ` (checkpoint after step ${record.checkpointStep})`;
}

function usageLines(record: RunRecord): string[] {
  const usage = record.usage;
  if (!usage) return [];
  const cost = (value: number | null) => (value === null ? 'cost unknown' : `$${value.toFixed(4)}`);
  return [
    `usage     ${formatTokens(usage.totalTokens)} tokens (${formatTokens(usage.promptTokens)} in, ${formatTokens(usage.completionTokens)} out) · ${cost(usage.costUsd)}`,
    ...Object.entries(usage.byRole).map(
      ([role, used]) =>
        `  ${role.padEnd(10)} ${String(used!.calls).padStart(3)} calls  ${formatTokens(used!.totalTokens).padStart(7)} tokens  ${cost(used!.costUsd)}`,
    ),
  ];
}

function exportRun(io: CliIo, store: RunStore, record: RunRecord, format: string): void {
  if (format === 'json') {
    io.stdout.write(`${JSON.stringify({ run: record, events: store.events(record.id) }, null, 2)}\n`);
    return;
  }
  if (format !== 'md') throw new InputError(`--format must be md or json (got "${clipLine(format, 20)}")`);
  io.stdout.write(runMarkdown(record, store.events(record.id)));
}

/** The run's progress from its stored events through the same renderer as ask, then its answer. */
function replayRun(io: CliIo, store: RunStore, record: RunRecord, json: boolean): void {
  const events = store.events(record.id);
  if (!json) {
    const render = createProgressRenderer(createTerminal(io.stderr, io.env));
    for (const event of events) render(event);
  }
  // A research task's sections end with run-end events of their own: its result is the report.
  if (record.mode === 'research') {
    replayReport(io, record, events, json);
    return;
  }
  const result = events.findLast(
    (event): event is Extract<AgentEvent, { type: 'run-end' }> => event.type === 'run-end',
  )?.result;
  if (!result) {
    io.stderr.write(
      `deepsearch: run ${record.id} has no answer (${statusOf(record)})${record.checkpointStep !== null ? `: deepsearch resume ${record.id} goes on with it` : ''}\n`,
    );
    return;
  }
  if (json) io.stdout.write(`${resultJson(result)}\n`);
  else io.stdout.write(`\n${renderResultText(result, createTerminal(io.stdout, io.env))}\n`);
}

function replayReport(io: CliIo, record: RunRecord, events: readonly AgentEvent[], json: boolean): void {
  const report = events.findLast(
    (event): event is Extract<AgentEvent, { type: 'research-end' }> => event.type === 'research-end',
  )?.report;
  if (!report) {
    io.stderr.write(
      `deepsearch: run ${record.id} has no report (${statusOf(record)})${record.checkpointStep !== null ? `: deepsearch resume ${record.id} goes on with it` : ''}\n`,
    );
    return;
  }
  io.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : report.markdown);
}
