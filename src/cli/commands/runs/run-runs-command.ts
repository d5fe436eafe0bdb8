import { InputError } from '../../../core/errors/index.js';
import type { AgentEvent } from '../../../events/agent-events.js';
import type { DeepSearchResult } from '../../../events/deep-search-result.js';
import { citationFormat } from '../../../runs/citation-export.js';
import { runMarkdown } from '../../../runs/run-markdown.js';
import type { RunRecord } from '../../../runs/run-record.js';
import type { AsyncRunStore } from '../../../scale/async-run-store.js';
import type { CliIo } from '../../io/cli-io.js';
import { clipLine, createTerminal, formatTokens } from '../../io/terminal-style.js';
import { renderResultText, resultJson } from '../../output/render-result.js';
import { createProgressRenderer } from '../../progress/progress-renderer.js';
import { type CliRuns, findRun, openCliRuns } from '../../setup/cli-runs.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import { printEvidence, printSource } from './evidence-output.js';
import type { RunsAction, RunsCommandFlags } from './runs-command.js';

export interface RunsCommandInput {
  action: RunsAction;
  id: string | undefined;
  /** `runs source <id> <n>`: the footnote. */
  n?: string;
  flags: RunsCommandFlags;
  settingFlags: Record<string, unknown>;
}

/**
 * `deepsearch runs list|show|export|evidence|source|delete` and `deepsearch replay`: on this machine's runs, or
 * in queue mode the deployment's (cli-runs.ts).
 */
export async function runRunsCommand(io: CliIo, input: RunsCommandInput): Promise<void> {
  // A bad --format is said before any store is opened.
  if (input.action === 'evidence' && input.flags.format !== undefined)
    citationFormat(input.flags.format, '--format');
  const config = loadCliConfig(io, input.settingFlags, input.flags.config);
  const runs = await openCliRuns(io, config);
  const { store } = runs;
  try {
    if (input.action === 'list') return await listRuns(io, runs, input.flags);
    const record = await findRun(store, input.id ?? '');
    const status = await runs.statusOf(record);
    if (input.action === 'show') return showRun(io, record, status, input.flags.json ?? false);
    if (input.action === 'export') return await exportRun(io, store, record, input.flags.format ?? 'md');
    if (input.action === 'evidence') return await printEvidence(io, store, record, input.flags);
    if (input.action === 'source') return await printSource(io, store, record, input.n ?? '');
    if (input.action === 'replay')
      return replayRun({
        io,
        record,
        status,
        events: await store.events(record.id),
        json: input.flags.json ?? false,
      });
    // A run another process (an ask, a server, a worker) is still running would go on writing to a deleted run.
    if (status === 'running' || status === 'queued')
      throw new InputError(
        runs.shared
          ? `run ${record.id} is still ${status} on the deployment: cancel it first (DELETE /v1/research/${record.id}), then delete it`
          : `run ${record.id} is still running (process ${record.pid}): stop it first, then delete it`,
        { code: 'run_running' },
      );
    await store.delete(record.id);
    io.stderr.write(`deepsearch: deleted run ${record.id}\n`);
  } finally {
    await runs.close();
  }
}

async function listRuns(io: CliIo, runs: CliRuns, flags: RunsCommandFlags): Promise<void> {
  const limit = flags.limit === undefined ? 20 : Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new InputError(
      `--limit must be a whole number from 1 to 10000 (got "${clipLine(String(flags.limit), 20)}")`,
    );
  const listed = (await runs.store.list({ limit })).runs;
  // As `runs show` says it: a run whose process (or worker) is gone is interrupted.
  const statuses = await Promise.all(listed.map((run) => runs.statusOf(run)));
  if (flags.json) {
    io.stdout.write(
      `${JSON.stringify(
        listed.map((run, index) => ({ ...run, status: statuses[index] })),
        null,
        2,
      )}\n`,
    );
    return;
  }
  if (listed.length === 0) {
    io.stdout.write('no runs kept yet: deepsearch ask "..." records one\n');
    return;
  }
  const terminal = createTerminal(io.stdout, io.env);
  const row = (id: string, when: string, mode: string, status: string, tokens: string, question: string) =>
    `${id.padEnd(12)}  ${when.padEnd(16)}  ${mode.padEnd(8)}  ${status.padEnd(11)} ${tokens.padStart(7)}  ${question}`;
  terminal.write(terminal.style('dim', row('ID', 'CREATED', 'MODE', 'STATUS', 'TOKENS', 'QUESTION')));
  for (const [index, run] of listed.entries()) {
    const when = new Date(run.createdAt).toISOString().slice(0, 16).replace('T', ' ');
    const tokens = run.totalTokens === null ? '-' : formatTokens(run.totalTokens);
    // An evaluation's question is a search run; saying so tells a dataset's hundreds of runs apart.
    const mode = run.evaluation ? 'eval' : run.mode;
    terminal.write(
      row(
        run.id.slice(0, 12),
        when,
        mode,
        statuses[index]!,
        tokens,
        clipLine(run.question, terminal.width - 62),
      ),
    );
  }
}

function showRun(io: CliIo, record: RunRecord, status: string, json: boolean): void {
  if (json) {
    io.stdout.write(`${JSON.stringify({ ...record, status }, null, 2)}\n`);
    return;
  }
  const terminal = createTerminal(io.stdout, io.env);
  const lines = [
    `run       ${record.id}`,
    `status    ${status}${checkpointNote(record)}`,
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

async function exportRun(io: CliIo, store: AsyncRunStore, record: RunRecord, format: string): Promise<void> {
  if (format !== 'md' && format !== 'json')
    throw new InputError(`--format must be md or json (got "${clipLine(format, 20)}")`);
  const events = await store.events(record.id);
  if (format === 'json') io.stdout.write(`${JSON.stringify({ run: record, events }, null, 2)}\n`);
  else io.stdout.write(runMarkdown(record, events));
}

/** A stored run to replay: its record, what it is now, its events. */
interface Replay {
  io: CliIo;
  record: RunRecord;
  status: string;
  events: readonly AgentEvent[];
  json: boolean;
}

/** The run's progress from its stored events through the same renderer as ask, then its answer. */
function replayRun(replay: Replay): void {
  const { io, record, status, events, json } = replay;
  if (!json) {
    const render = createProgressRenderer(createTerminal(io.stderr, io.env));
    for (const event of events) render(event);
  }
  // A research task's sections end with run-end events of their own: its result is the report.
  if (record.mode === 'research') {
    replayReport(replay);
    return;
  }
  const result = events.findLast(
    (event): event is Extract<AgentEvent, { type: 'run-end' }> => event.type === 'run-end',
  )?.result;
  if (!result) {
    io.stderr.write(
      `deepsearch: run ${record.id} has no answer (${status})${record.checkpointStep !== null ? `: deepsearch resume ${record.id} goes on with it` : ''}\n`,
    );
    return;
  }
  if (json) io.stdout.write(`${resultJson(result)}\n`);
  else io.stdout.write(`\n${renderResultText(result, createTerminal(io.stdout, io.env))}\n`);
}

function replayReport({ io, record, status, events, json }: Replay): void {
  const report = events.findLast(
    (event): event is Extract<AgentEvent, { type: 'research-end' }> => event.type === 'research-end',
  )?.report;
  if (!report) {
    io.stderr.write(
      `deepsearch: run ${record.id} has no report (${status})${record.checkpointStep !== null ? `: deepsearch resume ${record.id} goes on with it` : ''}\n`,
    );
    return;
  }
  io.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : report.markdown);
}
